"""Chapter 11's measured tables, quoted numbers and figures (format: plots/plot_timings.py).

per_bin() is also what table.py prints and checks the chapter's target against."""
import math
import os

from plot_timings import DPI, FIGSIZE, DataError, Figure, Table, Value, _plt, meta_of, read_csv, span, stamp

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
    """Every cluster size of 004's kernel (clusterHist_kernel) and of histVec4, per GPU, on the uniform input."""
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


# ---------------------------------------------------------------------------------------------- values
GPUS = ("h100", "h200")
BIG = (65536, 131072, 262144)


def row(q, gpu, kernel, bins, dist="uniform", **kw):
    return q(gpu=gpu, kernel=kernel, bins=bins, dist=dist, **kw)


def fam(q, gpu, bins, dist, family):
    r = best(q.rows(gpu=gpu), bins, dist, family)
    if r is None:
        raise DataError(f"{q.path(gpu=gpu)}: no {family} row at {bins} bins, {dist}")
    return r


def ref(q, gpu, kernel="read_reference", field="gbps"):
    return q(gpu=gpu, kernel=kernel)[field]


def pair(fn, fmt="{:.0f}"):
    """fn(q, gpu) on each GPU, "H100 / H200"."""
    return lambda q: " / ".join(fmt.format(fn(q, g)) for g in GPUS)


def ratio_of(q, g, bins, dist):
    data, _ = per_bin(q.rows(gpu=g))
    return ratio(dict(data)[bins], dist)


def packed(q, g, dist="uniform"):
    return [r for r in q.rows(gpu=g) if r["kernel"] == "histPacked" and r["dist"] == dist and r["bins"] in BIG]


def per_pass(q, g, bits=(8, 16, 32), dists=("uniform", "source")):
    return [r["time_ms"] / r["passes"] for d in dists for r in packed(q, g, d) if r["counter_bits"] in bits]


def source_vs_uniform(q, g):
    """The largest extra time of the `source` (clamped) input over uniform among the histPacked rows: (%, row u, row s)."""
    worst = None
    for u in packed(q, g):
        s = row(q, g, "histPacked", u["bins"], "source", counter_bits=u["counter_bits"])
        d = 100 * (s["time_ms"] / u["time_ms"] - 1)
        if worst is None or d > worst[0]:
            worst = (d, u, s)
    return worst


def hot_slowdown(q, g):
    """global_atomics on `source` as % of its GB/s on `uniform`, from 4,096 bins on: (lowest, highest)."""
    v = [100 * fam(q, g, b, "source", "global_atomics")["gbps"] / fam(q, g, b, "uniform", "global_atomics")["gbps"]
         for b in (4096, 16384, 32768) + BIG]
    return min(v), max(v)


def passes_table(q):
    lines = ["| bins | 32-bit counters | 16-bit counters | 8-bit counters |", "|---:|---:|---:|---:|"]
    for b in BIG:
        cells, times = [], {}
        for bits in (32, 16, 8):
            try:
                rs = [row(q, g, "histPacked", b, counter_bits=bits) for g in GPUS]
            except DataError:
                rs = None
            times[bits] = rs
        fastest = min((rs[0]["time_ms"], bits) for bits, rs in times.items() if rs)[1]
        for bits in (32, 16, 8):
            rs = times[bits]
            if rs is None:
                cells.append("(not run)")
                continue
            p = rs[0]["passes"]
            text = f"{p} pass{'es' if p != 1 else ''}, " + " / ".join(f"{r['time_ms']:.3f}" for r in rs) + " ms"
            cells.append(f"**{text}**" if bits == fastest else text)
        lines.append(f"| {b:,} | " + " | ".join(cells) + " |")
    return lines


TABLES += [Table("cluster_histogram.passes", CSV, render=passes_table)]


def speedup(q, g, bins, dist, num, den):
    return fam(q, g, bins, dist, num)["gbps"] / fam(q, g, bins, dist, den)["gbps"]


def packed_best(q, g, bins):
    return max((r for r in packed(q, g) if r["bins"] == bins), key=lambda r: r["gbps"])


