"""Chapter 06's measured tables, quoted numbers and figure (format: plots/plot_timings.py)."""
from plot_timings import Col, DataError, Field, Figure, Table, Value, span

CSV = "reduceInteger.csv"
CUB = "cub_DeviceReduce_Sum"


def draw(ax, rows, _gpu_dir):
    """Two bars per kernel: the whole sum (time_ms) and, where there is one, the first pass alone."""
    width = 0.4
    for i, r in enumerate(rows):
        k = r["kernel"]
        color = ("tab:gray" if k in ("copy", "cudaMemcpy") else "tab:green" if k.startswith("cub") else
                 "tab:orange" if k == "reduceUnrollShflVec" else "tab:blue")
        ax.bar(i - width / 2, r["gbps"], width, color=color)
        ax.text(i - width / 2, r["gbps"], f"{r['gbps']:.0f}", ha="center", va="bottom", fontsize=7)
        if r["first_pass_ms"] != "":
            g = r["bytes"] / (r["first_pass_ms"] * 1e-3) / 1e9
            ax.bar(i + width / 2, g, width, color=color, alpha=0.45)
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels([r["kernel"] for r in rows], rotation=30, ha="right", fontsize=8)
    ax.set_ylabel("GB/s of input read (n x 4 bytes, GB = 1e9); copy: read + write")
    # The key in a legend (the panel's title is the GPU's name): colour = whose kernel, pale = the
    # first pass alone. The pale bars carry no number, so that neighbouring labels do not collide.
    from matplotlib.patches import Patch
    ax.legend(handles=[Patch(color="tab:blue", label="the source's kernels"), Patch(color="tab:orange", label="ours"),
                       Patch(color="tab:green", label="CUB"), Patch(color="tab:gray", label="copy, cudaMemcpy"),
                       Patch(color="tab:gray", alpha=0.45, label="pale: the first pass alone (what 004 times)")],
              fontsize=7, loc="upper left", ncol=2)
    ax.set_ylim(0, ax.get_ylim()[1] * 1.3)  # room for the legend above the tallest bars


FIGURES = [
    Figure("reduceInteger", CSV, ["kernel", "size", "bytes", "time_ms", "gbps", "pct_of_copy", "first_pass_ms",
                                  "pct_of_cub"],
           "Chapter 06 reduceInteger: the book's reductions against CUB, 2^28 ints", "panel", draw=draw),
]


# ---------------------------------------------------------------------------------------------- tables
SOURCE = ["reduceGmem", "reduceSmem", "reduceSmemUnroll", "reduceSmemUnrollDyn", "reduceShfl", "reduceSmemUnrollShfl"]
UNROLLED = ["reduceSmemUnroll", "reduceSmemUnrollDyn", "reduceSmemUnrollShfl"]
WHAT = {
    "reduceGmem": "book: tree in global memory", "reduceSmem": "book: tree in shared memory",
    "reduceSmemUnroll": "book: + 4 elements per thread", "reduceSmemUnrollDyn": "book: the same, dynamic shared memory",
    "reduceShfl": "book (003 §5.6.3): warp shuffles, no tree", "reduceSmemUnrollShfl": "book: unroll 4, tree to 32, shuffles",
    "reduceUnrollShflVec": "**ours**: 16-byte loads, 4 in flight, GPU-sized grid, + `reduceFinal`",
    CUB: "the library peer (whole sum)", "copy": "bandwidth reference (read + write)",
}


def bold_if_ours(fmt):
    def cell(r, q):
        text = fmt.format(**r)
        return f"**{text}**" if r["kernel"] == "reduceUnrollShflVec" and text else text
    return cell


def opt(field, fmt):
    return lambda r, q: "" if r[field] == "" else fmt.format(r[field])


def bench(gpu, with_what):
    cols = [Col("kernel", "`{kernel}`" if with_what else "{label}", "l")]
    if with_what:
        cols.append(Col("what it is", "{what}", "l"))
    cols += [Col("time (ms)", bold_if_ours("{time_ms:.4f}")), Col("first pass (ms)", opt("first_pass_ms", "{:.4f}")),
             Col("GB/s", bold_if_ours("{gbps:.0f}")), Col("% of copy's GB/s", "{pct_of_copy:.1f}"),
             Col("% of CUB", lambda r, q: "" if r["pct_of_cub"] == "" else
                 (f"**{r['pct_of_cub']:.1f}**" if r["kernel"] == "reduceUnrollShflVec" else f"{r['pct_of_cub']:.1f}"))]
    rows = [{"kernel": k, "what": WHAT[k],
             "label": "`reduceUnrollShflVec` (**ours**)" if k == "reduceUnrollShflVec" else f"`{k}`"}
            for k in SOURCE + ["reduceUnrollShflVec", CUB, "copy"]]
    return Table(f"reduceInteger.bench.{gpu}", CSV, gpu=gpu, rows=rows, columns=cols)


