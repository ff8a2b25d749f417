"""The user guide's examples (docs/guide/*.md and the README) run as tests.

Each page's ```python blocks run in order in one namespace, on whatever backend and locale
count the suite runs on; a block whose info string says ``skip`` is shown, not run (it needs
a launcher or restarts the job). The ```c blocks are compiled (syntax only) against
include/atoll.h when a C compiler is there. The ```rust blocks are doctests of the atoll crate.
"""

import re
import shutil
import subprocess
import traceback
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs" / "guide").glob("*.md"))]
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
    assert cur is None, f"{path}: a code block is not closed"
    return out


def page_id(path):
    return str(path.relative_to(ROOT))


def test_the_guide_has_runnable_examples():
    runnable = {page_id(p): [b for b in blocks(p, "python") if "skip" not in b[1]] for p in PAGES}
    assert len(runnable["docs/guide/python.md"]) >= 8
    assert runnable["docs/guide/sharing.md"] and runnable["README.md"]


@pytest.mark.parametrize("path", PAGES, ids=page_id)
def test_python_examples(path):
    ns = {"__name__": "__guide__"}
    for line, words, code in blocks(path, "python"):
        if "skip" in words:
            continue
        try:
            # Padded so that tracebacks give the page's own line numbers.
            exec(compile("\n" * (line - 1) + code, page_id(path), "exec"), ns)
        except Exception:
            pytest.fail(f"the example at {page_id(path)}:{line} failed:\n{traceback.format_exc()}", pytrace=False)


C_BLOCKS = [(p, line, code) for p in PAGES for line, _, code in blocks(p, "c")]


@pytest.mark.parametrize("path,line,code", C_BLOCKS, ids=[f"{page_id(p)}:{n}" for p, n, _ in C_BLOCKS])
def test_c_examples_compile(path, line, code):
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        pytest.skip("no C compiler")
    r = subprocess.run(
        [cc, "-fsyntax-only", "-std=c11", "-Wall", "-Wextra", "-Werror", f"-I{ROOT / 'include'}", "-x", "c", "-"],
        input=code,
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, f"{page_id(path)}:{line} does not compile:\n{r.stderr}"
