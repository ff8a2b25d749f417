#!/usr/bin/env python3
"""Imports between the modules of the Python package ``atoll`` (python/atoll): circles, upward
arrows, imports inside functions.

Module A *imports* module B when a statement of A names B or an item of B: ``import atoll.b``,
``from .b import f``, ``from . import b``, ``__import__("atoll.b")`` or
``importlib.import_module("atoll.b")``, at the top of the file or inside a function (an import
inside a function runs at the call: it is an arrow all the same). Importing ``atoll.a.b`` first
runs the package ``atoll/a/__init__.py`` when A is outside ``atoll.a``, so such an import is also
an arrow from A to the package ``atoll.a`` (and through it to everything its ``__init__``
imports). The root ``atoll/__init__.py`` is always under way when a module of the package runs,
so an arrow to it is an arrow to the top. Imports of other libraries (NumPy, pandas, pyarrow,
h5py, ...) and of the compiled bindings ``_atoll`` are not arrows; statements under
``if TYPE_CHECKING:`` do not run and are not arrows either.

The layers, lowest first (``LAYERS`` below; a module may import only modules of its own layer
or of lower ones)::

    foundation      the session and streams (_session, _stream), _version, errors (numpy.err),
                    progress, memory, core.client, core.logger, the registries
                    (core._registry, pandas._registry), _attach, history; the subpackages
                    atoll.numpy, atoll.pandas and atoll.core, whose __init__ imports none of
                    their modules (their layers interleave): their _namespace modules fill
                    them, run by the root
    dtypes          numpy.dtypes
    pdarray         numpy.pdarrayclass, numpy._nd (shapes, strided views), pandas._segfold
    strings         numpy.strings, numpy.char, pandas._hashing
    bigint          numpy._bigint
    elementwise     numpy.numeric, _keys
    creation        numpy.pdarraycreation, and what needs only the arrays and their creation
                    (apply, share, graph, core.infoclass, pandas.match[er],
                    numpy.timeclass, pandas.conversion)
    categorical     pandas.categorical (Categorical), pandas._concat (generic_concat)
    string groups   str_groupby
    sorting         numpy.sorting
    grouping        pandas.groupbyclass (GroupBy), pandas._bigint_groupby, groupby
    algorithms      numpy.pdarraymanipulation, numpy.manipulation_functions,
                    numpy.pdarraysetops, numpy.segarray (SegArray), numpy.random, stats,
                    pandas._sample, client_dtypes, plotting, scipy (its statistics, special
                    functions and sparse matrices)
    alignment       pandas._align, numpy.alignment, numpy.util, pandas.interop
    index, series, dataframe, join    the frames, one layer each, in this order
    pandas extension    pandas.accessor (Series.str/.dt), pandas.extension (pandas ExtensionArrays
                    and the .ak accessors of pandas objects; needs pandas)
    IO              io, hdf5, csv, core.registry, pandas.io, testing
    graph sharing   graph_share
    namespaces      the subpackages' _namespace modules; the _*_methods modules, where a
                    method of a lower type that calls a higher module is defined and set on
                    the type (``atoll._attach.attach``); the root ``atoll/__init__.py``
    array API       atoll.array_api (the Array API standard namespace), on the root's names

The script prints every circle (a strongly connected component of more than one module),
every upward arrow (a module importing one of a higher layer), every import of the package
inside a function, every import of a name from a subpackage that the root fills, and two
scars: a function whose body starts with a blank line, and a module imported twice at the top
of one file. Any of these makes the exit status 1, so that a lint
can run it::

    python3 tools/py_import_cycles.py              # the static check
    python3 tools/py_import_cycles.py --edges      # also the statements that close each circle
    .venv/bin/python tools/py_import_cycles.py --import   # also import in every order

``--import`` checks what the static view cannot: for every module, a fresh interpreter imports
it first and then every other module in a shuffled (seeded) order; any failure is printed and
makes the exit status 1. It needs the built package (``make build-python``).
"""

from __future__ import annotations

