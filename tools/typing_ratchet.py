#!/usr/bin/env python3
"""The typing ratchet of the package ``atoll``: which modules are typed and documented, and which not yet.

A module of python/atoll is *documented* when ruff's docstring and annotation rules (``D``,
``ANN``, NumPy convention) pass on it and every public function and method in it has a
NumPy-style docstring with the sections its signature calls for: ``Parameters`` when it takes
any, ``Returns`` (or ``Yields``) when it returns a value, and ``Examples``, which ``make test``
runs as doctests. It is *typed* when mypy (``strict``) passes on it; *converted* when both. The
modules not yet documented are listed in ruff's ``per-file-ignores`` in pyproject.toml (``D`` and
``ANN`` off), those not yet typed in a mypy override (``ignore_errors``), one line each, between
the markers ``BEGIN typing ratchet`` and ``END typing ratchet``: converting a module means
deleting its lines. ::

    python3 tools/typing_ratchet.py --check       # the lists are honest, the documented modules complete
    python3 tools/typing_ratchet.py --write       # rewrite both lists from what fails now
    python3 tools/typing_ratchet.py --converted   # the converted modules' files
    python3 tools/typing_ratchet.py --documented  # the files not in ruff's list (the doctests' list)
    python3 tools/typing_ratchet.py --counts      # modules converted, public names documented

``--check`` fails (exit status 1) when a listed module passes its tool (and, for ruff's list, has
its sections): its line is to go, for the lists are the work that remains and nothing else; or
when a documented module lacks a section. mypy and ruff themselves fail on an unlisted module.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "python" / "atoll"
PYPROJECT = ROOT / "pyproject.toml"
VENV_BIN = ROOT / ".venv" / "bin"
BEGIN = "# BEGIN typing ratchet"
END = "# END typing ratchet"
RUFF_CODES = '["D", "ANN"]'


def module_files() -> list[Path]:
    """The package's Python modules (not the native module's stub), sorted."""
    return sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def rel(p: Path) -> str:
    """``p`` relative to the repository root, with forward slashes."""
    return p.relative_to(ROOT).as_posix()


def module_name(p: Path) -> str:
    """The dotted name of the module in file ``p`` (``atoll.core.client``)."""
    parts = list(p.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def blocks(text: str) -> list[tuple[int, int]]:
    """The line ranges (first, last, exclusive) inside each pair of markers, in order."""
    lines = text.splitlines()
    out, start = [], None
    for i, line in enumerate(lines):
        s = line.strip()
        if s.startswith(BEGIN):
            start = i + 1
        elif s.startswith(END) and start is not None:
            out.append((start, i))
            start = None
    if len(out) != 2:
        sys.exit(f"{PYPROJECT}: expected two '{BEGIN}' ... '{END}' blocks (ruff, mypy), found {len(out)}")
    return out


def listed() -> tuple[list[str], list[str]]:
    """The files of ruff's list and the modules of mypy's list, as pyproject.toml has them."""
    text = PYPROJECT.read_text()
    lines = text.splitlines()
    (r0, r1), (m0, m1) = blocks(text)
    ruff = [m.group(1) for line in lines[r0:r1] if (m := re.match(r'\s*"([^"]+)"\s*=', line))]
    mypy = [m.group(1) for line in lines[m0:m1] if (m := re.match(r'\s*"([^"]+)"\s*,?', line))]
    return ruff, mypy


def ruff_failing() -> set[str]:
    """The package's files with a ``D`` or ``ANN`` violation when none is ignored."""
    ruff = VENV_BIN / "ruff"
    # The project's own per-file ignores stay; the ratchet's lines go.
    with open(PYPROJECT, "rb") as f:
        ignores = tomllib.load(f)["tool"]["ruff"]["lint"]["per-file-ignores"]
    ratchet, _ = listed()
    kept = {k: v for k, v in ignores.items() if k not in ratchet}
    table = ", ".join(f"{json.dumps(k)} = {json.dumps(v)}" for k, v in kept.items())
    cmd = [str(ruff), "check", rel(PACKAGE), "--output-format", "concise", "--no-cache"]
    cmd += ["--config", f"lint.per-file-ignores = {{{table}}}"]
    r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    pat = r"(python/atoll/[^:]+\.py):\d+:\d+: (D|ANN)\d"
    return {m.group(1) for line in r.stdout.splitlines() if (m := re.match(pat, line))}


def mypy_failing() -> set[str]:
    """The package's modules with a mypy error when none is ignored (pyproject.toml's configuration
    without the override of the ratchet)."""
    text = PYPROJECT.read_text()
    lines = text.splitlines()
    _, (m0, m1) = blocks(text)
    # The override's table, from its header to the line before the next table.
    head = max(i for i in range(m0) if lines[i].strip() == "[[tool.mypy.overrides]]")
    stop = next((i for i in range(m1, len(lines)) if lines[i].startswith("[")), len(lines))
    cfg = "\n".join(lines[:head] + lines[stop:]) + "\n"
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "pyproject.toml")
        Path(path).write_text(cfg)
        cmd = [str(VENV_BIN / "python"), "-m", "mypy", "--config-file", path, "--cache-dir", os.path.join(d, "c")]
        r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    bad = set()
    for line in r.stdout.splitlines():
        m = re.match(r"(python/atoll/[^:]+\.py):\d+: error", line)
        if m:
            bad.add(module_name(ROOT / m.group(1)))
    if r.returncode not in (0, 1) or (r.returncode == 1 and not bad):
        sys.exit(f"mypy did not run:\n{r.stdout}{r.stderr}")
    return bad


