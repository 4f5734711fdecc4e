"""Chapter 11's measured tables, quoted numbers and figures (format: plots/plot_timings.py).

per_bin() is also what table.py prints and checks the chapter's target against."""
import os

from plot_timings import FIGSIZE, DPI, Col, Figure, Table, Value, _plt, meta_of, read_csv, stamp

CSV = "cluster_histogram.csv"
COLUMNS = ["kernel", "size", "dist", "bins", "cluster", "bytes", "time_ms", "gbps", "pct_of_copy"]
DISTS = ("uniform", "source")
FAMILIES = {  # the four families the table and the figure compare, each at its best row
    "global_atomics": lambda r: r["kernel"] == "global_atomics",
    "cub_HistogramEven": lambda r: r["kernel"] == "cub_HistogramEven",
    "clusterHist_kernel": lambda r: r["kernel"] == "clusterHist_kernel",
    "ours": lambda r: r["kernel"] in ("histVec4", "histPacked"),
}


def best(rows, bins, dist, family):
    c = [r for r in rows if r["bins"] == bins and r["dist"] == dist and FAMILIES[family](r)]
    return max(c, key=lambda r: r["gbps"]) if c else None


def which(r):
    if r["kernel"] == "histPacked":
        return f"`histPacked` {r['counter_bits']}-bit, {r['passes']} pass{'es' if r['passes'] != 1 else ''}"
    return f"`{r['kernel']}` c{r['cluster']}"


def per_bin(rows):
    """[(bins, {dist: {family: row}})] and read_reference's GB/s; KeyError naming what is missing."""
    read = next(r["gbps"] for r in rows if r["kernel"] == "read_reference")
    out = []
    for b in sorted({r["bins"] for r in rows if r["bins"] != ""}):
        cells = {}
        for d in DISTS:
            cells[d] = {f: best(rows, b, d, f) for f in FAMILIES}
            if not all(cells[d].values()):
                raise KeyError(f"{b} bins, {d} input: a family is missing")
        out.append((b, cells))
    return out, read


def ratio(cells, d):
    c = cells[d]
    return c["ours"]["gbps"] / max(c["global_atomics"]["gbps"], c["cub_HistogramEven"]["gbps"])


def table_lines(q):
    rows = q.rows()
    data, read = per_bin(rows)
    lines = ["| bins | `global_atomics` | `cub_HistogramEven` | `clusterHist_kernel` (best c) | best of ours "
             "| which | ours / faster baseline | ours, % of `read_reference` |",
             "|---:|---:|---:|---:|---:|---|---:|---:|"]
    for b, cells in data:
        def both(f):
            return " / ".join(f(cells[d]) for d in DISTS)
        w = [which(cells[d]["ours"]) for d in DISTS]
        lines.append(
            f"| {b} | " + both(lambda c: f"{c['global_atomics']['gbps']:.0f}") + " | "
            + both(lambda c: f"{c['cub_HistogramEven']['gbps']:.0f}") + " | "
            + both(lambda c: f"{c['clusterHist_kernel']['gbps']:.0f} (c{c['clusterHist_kernel']['cluster']})") + " | "
            + both(lambda c: f"{c['ours']['gbps']:.0f}") + " | " + (w[0] if w[0] == w[1] else " / ".join(w)) + " | "
            + " / ".join(f"{ratio(cells, d):.1f}×" for d in DISTS) + " | "
            + " / ".join(f"{100 * cells[d]['ours']['gbps'] / read:.1f}" for d in DISTS) + " |")
    return lines


TABLES = [Table(f"cluster_histogram.per_bin.{g}", CSV, gpu=g, render=table_lines) for g in ("h100", "h200")]


# ---------------------------------------------------------------------------------------------- figures
FIGURE_FAMILIES = [  # (label, family, colour, style)
    ("global_atomics", "global_atomics", "tab:red", ":^"),
    ("cub_HistogramEven", "cub_HistogramEven", "tab:green", "--s"),
    ("clusterHist_kernel (source), best cluster size", "clusterHist_kernel", "tab:purple", "--D"),
    ("ours, best of histVec4 / histPacked", "ours", "tab:blue", "-o"),
]


def _rows(data_dir, gpu):
    return read_csv(os.path.join(data_dir, gpu, CSV), COLUMNS, ["gbps"])


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


def draw_best(data_dir, gpus, out, title):
    """Per GPU (rows) and input (columns), GB/s against bins for the four families and read_reference."""
    plt = _plt()
    metas = [meta_of(os.path.join(data_dir, g), g) for g in gpus]
    fig, axes = plt.subplots(len(gpus), 2, figsize=FIGSIZE, dpi=DPI, squeeze=False, sharex=True)
    for gi, g in enumerate(gpus):
        rows = _rows(data_dir, g)
        bins = sorted({r["bins"] for r in rows if r["bins"] != ""})
        for di, dist in enumerate(DISTS):
            ax = axes[gi][di]
            values = []
            for label, fam, color, style in FIGURE_FAMILIES:
                pts = [(b, best(rows, b, dist, fam)) for b in bins]
                pts = [(b, r["gbps"]) for b, r in pts if r]
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], style, color=color, label=label, markersize=4)
                    values += [p[1] for p in pts]
            if not values:
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
    fig.savefig(out, dpi=DPI)
    plt.close(fig)


def draw_clusters(data_dir, gpus, out, title):
    """Every cluster size of the source's kernel and of histVec4, per GPU, on the uniform input."""
    plt = _plt()
    metas = [meta_of(os.path.join(data_dir, g), g) for g in gpus]
    fig, axes = plt.subplots(1, len(gpus), figsize=FIGSIZE, dpi=DPI, squeeze=False)
    axes = list(axes[0])
    sizes = [1, 2, 4, 8, 16]
    colors = dict(zip(sizes, ["tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple"]))
    for ax, g, meta in zip(axes, gpus, metas):
        rows = _rows(data_dir, g)
        values = []
        for kernel, style in (("histVec4", "-o"), ("clusterHist_kernel", "--s")):
            for c in sizes:
                pts = [(r["bins"], r["gbps"]) for r in rows
                       if r["kernel"] == kernel and r["cluster"] == c and r["dist"] == "uniform"]
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], style, color=colors[c], markersize=3,
                            label=f"{kernel}, cluster {c}")
                    values += [p[1] for p in pts]
        ax.set_xscale("log", base=2)
        _reference_line(ax, rows, values)
        ax.set_title(f"{meta['gpu']}: uniform input. Solid: histVec4; dashed: clusterHist_kernel", fontsize=8)
        ax.set_xlabel("bins")
        ax.set_ylabel("GB/s of input read", fontsize=8)
        ax.grid(alpha=0.3, which="both")
    stamp(fig, metas, title)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=5, fontsize=7)
    fig.tight_layout(rect=(0, 0.12, 1, 1))
    fig.savefig(out, dpi=DPI)
    plt.close(fig)


FIGURES = [
    Figure("cluster_histogram", CSV, COLUMNS,
           "Chapter 11 cluster histogram: GB/s against bins, best of each family", "figure", draw=draw_best,
           numeric=["gbps"]),
    Figure("cluster_histogram_clusters", CSV, COLUMNS,
           "Chapter 11 cluster histogram: every cluster size (distributed shared memory)", "figure",
           draw=draw_clusters, numeric=["gbps"]),
]
