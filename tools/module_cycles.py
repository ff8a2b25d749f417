#!/usr/bin/env python3
"""Import circles between the modules of each crate (a module is a file).

Within one crate, module A *depends on* module B when A names an item of B: a ``use`` of
``crate::...``, ``super::...``, ``self::...`` or of a child module, or such a path written in
the code (``crate::x::f()``). A path is resolved to the file that defines its item: through
``use``/``pub use`` re-exports (so a facade ``mod.rs`` that only re-exports its children
does not tie them together), and a ``#[macro_export]`` macro to the file of its
``macro_rules!``. A ``mod x;`` declaration is containment, not a dependency, and paths inside
an inline module (``mod tests { use super::*; }``) that stay in the file are not edges.

A strongly connected component of more than one module is a circle: its files cannot be
read, tested or moved one without the others. The script prints, for each crate, every such
component (its files, and with ``--edges`` the references that close it, with their lines),
and exits with status 1 when it found one (0 otherwise), so that a lint can run it::

    python3 tools/module_cycles.py                 # every crate under crates/
    python3 tools/module_cycles.py atoll-session   # some crates
    python3 tools/module_cycles.py --edges atoll-array
    python3 tools/module_cycles.py --rules         # also the layering rules below
    python3 tools/module_cycles.py --rule 'atoll-runtime:comm/!ctx/'

A *layering rule* ``CRATE:FROM!TO`` says that no module of CRATE whose file (relative to
``src``) starts with FROM may depend on one whose file starts with TO, directly or through
other modules: the lower layer must not reach the upper one. ``--rules`` checks the table
``RULES`` (the rules of this tree); ``--rule`` adds one. A broken rule prints the shortest
chain of references that breaks it (with their lines) and also makes the exit status 1.

The parser is textual (comments and strings stripped, ``use`` trees expanded, ``mod``
declarations followed from ``lib.rs`` or ``main.rs``, ``#[path]`` honoured), which is enough
for this tree's code; a crate's ``src/bin`` targets are crates of their own and are left out.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The layering rules of this tree, by crate: (lower, upper) file prefixes under `src/`.
RULES: dict[str, list[tuple[str, str]]] = {
    # The runtime's folders in layers: memory/, locale/, comm/ (the backends), ctx/ and
    # handler/, aggregate/, job/. The context depends on the backends, not the reverse: a
    # backend reaches the locale it serves through `comm::ServedLocale`, never `Ctx`, the
    # locale state, handlers or the job.
    "atoll-runtime": [
        ("memory/", "locale/"),
        ("memory/", "comm/"),
        ("locale/", "comm/"),
        ("comm/", "ctx/"),
        ("comm/", "handler/"),
        ("comm/", "aggregate/"),
        ("comm/", "job/"),
        ("ctx/", "aggregate/"),
        ("ctx/", "job/"),
        ("aggregate/", "job/"),
    ],
    # atoll-array's concept folders: storage/ at the bottom (the parts' memory), zip/ (walks
    # over parts) above it, then follow/ (followers), and the array with its reductions,
    # scans and irregular access above those.
    "atoll-array": [
        ("storage/", "array/"),
        ("storage/", "zip/"),
        ("storage/", "follow/"),
        ("zip/", "array/"),
        ("zip/", "follow/"),
        ("zip/", "reduce/"),
        ("zip/", "scan/"),
        ("zip/", "irregular/"),
        ("array/", "reduce/"),
        ("array/", "scan/"),
        ("array/", "irregular/"),
    ],
}

DEF_RE = re.compile(r"\b(?:fn|struct|enum|trait|type|const|static|union|mod)\s+(?:r#)?([A-Za-z_]\w*)")
MACRO_RE = re.compile(r"macro_rules!\s*([A-Za-z_]\w*)")
MOD_DECL_RE = re.compile(r"((?:#\[[^\]]*\]\s*)*)(?:pub(?:\([^)]*\))?\s+)?mod\s+([A-Za-z_]\w*)\s*;")
INLINE_MOD_RE = re.compile(r"\bmod\s+[A-Za-z_]\w*\s*\{")
USE_RE = re.compile(r"\b(pub(?:\([^)]*\))?\s+)?use\s+([^;]*);")
PATH_RE = re.compile(r"(?<![\w:])((?:crate|self|super)(?:\s*::\s*(?:super|[A-Za-z_]\w*))+)")


def strip(src: str) -> str:
    """The code of `src` with comments and string/char literals blanked (lengths kept, so
    positions and line numbers stay)."""
    out = []
    i, n = 0, len(src)

    def blank(s: str) -> str:
        return "".join(c if c == "\n" else " " for c in s)

    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            out.append(blank(src[i:j]))
            i = j
        elif src.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if src.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif src.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(blank(src[i:j]))
            i = j
        elif (m := re.match(r'b?r(#*)"', src[i:])) and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == "_")):
            end = '"' + m.group(1)
            j = src.find(end, i + m.end())
            j = n if j < 0 else j + len(end)
            out.append(blank(src[i:j]))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and src[j] != '"':
                j += 2 if src[j] == "\\" else 1
            out.append(blank(src[i : j + 1]))
            i = j + 1
        elif c == "'" and (m := re.match(r"'(?:\\(?:x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]*\}|.)|[^\\'\n])'", src[i:])):
            out.append(blank(m.group(0)))
            i += m.end()
        else:
            out.append(c)
            i += 1
    return "".join(out)


def expand_use(tree: str) -> list[tuple[list[str], str | None]]:
    """The leaves of a `use` tree: (path segments, the name it binds; None for a glob)."""
    tree = re.sub(r"\s+", "", tree)
    out: list[tuple[list[str], str | None]] = []

    def walk(prefix: list[str], s: str) -> None:
        if not s:
            return
        if "{" in s and (s.startswith("{") or s.find("{") < (s.find(",") if "," in s else len(s))):
            head, _, rest = s.partition("{")
            inner = rest[: rest.rfind("}")]
            base = prefix + [p for p in head.split("::") if p]
            depth, start = 0, 0
            for k, ch in enumerate(inner + ","):
                if ch == "{":
                    depth += 1
                elif ch == "}":
                    depth -= 1
                elif ch == "," and depth == 0:
                    walk(base, inner[start:k])
                    start = k + 1
            return
        s, _, alias = s.partition("@")  # `a::b as c`, marked `a::b@c` by use_leaves
        segs = [p for p in s.split("::") if p]
        if alias:
            out.append((prefix + segs, alias))
            return
        if segs and segs[-1] == "*":
            out.append((prefix + segs[:-1], None))
        elif segs and segs[-1] == "self":
            full = prefix + segs[:-1]
            out.append((full, full[-1] if full else None))
        elif segs:
            out.append((prefix + segs, segs[-1]))

    walk([], tree)
    return out


def use_leaves(text: str) -> list[tuple[int, bool, list[tuple[list[str], str | None]]]]:
    """Every `use` statement: (position, whether `pub`, its leaves)."""
    res = []
    for m in USE_RE.finditer(text):
        body = m.group(2)
        body = re.sub(r"\s+as\s+", "@", body)
        res.append((m.start(), bool(m.group(1)), expand_use(body)))
    return res


class Module:
    def __init__(self, path: tuple[str, ...], file: Path):
        self.path = path
        self.file = file
        self.raw = file.read_text(encoding="utf-8")
        self.text = strip(self.raw)
        self.children: set[str] = set()
        self.defs = set(DEF_RE.findall(self.text))
        self.macros = set(MACRO_RE.findall(self.text))
        self.inline = self._inline_blocks()
        self.uses = use_leaves(self.text)
        # the names this module's `use` statements bind (outside inline modules)
        self.imports: dict[str, list[str]] = {}
        self.globs: list[list[str]] = []

    def _inline_blocks(self) -> list[tuple[int, int]]:
        blocks = []
        t = self.text
        for m in INLINE_MOD_RE.finditer(t):
            depth, j = 0, m.end() - 1
            while j < len(t):
                if t[j] == "{":
                    depth += 1
                elif t[j] == "}":
                    depth -= 1
                    if depth == 0:
                        break
                j += 1
            blocks.append((m.start(), j))
        return blocks

    def depth(self, pos: int) -> int:
        return sum(1 for a, b in self.inline if a <= pos <= b)

    def line(self, pos: int) -> int:
        return self.raw.count("\n", 0, pos) + 1


def load_crate(src: Path) -> dict[tuple[str, ...], Module]:
    root = src / "lib.rs"
    if not root.exists():
        root = src / "main.rs"
    mods: dict[tuple[str, ...], Module] = {}

    def visit(path: tuple[str, ...], file: Path) -> None:
        m = Module(path, file)
        mods[path] = m
        here = file.parent if file.name in ("lib.rs", "main.rs", "mod.rs") else file.parent / file.stem
        for d in MOD_DECL_RE.finditer(m.text):
            if m.depth(d.start()):
                continue
            name = d.group(2)
            attrs = m.raw[d.start(1) : d.end(1)]
            p = re.search(r'#\[\s*path\s*=\s*"([^"]+)"\s*\]', attrs)
            if p:
                child = file.parent / p.group(1)
            elif (here / f"{name}.rs").exists():
                child = here / f"{name}.rs"
            else:
                child = here / name / "mod.rs"
            if child.exists():
                m.children.add(name)
                visit(path + (name,), child)

    visit((), root)
    return mods


def absolute(mod: Module, segs: list[str], pos: int, mods) -> list[str] | None:
    """The path from the crate's root that `segs` (as written at `pos` of `mod`) names, or None
    when it leaves the crate (another crate, std) or stays inside the same file."""
    if not segs:
        return None
    depth = mod.depth(pos)
    head = segs[0]
    if head == "crate":
        return segs[1:]
    if head in ("self", "super"):
        k = 0
        while k < len(segs) and segs[k] == "super":
            k += 1
        rest = segs[k:] if k else segs[1:]
        if k == 0:
            if depth:
                return None
            return list(mod.path) + rest
        if k <= depth:
            return None
        up = k - depth
        if up > len(mod.path):
            return None
        return list(mod.path[: len(mod.path) - up]) + rest
    if head in mod.children and not depth:
        return list(mod.path) + segs
    return None


def resolve(segs: list[str], mods, seen=None) -> tuple[str, ...] | None:
    """The file module that defines the item `segs` (a path from the crate's root)."""
    seen = seen or set()
    key = tuple(segs)
    if key in seen:
        return None
    seen.add(key)
    k = len(segs)
    while k > 0 and tuple(segs[:k]) not in mods:
        k -= 1
    owner = tuple(segs[:k])
    rest = segs[k:]
    m = mods[owner]
    if not rest:
        return owner
    name = rest[0]
    if name in m.defs or name in m.macros:
        return owner
    if name in m.imports:
        target = m.imports[name]
        r = resolve(target + rest[1:], mods, seen) if target is not None else None
        return r if r is not None else owner
    for g in m.globs:
        gm = tuple(g)
        if gm in mods and (name in mods[gm].defs or name in mods[gm].imports):
            r = resolve(g + rest, mods, seen)
            if r is not None:
                return r
    if not owner:
        # a #[macro_export] macro lives at the crate's root, wherever it is written
        for p, mm in mods.items():
            if name in mm.macros:
                return p
    return owner


def edges_of(mods, downward: bool = False) -> dict[tuple[str, ...], dict[tuple[str, ...], list[int]]]:
    # the names bound by each module's `use` statements (for following re-exports)
    for m in mods.values():
        for pos, _pub, leaves in m.uses:
            if m.depth(pos):
                continue
            for segs, name in leaves:
                a = absolute(m, segs, pos, mods)
                if name is None:
                    if a is not None:
                        m.globs.append(a)
                elif name != "_":
                    m.imports[name] = a  # None: bound from outside the crate
    edges: dict[tuple[str, ...], dict[tuple[str, ...], list[int]]] = {p: {} for p in mods}

    def add(m: Module, segs: list[str], pos: int) -> None:
        a = absolute(m, segs, pos, mods)
        if a is None:
            return
        t = resolve(a, mods)
        if t is not None and t != m.path:
            edges[m.path].setdefault(t, []).append(m.line(pos))

    for m in mods.values():
        spans = []
        for pos, _pub, leaves in m.uses:
            for segs, _name in leaves:
                if downward or segs[0] in ("crate", "super"):
                    add(m, segs, pos)
        for u in USE_RE.finditer(m.text):
            spans.append((u.start(), u.end()))
        for pm in PATH_RE.finditer(m.text):
            if any(a <= pm.start() < b for a, b in spans):
                continue
            segs = [s for s in re.split(r"\s*::\s*", pm.group(1)) if s]
            if downward or segs[0] in ("crate", "super"):
                add(m, segs, pm.start())
        if downward and m.children:
            kids = "|".join(sorted(m.children))
            for cm in re.finditer(rf"(?<![\w:])({kids})\s*::\s*([A-Za-z_]\w*)", m.text):
                if any(a <= cm.start() < b for a, b in spans) or m.depth(cm.start()):
                    continue
                add(m, [cm.group(1), cm.group(2)], cm.start())
    return edges


def sccs(nodes, edges) -> list[list]:
    """Tarjan's strongly connected components."""
    index: dict = {}
    low: dict = {}
    stack: list = []
    on: set = set()
    out: list[list] = []
    counter = [0]
    sys.setrecursionlimit(10000)

    def strong(v) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, {}):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(comp)

    for v in nodes:
        if v not in index:
            strong(v)
    return out