def small_pct(q, g, kernel, **kw):
    """(lowest, highest) % of read_reference of one kernel at <= 32,768 bins, both inputs."""
    v = [100 * r["gbps"] / ref(q, g) for r in q.rows(gpu=g) if r["kernel"] == kernel and r["bins"] != "" and r["bins"] <= 32768
         and all(r[k] == x for k, x in kw.items())]
    return (f"{min(v):.1f}", f"{max(v):.1f}")


P = "cluster_histogram."
VALUES = [
    Value(P + "hot_atomics_pct", CSV, lambda q: tuple(x for g in GPUS for x in hot_slowdown(q, g)),
          "{:.0f} to {:.0f}% of their uniform speed on the H100, {:.0f} to {:.0f}% on the H200"),
    Value(P + "read_reference", CSV, lambda q: tuple(ref(q, g) for g in GPUS), "{:.0f} GB/s on the H100 and {:.0f} GB/s"),
    Value(P + "copy", CSV, lambda q: tuple(ref(q, g, "copy") for g in GPUS), "{:.0f} and {:.0f} GB/s"),
    Value(P + "ratio_range.h100", CSV, lambda q: span([ratio_of(q, "h100", b, d) for b in (1024, 4096, 16384, 32768) + BIG
                                                      for d in DISTS], "{:.1f}") + "×"),
    Value(P + "ratio_range.h200", CSV, lambda q: span([ratio_of(q, "h200", b, d) for b in (1024, 4096, 16384, 32768) + BIG
                                                      for d in DISTS], "{:.1f}") + "×"),
    Value(P + "ratio_262144", CSV, lambda q: tuple(ratio_of(q, g, 262144, d) for g in GPUS for d in DISTS),
          "{:.1f}× / {:.1f}× and {:.1f}× / {:.1f}×"),
    Value(P + "cub_256.h100", CSV, lambda q: fam(q, "h100", 256, "uniform", "cub_HistogramEven")["gbps"], "{:.0f} GB/s"),
    Value(P + "pct_256.h100", CSV, lambda q: tuple(100 * fam(q, "h100", 256, d, "ours")["gbps"] / ref(q, "h100") for d in DISTS),
          "{:.1f}% / {:.1f}%"),
    Value(P + "ratio_256.h200", CSV, lambda q: tuple(ratio_of(q, "h200", 256, d) for d in DISTS), "{:.1f}× / {:.1f}×"),
    # a lower bound ("at >= x%"): rounded down, not to nearest
    Value(P + "min_pct_small.h100", CSV, lambda q: math.floor(10 * min(100 * fam(q, "h100", b, d, "ours")["gbps"] / ref(q, "h100")
                                                      for b in (256, 1024, 4096, 16384) for d in DISTS)) / 10, "{:.1f}%"),
    Value(P + "min_pct_small.h200", CSV, lambda q: math.floor(10 * min(100 * fam(q, "h200", b, d, "ours")["gbps"] / ref(q, "h200")
                                                      for b in (256, 1024, 4096, 16384) for d in DISTS)) / 10, "{:.1f}%"),
    Value(P + "read_ms", CSV, lambda q: tuple(ref(q, g, field="time_ms") for g in GPUS), "{:.2f} ms for 1 GiB on the H100, {:.2f} ms"),
    Value(P + "source_extra.h100", CSV, lambda q: source_vs_uniform(q, "h100")[0], "{:.2f}%"),
    Value(P + "source_extra.h200", CSV,
          lambda q: (lambda w: f"{w[0]:.0f}% longer on the H200 ({w[1]['counter_bits']}-bit counters at {w[1]['bins']:,} bins: "
                               f"{w[2]['time_ms']:.3f} against {w[1]['time_ms']:.3f} ms)")(source_vs_uniform(q, "h200"))),
    Value(P + "pass_ms.h100", CSV, lambda q: span(per_pass(q, "h100"), "{:.2f}") + " ms"),
    Value(P + "pass_pct.h100", CSV, lambda q: span([100 * ref(q, "h100", field="time_ms") / t for t in per_pass(q, "h100")]) + "%"),
    Value(P + "pass32_ms.h200", CSV, lambda q: span(per_pass(q, "h200", (32,)), "{:.2f}") + " ms"),
    Value(P + "pass32_pct.h200", CSV, lambda q: span([100 * ref(q, "h200", field="time_ms") / t for t in per_pass(q, "h200", (32,))]) + "%"),
    Value(P + "pass_narrow_ms.h200", CSV, lambda q: span(per_pass(q, "h200", (8, 16)), "{:.2f}") + " ms"),
    Value(P + "pass_narrow_pct.h200", CSV,
          lambda q: span([100 * ref(q, "h200", field="time_ms") / t for t in per_pass(q, "h200", (8, 16))]) + "%"),
    Value(P + "one_vs_two", CSV, lambda q: tuple(row(q, g, "histPacked", 65536, counter_bits=32)["time_ms"]
                                                  / row(q, g, "histPacked", 65536, counter_bits=16)["time_ms"] for g in GPUS),
          "{:.1f}× on the H100 and {:.1f}× on the H200"),
    Value(P + "vec4_c1_c2", CSV, lambda q: tuple(row(q, g, "histVec4", 256, cluster=c)["gbps"] for c in (1, 2) for g in GPUS),
          "{:.0f} / {:.0f} GB/s with cluster 1 to {:.0f} / {:.0f} GB/s with cluster 2"),
    Value(P + "vec4_c16", CSV, pair(lambda q, g: row(q, g, "histVec4", 256, cluster=16)["gbps"])),
    Value(P + "source_c1_vs_smem", CSV,
          lambda q: (pair(lambda q, g: row(q, g, "clusterHist_kernel", 256, cluster=1)["gbps"])(q),
                     pair(lambda q, g: row(q, g, "smem_private", 256)["gbps"])(q)), "{} GB/s against {}"),
    Value(P + "dsm_vs_atomics.source", CSV,
          lambda q: tuple(pair(lambda q, g: speedup(q, g, b, "source", "clusterHist_kernel", "global_atomics"), "{:.1f}×")(q) for b in BIG),
          "{} at 65,536 bins, {} at 131,072 and {} at 262,144"),
    Value(P + "dsm_vs_atomics.uniform", CSV,
          lambda q: tuple(pair(lambda q, g: speedup(q, g, b, "uniform", "clusterHist_kernel", "global_atomics"), "{:.3f}×")(q)
                          for b in BIG[:2]), "{} at 65,536, {} at 131,072"),
    Value(P + "dsm_262144.uniform", CSV,
          lambda q: tuple(fam(q, g, 262144, "uniform", k)["gbps"] for g in GPUS for k in ("clusterHist_kernel", "global_atomics")),
          "{:.0f} against {:.0f} GB/s on the H100, {:.0f} against {:.0f} on the H200"),
    Value(P + "packed_vs_dsm", CSV,
          lambda q: tuple(pair(lambda q, g: packed_best(q, g, b)["gbps"] / fam(q, g, b, "uniform", "clusterHist_kernel")["gbps"],
                               "{:.1f}×")(q) for b in BIG),
          "{} at 65,536 bins, {} at 131,072 and {} at 262,144"),
    Value(P + "cluster_ms", CSV,
          lambda q: span([r["time_ms"] for g in GPUS for r in q.rows(gpu=g)
                          if r["kernel"] in ("clusterHist_kernel", "histVec4") and r["dist"] == "uniform" and r["bins"] in BIG],
                         "{:.1f}") + " ms"),
    Value(P + "four_passes", CSV,
          lambda q: pair(lambda q, g: 4 * row(q, g, "histPacked", 262144, counter_bits=8)["time_ms"]
                         / row(q, g, "histPacked", 262144, counter_bits=8)["passes"], "{:.1f}")(q) + " ms"),
    Value(P + "c16_262144", CSV, lambda q: span([row(q, g, "clusterHist_kernel", 262144, cluster=16)["time_ms"] for g in GPUS], "{:.1f}")
          + " ms"),
    Value(P + "cub_ends", CSV,
          lambda q: (pair(lambda q, g: fam(q, g, 256, "uniform", "cub_HistogramEven")["gbps"])(q),
                     pair(lambda q, g: fam(q, g, 262144, "uniform", "cub_HistogramEven")["gbps"])(q)),
          "{} GB/s) but falls to {} GB/s"),
    Value(P + "atomics_ends", CSV,
          lambda q: (span([fam(q, g, 256, "uniform", "global_atomics")["gbps"] for g in GPUS]),
                     pair(lambda q, g: fam(q, g, 262144, "uniform", "global_atomics")["gbps"])(q)),
          "{} GB/s at 256 on both, {} at 262,144"),
    Value(P + "vec4_small_pct.h100", CSV, lambda q: small_pct(q, "h100", "histVec4", cluster=1), "{} to {}%"),
    Value(P + "vec4_small_pct.h200", CSV, lambda q: small_pct(q, "h200", "histVec4", cluster=1), "{} to {}%"),
    Value(P + "packed32_small_pct", CSV,
          lambda q: small_pct(q, "h100", "histPacked", counter_bits=32, passes=1) + small_pct(q, "h200", "histPacked", counter_bits=32, passes=1),
          "{} to {}% on the H100 and {} to {}% on the H200"),
    # 32,768 bins fit in one block, yet clusterHist_kernel is fastest at cluster 2 (uniform).
    Value(P + "dsm_32768_c1_c2", CSV,
          lambda q: (pair(lambda q, g: row(q, g, "clusterHist_kernel", 32768, cluster=1)["gbps"])(q),
                     pair(lambda q, g: row(q, g, "clusterHist_kernel", 32768, cluster=2)["gbps"])(q)),
          "{} GB/s at cluster 1 against {} at cluster 2"),
    Value(P + "dsm_vs_atomics_32768", CSV,
          lambda q: pair(lambda q, g: speedup(q, g, 32768, "uniform", "clusterHist_kernel", "global_atomics"), "{:.2f}×")(q)),
    # clusterHist_kernel's code path is the same at every cluster size: cluster 1 against 2 is what a
    # cluster of 2 costs as a whole (remote adds, each bin shared by two blocks' threads, and a grid
    # that is not logged).
    Value(P + "source_c1_c2", CSV,
          lambda q: (pair(lambda q, g: row(q, g, "clusterHist_kernel", 256, cluster=1)["gbps"])(q),
                     pair(lambda q, g: row(q, g, "clusterHist_kernel", 256, cluster=2)["gbps"])(q)),
          "{} GB/s at cluster 1 to {} at cluster 2"),
    # the top README's headline rows
    Value(P + "vec4_16384.h200", CSV, lambda q: tuple(fam(q, "h200", 16384, d, "ours")["gbps"] for d in DISTS), "{:.0f} / {:.0f} GB/s"),
    Value(P + "vec4_16384.h100", CSV, lambda q: tuple(fam(q, "h100", 16384, d, "ours")["gbps"] for d in DISTS), "{:.0f} / {:.0f} GB/s"),
    Value(P + "vec4_16384_pct.h200", CSV, lambda q: span([100 * fam(q, "h200", 16384, d, "ours")["gbps"] / ref(q, "h200") for d in DISTS])
          + "%"),
    Value(P + "ratio_16384.h200", CSV, lambda q: tuple(ratio_of(q, "h200", 16384, d) for d in DISTS), "{:.1f}× / {:.1f}×"),
    Value(P + "ratio_16384.h100", CSV, lambda q: tuple(ratio_of(q, "h100", 16384, d) for d in DISTS), "{:.1f}× / {:.1f}×"),
    Value(P + "packed_262144.h200", CSV, lambda q: tuple(fam(q, "h200", 262144, d, "ours")["gbps"] for d in DISTS), "{:.0f} / {:.0f} GB/s"),
    Value(P + "packed_262144.h100", CSV, lambda q: tuple(fam(q, "h100", 262144, d, "ours")["gbps"] for d in DISTS), "{:.0f} / {:.0f} GB/s"),
    Value(P + "ratio_262144.h200", CSV, lambda q: tuple(ratio_of(q, "h200", 262144, d) for d in DISTS), "{:.1f}× / {:.1f}×"),
    Value(P + "ratio_262144.h100", CSV, lambda q: tuple(ratio_of(q, "h100", 262144, d) for d in DISTS), "{:.1f}× / {:.1f}×"),
    Value(P + "which_262144.h200", CSV, lambda q: which(fam(q, "h200", 262144, "uniform", "ours")).replace("`histPacked` ", "")),
    Value(P + "which_16384.h200", CSV, lambda q: which(fam(q, "h200", 16384, "uniform", "ours")).split(" ")[0]),
]