import argparse
import ast
import fnmatch
import random
import subprocess
import sys
from pathlib import Path

from module_cycles import sccs  # Tarjan's components, shared with the crates' check

ROOT = Path(__file__).resolve().parent.parent / "python"

# The layers, lowest first: (name, modules). A name with a "*" is a pattern (fnmatch) for the
# modules that no exact name places. A new module goes into the lowest layer that
# holds everything it imports.
LAYERS: list[tuple[str, list[str]]] = [
    (
        "foundation",
        [
            "atoll._session",
            "atoll._version",
            "atoll._stream",
            "atoll._io_errors",
            "atoll._optional",
            "atoll.progress",
            "atoll.memory",
            "atoll.arkouda",
            "atoll.core",
            "atoll.core.client",
            "atoll.core._registry",
            "atoll.core.logger",
            "atoll._attach",
            "atoll.numpy",
            "atoll.numpy.err",
            "atoll.pandas",
            "atoll.pandas._registry",
            "atoll.pandas.row",
            "atoll.pandas.io_util",
            "atoll.history",
        ],
    ),
    ("dtypes", ["atoll.numpy.dtypes"]),
    ("pdarray", ["atoll.numpy.pdarrayclass", "atoll.numpy._nd", "atoll.pandas._segfold"]),
    (
        "strings",
        ["atoll.numpy.strings", "atoll.numpy.char", "atoll.pandas._hashing"],
    ),
    ("bigint", ["atoll.numpy._bigint"]),
    ("elementwise", ["atoll.numpy.numeric", "atoll._keys"]),
    (
        "creation",
        [
            "atoll.numpy.pdarraycreation",
            "atoll.apply",
            "atoll.share",
            "atoll.graph",
            "atoll.core.infoclass",
            "atoll.pandas.match",
            "atoll.pandas.matcher",
            "atoll.numpy.timeclass",
            "atoll.pandas.conversion",
        ],
    ),
    ("categorical", ["atoll.pandas.categorical", "atoll.categorical", "atoll.pandas._concat"]),
    ("string groups", ["atoll.str_groupby"]),
    ("sorting", ["atoll.numpy.sorting"]),
    ("grouping", ["atoll.pandas._bigint_groupby", "atoll.pandas.groupbyclass", "atoll.groupby"]),
    (
        "algorithms",
        [
            "atoll.numpy.pdarraymanipulation",
            "atoll.numpy.manipulation_functions",
            "atoll.numpy.pdarraysetops",
            "atoll.numpy.segarray",
            "atoll.numpy.random",
            "atoll.stats",
            "atoll.pandas._sample",
            "atoll.client_dtypes",
            "atoll.plotting",
            "atoll.scipy",
            "atoll.scipy.*",
        ],
    ),
    ("alignment", ["atoll.pandas._align", "atoll.numpy.alignment", "atoll.numpy.util", "atoll.pandas.interop"]),
    ("index", ["atoll.pandas.index"]),
    ("series", ["atoll.pandas.series"]),
    ("dataframe", ["atoll.pandas.dataframe"]),
    ("join", ["atoll.pandas.join"]),
    ("pandas extension", ["atoll.pandas.accessor", "atoll.pandas.extension", "atoll.pandas.extension.*"]),
    (
        "IO",
        [
            "atoll.io",
            "atoll.hdf5",
            "atoll.csv",
            "atoll.core.registry",
            "atoll.pandas.io",
            "atoll.testing",
            "atoll.testing.*",
            "atoll.pandas.testing",
        ],
    ),
    ("graph sharing", ["atoll.graph_share"]),
    (
        "namespaces",
        ["atoll.*._namespace", "atoll._*_methods", "atoll.*._*_methods", "atoll._arkouda_shim.arkouda", "atoll"],
    ),
    ("array API", ["atoll.array_api", "atoll.array_api.*"]),
]


# The subpackages whose ``__init__`` imports none of their modules: the root fills their
# namespaces (``_namespace``), so no module may import a name from them (only their modules).
FACADES = {"atoll.numpy", "atoll.pandas", "atoll.core"}


