#!/usr/bin/env python3
"""plot_timings.py — redraw the workbook's figures from its recorded timing tables.

Reads DATA_DIR/<gpu>/*.csv (and meta.json: GPU name, CUDA version, date of the run) and writes one
PNG per timed chapter into OUT_DIR:
  warpReduce.png          GB/s per kernel; copy and CUB marked
  reduceInteger.png       GB/s per kernel: the whole sum, and the source's kernel alone (its first
                          pass, what the book times); ours, CUB and copy marked
  setRowReadCol.png       slowdown against row/row per access pattern, beside the n-way conflict
                          measured by Nsight Compute (bank_conflicts.csv)
  transpose.png           GB/s against matrix side for every kernel; copy and cuBLAS as references
  stencil_1d.png          GB/s against N for every variant; copy as reference
  cluster_histogram.png   GB/s against bin count per GPU and input: global atomics, CUB, the source's
                          cluster kernel and ours, each at its best; read_reference (log x)
  cluster_histogram_clusters.png   every cluster size of the two cluster kernels
  matMul.png              FP32 TFLOP/s against n (n x n x n) for every kernel; cuBLAS as reference
Chapters whose CSV is absent are skipped (and listed). With data from several GPUs and --gpu all,
each figure shows them side by side.

usage: plot_timings.py [--data-dir plots/data] [--out-dir plots] [--gpu h200|all]
Exit 2 with a message naming the file and the column when a CSV lacks a column or holds a bad value.
"""
import argparse
import csv
import json
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

FIGSIZE = (11, 6)  # inches; at DPI this gives the PNG size the test checks
DPI = 100
BANDWIDTH = ["kernel", "size", "bytes", "time_ms", "gbps", "pct_of_copy"]
REQUIRED = {
    "warpReduce": BANDWIDTH,
    "reduceInteger": BANDWIDTH + ["first_pass_ms", "pct_of_cub"],
    "setRowReadCol": BANDWIDTH + ["slowdown_vs_rowrow"],
    "transpose": BANDWIDTH,
    "stencil_1d": BANDWIDTH,
    "cluster_histogram": ["kernel", "size", "bins", "cluster", "bytes", "time_ms", "gbps", "pct_of_copy"],
    "matMul": ["kernel", "n", "time_ms", "tflops", "pct_of_cublas"],
}
BANK = ["kernel", "ld_wavefronts", "st_wavefronts", "ld_instructions", "st_instructions", "ld_conflicts",
        "st_conflicts"]


class DataError(Exception):
    pass


def read_csv(path, columns, numeric=()):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    header = rows[0].keys() if rows else []
    if not rows:
        raise DataError(f"{path}: no rows")
    for c in columns:
        if c not in header:
            raise DataError(f"{path}: missing column '{c}'")
    for i, r in enumerate(rows, start=2):
        for c in numeric:
            try:
                r[c] = float(r[c])
            except (TypeError, ValueError):
                raise DataError(f"{path}, line {i}: column '{c}' holds {r[c]!r}, not a number")
    return rows


def meta_of(gpu_dir, gpu):
    path = os.path.join(gpu_dir, "meta.json")
    meta = {"gpu": gpu, "cuda": "?", "date": "?"}
    if os.path.exists(path):
        with open(path) as f:
            meta.update(json.load(f))
    return meta


def stamp(fig, metas, title):
    who = "; ".join(f"{m['gpu']}, CUDA {m['cuda']}, {m['date']}" for m in metas)
    fig.suptitle(f"{title}\n{who}", fontsize=11)


def panels(n):
    fig, axes = plt.subplots(1, n, figsize=FIGSIZE, dpi=DPI, squeeze=False)
    return fig, list(axes[0])


def plot_warpReduce(ax, rows, _dir):
    colors = []
    for r in rows:
        colors.append("tab:gray" if r["kernel"] == "copy" else "tab:green" if r["kernel"].startswith("cub")
                      else "tab:blue")
    ax.bar([r["kernel"] for r in rows], [r["gbps"] for r in rows], color=colors)
    for i, r in enumerate(rows):
        ax.text(i, r["gbps"], f"{r['gbps']:.0f}", ha="center", va="bottom", fontsize=8)
    ax.set_ylabel("GB/s (read + write, GB = 1e9)")
    ax.set_title(f"sum of {int(rows[0]['size']):,} ints; gray: copy, green: CUB", fontsize=9)
    ax.tick_params(axis="x", rotation=30, labelsize=8)


