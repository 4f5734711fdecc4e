#!/usr/bin/env python3
"""plot_timings.py — redraw the workbook's figures from its recorded timing tables.

Reads DATA_DIR/<gpu>/*.csv (and meta.json: GPU name, CUDA version, date of the run) and writes one
PNG per timed chapter into OUT_DIR:
  warpReduce.png          GB/s per kernel; copy and CUB marked
  setRowReadCol.png       slowdown against row/row per access pattern, beside the n-way conflict
                          measured by Nsight Compute (bank_conflicts.csv)
  transpose.png           GB/s against matrix side for every kernel; copy and cuBLAS as references
  stencil_1d.png          GB/s against N for every variant; copy as reference
  cluster_histogram.png   GB/s against bin count, one line per method and cluster size (log x)
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
    "setRowReadCol": BANDWIDTH + ["slowdown_vs_rowrow"],
    "transpose": BANDWIDTH,
    "stencil_1d": BANDWIDTH,
    "cluster_histogram": ["kernel", "size", "bins", "cluster", "bytes", "time_ms", "gbps", "pct_of_copy"],
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


def plot_cluster_histogram(ax, rows, _dir):
    refs = {r["kernel"]: r["gbps"] for r in rows if r["kernel"] in ("copy", "read_reference")}
    series = {}
    for r in rows:
        if r["kernel"] in refs:
            continue
        label = r["kernel"] + (f" (cluster {r['cluster']})" if r["cluster"] and r["kernel"] != "smem_private" else "")
        series.setdefault(label, []).append((float(r["bins"]), r["gbps"]))
    for label, pts in series.items():
        style = "-o" if label.startswith("histVec4") else "--s" if label.startswith("clusterHist") else ":^"
        ax.plot([p[0] for p in pts], [p[1] for p in pts], style, label=label, markersize=4)
    for name, g in refs.items():
        ax.axhline(g, color="black" if name == "copy" else "gray", linestyle="--", linewidth=1)
        ax.text(ax.get_xlim()[0] if ax.get_xlim()[0] > 0 else 256, g, f" {name} {g:.0f}", fontsize=7, va="bottom")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("bins")
    ax.set_ylabel("GB/s of input read (n x 4 bytes)")
    ax.grid(alpha=0.3)


PLOTS = {
    "warpReduce": ("Chapter 03 warpReduce: full-array sum, 2^28 ints", plot_warpReduce),
    "setRowReadCol": ("Chapter 05 setRowReadCol: the cost of bank conflicts", plot_setRowReadCol),
    "transpose": ("Chapter 07 transpose: GB/s against matrix size", plot_transpose),
    "stencil_1d": ("Chapter 09 stencil_1d: GB/s against N", plot_stencil_1d),
    "cluster_histogram": ("Chapter 11 cluster histogram: GB/s against bins", plot_cluster_histogram),
}
NUMERIC = ["bytes", "time_ms", "gbps"]


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
            fig, axes = panels(len(present))
            metas = []
            for ax, g in zip(axes, present):
                gdir = os.path.join(o.data_dir, g)
                rows = read_csv(os.path.join(gdir, chapter + ".csv"), REQUIRED[chapter], NUMERIC)
                draw(ax, rows, gdir)
                metas.append(meta_of(gdir, g))
                if len(present) > 1:
                    ax.set_title(metas[-1]["gpu"], fontsize=9)
            stamp(fig, metas, title)
            if chapter == "cluster_histogram":  # many lines: one legend for all panels, below them
                handles, labels = axes[0].get_legend_handles_labels()
                fig.legend(handles, labels, loc="lower center", ncol=5, fontsize=7)
                fig.tight_layout(rect=(0, 0.13, 1, 1))
            else:
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