def modules(root: Path) -> dict[str, Path]:
    out = {}
    for p in sorted((root / "atoll").rglob("*.py")):
        name = ".".join(p.relative_to(root).with_suffix("").parts)
        out[name.removesuffix(".__init__")] = p
    return out


def layer_of(mods: dict[str, Path]) -> dict[str, int]:
    """Each module's layer (its index in ``LAYERS``): its exact name, else the first pattern
    (``fnmatch``, ``*`` for any part) that matches it."""
    exact = {m: i for i, (_, names) in enumerate(LAYERS) for m in names if "*" not in m}
    wild = [(m, i) for i, (_, names) in enumerate(LAYERS) for m in names if "*" in m]
    out = {}
    for m in mods:
        if m in exact:
            out[m] = exact[m]
            continue
        for pattern, i in wild:
            if fnmatch.fnmatchcase(m, pattern):
                out[m] = i
                break
    return out


def is_package(mods: dict[str, Path], m: str) -> bool:
    return mods[m].name == "__init__.py"


def known(mods: dict[str, Path], name: str) -> str | None:
    """The module of the package that ``name`` (a dotted module path) is, or is inside."""
    while name and name not in mods:
        name = name.rpartition(".")[0]
    return name or None


def targets(mods: dict[str, Path], m: str, node: ast.AST) -> list[str]:
    """The modules of the package that an import of module ``m`` names."""
    if isinstance(node, ast.Call):  # __import__("atoll.x") / importlib.import_module("atoll.x")
        name = node.args[0].value
        return [known(mods, name)] if name == "atoll" or name.startswith("atoll.") else []
    if isinstance(node, ast.Import):
        return [known(mods, a.name) for a in node.names if a.name == "atoll" or a.name.startswith("atoll.")]
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
        elif a.name != "_atoll":
            out.append(known(mods, src))
    return out


def dynamic_import(node: ast.AST) -> bool:
    """``__import__("...")`` or ``importlib.import_module("...")`` with a constant name."""
    if not isinstance(node, ast.Call) or not node.args or not isinstance(node.args[0], ast.Constant):
        return False
    f = node.func
    named = (isinstance(f, ast.Name) and f.id == "__import__") or (
        isinstance(f, ast.Attribute) and f.attr == "import_module"
    )
    return named and isinstance(node.args[0].value, str)


def ancestors(m: str) -> list[str]:
    """The packages above ``m``, the root excepted: ``atoll.a.b.c`` -> ``atoll.a``, ``atoll.a.b``."""
    parts = m.split(".")
    return [".".join(parts[:i]) for i in range(2, len(parts))]


class Edge:
    def __init__(self, line: int, in_function: bool, via: str | None = None):
        self.line, self.in_function, self.via = line, in_function, via


def type_checking(node: ast.AST) -> bool:
    t = node.test if isinstance(node, ast.If) else None
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (
        isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING"
    )