def _sections(doc: str) -> set[str]:
    """The NumPy-style section titles of a docstring (a title line underlined with dashes)."""
    lines = [line.strip() for line in doc.splitlines()]
    return {a for a, b in zip(lines, lines[1:]) if a and b and set(b) == {"-"} and len(b) >= len(a)}


def _needs(fn: ast.FunctionDef | ast.AsyncFunctionDef, method: bool) -> list[str]:
    """The sections that function ``fn``'s docstring lacks."""
    doc = ast.get_docstring(fn) or ""
    have = _sections(doc)
    args = fn.args
    params = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]
    if method and params and params[0] in ("self", "cls"):
        params = params[1:]
    if args.vararg:
        params.append(args.vararg.arg)
    if args.kwarg:
        params.append(args.kwarg.arg)
    want = ["Examples"]
    if params:
        want.append("Parameters")
    r = fn.returns
    returns_nothing = (isinstance(r, ast.Constant) and r.value is None) or (
        isinstance(r, ast.Name) and r.id in ("NoReturn", "Never")
    )
    if r is not None and not returns_nothing:
        if not ({"Returns", "Yields"} & have):
            return [w for w in want if w not in have] + ["Returns"]
    return [w for w in want if w not in have]


def _public_functions(tree: ast.Module) -> list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef, bool]]:
    """The public functions of a module and the public methods of its public classes (not
    properties, dunders or overload signatures)."""
    out: list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef, bool]] = []

    def skip(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
        names = {d.id if isinstance(d, ast.Name) else getattr(d, "attr", "") for d in fn.decorator_list}
        return fn.name.startswith("_") or bool(names & {"property", "overload", "setter"})

    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not skip(node):
            out.append((node.name, node, False))
        elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            for sub in node.body:
                if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef)) and not skip(sub):
                    out.append((f"{node.name}.{sub.name}", sub, True))
    return out


def missing_sections(p: Path) -> list[str]:
    """``name: section`` for each section a public function or method of file ``p`` lacks."""
    tree = ast.parse(p.read_text(), str(p))
    return [f"{name}: {s}" for name, fn, method in _public_functions(tree) for s in _needs(fn, method)]


def write() -> None:
    """Rewrite both lists: the modules that fail mypy, ruff or the sections now."""
    bad_ruff = ruff_failing()
    bad_mypy = mypy_failing()
    files = module_files()
    bad_doc = {rel(p) for p in files if missing_sections(p)}
    undocumented = [p for p in files if rel(p) in bad_ruff or rel(p) in bad_doc]
    untyped = [p for p in files if module_name(p) in bad_mypy]
    if "python/atoll/__init__.py" in {rel(p) for p in undocumented}:
        sys.exit("python/atoll/__init__.py fails ruff's D or ANN rules: fix it (its F401 line has the key)")
    text = PYPROJECT.read_text()
    lines = text.splitlines()
    (r0, r1), (m0, m1) = blocks(text)
    ruff_lines = [f'"{rel(p)}" = {RUFF_CODES}' for p in undocumented]
    mypy_lines = [f'    "{module_name(p)}",' for p in untyped]
    lines = lines[:r0] + ruff_lines + lines[r1:m0] + mypy_lines + lines[m1:]
    PYPROJECT.write_text("\n".join(lines) + "\n")
    print(f"of {len(files)} modules, {len(undocumented)} not yet documented, {len(untyped)} not yet typed")


def converted() -> list[Path]:
    """The files of the modules in neither list."""
    ruff, mypy = listed()
    return [p for p in module_files() if rel(p) not in ruff and module_name(p) not in mypy]


def documented() -> list[Path]:
    """The files of the modules not in ruff's list: those whose Examples run as doctests."""
    ruff, _ = listed()
    return [p for p in module_files() if rel(p) not in ruff]


def check() -> int:
    """1 when a list holds a module that passes, or a converted module lacks a section."""
    ruff, mypy = listed()
    bad_ruff = ruff_failing()
    bad_mypy = mypy_failing()
    status = 0
    for p in module_files():
        f, m = rel(p), module_name(p)
        gaps = missing_sections(p)
        if f in ruff and f not in bad_ruff and not gaps:
            print(f"{f}: passes ruff's D and ANN rules and has its sections: delete its ruff line")
            status = 1
        if f not in ruff:
            for gap in gaps:
                print(f"{f}: {gap} section missing")
                status = 1
        if m in mypy and m not in bad_mypy:
            print(f"{m}: passes mypy --strict: delete its mypy line")
            status = 1
    return status


def counts() -> None:
    """Modules converted, and public functions and methods with a docstring and with Examples."""
    conv = converted()
    files = module_files()
    names = documented = examples = 0
    for p in files:
        for _, fn, _ in _public_functions(ast.parse(p.read_text(), str(p))):
            names += 1
            doc = ast.get_docstring(fn)
            documented += bool(doc)
            examples += "Examples" in _sections(doc or "")
    print(f"modules converted: {len(conv)} of {len(files)}")
    print(f"public functions and methods: {names}, with a docstring: {documented}, with Examples: {examples}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--check", action="store_true")
    g.add_argument("--write", action="store_true")
    g.add_argument("--converted", action="store_true")
    g.add_argument("--documented", action="store_true")
    g.add_argument("--counts", action="store_true")
    a = ap.parse_args()
    if a.write:
        write()
    elif a.converted:
        print(" ".join(rel(p) for p in converted()))
    elif a.documented:
        print(" ".join(rel(p) for p in documented()))
    elif a.counts:
        counts()
    else:
        return check()
    return 0


if __name__ == "__main__":
    sys.exit(main())
