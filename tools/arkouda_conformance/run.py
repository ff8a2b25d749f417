"""Runs Arkouda's own test files against Atoll through the ``arkouda`` alias and writes a
per-file table (collected, passed, failed, skipped, xfail) for each locale count.

    python tools/arkouda_conformance/run.py --arkouda /path/to/arkouda-checkout \\
        [--files core.txt | all.txt | FILE ...] [--locales 1,2,4] [--backend local|mpi] \\
        [--out docs/arkouda-conformance.md] [--json results.json] [--jsonl series.jsonl] \\
        [--auto-locales] [--order tests] [--deadline SECONDS]

With ``--auto-locales`` each file also runs at the locale counts its own tests ask for: the
markers ``skip_if_nl_neq(n)``, ``skip_if_nl_eq(n)``, ``skip_if_nl_less_than(n)``,
``skip_if_nl_greater_than(n)`` and ``skipif`` conditions on ``pytest.nl`` are read from the
file, and for each condition that the ``--locales`` counts leave unmet the smallest of
1, 2, 4, 16 that meets it is added. A file's results at its counts are merged by test id:
a test passed when it passed (or was Arkouda's own xfail) at every count where it ran,
failed when it failed at one, and is skipped when it ran at none. Two rates are reported
per file and in total: passed / ran, and passed / collected (skips, and the tests of files
that do not load, count as not passing; a file that does not load counts the ``test_``
functions of its source as collected). ``--order tests`` runs the files with most tests
first (one ``--collect-only`` pass counts them); ``--deadline`` stops starting files after
that many seconds, so that a long run ends with what fitted. ``--load-only`` only imports
the files (one ``--collect-only`` pass per locale count) and reports what each collects, or
that it does not load (exit status 1 then).

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
import signal
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
    return list(dict.fromkeys(out))  # once each, in the order given


LOCALE_CHOICES = (1, 2, 4, 16)


def nl_conditions(path):
    """The locale-count conditions a test file states, as predicates on the count.

    Read from the source: Arkouda's ``skip_if_nl_*`` markers and ``skipif`` conditions on
    ``pytest.nl``; a test runs where its predicate holds."""
    try:
        with open(path) as fh:
            src = fh.read()
    except OSError:
        return []
    conds = []
    for kind, n in re.findall(r"skip_if_nl_(neq|eq|less_than|greater_than)\(\s*(\d+)\s*\)", src):
        n = int(n)
        conds.append(
            {
                "neq": lambda x, n=n: x == n,
                "eq": lambda x, n=n: x != n,
                "less_than": lambda x, n=n: x >= n,
                "greater_than": lambda x, n=n: x <= n,
            }[kind]
        )
    ops = {
        ">": lambda x, n: not x > n,
        ">=": lambda x, n: not x >= n,
        "<": lambda x, n: not x < n,
        "<=": lambda x, n: not x <= n,
        "==": lambda x, n: not x == n,
        "!=": lambda x, n: not x != n,
    }
    for op, n in re.findall(r"skipif\(\s*pytest\.nl\s*(>=|<=|==|!=|>|<)\s*(\d+)", src):
        conds.append(lambda x, f=ops[op], n=int(n): f(x, n))
    return conds


def file_locales(path, base):
    """The locale counts to run ``path`` at: ``base``, plus for each condition of the file
    that no count of ``base`` meets, the smallest of ``LOCALE_CHOICES`` that meets it."""
    counts = list(base)
    for cond in nl_conditions(path):
        if not any(cond(n) for n in counts):
            extra = next((n for n in LOCALE_CHOICES if cond(n)), None)
            if extra is not None:
                counts.append(extra)
    return sorted(set(counts))


def count_collected(ark, files, env, timeout, nl=2):
    """Tests per file, by one ``pytest --collect-only`` pass over all of them at ``nl``
    locales; a file whose collection fails (it does not load) maps to None."""
    cmd = [sys.executable, "-m", "atoll.arkouda", "-m", "pytest", "-c", os.path.join(ark, "pytest.ini")]
    cmd += ["--rootdir", ark, "-p", "no:cacheprovider", "-o", "log_file_level=WARNING", "--collect-only", "-q"]
    cmd += [f"--nl={nl}"] + [os.path.join(ark, f) for f in files]
    try:
        p = subprocess.run(cmd, cwd=ark, env=env, capture_output=True, text=True, timeout=timeout)
        out = p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        return {}
    counts = {f: 0 for f in files}
    for line in out.splitlines():
        head = line.split("::", 1)[0].strip()
        if "::" in line and head in counts:
            counts[head] += 1
        m = re.match(r"ERROR (\S+)", line)
        if m and m.group(1) in counts:
            counts[m.group(1)] = None
    return counts


def static_tests(path):
    """The ``test_`` functions in a file's source: what a file that does not load counts as collected."""
    try:
        with open(path) as fh:
            return len(re.findall(r"^\s*def test_\w*\(", fh.read(), flags=re.M))
    except OSError:
        return 0