def plot_reduceInteger(ax, rows, _dir):
    """Two bars per kernel: the whole sum (time_ms) and, where there is one, the first pass alone."""
    width = 0.4
    for i, r in enumerate(rows):
        k = r["kernel"]
        color = ("tab:gray" if k == "copy" else "tab:green" if k.startswith("cub") else
                 "tab:orange" if k == "reduceUnrollShflVec" else "tab:blue")
        ax.bar(i - width / 2, r["gbps"], width, color=color)
        ax.text(i - width / 2, r["gbps"], f"{r['gbps']:.0f}", ha="center", va="bottom", fontsize=7)
        first = r.get("first_pass_ms") or ""
        if first:
            g = r["bytes"] / (float(first) * 1e-3) / 1e9
            ax.bar(i + width / 2, g, width, color=color, alpha=0.45)
            ax.text(i + width / 2, g, f"{g:.0f}", ha="center", va="bottom", fontsize=7)
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels([r["kernel"] for r in rows], rotation=30, ha="right", fontsize=8)
    ax.set_ylabel("GB/s of input read (n x 4 bytes, GB = 1e9); copy: read + write")
    ax.set_title(f"sum of {int(rows[0]['size']):,} ints. Solid: the whole sum; pale: the first pass alone "
                 "(what the book times). Blue: the source's kernels, orange: ours, green: CUB, gray: copy",
                 fontsize=8, wrap=True)


