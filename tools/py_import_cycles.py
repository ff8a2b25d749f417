#!/usr/bin/env python3
"""Import circles between the modules of the Python package ``atoll`` (python/atoll).

Module A *imports* module B at module level when a statement outside every function of A
(``import atoll.b``, ``from .b import f``, ``from . import b``) names B or an item of B. An
import of a module's own package, or of a package's own submodule, is containment, not a
dependency; ``_atoll`` (the compiled bindings) is a leaf. A strongly connected component of
more than one module is a circle: the script prints each one (with ``--edges``, the statements
that close it) and exits with status 1, so that a lint can run it::

    python3 tools/py_import_cycles.py              # the static check
    python3 tools/py_import_cycles.py --calls      # also list the imports inside functions
    .venv/bin/python tools/py_import_cycles.py --import   # also import in every order

An import inside a function runs when the function is called: it is how a data type's method
reaches the algorithm modules that take that type (``pdarray.argsort`` calls ``sorting``, which
builds on ``pdarray``). ``--calls`` lists those, by the module-level circle each one would
close if it moved to the top of its file.

``--import`` checks what the static view cannot: for every module, a fresh interpreter imports
it first and then every other module in a shuffled (seeded) order; any failure is printed and
makes the exit status 1. It needs the built package (``make build-python``).
"""

from __future__ import annotations

import argparse
import ast
import random
import subprocess
import sys
from pathlib import Path

from module_cycles import sccs  # Tarjan's components, shared with the crates' check

ROOT = Path(__file__).resolve().parent.parent / "python"


def modules(root: Path) -> dict[str, Path]:
    out = {}
    for p in sorted((root / "atoll").rglob("*.py")):
        name = ".".join(p.relative_to(root).with_suffix("").parts)
        out[name.removesuffix(".__init__")] = p
    return out


def is_package(mods: dict[str, Path], m: str) -> bool:
    return mods[m].name == "__init__.py"


def targets(mods: dict[str, Path], m: str, node: ast.stmt) -> list[str]:
    """The modules of the package that an import statement of module ``m`` names."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name in mods]
    assert isinstance(node, ast.ImportFrom)
    if node.level:
        base = m.split(".") if is_package(mods, m) else m.split(".")[:-1]
        base = base[: len(base) - (node.level - 1)]
        src = ".".join(base + ([node.module] if node.module else []))
    else:
        src = node.module or ""
    if src != "atoll" and not src.startswith("atoll."):
        return []
    out = []
    for a in node.names:
        if f"{src}.{a.name}" in mods:
            out.append(f"{src}.{a.name}")
        elif a.name != "_atoll" and src in mods:
            out.append(src)
    return out


def contains(a: str, b: str) -> bool:
    """True when one of the two is a package holding the other."""
    return a.startswith(b + ".") or b.startswith(a + ".")


def imports(mods: dict[str, Path]):
    """Module-level edges, call-time edges (``{a: {b: [line, ...]}}`` each), and the order in
    which importing runs modules: module-level edges with containment, and from each module to
    its package (its ``__init__`` runs first; the root's is always under way)."""
    top: dict[str, dict[str, list[int]]] = {m: {} for m in mods}
    runs: dict[str, set[str]] = {m: set() for m in mods}
    calls: dict[str, dict[str, list[int]]] = {m: {} for m in mods}
    for m, path in mods.items():
        tree = ast.parse(path.read_text(), str(path))

        def visit(node: ast.AST, in_function: bool) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                    visit(child, True)
                    continue
                if isinstance(child, (ast.Import, ast.ImportFrom)):
                    for t in targets(mods, m, child):
                        if not in_function and t != m:
                            runs[m].add(t)
                        if t != m and not contains(m, t):
                            (calls if in_function else top)[m].setdefault(t, []).append(child.lineno)
                visit(child, in_function)

        visit(tree, False)
        package = m.rpartition(".")[0]
        if package not in ("", "atoll"):
            runs[m].add(package)
    return top, calls, runs


def reaches(edges, a: str, b: str) -> bool:
    seen, todo = {a}, [a]
    while todo:
        v = todo.pop()
        if v == b:
            return True
        for w in edges.get(v, ()):
            if w not in seen:
                seen.add(w)
                todo.append(w)
    return False


def import_everywhere(mods: dict[str, Path]) -> int:
    names = sorted(mods)
    rng = random.Random(7)
    bad = 0
    for first in names:
        rest = [n for n in names if n != first]
        rng.shuffle(rest)
        code = "import importlib\nfor m in %r:\n    importlib.import_module(m)\n" % ([first] + rest)
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        if r.returncode:
            bad += 1
            last = (r.stderr.strip().splitlines() or ["?"])[-1]
            print(f"import of {first} first (then the rest, shuffled) failed: {last}")
    print(f"imported {len(names)} modules, each first in a fresh interpreter: {bad} failed")
    return bad


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--edges", action="store_true", help="the statements that close each circle")
    ap.add_argument("--calls", action="store_true", help="list the imports inside functions")
    ap.add_argument("--import", dest="dynamic", action="store_true", help="import every module in every order")
    args = ap.parse_args()
    mods = modules(ROOT)
    top, calls, runs = imports(mods)
    circles = [sorted(c) for c in sccs(sorted(mods), top) if len(c) > 1]
    for comp in circles:
        print("import circle at module level: " + " <-> ".join(comp))
        if args.edges:
            for a in comp:
                for b, lines in sorted(top[a].items()):
                    if b in comp:
                        print(f"  {mods[a].relative_to(ROOT)}:{lines[0]} imports {b}")
    n_calls = sum(len(v) for d in calls.values() for v in d.values())
    print(
        f"{len(mods)} modules, {sum(len(d) for d in top.values())} module-level imports between them, "
        f"{len(circles)} circles; {n_calls} imports inside functions"
    )
    if args.calls:
        for a in sorted(calls):
            for b, lines in sorted(calls[a].items()):
                why = "would close a circle" if reaches(runs, b, a) else "could move to the top"
                lines_s = ",".join(map(str, lines))
                print(f"  {mods[a].relative_to(ROOT)}:{lines_s} calls into {b} ({why})")
    bad = import_everywhere(mods) if args.dynamic else 0
    return 1 if circles or bad else 0


if __name__ == "__main__":
    sys.exit(main())