def _parse(xml_path):
    """Counts of a JUnit XML report, the reasons of skips, the first failures and each
    test's outcome (``p`` passed, ``f`` failed, ``s`` skipped, ``x`` xfail) by test id."""
    c = collections.Counter()
    reasons = collections.Counter()
    failures = []
    outcomes = {}
    if not os.path.exists(xml_path):
        return c, reasons, failures, outcomes
    root = ET.parse(xml_path).getroot()
    for tc in root.iter("testcase"):
        kids = {k.tag: k for k in tc}
        if tc.get("classname", "") == "" and ("error" in kids or "failure" in kids):
            # pytest's report of a file that failed to import: no test of it was collected
            c["collection_errors"] += 1
            k = kids.get("error", kids.get("failure"))
            errs = [ln[1:].strip() for ln in (k.text or "").splitlines() if ln.startswith("E ")]
            failures.append(f"{tc.get('name', '')}: {(errs or [k.get('message') or k.tag])[-1][:200]}")
            continue
        c["collected"] += 1
        tid = f"{tc.get('classname', '')}::{tc.get('name', '')}"
        if "failure" in kids or "error" in kids:
            outcomes[tid] = "f"
            k = kids.get("failure", kids.get("error"))
            c["failed"] += 1
            msg = (k.get("message") or "").splitlines()[0][:160] if k.get("message") else k.tag
            failures.append(f"{tc.get('classname', '')}::{tc.get('name', '')}: {msg}")
        elif "skipped" in kids:
            k = kids["skipped"]
            if k.get("type") == "pytest.xfail":
                c["xfail"] += 1
                outcomes[tid] = "x"
            else:
                c["skipped"] += 1
                outcomes[tid] = "s:" + _reason(k.get("message") or "")
                reasons[_reason(k.get("message") or "")] += 1
        else:
            c["passed"] += 1
            outcomes[tid] = "p"
    return c, reasons, failures, outcomes


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
    timed_out = False
    with tempfile.TemporaryFile("w+") as log:
        p = subprocess.Popen(cmd, cwd=ark, env=env, stdout=log, stderr=subprocess.STDOUT, text=True)
        try:
            p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            # SIGINT: pytest stops at the running test and still writes its report of the
            # tests done so far.
            timed_out = True
            p.send_signal(signal.SIGINT)
            try:
                p.wait(timeout=60)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        log.seek(0)
        tail = log.read()[-3000:]
    if timed_out:
        tail = f"timed out after {timeout} s\n" + tail
    secs = time.time() - t0
    c, reasons, failures, outcomes = _parse(xml)
    if os.path.exists(xml):
        os.unlink(xml)
    loaded = c["collection_errors"] == 0 and (c["collected"] > 0 or "no tests ran" in tail)
    return {
        "file": f,
        "locales": nl,
        "backend": backend,
        "seconds": round(secs, 1),
        "loaded": loaded,
        **{k: c[k] for k in ("collected", "passed", "failed", "skipped", "xfail")},
        "skip_reasons": dict(reasons),
        "failures": failures[:200],
        "outcomes": outcomes,
        "tail": tail if not loaded or timed_out else "",
        "timed_out": timed_out,
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


def merge(runs, static=0, expected=None):
    """One file's runs at its locale counts, merged by test id (see the module's docstring):
    collected, ran, passed (xfails included), failed, skipped, the skip reasons of the tests
    that ran at no count, and the failures. ``expected`` is the file's count of a
    ``--collect-only`` pass: the tests a time cap left unrun count as collected, not run."""
    if not any(r["loaded"] for r in runs):
        return {"loaded": False, "collected": static, "ran": 0, "passed": 0, "failed": 0, "skipped": 0}
    best = {}
    for r in runs:
        for tid, o in r.get("outcomes", {}).items():
            prev = best.get(tid)
            if prev is None or o == "f" or (prev.startswith("s") and (o[0] != "s" or _locale_reason(prev))):
                best[tid] = o
    c = collections.Counter(o[0] for o in best.values())
    reasons = collections.Counter(o[2:] for o in best.values() if o.startswith("s"))
    failed_ids = sorted(t for t, o in best.items() if o == "f")
    not_run = max(0, (expected or 0) - len(best))
    if not_run:
        reasons["not run: the file's time cap"] += not_run
    return {
        "loaded": True,
        "collected": len(best) + not_run,
        "ran": c["p"] + c["x"] + c["f"],
        "passed": c["p"] + c["x"],
        "failed": c["f"],
        "skipped": c["s"] + not_run,
        "timed_out": any(r.get("timed_out") for r in runs),
        "skip_reasons": dict(reasons),
        "failed_tests": failed_ids,
    }


def _locale_reason(outcome):
    """Whether a skip is for the locale count: another count of the file's runs decides it."""
    m = outcome.lower()
    return "locale count" in m or "single locale" in m or "multi locale" in m or "multi-locale" in m


def _pct(a, b):
    return f"{100.0 * a / b:.1f}%" if b else "-"


def summary_table(summaries):
    """Per file: the locale counts run, collected, ran, passed and the two rates; then the totals."""
    lines = [
        "| file | locales | collected | ran | passed | passed / ran | passed / collected |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    tot = collections.Counter()
    for f, (counts, m) in summaries.items():
        tot.update({k: m[k] for k in ("collected", "ran", "passed")})
        nls = ", ".join(str(n) for n in counts) + (" (time cap)" if m.get("timed_out") else "")
        if not m["loaded"]:
            lines.append(f"| `{f}` | {nls} | {m['collected']} (source) | does not load | 0 | - | 0.0% |")
            continue
        lines.append(
            f"| `{f}` | {nls} | {m['collected']} | {m['ran']} | {m['passed']} | "
            f"{_pct(m['passed'], m['ran'])} | {_pct(m['passed'], m['collected'])} |"
        )
    lines.append(
        f"| **total** ({len(summaries)} files) | | {tot['collected']} | {tot['ran']} | {tot['passed']} | "
        f"{_pct(tot['passed'], tot['ran'])} | {_pct(tot['passed'], tot['collected'])} |"
    )
    return "\n".join(lines)


def _env(base, home, mods, tmp, bin_, nl, backend):
    env = dict(base)
    env.update(
        ARKOUDA_HOME=home,
        ARKOUDA_CONFIG_FILE=mods,
        ARKOUDA_RUNNING_MODE="CLIENT",
        ARKOUDA_DEFAULT_TEMP_DIRECTORY=tmp,
        PATH=bin_ + os.pathsep + env.get("PATH", ""),
    )
    if backend == "local":
        env["ATOLL_LOCALES"] = str(nl)
        env.pop("ATOLL_BACKEND", None)
    else:
        env["ATOLL_BACKEND"] = "mpi"
    return env


def load_only(ark, files, locales, args, home, mods, tmp, bin_, date):
    """``--load-only``: one ``--collect-only`` pass over the files at each locale count (with
    ``--auto-locales``, also at the counts each file asks for); prints one row per file with
    what each count collects, or ``does not load``, and returns 1 if any file does not load."""
    per_nl = collections.defaultdict(list)
    for f in files:
        counts = file_locales(os.path.join(ark, f), locales) if args.auto_locales else locales
        for nl in counts:
            per_nl[nl].append(f)
    got = {}
    for nl in sorted(per_nl):
        env = _env(os.environ, home, mods, tmp, bin_, nl, args.backend)
        got[nl] = count_collected(ark, per_nl[nl], env, args.timeout, nl)
        bad = [f for f in per_nl[nl] if got[nl].get(f, None) is None]
        print(f"[{nl} locale(s)] {len(per_nl[nl]) - len(bad)} of {len(per_nl[nl])} files load", flush=True)
        if args.jsonl:
            with open(args.jsonl, "a") as fh:
                for f in per_nl[nl]:
                    rec = {"date": date, "label": args.label, "kind": "load", "file": f, "locales": nl}
                    fh.write(json.dumps({**rec, "collected": got[nl].get(f)}) + "\n")
    nls = sorted(per_nl)
    lines = ["| file | " + " | ".join(f"{n} locale{'s' if n > 1 else ''}" for n in nls) + " |"]
    lines.append("| --- | " + " | ".join("---" for _ in nls) + " |")
    failed = False
    for f in files:
        cells = []
        for nl in nls:
            if f not in per_nl[nl]:
                cells.append("")
            elif got[nl].get(f) is None:
                cells.append("does not load")
                failed = True
            else:
                cells.append(str(got[nl][f]))
        lines.append(f"| `{f}` | " + " | ".join(cells) + " |")
    t = "\n".join(lines)
    print(t)
    if args.out:
        with open(args.out, "w") as fh:
            fh.write(t + "\n")
    return 1 if failed else 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--arkouda", help="path to an Arkouda checkout (its tests/ and pytest.ini)")
    ap.add_argument("files", nargs="*", help="test files relative to the checkout, or .txt lists of them")
    ap.add_argument("--locales", default="2", help="comma-separated locale counts (default 2)")
    ap.add_argument("--auto-locales", action="store_true", help="add the locale counts each file's tests ask for")
    ap.add_argument("--order", choices=["given", "tests"], default="given", help="tests: most tests first")
    ap.add_argument("--deadline", type=float, help="start no file after this many seconds")
    ap.add_argument("--backend", default="local", choices=["local", "mpi"])
    ap.add_argument("--timeout", type=int, default=3600, help="seconds per file and locale count")
    ap.add_argument("--json", help="write every result (with failures) to this JSON file")
    ap.add_argument("--jsonl", help="append one line per file and locale count, and per file merged, to this file")
    ap.add_argument("--label", default="", help="a label recorded in each --jsonl line (the Arkouda commit)")
    ap.add_argument("--out", help="write the table (markdown) to this file")
    ap.add_argument(
        "--load-only",
        action="store_true",
        help="only import each file (pytest --collect-only) at each locale count, and report what it collects",
    )
    ap.add_argument("--table-from", help="print the per-file table of a --jsonl file's merged lines, and stop")
    args = ap.parse_args(argv)
    if args.table_from:
        summaries = {}
        with open(args.table_from) as fh:
            for line in fh:
                rec = json.loads(line)
                if rec.get("kind") == "file":
                    summaries[rec["file"]] = (rec["locales"], rec)
        print(summary_table(summaries))
        return 0
    ark = os.path.abspath(args.arkouda or ".")
    if not os.path.exists(os.path.join(ark, "tests", "conftest.py")):
        ap.error(f"{ark} is not an Arkouda checkout (no tests/conftest.py)")
    locales = [int(x) for x in args.locales.split(",")]
    files = _files(args)
    results = []
    summaries = {}
    t_start = time.time()
    date = time.strftime("%Y-%m-%d", time.gmtime())
    n = {}
    with tempfile.TemporaryDirectory() as tmp:
        home, bin_, mods = _stubs(tmp)
        if args.order == "tests":
            env2 = _env(os.environ, home, mods, tmp, bin_, 2, "local")
            n = count_collected(ark, files, env2, 1800)
            files.sort(key=lambda f: -(n.get(f) or 0))
            print("order (collected): " + ", ".join(f"{f} {n.get(f)}" for f in files), flush=True)
        if args.load_only:
            return load_only(ark, files, locales, args, home, mods, tmp, bin_, date)
        if args.auto_locales:
            jobs = [(f, nl) for f in files for nl in file_locales(os.path.join(ark, f), locales)]
        else:
            jobs = [(f, nl) for nl in locales for f in files]
        for f, nl in jobs:
            if args.deadline is not None and time.time() - t_start > args.deadline and f not in summaries:
                print(f"deadline reached: {f} not run", flush=True)
                continue
            summaries.setdefault(f, None)
            env = _env(os.environ, home, mods, tmp, bin_, nl, args.backend)
            r = run_file(ark, f, nl, args.backend, env, args.timeout)
            results.append(r)
            status = (
                "does not load"
                if not r["loaded"]
                else (
                    f"{r['collected']} collected, {r['passed']} passed, {r['failed']} failed, "
                    f"{r['skipped']} skipped, {r['xfail']} xfail ({rate(r):.1f}%)"
                    + (" (time cap)" if r.get("timed_out") else "")
                )
            )
            print(f"[{nl} locale(s)] {f}: {status} in {r['seconds']} s", flush=True)
            if args.json:  # after every file: a long run can be read while it goes on
                with open(args.json, "w") as fh:
                    json.dump(results, fh, indent=1)
            if args.jsonl:
                line = {k: v for k, v in r.items() if k not in ("outcomes", "tail")}
                with open(args.jsonl, "a") as fh:
                    fh.write(json.dumps({"date": date, "label": args.label, "kind": "run", **line}) + "\n")
            if not r["loaded"] and r["tail"]:
                print(r["tail"][-1500:], flush=True)
        for f in [f for f in summaries]:
            runs = [r for r in results if r["file"] == f]
            m = merge(runs, static_tests(os.path.join(ark, f)), n.get(f))
            summaries[f] = ([r["locales"] for r in runs], m)
            if args.jsonl:
                rec = {"date": date, "label": args.label, "kind": "file", "file": f, "locales": summaries[f][0], **m}
                with open(args.jsonl, "a") as fh:
                    fh.write(json.dumps(rec) + "\n")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(results, fh, indent=1)
    t = table(results, locales) if not args.auto_locales else summary_table(summaries)
    print(t)
    if args.out:
        with open(args.out, "w") as fh:
            fh.write(t + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