def plot_setRowReadCol(ax, rows, gpu_dir):
    kernels = [r for r in rows if r["kernel"] != "copy"]
    names = [r["kernel"] for r in kernels]
    y = range(len(kernels))
    ax.barh(list(y), [float(r["slowdown_vs_rowrow"]) for r in kernels], color="tab:red", height=0.4,
            label="measured slowdown vs row/row")
    bank = os.path.join(gpu_dir, "bank_conflicts.csv")
    if os.path.exists(bank):
        b = {r["kernel"]: r for r in read_csv(bank, BANK, BANK[1:])}
        ways = [(b[n]["ld_wavefronts"] + b[n]["st_wavefronts"]) / (b[n]["ld_instructions"] + b[n]["st_instructions"])
                if n in b else 0 for n in names]
        ax.barh([i + 0.4 for i in y], ways, color="tab:purple", height=0.4,
                label="mean n-way conflict (ncu wavefronts / instructions)")
    ax.set_yticks([i + 0.2 for i in y])
    ax.set_yticklabels(names, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("times")
    ax.legend(fontsize=8, loc="lower right")


def ordered_sizes(rows):
    seen = []
    for r in rows:
        if r["size"] not in seen:
            seen.append(r["size"])
    return seen


def plot_lines(ax, rows, references, xlabel, logx_values=False):
    sizes = ordered_sizes(rows)
    xs = {s: i for i, s in enumerate(sizes)}
    for k in dict.fromkeys(r["kernel"] for r in rows):
        pts = [(xs[r["size"]], r["gbps"]) for r in rows if r["kernel"] == k]
        style = {"linestyle": "--", "linewidth": 2.2, "color": references[k]} if k in references else {"marker": "o"}
        ax.plot([p[0] for p in pts], [p[1] for p in pts], label=k, **style)
    labels = [f"2^{int(round(math.log2(int(s))))}" if logx_values and s.isdigit() else s for s in sizes]
    ax.set_xticks(range(len(sizes)))
    ax.set_xticklabels(labels, fontsize=8)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("GB/s (read + write, GB = 1e9)")
    ax.legend(fontsize=7, ncol=2)
    ax.grid(alpha=0.3)


def plot_transpose(ax, rows, _dir):
    plot_lines(ax, rows, {"copy": "black", "copyGmem": "gray", "cublasSgeam": "tab:green"}, "matrix side n (n x n), then rows x cols")


def plot_stencil_1d(ax, rows, _dir):
    plot_lines(ax, rows, {"copy": "black"}, "N (floats)", logx_values=True)


def _cluster_rows(data_dir, gpu):
    """The chapter 11 table of one GPU; a table from before the `dist` column measured the source's input."""
    rows = read_csv(os.path.join(data_dir, gpu, "cluster_histogram.csv"), REQUIRED["cluster_histogram"], NUMERIC)
    for r in rows:
        r.setdefault("dist", "" if r["kernel"] in ("copy", "read_reference") else "source")
        r["dist"] = r["dist"] or ""
    return rows


def _best_per_bins(rows, pred):
    """For each bin count, the fastest row that pred accepts: (bins, GB/s, row), in bin order."""
    best = {}
    for r in rows:
        if r["bins"] and pred(r) and (r["bins"] not in best or r["gbps"] > best[r["bins"]]["gbps"]):
            best[r["bins"]] = r
    return [(float(b), best[b]["gbps"], best[b]) for b in sorted(best, key=float)]


CLUSTER_FAMILIES = [  # (label, which rows, colour, style)
    ("global_atomics", lambda r: r["kernel"] == "global_atomics", "tab:red", ":^"),
    ("cub_HistogramEven", lambda r: r["kernel"] == "cub_HistogramEven", "tab:green", "--s"),
    ("clusterHist_kernel (source), best cluster size", lambda r: r["kernel"] == "clusterHist_kernel", "tab:purple", "--D"),
    ("ours, best of histVec4 / histPacked", lambda r: r["kernel"].startswith("hist"), "tab:blue", "-o"),
]


def _reference_line(ax, rows, values):
    """read_reference as a labelled line; log y from below the slowest value to above the line."""
    ref = [r["gbps"] for r in rows if r["kernel"] == "read_reference"]
    for g in ref:
        ax.axhline(g, color="black", linestyle="--", linewidth=1)
        ax.text(256, g * 1.08, f"read_reference {g:.0f}", fontsize=7, va="bottom")
    ax.set_yscale("log")
    values = list(values) + ref
    if values:
        ax.set_ylim(min(values) / 1.5, max(values) * 1.8)


def draw_cluster_histogram(data_dir, gpus, out_dir, title):
    """cluster_histogram.png: per GPU (rows) and input (columns), GB/s against bins for the four
    families and read_reference. cluster_histogram_clusters.png: every cluster size of the source's
    kernel and of histVec4, per GPU, on the uniform input (the source's, for an old table)."""
    written = []
    tables = {g: _cluster_rows(data_dir, g) for g in gpus}
    metas = [meta_of(os.path.join(data_dir, g), g) for g in gpus]

    fig, axes = plt.subplots(len(gpus), 2, figsize=FIGSIZE, dpi=DPI, squeeze=False, sharex=True)
    for gi, g in enumerate(gpus):
        rows = tables[g]
        for di, dist in enumerate(("uniform", "source")):
            ax = axes[gi][di]
            drows = [r for r in rows if r["dist"] == dist]
            values = []
            for label, pred, color, style in CLUSTER_FAMILIES:
                pts = _best_per_bins(drows, pred)
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], style, color=color, label=label, markersize=4)
                    values += [p[1] for p in pts]
            if not drows:
                ax.text(0.5, 0.5, "not measured in this table", transform=ax.transAxes, ha="center", fontsize=9)
            ax.set_xscale("log", base=2)
            _reference_line(ax, rows, values)
            ax.set_title(f"{metas[gi]['gpu']}: {dist} input", fontsize=9)
            ax.set_ylabel("GB/s of input read", fontsize=8)
            ax.grid(alpha=0.3, which="both")
            if gi == len(gpus) - 1:
                ax.set_xlabel("bins")
    stamp(fig, metas, title)
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=4, fontsize=8)
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    written.append(os.path.join(out_dir, "cluster_histogram.png"))
    fig.savefig(written[-1], dpi=DPI)
    plt.close(fig)

    fig, axes = panels(len(gpus))
    sizes = ["1", "2", "4", "8", "16"]
    colors = dict(zip(sizes, ["tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple"]))
    for ax, g, meta in zip(axes, gpus, metas):
        rows = tables[g]
        dist = "uniform" if any(r["dist"] == "uniform" for r in rows) else "source"
        values = []
        for kernel, style in (("histVec4", "-o"), ("clusterHist_kernel", "--s")):
            for c in sizes:
                pts = [(float(r["bins"]), r["gbps"]) for r in rows
                       if r["kernel"] == kernel and r["cluster"] == c and r["dist"] == dist]
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], style, color=colors[c], markersize=3,
                            label=f"{kernel}, cluster {c}")
                    values += [p[1] for p in pts]
        ax.set_xscale("log", base=2)
        _reference_line(ax, rows, values)
        ax.set_title(f"{meta['gpu']}: {dist} input. Solid: histVec4; dashed: clusterHist_kernel", fontsize=8)
        ax.set_xlabel("bins")
        ax.set_ylabel("GB/s of input read", fontsize=8)
        ax.grid(alpha=0.3, which="both")
    stamp(fig, metas, "Chapter 11 cluster histogram: every cluster size (distributed shared memory)")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=5, fontsize=7)
    fig.tight_layout(rect=(0, 0.12, 1, 1))
    written.append(os.path.join(out_dir, "cluster_histogram_clusters.png"))
    fig.savefig(written[-1], dpi=DPI)
    plt.close(fig)
    return written


