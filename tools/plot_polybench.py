#!/usr/bin/env python3
"""Charts of `atoll-bench polybench` results (the paper's Figures 12-23).

Reads the JSON lines that `atoll-bench polybench --json` prints (files named on the command line;
other lines are skipped) and writes PNG charts into docs/figures/ (or --out DIR):

- polybench_<dist>.png: per kernel, the runtime and the message count of `static` and `auto`
  normalized to `off`, with the geometric mean as the last group (Figures 12-13), one chart per
  distribution (cyclic, blockcyclic), and below them the speedup of every mode over the
  one-core sequential reference timed in the same run (`speedup_vs_sequential`: above 1 is
  faster than one core). Messages and speedups use a log scale; a kernel with no message in
  both modes counts as 1.
- sweep_<sweep>_<backend>.png: for `--sweep strong|weak|block` runs, one row per kernel and
  distribution with the normalized runtime, normalized messages, elements per follower chunk
  and seconds of every mode against the locale count (strong, weak) or the block size (block)
  (Figures 14-23).

matplotlib is not a project dependency; install it in a separate virtual environment:

    python3 -m venv /tmp/plotenv && /tmp/plotenv/bin/pip install matplotlib
    target/release/atoll-bench polybench --locales 2 --json > /tmp/suite.jsonl
    target/release/atoll-bench polybench --sweep strong --json > /tmp/strong.jsonl
    target/release/atoll-bench polybench --sweep weak --json > /tmp/weak.jsonl
    target/release/atoll-bench polybench --sweep block --locales 8 --json > /tmp/block.jsonl
    /tmp/plotenv/bin/python tools/plot_polybench.py /tmp/suite.jsonl /tmp/strong.jsonl /tmp/weak.jsonl /tmp/block.jsonl

Under MPI a strong or weak sweep gives one point per invocation (the rank count): append the
outputs of several `mpiexec -n N` runs to one file.

With --tables the script prints the tables of docs/BENCHMARKS.md (Markdown) instead of drawing,
and needs no matplotlib: per distribution of the suite, the seconds, messages and ratios of
every kernel with the geometric means (and the one-core reference's seconds and `auto`'s
speedup over it); per sweep, `auto`/`off` messages / `auto`/`off` time (/ `auto`'s speedup over
one core, when the lines have it).
"""

import argparse
import json
import math
import os
import sys

MODES = ("static", "auto")
ALL_MODES = ("off",) + MODES
COLORS = {"off": "#55a868", "static": "#4c72b0", "auto": "#dd8452"}


def read_lines(paths):
    """Every JSON object line of the files, in order."""
    out = []
    for p in paths:
        with open(p, encoding="utf-8") as f:
            for line in f:
                line = line.strip()
                if not line.startswith("{"):
                    continue
                try:
                    out.append(json.loads(line))
                except json.JSONDecodeError:
                    print(f"skipping a bad line in {p}: {line[:80]}", file=sys.stderr)
    return out


def msg_ratio(a, b):
    if a == 0 and b == 0:
        return 1.0
    return a / max(b, 1)


def time_ratio(a, b):
    return a / b if b > 0 else float("nan")


def fmt_ratio(x):
    """A message ratio for the tables: 4 decimals, or 2 significant digits below 0.001."""
    return f"{x:.4f}" if x >= 0.001 or x == 0 else f"{x:.1e}"


def geomean(xs):
    xs = [x for x in xs if x > 0 and math.isfinite(x)]
    if not xs:
        return float("nan")
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def suite_runs(lines):
    """{dist: {kernel: {mode: line}}} of the suite's run lines (not the sweeps'), in order."""
    runs = {}
    for l in lines:
        if l.get("bench") != "polybench" or "kernel" not in l or "mode" not in l or "sweep" in l:
            continue
        if l.get("variant") in ("geomean", "sweep_point"):
            continue
        runs.setdefault(l["dist"], {}).setdefault(l["kernel"], {})[l["mode"]] = l
    return runs