def broken_rule(mods, edges, name: str, lower: str, upper: str) -> list[str] | None:
    """The shortest chain of references from a module under `lower` to one under `upper`
    (``file:line`` hops, then the reached file), or None when there is none."""
    src = ROOT / "crates" / name / "src"

    def rel(p) -> str:
        return mods[p].file.relative_to(src).as_posix()

    starts = sorted(p for p in mods if rel(p).startswith(lower))
    if not starts or not any(rel(p).startswith(upper) for p in mods):
        return [f"(no file matches {lower if not starts else upper}: a stale rule)"]
    prev: dict = {p: None for p in starts}
    queue = list(starts)
    while queue:
        nxt = []
        for p in queue:
            for t, lines in sorted(edges[p].items()):
                if t in prev:
                    continue
                prev[t] = (p, min(lines))
                if rel(t).startswith(upper):
                    chain = [rel(t)]
                    while prev[t] is not None:
                        t, line = prev[t]
                        chain.append(f"{rel(t)}:{line}")
                    return chain[::-1]
                nxt.append(t)
        queue = nxt
    return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("crates", nargs="*", help="crate names (directories under crates/); all when none")
    ap.add_argument("--edges", action="store_true", help="print the references inside each circle")
    ap.add_argument(
        "--downward",
        action="store_true",
        help="also count a module's paths into its own children (`child::x`, `self::child::x`, "
        "`pub use child::X`), which are left out by default: a parent that declares and re-exports "
        "its children is their facade",
    )
    ap.add_argument("--rules", action="store_true", help="also check the layering rules of the table RULES")
    ap.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="CRATE:FROM!TO",
        help="also check that no module under FROM reaches one under TO (file prefixes under src/)",
    )
    args = ap.parse_args()
    names = args.crates or sorted(p.name for p in (ROOT / "crates").iterdir() if (p / "src").is_dir())
    rules: dict[str, list[tuple[str, str]]] = {}
    if args.rules:
        for crate, pairs in RULES.items():
            rules.setdefault(crate, []).extend(pairs)
    for spec in args.rule:
        crate, sep, rest = spec.partition(":")
        lower, bang, upper = rest.partition("!")
        if not (sep and bang and lower and upper):
            print(f"--rule {spec!r}: expected CRATE:FROM!TO", file=sys.stderr)
            return 2
        rules.setdefault(crate, []).append((lower, upper))
    found = 0
    broken = 0
    for name in names:
        src = ROOT / "crates" / name / "src"
        if not src.is_dir():
            print(f"{name}: no such crate", file=sys.stderr)
            return 2
        mods = load_crate(src)
        edges = edges_of(mods, args.downward)
        for lower, upper in rules.get(name, []):
            chain = broken_rule(mods, edges, name, lower, upper)
            if chain:
                broken += 1
                print(f"{name}: rule {lower}!{upper} broken: {' -> '.join(chain)}")
        comps = [sorted(c) for c in sccs(sorted(mods), edges) if len(c) > 1]
        if not comps:
            continue
        for comp in sorted(comps):
            found += 1
            files = [str(mods[p].file.relative_to(ROOT / "crates" / name)) for p in comp]
            print(f"{name}: circle of {len(comp)}: {' '.join(files)}")
            if args.edges:
                members = set(comp)
                for p in comp:
                    for t, lines in sorted(edges[p].items()):
                        if t in members:
                            f = mods[p].file.relative_to(ROOT / "crates" / name)
                            g = mods[t].file.relative_to(ROOT / "crates" / name)
                            ls = ",".join(str(x) for x in sorted(set(lines))[:6])
                            print(f"    {f}:{ls} -> {g}")
    if not found:
        print(f"no circles in {len(names)} crate(s)")
    checked = sum(len(rules.get(n, [])) for n in names)
    if checked and not broken:
        print(f"{checked} layering rule(s) hold")
    return 1 if found or broken else 0


if __name__ == "__main__":
    sys.exit(main())