def thousands(field):
    return lambda r, q: f"{r[field]:,}"


TABLES = [
    bench("h100", True), bench("h200", False),
    Table("reduceInteger.transactions", "reduceInteger_transactions.csv",
          rows=[{"kernel": k, "label": f"`{k}`"} for k in SOURCE] +
               [{"kernel": "reduceUnrollShflVec", "label": "`reduceUnrollShflVec` (ours)"}],
          columns=[Col("kernel", "{label}", "l"), Col("grid", "{grid}"), Col("load sectors", thousands("ld_sectors")),
                   Col("load requests", thousands("ld_requests")), Col("store sectors", thousands("st_sectors")),
                   Col("store requests", thousands("st_requests")),
                   Col("004: load / store transactions", lambda r, q: "" if r["source_ld_transactions"] == "" else
                       f"{r['source_ld_transactions']:,} / {r['source_st_transactions']:,}")]),
]


# ---------------------------------------------------------------------------------------------- values
def t(q, k, field="time_ms"):
    return q(kernel=k)[field]


def unroll_stands_in(q):
    """reduceSmemUnroll's median and ours. The README lets reduceSmemUnroll stand for the book's three
    unrolled kernels because their medians differ by less than the fastest–slowest range of any one
    of them; checked here."""
    rows = [q(kernel=k) for k in UNROLLED]
    gap = max(r["time_ms"] for r in rows) - min(r["time_ms"] for r in rows)
    if gap >= min(r["max_ms"] - r["min_ms"] for r in rows):
        raise DataError(f"{q.path()}: the medians of {UNROLLED} differ by more than one of their ranges")
    return (t(q, "reduceUnrollShflVec"), t(q, "reduceSmemUnroll"))


def finish_lead(q):
    """What adding up the partials takes (the whole sum minus the first pass), ours and reduceSmemUnroll's.
    The README says that on the H100 ours' lead over reduceSmemUnroll is made there, not in the first
    pass; checked here."""
    ours, unroll = (1e3 * (t(q, k) - t(q, k, "first_pass_ms")) for k in ("reduceUnrollShflVec", "reduceSmemUnroll"))
    first = 1e3 * (t(q, "reduceSmemUnroll", "first_pass_ms") - t(q, "reduceUnrollShflVec", "first_pass_ms"))
    if first >= unroll - ours:
        raise DataError(f"{q.path()}: ours' lead over reduceSmemUnroll is no longer mostly made after the first pass")
    return (ours, unroll)