def imports(mods: dict[str, Path]) -> tuple[dict[str, dict[str, list[Edge]]], list[str]]:
    """The arrows (``{a: {b: [Edge, ...]}}``) and the scars found on the way."""
    edges: dict[str, dict[str, list[Edge]]] = {m: {} for m in mods}
    scars: list[str] = []
    for m, path in mods.items():
        text = path.read_text()
        lines = text.splitlines()
        tree = ast.parse(text, str(path))
        rel = path.relative_to(ROOT)
        top_modules: dict[tuple, int] = {}

        def add(a: str, b: str, edge: Edge) -> None:
            if b != a:
                edges[a].setdefault(b, []).append(edge)

        def visit(node: ast.AST, in_function: bool) -> None:
            for child in ast.iter_child_nodes(node):
                if type_checking(child):
                    continue
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    j = child.lineno - 1  # the signature's last line: the first that ends in ":"
                    while j < child.body[0].lineno - 1 and not lines[j].split("#")[0].rstrip().endswith(":"):
                        j += 1
                    if j + 1 < child.body[0].lineno - 1 and not lines[j + 1].strip():
                        scars.append(f"{rel}:{j + 2}: the body of {child.name} starts with a blank line")
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                    visit(child, True)
                    continue
                if isinstance(child, (ast.Import, ast.ImportFrom)) or dynamic_import(child):
                    if not in_function and isinstance(child, (ast.Import, ast.ImportFrom)):
                        if isinstance(child, ast.Import):
                            key = tuple(a.name for a in child.names)
                        elif child.module is None:  # from . import a: module a
                            key = (child.level, ",".join(a.name for a in child.names))
                        else:
                            key = (child.level, child.module)
                        if key in top_modules and not (
                            isinstance(child, ast.ImportFrom) and child.module == "__future__"
                        ):
                            scars.append(
                                f"{rel}:{child.lineno}: imports {key[-1] or '.'} again (line {top_modules[key]})"
                            )
                        top_modules.setdefault(key, child.lineno)
                    if isinstance(child, ast.ImportFrom) and m != "atoll" and not m.endswith("._namespace"):
                        for t in targets(mods, m, child):
                            if t in FACADES:
                                scars.append(
                                    f"{rel}:{child.lineno}: imports names of {t}, which the root fills: "
                                    "import them from its modules"
                                )
                    for t in targets(mods, m, child):
                        add(m, t, Edge(child.lineno, in_function))
                        for p in ancestors(t):
                            if p in mods and not m.startswith(p + ".") and p != m:
                                add(m, p, Edge(child.lineno, in_function, via=t))
                visit(child, in_function)

        visit(tree, False)
    return edges, scars


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


def describe(mods: dict[str, Path], a: str, b: str, e: Edge) -> str:
    where = f"{mods[a].relative_to(ROOT)}:{e.line}"
    how = " (inside a function)" if e.in_function else ""
    via = f" (importing {e.via} runs its __init__)" if e.via else ""
    return f"{where} imports {b}{via}{how}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--edges", action="store_true", help="the statements that close each circle")
    ap.add_argument("--import", dest="dynamic", action="store_true", help="import every module in every order")
    args = ap.parse_args()
    mods = modules(ROOT)
    layer = layer_of(mods)
    edges, scars = imports(mods)
    bad = 0
    for m in sorted(set(mods) - set(layer)):
        print(f"{mods[m].relative_to(ROOT)}: in no layer (add it to LAYERS in {Path(__file__).name})")
        bad += 1
    circles = [sorted(c) for c in sccs(sorted(mods), edges) if len(c) > 1]
    for comp in circles:
        print(f"import circle of {len(comp)} modules: " + " <-> ".join(comp))
        if args.edges:
            for a in comp:
                for b, es in sorted(edges[a].items()):
                    if b in comp:
                        print("  " + describe(mods, a, b, es[0]))
    upward = [
        (a, b, e)
        for a in sorted(edges)
        for b, es in sorted(edges[a].items())
        for e in es[:1]
        if a in layer and b in layer and layer[b] > layer[a]
    ]
    for a, b, e in upward:
        print(f"upward: {describe(mods, a, b, e)} ({LAYERS[layer[a]][0]} < {LAYERS[layer[b]][0]})")
    inside = [(a, b, e) for a in sorted(edges) for b, es in sorted(edges[a].items()) for e in es if e.in_function]
    inside = [(a, b, e) for a, b, e in inside if e.via is None]
    for a, b, e in inside:
        print(f"inside a function: {describe(mods, a, b, e)}")
    for s in scars:
        print(f"scar: {s}")
    n_edges = sum(len(d) for d in edges.values())
    print(
        f"{len(mods)} modules, {n_edges} arrows between them, {len(circles)} circles "
        f"({sum(map(len, circles))} modules), {len(upward)} upward arrows, "
        f"{len(inside)} imports inside functions, {len(scars)} scars"
    )
    bad += len(circles) + len(upward) + len(inside) + len(scars)
    if args.dynamic:
        bad += import_everywhere(mods)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