def plot_matMul(ax, rows, _dir):
    for k in dict.fromkeys(r["kernel"] for r in rows):
        pts = [(r["n"], r["tflops"]) for r in rows if r["kernel"] == k]
        style = {"linestyle": "--", "linewidth": 2.2, "color": "black"} if k.startswith("cublas") else {"marker": "o"}
        ax.plot([p[0] for p in pts], [p[1] for p in pts], label=k, **style)
    ax.set_xscale("log", base=2)
    ax.set_xticks(sorted({r["n"] for r in rows}))
    ax.set_xticklabels([f"{int(n)}" for n in sorted({r["n"] for r in rows})], fontsize=8)
    ax.set_xlabel("n (C = A B, all n x n, FP32)")
    ax.set_ylabel("TFLOP/s (2 n^3 / time)")
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)


PLOTS = {
    "warpReduce": ("Chapter 04 warpReduce: full-array sum, 2^28 ints", plot_warpReduce),
    "reduceInteger": ("Chapter 06 reduceInteger: the book's reductions against CUB, 2^28 ints", plot_reduceInteger),
    "setRowReadCol": ("Chapter 05 setRowReadCol: the cost of bank conflicts", plot_setRowReadCol),
    "transpose": ("Chapter 07 transpose: GB/s against matrix size", plot_transpose),
    "stencil_1d": ("Chapter 09 stencil_1d: GB/s against N", plot_stencil_1d),
    "cluster_histogram": ("Chapter 11 cluster histogram: GB/s against bins, best of each family", None),
    "matMul": ("Chapter 08 matMul: FP32 TFLOP/s against n, cublasSgemm without TF32", plot_matMul),
}
NUMERIC = ["bytes", "time_ms", "gbps"]
OWN_FIGURES = {"cluster_histogram": draw_cluster_histogram}  # chapters that lay out their own figures
NUMERIC_OF = {"matMul": ["n", "time_ms", "tflops", "pct_of_cublas"]}  # tables that are not GB/s


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--data-dir", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "data"))
    p.add_argument("--out-dir", default=os.path.dirname(os.path.abspath(__file__)))
    p.add_argument("--gpu", default=None, help="a folder under DATA_DIR, or 'all' (default: the first)")
    o = p.parse_args(argv)

    if not os.path.isdir(o.data_dir):
        print(f"plot_timings: no data directory {o.data_dir}", file=sys.stderr)
        return 2
    gpus = sorted(d for d in os.listdir(o.data_dir) if os.path.isdir(os.path.join(o.data_dir, d)))
    if o.gpu and o.gpu != "all":
        if o.gpu not in gpus:
            print(f"plot_timings: no data for GPU '{o.gpu}' in {o.data_dir} (have: {', '.join(gpus) or 'none'})",
                  file=sys.stderr)
            return 2
        gpus = [o.gpu]
    elif o.gpu is None:
        gpus = gpus[:1]
    if not gpus:
        print(f"plot_timings: no GPU folders in {o.data_dir}", file=sys.stderr)
        return 2
    os.makedirs(o.out_dir, exist_ok=True)

    written, missing = [], []
    try:
        for chapter, (title, draw) in PLOTS.items():
            present = [g for g in gpus if os.path.exists(os.path.join(o.data_dir, g, chapter + ".csv"))]
            if not present:
                missing.append(chapter)
                continue
            if chapter in OWN_FIGURES:
                written += OWN_FIGURES[chapter](o.data_dir, present, o.out_dir, title)
                continue
            fig, axes = panels(len(present))
            metas = []
            for ax, g in zip(axes, present):
                gdir = os.path.join(o.data_dir, g)
                rows = read_csv(os.path.join(gdir, chapter + ".csv"), REQUIRED[chapter], NUMERIC_OF.get(chapter, NUMERIC))
                draw(ax, rows, gdir)
                metas.append(meta_of(gdir, g))
                if len(present) > 1:
                    ax.set_title(metas[-1]["gpu"], fontsize=9)
            stamp(fig, metas, title)
            fig.tight_layout()
            out = os.path.join(o.out_dir, chapter + ".png")
            fig.savefig(out, dpi=DPI)
            plt.close(fig)
            written.append(out)
    except DataError as e:
        print(f"plot_timings: {e}", file=sys.stderr)
        return 2
    for w in written:
        print(f"wrote {w}")
    if missing:
        print("no data for: " + ", ".join(missing))
    return 0


if __name__ == "__main__":
    sys.exit(main())