def claims(g):
    P = "reduceInteger."
    return [
        Value(P + f"gmem_to_smem.{g}", CSV, lambda q: (t(q, "reduceGmem"), t(q, "reduceSmem")), "{:.2f} → {:.2f} ms", gpu=g),
        Value(P + f"gmem_to_smem_x.{g}", CSV, lambda q: t(q, "reduceGmem") / t(q, "reduceSmem"), "{:.2f}×", gpu=g),
        Value(P + f"smem_to_unroll.{g}", CSV, lambda q: (t(q, "reduceSmem"), t(q, "reduceSmemUnroll")), "{:.2f} → {:.3f} ms", gpu=g),
        Value(P + f"smem_to_unroll_x.{g}", CSV, lambda q: t(q, "reduceSmem") / t(q, "reduceSmemUnroll"), "{:.1f}×", gpu=g),
        # the same two ratios with the first passes alone, which is what 004 times
        Value(P + f"gmem_to_smem_fp_x.{g}", CSV,
              lambda q: t(q, "reduceGmem", "first_pass_ms") / t(q, "reduceSmem", "first_pass_ms"), "{:.2f}×", gpu=g),
        Value(P + f"smem_to_unroll_fp_x.{g}", CSV,
              lambda q: t(q, "reduceSmem", "first_pass_ms") / t(q, "reduceSmemUnroll", "first_pass_ms"), "{:.1f}×", gpu=g),
        Field(P + f"smem_ms.{g}", CSV, "time_ms", "{:.4f}", g, kernel="reduceSmem"),
        Value(P + f"dyn_vs_static.{g}", CSV, lambda q: (t(q, "reduceSmemUnrollDyn"), t(q, "reduceSmemUnroll")),
              "{:.4f} against {:.4f} ms", gpu=g),
        Value(P + f"shfl_vs_smem.{g}", CSV, lambda q: (t(q, "reduceShfl"), t(q, "reduceSmem")), "{:.4f} against {:.4f} ms", gpu=g),
        Value(P + f"unrollshfl_vs_unroll.{g}", CSV, lambda q: (t(q, "reduceSmemUnrollShfl"), t(q, "reduceSmemUnroll")),
              "{:.4f} against {:.4f} ms", gpu=g),
        # from the program's pct_of_cub (unrounded medians), not the CSV's 4-decimal times
        Value(P + f"ours_vs_cub.{g}", CSV, lambda q: t(q, "reduceUnrollShflVec", "pct_of_cub") / 100, "{:.3f}×", gpu=g),
        Value(P + f"ours_and_cub_ms.{g}", CSV, lambda q: (t(q, "reduceUnrollShflVec"), t(q, CUB)), "{:.4f} against {:.4f} ms", gpu=g),
        Value(P + f"ours_cub_spread.{g}", CSV,
              lambda q: (t(q, "reduceUnrollShflVec", "min_ms"), t(q, "reduceUnrollShflVec", "max_ms"),
                         t(q, CUB, "min_ms"), t(q, CUB, "max_ms")), "{:.4f}–{:.4f} against {:.4f}–{:.4f} ms", gpu=g),
        Value(P + f"unrolled_vs_cub.{g}", CSV, lambda q: span([t(q, CUB) / t(q, k) for k in UNROLLED], "{:.3f}×"), gpu=g),
        Value(P + f"ours_vs_unroll.{g}", CSV, lambda q: t(q, "reduceSmemUnroll") / t(q, "reduceUnrollShflVec"), "{:.2f}×", gpu=g),
        Value(P + f"ours_and_unroll_ms.{g}", CSV, unroll_stands_in, "{:.4f} against {:.4f} ms", gpu=g),
        Field(P + f"ours_pct_of_copy.{g}", CSV, "pct_of_copy", "{:.1f}%", g, kernel="reduceUnrollShflVec"),
        Value(P + f"fp_ours_and_unroll.{g}", CSV,
              lambda q: (t(q, "reduceUnrollShflVec", "first_pass_ms"), t(q, "reduceSmemUnroll", "first_pass_ms")),
              "{:.4f} against {:.4f} ms", gpu=g),
        Value(P + f"unrolled_gbps.{g}", CSV, lambda q: span([t(q, k, "gbps") for k in UNROLLED], unit=" GB/s"), gpu=g),
        # the top README's headline row
        Field(P + f"ours_gbps.{g}", CSV, "gbps", "{:.0f} GB/s", g, kernel="reduceUnrollShflVec"),
    ]


def pair_spread(q):
    """The largest difference, in %, within the shuffle / shared-memory pairs on both GPUs."""
    pairs = [("reduceShfl", "reduceSmem"), ("reduceSmemUnrollShfl", "reduceSmemUnroll")]
    return max(abs(q(gpu=g, kernel=a)["time_ms"] / q(gpu=g, kernel=b)["time_ms"] - 1) * 100
               for g in ("h100", "h200") for a, b in pairs)


def finish_range(q):
    return span([1e3 * (q(gpu=g, kernel=k)["time_ms"] - q(gpu=g, kernel=k)["first_pass_ms"])
                 for g in ("h100", "h200") for k in SOURCE], unit=" µs")


VALUES = claims("h100") + claims("h200") + [
    Value("reduceInteger.finish_us", CSV, finish_range),
    Value("reduceInteger.pair_spread", CSV, pair_spread, "{:.2f}%"),
    Value("reduceInteger.finish_ours_and_unroll.h100", CSV, finish_lead, "{:.1f} against {:.1f} µs", gpu="h100"),
    Value("reduceInteger.copy_h200_vs_h100", CSV,
          lambda q: (q(kernel="copy")["gbps"] / q(gpu="h100", kernel="copy")["gbps"], q(kernel="copy")["gbps"],
                     q(gpu="h100", kernel="copy")["gbps"]), "{:.2f}× the H100's ({:.0f} against {:.0f} GB/s)"),
    Value("reduceInteger.unrolled_h200_over_h100", CSV,
          lambda q: span([100 * (t(q, k, "gbps") / q(gpu="h100", kernel=k)["gbps"] - 1) for k in UNROLLED], sep="–", unit="%")),
]
