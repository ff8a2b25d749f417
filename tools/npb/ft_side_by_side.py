#!/usr/bin/env python3
"""NPB FT on Atoll beside NPB's own MPI FT, on the same ranks, in interleaved rounds.

For each class, rank count and round: NPB's `ft.<CLASS>.x` under its MPI's launcher (one JSON
line, variant `npb_mpi`, from its printed time, Mop/s and verification), then
`atoll-bench ft` on every backend asked for, given NPB's figures (`--npb-mops`) so that its
lines carry `speedup_vs_npb_mpi`. Every JSON line goes to stdout (and to --out) with a `round`
field.

NPB's sources and binaries are not part of this repository: build NPB 3.4's MPI FT elsewhere
(Fortran: gfortran with an MPI that has Fortran bindings, e.g. Debian's mpich) and point
--npb-bin-dir at its `bin/`. Where that binary is missing, Atoll's lines say so (`npb_note`).

    python3 tools/npb/ft_side_by_side.py --classes S,W,A --ranks 1,2,4 --backends local,mpi \\
        --npb-bin-dir /path/to/NPB3.4-MPI/bin --rounds 3
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def parse_npb(text: str) -> dict:
    """The figures of NPB's report: time, Mop/s, verification."""

    def grab(pattern: str) -> str | None:
        m = re.search(pattern, text)
        return m.group(1) if m else None

    seconds = grab(r"Time in seconds\s*=\s*([0-9.Ee+-]+)")
    mops = grab(r"Mop/s total\s*=\s*([0-9.Ee+-]+)")
    verified = grab(r"Verification\s*=\s*(\w+)")
    if seconds is None or mops is None:
        raise ValueError("no time or Mop/s in NPB's output")
    return {"seconds": float(seconds), "mops": float(mops), "ok": verified == "SUCCESSFUL"}


def run_npb(args, cls: str, ranks: int) -> tuple[dict | None, str | None]:
    """One run of NPB's MPI FT: (its line, None) or (None, why not)."""
    exe = Path(args.npb_bin_dir) / f"ft.{cls}.x" if args.npb_bin_dir else None
    if exe is None or not exe.exists():
        return None, f"NPB's MPI FT binary not found ({exe}): see tools/npb/ft_side_by_side.py"
    cmd = [args.npb_mpiexec, "-n", str(ranks), str(exe)]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout, cwd=exe.parent)
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, f"NPB's MPI FT did not run: {e}"
    if p.returncode != 0:
        return None, f"NPB's MPI FT failed (exit {p.returncode}): {p.stderr.strip()[-300:]}"
    try:
        f = parse_npb(p.stdout)
    except ValueError as e:
        return None, f"NPB's MPI FT: {e}"
    line = {"bench": "ft", "variant": "npb_mpi", "class": cls, "locales": ranks, "backend": "mpi", **f}
    return line, None


def run_atoll(args, cls: str, ranks: int, backend: str, npb: dict | None, note: str | None) -> list[dict]:
    """One `atoll-bench ft` run: its JSON lines."""
    bench = [args.atoll_bench, "ft", "--class", cls, "--json", "--reps", str(args.reps)]
    if npb is not None:
        bench += ["--npb-mops", str(npb["mops"]), "--npb-seconds", str(npb["seconds"])]
    elif note:
        bench += ["--npb-note", note]
    if backend == "local":
        cmd = bench + ["--backend", "local", "--locales", str(ranks)]
        env = dict(os.environ)
    else:
        cmd = [args.mpiexec, "-n", str(ranks)] + bench + ["--backend", "mpi"]
        env = dict(os.environ, ATOLL_BACKEND="mpi")
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout, env=env)
    if p.returncode != 0:
        print(f"atoll-bench ft {cls} {backend} {ranks}: exit {p.returncode}\n{p.stderr}", file=sys.stderr)
        return [
            {"bench": "ft", "class": cls, "backend": backend, "locales": ranks, "ok": False, "error": p.stderr[-500:]}
        ]
    return [json.loads(ln) for ln in p.stdout.splitlines() if ln.startswith("{")]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--classes", default="S,W,A")
    ap.add_argument("--ranks", default="1,2,4")
    ap.add_argument("--backends", default="local,mpi")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--reps", type=int, default=1, help="timed runs per atoll-bench call (best reported)")
    ap.add_argument("--npb-bin-dir", default=os.environ.get("NPB_FT_BIN_DIR"))
    ap.add_argument("--npb-mpiexec", default=os.environ.get("NPB_MPIEXEC", "mpiexec.mpich"))
    ap.add_argument("--npb-note", default=None, help="why NPB's MPI FT is absent (when it could not be built)")
    ap.add_argument("--mpiexec", default=str(ROOT / ".venv/bin/mpiexec"))
    ap.add_argument("--atoll-bench", default=str(ROOT / "target/release/atoll-bench"))
    ap.add_argument("--timeout", type=float, default=900.0)
    ap.add_argument("--out", default=None, help="also append the JSON lines to this file")
    args = ap.parse_args()
    out = open(args.out, "a") if args.out else None  # noqa: SIM115 (closed at the end)
    ok = True

    def emit(line: dict) -> None:
        s = json.dumps(line)
        print(s, flush=True)
        if out:
            out.write(s + "\n")
            out.flush()

    for cls in args.classes.split(","):
        for ranks in [int(r) for r in args.ranks.split(",")]:
            for rnd in range(args.rounds):
                npb, note = run_npb(args, cls, ranks)
                if npb is not None:
                    emit({**npb, "round": rnd})
                    ok &= npb["ok"]
                else:
                    note = args.npb_note or note
                    emit(
                        {
                            "bench": "ft",
                            "variant": "npb_mpi",
                            "class": cls,
                            "locales": ranks,
                            "round": rnd,
                            "note": note,
                        }
                    )
                for backend in args.backends.split(","):
                    for line in run_atoll(args, cls, ranks, backend, npb, note):
                        emit({**line, "round": rnd})
                        ok &= bool(line.get("ok"))
    if out:
        out.close()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
