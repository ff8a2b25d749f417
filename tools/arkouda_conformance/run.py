"""Runs Arkouda's own test files against Atoll through the ``arkouda`` alias and writes a
per-file table (collected, passed, failed, skipped, xfail) for each locale count.

    python tools/arkouda_conformance/run.py --arkouda /path/to/arkouda-checkout \\
        [--files core.txt | FILE ...] [--locales 1,2,4] [--backend local|mpi] \\
        [--out docs/arkouda-conformance.md] [--json results.json]

The checkout is Arkouda's (fetched elsewhere, never committed here); its files run unchanged.
Their conftest expects an Arkouda server and Chapel; this runner gives it stand-ins that
describe the Atoll job instead: ``ARKOUDA_RUNNING_MODE=CLIENT`` (no server to start), an
``arkouda_server --about`` that reports a multi-locale build, a ``chpl`` that reports no
sanitizers, and a ServerModules list (``modules.txt``) naming the modules whose operations
Atoll has. ``--nl`` is the locale count (``ATOLL_LOCALES``, or the ``mpiexec -n`` count).
It needs pytest, pytest-env and scipy in the interpreter that runs it (``make build`` puts
them in ``.venv``).
"""

import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def _stubs(tmp):
    """The stand-ins for Arkouda's server binary and Chapel's tools, in ``tmp``."""
    home = os.path.join(tmp, "home")
    bin_ = os.path.join(tmp, "bin")
    chpl_home = os.path.join(tmp, "chpl")
    os.makedirs(home)
    os.makedirs(bin_)
    os.makedirs(os.path.join(chpl_home, "util", "chplenv"))
    scripts = {
        os.path.join(home, "arkouda_server"): "print('CHPL_COMM: atoll (an Atoll job, no server)')\n",
        os.path.join(bin_, "chpl"): f"print({chpl_home!r})\n",
        os.path.join(chpl_home, "util", "chplenv", "chpl_sanitizers.py"): "print('none')\n",
    }
    for path, body in scripts.items():
        with open(path, "w") as f:
            f.write(f"#!{sys.executable}\n{body}")
        os.chmod(path, 0o755)
    mods = os.path.join(tmp, "ServerModules.cfg")
    shutil.copy(os.path.join(HERE, "modules.txt"), mods)
    return home, bin_, mods


def _files(args):
    out = []
    for f in args.files or [os.path.join(HERE, "core.txt")]:
        if f.endswith(".txt"):
            p = f if os.path.exists(f) else os.path.join(HERE, f)
            with open(p) as fh:
                out += [line.strip() for line in fh if line.strip() and not line.startswith("#")]
        else:
            out.append(f)
    return out


def _parse(xml_path):
    """Counts of a JUnit XML report, and the reasons of skips and the first failures."""
    c = collections.Counter()
    reasons = collections.Counter()
    failures = []
    if not os.path.exists(xml_path):
        return c, reasons, failures
    root = ET.parse(xml_path).getroot()
    for tc in root.iter("testcase"):
        c["collected"] += 1
        kids = {k.tag: k for k in tc}
        if "failure" in kids or "error" in kids:
            k = kids.get("failure", kids.get("error"))
            if tc.get("name", "") == "" and tc.get("classname", "") == "":
                c["errors"] += 1
            c["failed"] += 1
            msg = (k.get("message") or "").splitlines()[0][:160] if k.get("message") else k.tag
            failures.append(f"{tc.get('classname', '')}::{tc.get('name', '')}: {msg}")
        elif "skipped" in kids:
            k = kids["skipped"]
            if k.get("type") == "pytest.xfail":
                c["xfail"] += 1
            else:
                c["skipped"] += 1
                reasons[_reason(k.get("message") or "")] += 1
        else:
            c["passed"] += 1
    return c, reasons, failures


def _reason(msg):
    m = msg.lower()
    if "max_array_dims" in m or "rank" in m:
        return "needs rank >= 2 arrays"
    if "nl" in m and "server with" in m:
        return "needs another locale count"
    if "chapel module" in m:
        return "needs a Chapel module Atoll lacks"
    return re.sub(r"\s+", " ", msg)[:80]