def pyplot():
    """matplotlib's pyplot, drawing to files (imported only when charts are drawn)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot_suite(runs, out):
    plt = pyplot()
    written = []
    for dist, kernels in runs.items():
        names = [k for k, m in kernels.items() if "off" in m and any(x in m for x in MODES)]
        if not names:
            continue
        ratios = {m: {"time": [], "msg": []} for m in MODES}
        for k in names:
            off = kernels[k]["off"]
            for m in MODES:
                r = kernels[k].get(m)
                ratios[m]["time"].append(time_ratio(r["seconds"], off["seconds"]) if r else float("nan"))
                ratios[m]["msg"].append(msg_ratio(r["messages"], off["messages"]) if r else float("nan"))
        speed = {
            m: [
                kernels[k][m].get("speedup_vs_sequential", float("nan")) if m in kernels[k] else float("nan")
                for k in names
            ]
            for m in ALL_MODES
        }
        has_speed = any(math.isfinite(v) for vs in speed.values() for v in vs)
        labels = names + ["geomean"]
        rows = 3 if has_speed else 2
        fig, axes = plt.subplots(rows, 1, figsize=(max(8, 0.7 * len(labels) + 2), 4 * rows), sharex=True)
        width = 0.38
        xs = range(len(labels))
        for which, ax, title in (("time", axes[0], "runtime"), ("msg", axes[1], "messages")):
            for j, m in enumerate(MODES):
                vals = ratios[m][which] + [geomean(ratios[m][which])]
                if all(math.isnan(v) for v in vals):
                    continue
                ax.bar([x + (j - 0.5) * width for x in xs], vals, width, label=m, color=COLORS[m])
            ax.axhline(1.0, color="black", linewidth=0.8)
            ax.set_ylabel(f"{title} / off")
            if which == "msg":
                ax.set_yscale("log")
            ax.legend()
            ax.grid(axis="y", alpha=0.3)
        if has_speed:
            ax, w3 = axes[2], 0.27
            for j, m in enumerate(ALL_MODES):
                vals = speed[m] + [geomean(speed[m])]
                ax.bar([x + (j - 1) * w3 for x in xs], vals, w3, label=m, color=COLORS[m])
            ax.axhline(1.0, color="black", linewidth=0.8)
            ax.set_ylabel("speedup over one core")
            ax.set_yscale("log")
            ax.legend()
            ax.grid(axis="y", alpha=0.3)
        first = next(iter(kernels[names[0]].values()))
        axes[0].set_title(
            f"polybench, {dist}: normalized to aggregation off ({first.get('locales')} locales, {first.get('backend')})"
        )
        axes[-1].set_xticks(list(xs))
        axes[-1].set_xticklabels(labels, rotation=45, ha="right")
        fig.tight_layout()
        path = os.path.join(out, f"polybench_{dist}.png")
        fig.savefig(path, dpi=120)
        plt.close(fig)
        written.append(path)
    return written


def sweep_runs(lines):
    """{(backend, sweep): {(kernel, dist): {x: {mode: line}}}}: x is the locale count or the
    block size."""
    pts = {}
    for l in lines:
        if l.get("bench") != "polybench" or "sweep" not in l or "mode" not in l:
            continue
        x = l["block"] if l["sweep"] == "block" else l["locales"]
        fig = pts.setdefault((l.get("backend", "local"), l["sweep"]), {})
        fig.setdefault((l["kernel"], l["dist"]), {}).setdefault(x, {})[l["mode"]] = l
    return pts


def plot_sweeps(pts, out):
    """One chart per backend and sweep: a row per (kernel, dist), with the normalized runtime,
    the normalized messages and the elements per follower chunk against the locale count or
    the block size."""
    plt = pyplot()
    written = []
    for (backend, sweep), rows in sorted(pts.items()):
        keys = [k for k in sorted(rows) if any("off" in m for m in rows[k].values())]
        if not keys:
            continue
        fig, axes = plt.subplots(len(keys), 4, figsize=(18, 2.6 * len(keys)), squeeze=False)
        xlabel = "block size" if sweep == "block" else "locales"
        for r, (kernel, dist) in enumerate(keys):
            by_x = rows[(kernel, dist)]
            xs = sorted(x for x, m in by_x.items() if "off" in m)
            for m in MODES:
                if not any(m in by_x[x] for x in xs):
                    continue
                t = [
                    time_ratio(by_x[x][m]["seconds"], by_x[x]["off"]["seconds"]) if m in by_x[x] else float("nan")
                    for x in xs
                ]
                g = [
                    msg_ratio(by_x[x][m]["messages"], by_x[x]["off"]["messages"]) if m in by_x[x] else float("nan")
                    for x in xs
                ]
                c = [by_x[x][m]["chunk_elems"] if m in by_x[x] else float("nan") for x in xs]
                axes[r][0].plot(xs, t, marker="o", label=m, color=COLORS[m])
                axes[r][1].plot(xs, g, marker="o", label=m, color=COLORS[m])
                axes[r][2].plot(xs, c, marker="o", label=m, color=COLORS[m])
            for m in ("off",) + MODES:
                secs = [by_x[x][m]["seconds"] if m in by_x[x] else float("nan") for x in xs]
                axes[r][3].plot(xs, secs, marker="o", label=m, color=COLORS[m])
            sizes = sorted({by_x[x]["off"].get("size", "") for x in xs})
            what = f"{kernel}, {dist}" + (f" ({sizes[0]})" if len(sizes) == 1 else "")
            for ax, title in zip(axes[r], ("runtime / off", "messages / off", "elements per chunk", "seconds")):
                ax.set_ylabel(title)
                ax.set_title(what, fontsize=9)
                ax.grid(alpha=0.3)
                if sweep == "block":
                    ax.set_xscale("log", base=2)
                ax.set_xticks(xs)
                ax.set_xticklabels([str(x) for x in xs])
            axes[r][1].set_yscale("log")
            axes[r][3].set_yscale("log")
            axes[r][0].legend(fontsize=8)
            axes[r][3].legend(fontsize=8)
        for ax in axes[-1]:
            ax.set_xlabel(xlabel)
        fig.suptitle(f"polybench {sweep} sweep, {backend} backend: static and auto against off")
        fig.tight_layout(rect=(0, 0, 1, 1 - 0.4 / len(keys) / 2.6))
        path = os.path.join(out, f"sweep_{sweep}_{backend}.png")
        fig.savefig(path, dpi=100)
        plt.close(fig)
        written.append(path)
    return written


def suite_tables(runs, geo):
    """Markdown: per distribution, one row per kernel and the geometric means."""
    out = []
    for dist, kernels in runs.items():
        names = [k for k, m in kernels.items() if "off" in m and "auto" in m]
        if not names:
            continue
        out.append(f"### {dist}\n")
        out.append(
            "| kernel | size | off s | static s | auto s | off msgs | static msgs | auto msgs | chunk | auto/off time | auto/off msgs | 1-core s | auto vs 1 core | ok |"
        )
        out.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        tr, mr, sp = [], [], []
        for k in names:
            m = kernels[k]
            off, auto, st = m["off"], m["auto"], m.get("static", {})
            t, g = time_ratio(auto["seconds"], off["seconds"]), msg_ratio(auto["messages"], off["messages"])
            tr.append(t)
            mr.append(g)
            ok = all(x.get("ok") for x in m.values())
            secs = " | ".join(f"{x['seconds']:.4g}" if x else "" for x in (off, st, auto))
            msgs = " | ".join(str(x["messages"]) if x else "" for x in (off, st, auto))
            chunk = (st or auto).get("chunk_elems", "")
            seq, x = auto.get("seq_seconds"), auto.get("speedup_vs_sequential")
            if x is not None:
                sp.append(x)
            seq_s = f"{seq:.4g}" if seq is not None else ""
            x_s = f"{x:.3f}" if x is not None else ""
            out.append(
                f"| {k} | {off.get('size', '')} | {secs} | {msgs} | {chunk} | {t:.3f} | {fmt_ratio(g)} | {seq_s} | {x_s} | {ok} |"
            )
        gsp = f"**{geomean(sp):.3f}**" if sp else ""
        out.append(
            f"| **geomean ({len(names)} kernels)** | | | | | | | | | **{geomean(tr):.3f}** | **{fmt_ratio(geomean(mr))}** | | {gsp} | |"
        )
        if dist in geo:
            keep = (
                "msg_ratio",
                "time_ratio",
                "worst_time_ratio",
                "worst_kernel",
                "static_msg_ratio",
                "static_time_ratio",
                "geomean_speedup_vs_sequential",
                "worst_speedup_vs_sequential",
                "worst_speedup_kernel",
                "ok",
            )
            out.append("\nGeomean line: `" + json.dumps({k: geo[dist][k] for k in keep if k in geo[dist]}) + "`")
        out.append("")
    return out


def sweep_tables(pts):
    """Markdown: per backend and sweep, `auto`/`off` messages / `auto`/`off` time."""
    out = []
    for (backend, sweep), rows in sorted(pts.items()):
        keys = [k for k in rows if any("off" in m and "auto" in m for m in rows[k].values())]
        xs = sorted({x for k in keys for x, m in rows[k].items() if "off" in m and "auto" in m})
        if not xs:
            continue
        out.append(f"**{sweep}, {backend}** (columns: {'block size' if sweep == 'block' else 'locales'})\n")
        out.append("| kernel | dist | " + " | ".join(str(x) for x in xs) + " |")
        out.append("|---|---|" + "---|" * len(xs))
        for kernel, dist in keys:
            cells = []
            for x in xs:
                m = rows[(kernel, dist)].get(x, {})
                if "off" in m and "auto" in m:
                    g = msg_ratio(m["auto"]["messages"], m["off"]["messages"])
                    t = time_ratio(m["auto"]["seconds"], m["off"]["seconds"])
                    x = m["auto"].get("speedup_vs_sequential")
                    cells.append(f"{fmt_ratio(g)} / {t:.3f}" + (f" / {x:.2f}" if x is not None else ""))
                else:
                    cells.append("")
            out.append(f"| {kernel} | {dist} | " + " | ".join(cells) + " |")
        out.append("")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+", help="files of JSON lines from atoll-bench polybench --json")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "figures"))
    ap.add_argument("--tables", action="store_true", help="print the Markdown tables instead of drawing")
    a = ap.parse_args()
    lines = read_lines(a.files)
    if a.tables:
        geo = {
            l["dist"]: l
            for l in lines
            if l.get("bench") == "polybench" and l.get("variant") == "geomean" and "sweep" not in l
        }
        text = suite_tables(suite_runs(lines), geo) + sweep_tables(sweep_runs(lines))
        if not text:
            print("no polybench result found in the files", file=sys.stderr)
            return 1
        print("\n".join(text))
        return 0
    os.makedirs(a.out, exist_ok=True)
    written = plot_suite(suite_runs(lines), a.out) + plot_sweeps(sweep_runs(lines), a.out)
    if not written:
        print("no polybench result found in the files", file=sys.stderr)
        return 1
    for p in written:
        print(os.path.normpath(p))
    return 0


if __name__ == "__main__":
    sys.exit(main())
