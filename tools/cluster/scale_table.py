#!/usr/bin/env python3
"""The scale table of docs/cluster.md: per-locale messages, bytes and collectives of argsort,
gather, scatter and the polybench kernels at 2-16 locales, and the network model's prediction
for 64-1024 hosts.

Counts are the same on every backend and placement (the MPI suites check it), so they are
measured on the local backend (locales as thread groups of one process; oversubscribed is
fine for counts, not for times):

    tools/cluster/scale_table.py [--bench target/release/atoll-bench] [--locales 2,4,8,16]
        [--per-locale 262144] [--scale 0.25] [--json-out runs.jsonl]

Prints markdown tables. The prediction: one rank per host, the same elements per host, links
of 100 Gb/s (B = 12.5e9 bytes/s) and 2 us latency (L); collectives cost C = 2 L ceil(log2 H)
(a tree's depth, both ways), and an allgather of P bytes per locale moves (H - 1) P bytes into
each locale. Network seconds per operation = bytes/B + messages x L + collectives x C
+ collective payload / B.
"""

import argparse
import json
import math
import os
import subprocess
import sys

B = 100e9 / 8
LAT = 2e-6
DIGITS = 1 << 16
AGG_BUFFER = 8192


def run(cmd, env):
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    if out.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{out.stderr[-3000:]}")
    return [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench", default="target/release/atoll-bench")
    ap.add_argument("--locales", default="2,4,8,16")
    ap.add_argument("--per-locale", type=int, default=1 << 18)
    ap.add_argument("--scale", type=float, default=0.25)
    ap.add_argument("--json-out")
    a = ap.parse_args()
    env = dict(os.environ, ATOLL_BACKEND="local", ATOLL_THREADS_PER_LOCALE="2")
    rows = []
    for L in [int(x) for x in a.locales.split(",")]:
        n = a.per_locale * L
        for d in run(
            [a.bench, "arkouda", "--backend", "local", "--locales", str(L), "--json", "--n", str(n), "--reps", "1",
             "--kernels", "argsort,gather,scatter"],
            env,
        ):  # fmt: skip
            rows.append(dict(d, locales=L, kernel=d["variant"]))
        for d in run(
            [a.bench, "polybench", "--backend", "local", "--locales", str(L), "--json", "--scale", str(a.scale),
             "--modes", "static", "--dists", "cyclic", "--reps", "1"],
            env,
        ):  # fmt: skip
            if d.get("kernel"):
                rows.append(dict(d, locales=L))
    if a.json_out:
        with open(a.json_out, "w") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")
    ls = sorted({r["locales"] for r in rows})
    print(f"Per locale, one repetition, {a.per_locale} elements per locale (arkouda), polybench scale {a.scale} "
          f"(Cyclic, static), 2 tasks per locale; messages / KiB / collectives:\n")  # fmt: skip
    print("| kernel | " + " | ".join(f"{L} locales" for L in ls) + " |")
    print("|---|" + "---|" * len(ls))
    kernels = []
    for r in rows:
        if r["kernel"] not in kernels:
            kernels.append(r["kernel"])
    for k in kernels:
        cells = []
        for L in ls:
            r = next((r for r in rows if r["kernel"] == k and r["locales"] == L), None)
            if r is None:
                cells.append("")
                continue
            if "messages_per_locale" in r:
                m, b, c = r["messages_per_locale"], r["bytes_per_locale"], r["collectives_per_locale"]
            else:  # polybench: totals over locales
                m, b, c = r["messages"] / L, r["bytes"] / L, float("nan")
            cells.append(f"{m:.0f} / {b / 1024:.0f}" + ("" if math.isnan(c) else f" / {c}"))
        print(f"| {k} | " + " | ".join(cells) + " |")
    # Aggregation buffers per locale (gather/scatter: tasks x (L - 1) buffers of AGG_BUFFER
    # records; the sort's staging + landing: 2 x m records of 16 bytes, any L).
    print("\nAggregation buffer memory per locale (at most, every buffer full at once), 2 tasks:\n")
    print("| | " + " | ".join(f"{L} locales" for L in ls) + " |")
    print("|---|" + "---|" * len(ls))
    print("| gather (24 B/elem: address, place, value) | " + " | ".join(
        f"{2 * (L - 1) * AGG_BUFFER * 24 / 2**20:.1f} MiB" for L in ls) + " |")  # fmt: skip
    print("| scatter (16 B/elem: address, value) | " + " | ".join(
        f"{2 * (L - 1) * AGG_BUFFER * 16 / 2**20:.1f} MiB" for L in ls) + " |")  # fmt: skip
    print("| argsort (staging + landing) | " + " | ".join(
        f"{2 * a.per_locale * 16 / 2**20:.0f} MiB" for _ in ls) + " |")  # fmt: skip
    # The prediction, weak scaling: m elements per host, one rank per host with T tasks.
    print("\nPredicted network seconds per operation, 2^24 elements per host, 1 rank x 32 tasks per host, "
          "100 Gb/s, 2 us:\n")  # fmt: skip
    m, T = 1 << 24, 32
    print("| hosts | argsort (2 passes) | gather, buffers 8192 | gather, buffers capped at 64 MiB per host |")
    print("|---|---|---|---|")
    for H in (64, 256, 1024):
        C = 2 * LAT * math.ceil(math.log2(H))
        # argsort: per pass one put per destination (16-byte records, (H-1)/H of them leave),
        # an allgather of H histograms of 2^16 counters, ~7 collectives.
        passes = 2
        sort = passes * (16 * m * (H - 1) / H / B + (H - 1) * LAT + 7 * C + (H - 1) * DIGITS * 8 / B)

        # gather: each task sends ceil(k / cap) messages to each destination, k = m / (T H).
        def gather(cap):
            k = m / (T * H)
            msgs = T * (H - 1) * math.ceil(k / cap)
            return 24 * m * (H - 1) / H / B + msgs * LAT + 4 * C, msgs

        g, gm = gather(AGG_BUFFER)
        cap = max(1, (64 << 20) // (T * (H - 1) * 24))
        gc, gcm = gather(cap)
        print(f"| {H} | {sort * 1e3:.1f} ms | {g * 1e3:.1f} ms ({gm} messages) | "
              f"{gc * 1e3:.1f} ms (buffers of {cap}, {gcm} messages) |")  # fmt: skip


if __name__ == "__main__":
    main()