def run_file(ark, f, nl, backend, env, timeout):
    fd, xml = tempfile.mkstemp(suffix=".xml")
    os.close(fd)
    os.unlink(xml)
    cmd = [
        sys.executable,
        "-m",
        "atoll.arkouda",
        "-m",
        "pytest",
        "-c",
        os.path.join(ark, "pytest.ini"),
        "--rootdir",
        ark,
        "-p",
        "no:cacheprovider",
        "-o",
        "log_file_level=WARNING",
        "-q",
        "--no-header",
        "-rN",
        f"--nl={nl}",
        f"--junitxml={xml}",
        os.path.join(ark, f),
    ]
    if backend == "mpi":
        mpiexec = (
            os.environ.get("ATOLL_MPIEXEC")
            or shutil.which("mpiexec")
            or os.path.join(os.path.dirname(sys.executable), "mpiexec")
        )
        cmd = [mpiexec, "-n", str(nl)] + cmd
    t0 = time.time()
    try:
        p = subprocess.run(cmd, cwd=ark, env=env, capture_output=True, text=True, timeout=timeout)
        tail = (p.stdout + p.stderr)[-3000:]
    except subprocess.TimeoutExpired as e:
        tail = f"timed out after {timeout} s\n" + (
            (e.stdout or b"")[-2000:].decode(errors="replace")
            if isinstance(e.stdout, bytes)
            else (e.stdout or "")[-2000:]
        )
    secs = time.time() - t0
    c, reasons, failures = _parse(xml)
    if os.path.exists(xml):
        os.unlink(xml)
    loaded = not (
        c["collected"] <= 1
        and c["failed"] == 1
        and ("ImportError" in tail or "Error collecting" in tail or "error" in tail.lower() and c["passed"] == 0)
    )
    return {
        "file": f,
        "locales": nl,
        "backend": backend,
        "seconds": round(secs, 1),
        "loaded": loaded and c["collected"] > 0,
        **{k: c[k] for k in ("collected", "passed", "failed", "skipped", "xfail")},
        "skip_reasons": dict(reasons),
        "failures": failures[:200],
        "tail": tail if not c["collected"] else "",
    }


def rate(r):
    """Passed (or Arkouda's own xfails) among the tests that ran: skipped ones are the tests
    that need rank >= 2, another locale count or a module Atoll lacks, or that Arkouda skips."""
    ran = r["passed"] + r["failed"] + r["xfail"]
    return 100.0 * (r["passed"] + r["xfail"]) / ran if ran else 0.0


def table(results, locales):
    by = collections.defaultdict(dict)
    for r in results:
        by[r["file"]][r["locales"]] = r
    lines = [
        "| file | " + " | ".join(f"{n} locale{'s' if n > 1 else ''}" for n in locales) + " |",
        "| --- | " + " | ".join("---" for _ in locales) + " |",
    ]
    for f, per in by.items():
        cells = []
        for n in locales:
            r = per.get(n)
            if r is None:
                cells.append("")
            elif not r["loaded"]:
                cells.append("does not load")
            else:
                cells.append(
                    f"{r['collected']} / {r['passed']} / {r['failed']} / {r['skipped']} / {r['xfail']} ({rate(r):.1f}%)"
                )
        lines.append(f"| `{f}` | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--arkouda", required=True, help="path to an Arkouda checkout (its tests/ and pytest.ini)")
    ap.add_argument("files", nargs="*", help="test files relative to the checkout, or .txt lists of them")
    ap.add_argument("--locales", default="2", help="comma-separated locale counts (default 2)")
    ap.add_argument("--backend", default="local", choices=["local", "mpi"])
    ap.add_argument("--timeout", type=int, default=3600, help="seconds per file and locale count")
    ap.add_argument("--json", help="write every result (with failures) to this JSON file")
    ap.add_argument("--out", help="write the table (markdown) to this file")
    args = ap.parse_args(argv)
    ark = os.path.abspath(args.arkouda)
    if not os.path.exists(os.path.join(ark, "tests", "conftest.py")):
        ap.error(f"{ark} is not an Arkouda checkout (no tests/conftest.py)")
    locales = [int(x) for x in args.locales.split(",")]
    files = _files(args)
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        home, bin_, mods = _stubs(tmp)
        for nl in locales:
            env = dict(os.environ)
            env.update(
                ARKOUDA_HOME=home,
                ARKOUDA_CONFIG_FILE=mods,
                ARKOUDA_RUNNING_MODE="CLIENT",
                ARKOUDA_DEFAULT_TEMP_DIRECTORY=tmp,
                PATH=bin_ + os.pathsep + env.get("PATH", ""),
            )
            if args.backend == "local":
                env["ATOLL_LOCALES"] = str(nl)
                env.pop("ATOLL_BACKEND", None)
            else:
                env["ATOLL_BACKEND"] = "mpi"
            for f in files:
                r = run_file(ark, f, nl, args.backend, env, args.timeout)
                results.append(r)
                status = (
                    "does not load"
                    if not r["loaded"]
                    else (
                        f"{r['collected']} collected, {r['passed']} passed, {r['failed']} failed, "
                        f"{r['skipped']} skipped, {r['xfail']} xfail ({rate(r):.1f}%)"
                    )
                )
                print(f"[{nl} locale(s)] {f}: {status} in {r['seconds']} s", flush=True)
                if args.json:  # after every file: a long run can be read while it goes on
                    with open(args.json, "w") as fh:
                        json.dump(results, fh, indent=1)
                if not r["loaded"] and r["tail"]:
                    print(r["tail"][-1500:], flush=True)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(results, fh, indent=1)
    t = table(results, locales)
    print(t)
    if args.out:
        with open(args.out, "w") as fh:
            fh.write(t + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
