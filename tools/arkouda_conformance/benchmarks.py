"""Runs Arkouda's benchmark scripts (``benchmarks/*.py`` of a checkout) unchanged through the
``arkouda`` alias: each once with ``--correctness-only`` (the script's own checks) and once
timed with a small size, and prints a table of both outcomes.

    python tools/arkouda_conformance/benchmarks.py --arkouda /path/to/arkouda \\
        [--locales 2] [--size 10000] [--trials 1] [--out docs/...md] [SCRIPT ...]

A script's timings of lazy expressions measure building them (``c = a + b * alpha`` is
evaluated when used); ``--eager`` runs with ``ATOLL_EAGER=1`` so each timed line computes.
"""

import argparse
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# Scripts about IO formats of the pandas layer or Arkouda's server internals, run by their
# own owners' lists; the rest are the numpy layer's.
SKIP = {"run_benchmarks.py"}


def run(ark, script, extra, env, timeout):
    cmd = [sys.executable, "-m", "atoll.arkouda", os.path.join(ark, "benchmarks", script), "localhost", "5555"] + extra
    t0 = time.time()
    try:
        p = subprocess.run(
            cmd, cwd=os.path.join(ark, "benchmarks"), env=env, capture_output=True, text=True, timeout=timeout
        )
        ok, out = p.returncode == 0, (p.stdout + p.stderr)
    except subprocess.TimeoutExpired:
        ok, out = False, f"timed out after {timeout} s"
    return ok, round(time.time() - t0, 1), out


def last_error(out):
    lines = [x for x in out.strip().splitlines() if x.strip()]
    return lines[-1][:160] if lines else ""


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--arkouda", required=True)
    ap.add_argument("scripts", nargs="*")
    ap.add_argument("--locales", type=int, default=2)
    ap.add_argument("--size", type=int, default=10_000)
    ap.add_argument("--trials", type=int, default=1)
    ap.add_argument("--timeout", type=int, default=900)
    ap.add_argument("--eager", action="store_true")
    ap.add_argument("--out")
    args = ap.parse_args(argv)
    ark = os.path.abspath(args.arkouda)
    scripts = args.scripts or sorted(
        f for f in os.listdir(os.path.join(ark, "benchmarks")) if f.endswith(".py") and f not in SKIP
    )
    env = dict(os.environ, ATOLL_LOCALES=str(args.locales))
    # The IO scripts import the checkout's server_util; the alias still answers `arkouda`.
    env["PYTHONPATH"] = os.pathsep.join(p for p in (ark, env.get("PYTHONPATH")) if p)
    env.pop("ATOLL_BACKEND", None)
    if args.eager:
        env["ATOLL_EAGER"] = "1"
    rows = ["| script | --correctness-only | timed run (n = {:,}) |".format(args.size), "| --- | --- | --- |"]
    for s in scripts:
        ok_c, t_c, out_c = run(ark, s, ["--correctness-only"], env, args.timeout)
        ok_t, t_t, out_t = run(ark, s, ["-n", str(args.size), "-t", str(args.trials)], env, args.timeout)
        c = f"ok ({t_c} s)" if ok_c else f"fails: `{last_error(out_c)}`"
        t = f"ok ({t_t} s)" if ok_t else f"fails: `{last_error(out_t)}`"
        rows.append(f"| `{s}` | {c} | {t} |")
        print(rows[-1], flush=True)
    table = "\n".join(rows)
    if args.out:
        with open(args.out, "w") as fh:
            fh.write(table + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
