#!/usr/bin/env python3
"""Checks an installed atoll wheel from outside the source tree (``make test-wheel``).

Run it with the interpreter of a fresh virtual environment that holds the wheel::

    target/wheel-venv/bin/python tools/wheel_check.py core

``core`` expects the environment to have the wheel's core dependencies only (NumPy): it checks
that none of the optional libraries is importable (else the check proves nothing), that
``import atoll`` loads the installed package (not ``python/atoll``), that the extension needs
no shared library beyond the C runtime (HDF5 is built in), and then runs the README's and
docs/guide/python.md's Python examples in order in one namespace, as python/tests/test_guide.py
does, leaving out the blocks whose info string says ``skip`` or names an extra
(```` ```python pandas ````): those run under pytest once the extras are installed.
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import subprocess
import sys
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORE_PAGES = [ROOT / "README.md", ROOT / "docs" / "guide" / "python.md"]
# The libraries of the extras (pyproject.toml's optional-dependencies) and the suite's own.
OPTIONAL = ["pandas", "pyarrow", "h5py", "tables", "scipy", "polars", "pytest", "hypothesis"]
EXTRAS = {"pandas", "io"}
# Shared libraries a manylinux extension may need from the system (the C runtime and libgcc).
SYSTEM_LIBS = re.compile(r"^(libc|libm|libdl|librt|libpthread|libgcc_s|ld-linux-x86-64|ld-linux-aarch64)\.so")
FENCE = re.compile(r"^(\s*)```(.*)$")


def blocks(path, lang):
    """(first line number, info words, code) of every fenced block of ``lang`` in ``path``."""
    out, cur = [], None
    for no, line in enumerate(path.read_text().splitlines(), 1):
        m = FENCE.match(line)
        if cur is None:
            if m and m.group(2).strip():
                words = m.group(2).replace(",", " ").split()
                cur = (no + 1, words, len(m.group(1)), [])
        elif m and not m.group(2).strip():
            start, words, indent, body = cur
            if words[0] == lang:
                out.append((start, words[1:], "\n".join(l[indent:] for l in body) + "\n"))
            cur = None
        else:
            cur[3].append(line)
    if cur is not None:
        raise SystemExit(f"{path}: a code block is not closed")
    return out


def needed_libraries(path):
    """The DT_NEEDED entries of the shared object at ``path`` (through readelf when there)."""
    try:
        r = subprocess.run(["readelf", "-d", str(path)], capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", r.stdout)


def check_core():
    present = [name for name in OPTIONAL if importlib.util.find_spec(name) is not None]
    if present:
        raise SystemExit(f"the environment is not core-only: {present} importable")
    import atoll as ak

    where = Path(ak.__file__).resolve()
    if ROOT / "python" in where.parents:
        raise SystemExit(f"atoll was imported from the source tree ({where}), not from the wheel")
    if Path(sys.prefix).resolve() not in where.parents:
        raise SystemExit(f"atoll was imported from {where}, outside this environment ({sys.prefix})")
    ext = next(where.parent.glob("_atoll*.so"), None)
    if ext is not None:
        needed = needed_libraries(ext)
        if needed is not None:
            foreign = [lib for lib in needed if not SYSTEM_LIBS.match(lib)]
            if foreign:
                raise SystemExit(f"{ext.name} needs shared libraries beyond the C runtime: {foreign}")
            print(f"{ext.name}: {ext.stat().st_size / 2**20:.1f} MiB, needs {needed}")
    print(f"atoll {getattr(ak, '__version__', '')} from {where.parent}, {ak.num_locales()} locales")
    ran = 0
    for page in CORE_PAGES:
        ns = {"__name__": "__guide__"}
        name = str(page.relative_to(ROOT))
        for line, words, code in blocks(page, "python"):
            if "skip" in words or EXTRAS & set(words):
                continue
            try:
                exec(compile("\n" * (line - 1) + code, name, "exec"), ns)
            except Exception:
                raise SystemExit(f"the example at {name}:{line} failed:\n{traceback.format_exc()}") from None
            ran += 1
    if ran == 0:
        raise SystemExit("no example ran")
    print(f"{ran} examples of {', '.join(str(p.relative_to(ROOT)) for p in CORE_PAGES)} passed with NumPy alone")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("stage", choices=["core"])
    ap.parse_args()
    check_core()


if __name__ == "__main__":
    main()
