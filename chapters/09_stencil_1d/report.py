"""Chapter 09's measured tables, quoted numbers and figure (format: plots/plot_timings.py).
stencil_1d: the stencil's timings and the race demo's sanitizer log; constant_divergence: k distinct
__constant__ addresses per warp read, and how much of a chase the constant path's first level holds."""
import re

from plot_timings import Col, DataError, Field, Figure, Table, Value, span

CSV = "stencil_1d.csv"

FIGURES = [
    Figure("stencil_1d", CSV, ["kernel", "size", "bytes", "time_ms", "gbps", "pct_of_copy"],
           "Chapter 09 stencil_1d: GB/s against N", "lines",
           references={"copy": "black", "cudaMemcpy": "gray"}, xlabel="N (floats)", xticks="log2"),
]


# ---------------------------------------------------------------------------------------------- tables
BOOK = ["stencil_1d", "stencil_1d_readonly", "stencil_1d_ldg"]
N26, N28, N20 = 2**26, 2**28, 2**20


def at_n(field, n, fmt):
    return lambda r, q: fmt.format(q(kernel=r["kernel"], size=n)[field])


TABLES = [
    Table("stencil_1d.bench", CSV, gpu="h100", key=("kernel", "size"),
          rows=[{"kernel": "stencil_1d", "size": N28, "label": "`stencil_1d` (constant memory)"},
                {"kernel": "stencil_1d_readonly", "size": N28, "label": "`stencil_1d_readonly` (`const __restrict__`)"},
                {"kernel": "stencil_1d_ldg", "size": N28, "label": "`stencil_1d_ldg` (`__ldg`)"},
                {"kernel": "stencil_1d_vec4", "size": N28, "label": "`stencil_1d_vec4` (ours)", "_bold": True},
                {"kernel": "copy", "size": N28, "label": "`copy`"}],
          columns=[Col("kernel", "{label}", "l"),
                   Col("N = 2^26: GB/s", at_n("gbps", N26, "{:.1f}")),
                   Col("% of copy", at_n("pct_of_copy", N26, "{:.1f}")),
                   Col("N = 2^28: GB/s", at_n("gbps", N28, "{:.1f}")),
                   Col("% of copy", at_n("pct_of_copy", N28, "{:.1f}"))]),
]


# ---------------------------------------------------------------------------------------------- values
def coef_spread(q):
    """The largest difference between the three coefficient paths at any N, in %: from gbps, which the
    program computes from the unrounded median (time_ms has only 4 decimals: 0.0241 ms at 2^20)."""
    sizes = sorted({r["size"] for r in q.rows()})
    return max(max(q(kernel=k, size=n)["gbps"] for k in BOOK) / min(q(kernel=k, size=n)["gbps"] for k in BOOK) - 1
               for n in sizes) * 100


def times(n):
    return lambda q: tuple(q(kernel=k, size=n)["time_ms"] for k in BOOK)


def race_log(q):
    """The three compute-sanitizer runs of the race demo (racecheck, synccheck, memcheck), in log order."""
    text = q.text("logs/race_demo.log")
    parts = text.split("========= COMPUTE-SANITIZER")[1:]
    if len(parts) != 3:
        raise DataError(q.path("logs/race_demo.log") + f": {len(parts)} sanitizer runs, expected 3")
    return parts


def summary(part, what):
    m = re.search(rf"{what} SUMMARY: ([^\n]*)", part)
    if not m:
        raise DataError(f"race_demo.log: no {what} SUMMARY line")
    return m.group(1).strip()


def over_reads(q):
    offs = [int(x) for x in re.findall(r"is (\d+) bytes after the nearest allocation", race_log(q)[2])]
    return (offs[0], ", ".join(map(str, offs[1:-1])) + " and " + str(offs[-1]) if len(offs) > 2 else "")


def race_hazards(q):
    """racecheck's hazards in race_demo.log: (reports, words, blocks, reading threads, read line,
    writing threads, write line); one report per byte, so 4 reports per float."""
    part = race_log(q)[0]
    hz = re.findall(r"hazard detected at __shared__ (0x[0-9a-f]+) in block (\(\d+,\d+,\d+\)) :\s*\n"
                    r"=+\s+Read Thread \((\d+),0,0\).*?\.cu:(\d+)\s*\n=+\s+Write Thread \((\d+),0,0\).*?\.cu:(\d+)", part)
    if not hz:
        raise DataError("race_demo.log: no racecheck hazard")

    def threads(xs):
        xs = sorted({int(x) for x in xs})
        return f"{xs[0]}–{xs[-1]}" if xs == list(range(xs[0], xs[-1] + 1)) and len(xs) > 1 else ", ".join(map(str, xs))

    def one(xs, what):
        xs = sorted(set(xs))
        if len(xs) != 1:
            raise DataError(f"race_demo.log: hazards at several {what}: {xs}")
        return xs[0]
    words = len({int(h[0], 16) // 4 for h in hz})
    blocks = " and ".join(sorted({h[1] for h in hz}))
    return (len(hz), words, blocks, threads(h[2] for h in hz), one([h[3] for h in hz], "read lines"),
            threads(h[4] for h in hz), one([h[5] for h in hz], "write lines"))


def coef_overlap(q):
    """Whether the three coefficient paths' min-max ranges overlap at every N."""
    apart = [r["size"] for r in q.rows(where=lambda r: r["kernel"] == "stencil_1d")
             if max(q(kernel=k, size=r["size"])["min_ms"] for k in BOOK) > min(q(kernel=k, size=r["size"])["max_ms"] for k in BOOK)]
    return "overlap at every N" if not apart else "overlap except at N = " + ", ".join(f"2^{n.bit_length() - 1}" for n in apart)


def vec4_against_copy(gpu):
    """stencil_1d_vec4's % of the copy at 2^26 and 2^28 on one GPU."""
    def f(q):
        p = [q(gpu=gpu, kernel="stencil_1d_vec4", size=n)["pct_of_copy"] for n in (N26, N28)]
        return f"{p[0]:.1f}% and {p[1]:.1f}%"
    return f


def halo_vs_book(q):
    """The exercise's and the chapter kernel's median times, in µs, from the stencilHalo checker's line."""
    m = re.search(r"stencilHalo: solutions passed;.*?exercise ([\d.]+) us, stencil_1d \(chapter 09, tiles of 32\) ([\d.]+) us",
                  q.text(EXERCISES))
    if not m:
        raise DataError(q.path(EXERCISES) + ": no stencilHalo timing line")
    return m.groups()


RACE = "logs/race_demo.log"
EXERCISES = "logs/exercises.log"
VALUES = [
    Value("stencil_1d.racecheck.h200", RACE, lambda q: summary(race_log(q)[0], "RACECHECK")),
    Value("stencil_1d.synccheck.h200", RACE, lambda q: summary(race_log(q)[1], "ERROR")),
    Value("stencil_1d.memcheck.h200", RACE, lambda q: summary(race_log(q)[2], "ERROR")),
    Value("stencil_1d.over_read.h200", RACE, over_reads, "{} bytes after the nearest allocation` ({} for the next three)"),
    Value("stencil_1d.coef_spread.h200", CSV, coef_spread, "{:.2f}%"),
    Value("stencil_1d.coef_overlap.h200", CSV, coef_overlap),
    Value("stencil_1d.race_hazards.h200", RACE, race_hazards,
          "{} warnings, one per byte of {} words, all in block {}: threads {} read the words at "
          "`stencil_1d_race_demo.cu:{}`, and threads {} write them at `:{}`"),
    Value("stencil_1d.vec4_vs_copy.h100", CSV, vec4_against_copy("h100"), gpu="h100"),
    Value("stencil_1d.vec4_vs_copy.h200", CSV, vec4_against_copy("h200")),
    Value("stencil_1d.coef_times_26.h200", CSV, times(N26), "{:.4f}, {:.4f} and {:.4f} ms"),
    Value("stencil_1d.coef_times_28.h200", CSV, times(N28), "{:.4f}, {:.4f} and {:.4f} ms"),
    Field("stencil_1d.book_pct_28.h200", CSV, "pct_of_copy", "{:.1f}%", kernel="stencil_1d", size=N28),
    Field("stencil_1d.vec4_pct_20.h100", CSV, "pct_of_copy", "{:.0f}%", "h100", kernel="stencil_1d_vec4", size=N20),
    Value("stencil_1d.copy_20.h100", CSV, lambda q: q(kernel="copy", size=N20)["gbps"] / 1e3, "{:.2f} TB/s", gpu="h100"),
    Value("stencil_1d.coef_times_26.h100", CSV, times(N26), "{:.4f}, {:.4f} and {:.4f} ms", gpu="h100"),
    Value("stencil_1d.book_gbps_both", CSV,
          lambda q: span([q(gpu=g, kernel="stencil_1d", size=n)["gbps"] for g in ("h100", "h200") for n in (N26, N28)], sep="–")),
    Value("stencil_1d.copy_h100_slower", CSV,
          lambda q: (100 * (1 - q(gpu="h100", kernel="copy", size=N28)["gbps"] / q(kernel="copy", size=N28)["gbps"]),
                     q(gpu="h100", kernel="copy", size=N28)["gbps"], q(kernel="copy", size=N28)["gbps"]),
          "{:.0f}% slower ({:.0f} against {:.0f} GB/s at 2^28)"),
    # the SM clock of the book's kernels' runs at 2^26 and 2^28, both GPUs
    Value("stencil_1d.book_mhz_both", CSV,
          lambda q: span([q(gpu=g, kernel=k, size=n)["sm_mhz"] for g in ("h100", "h200") for k in BOOK for n in (N26, N28)],
                         sep="–")),
    # cudaMemcpy's % of the copy kernel, lowest and highest over N, on the H100 (the table's GPU)
    Value("stencil_1d.memcpy_vs_copy.h100", CSV,
          lambda q: span([r["pct_of_copy"] for r in q.rows(where=lambda r: r["kernel"] == "cudaMemcpy")],
                         "{:.1f}%", sep=" to "),
          gpu="h100"),
    # the stencilHalo exercise's solution against the chapter's stencil_1d at N = 1,000,003 (its checker's timing)
    Value("stencil_1d.halo_vs_book.h100", EXERCISES, halo_vs_book, "{} against {} µs", gpu="h100"),
    # the top README's headline row and copy ranges
    Field("stencil_1d.vec4_gbps.h200", CSV, "gbps", "{:.0f} GB/s", kernel="stencil_1d_vec4", size=N28),
    Field("stencil_1d.vec4_gbps.h100", CSV, "gbps", "{:.0f} GB/s", "h100", kernel="stencil_1d_vec4", size=N28),
    Field("stencil_1d.vec4_pct.h200", CSV, "pct_of_copy", "{:.1f}%", kernel="stencil_1d_vec4", size=N28),
    Field("stencil_1d.vec4_pct.h100", CSV, "pct_of_copy", "{:.1f}%", "h100", kernel="stencil_1d_vec4", size=N28),
]


# ---- constant_divergence (appended to the lists above)
CD = "constant_divergence.csv"
CD_GPU = "h100"
CD_KEY = ("experiment", "kernel", "distinct", "stride_bytes", "footprint_bytes")


def cd_rows(experiment, stride, ks):
    return [{"experiment": experiment, "kernel": "constant", "distinct": k, "stride_bytes": stride,
             "footprint_bytes": k * stride} for k in ks]


def cyc(kernel, stride=None):
    """cycles per read of `kernel` in the same row of the table (same k; another stride if given)."""
    def cell(r, q):
        s = r["stride_bytes"] if stride is None else stride
        return f"{q(experiment=r['experiment'], kernel=kernel, distinct=r['distinct'], stride_bytes=s, footprint_bytes=r['distinct'] * s)['cycles_per_read']:.0f}"
    return cell


def fp_cyc(kernel):
    return lambda r, q: f"{q(experiment='footprint', kernel=kernel, footprint_bytes=r['footprint_bytes'])['cycles_per_read']:.0f}"


def footprints(q, gpu=None):
    return [r for r in q.rows(gpu=gpu, where=lambda r: r["experiment"] == "footprint" and r["kernel"] == "constant")]


def constant_l1(q, gpu=None):
    """(last footprint read at the fastest time, first footprint that is slower), in bytes."""
    rows = footprints(q, gpu)
    fast = min(r["cycles_per_read"] for r in rows)
    last = max(r["footprint_bytes"] for r in rows if r["cycles_per_read"] <= 1.1 * fast)
    first = min(r["footprint_bytes"] for r in rows if r["footprint_bytes"] > last)
    return last, first


def per_address(q):
    """Extra cycles per extra distinct address (4 bytes apart): the slope from k = 1 to k = 32."""
    one = q(experiment="divergence", kernel="constant", distinct=1, stride_bytes=4)["cycles_per_read"]
    all32 = q(experiment="divergence", kernel="constant", distinct=32, stride_bytes=4)["cycles_per_read"]
    return (all32 - one) / 31


def c(experiment, kernel, field="cycles_per_read", **m):
    return lambda q: q(experiment=experiment, kernel=kernel, **m)[field]


TABLES = globals().get("TABLES", []) + [  # after any declarations above in this file
    Table("constant_divergence.divergence.h100", CD, gpu=CD_GPU, key=CD_KEY, rows=cd_rows("divergence", 4, [1, 2, 4, 8, 16, 32]),
          columns=[Col("distinct addresses per warp read (k)", "{distinct}"),
                   Col("`__constant__`, 4 B apart", cyc("constant")), Col("`__ldg`, 4 B apart", cyc("ldg")),
                   Col("plain load, 4 B apart", cyc("global")),
                   Col("`__constant__`, 256 B apart", cyc("constant", 256)), Col("`__ldg`, 256 B apart", cyc("ldg", 256)),
                   Col("plain load, 256 B apart", cyc("global", 256))]),
    Table("constant_divergence.footprint.h100", CD, gpu=CD_GPU, key=("experiment", "kernel", "footprint_bytes"),
          rows=[{"experiment": "footprint", "kernel": "constant", "footprint_bytes": f}
                for f in [512, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384, 24576, 32768, 49152, 65536]],
          columns=[Col("bytes chased (one word per 64 B)", "{footprint_bytes:,}"),
                   Col("`__constant__`: cycles per read", fp_cyc("constant")), Col("`__ldg`", fp_cyc("ldg")),
                   Col("plain load", fp_cyc("global"))]),
]

def _values(g):
    return [
        Value("constant_divergence.uniform." + g, CD, c("divergence", "constant", distinct=1, stride_bytes=4), "{:.0f}", gpu=g),
        Value("constant_divergence.uniform_ns." + g, CD, c("divergence", "constant", "ns_per_read", distinct=1, stride_bytes=4),
              "{:.1f}", gpu=g),
        Value("constant_divergence.all32." + g, CD, c("divergence", "constant", distinct=32, stride_bytes=4), "{:.0f}", gpu=g),
        Value("constant_divergence.all32_ratio." + g, CD,
              lambda q: c("divergence", "constant", distinct=32, stride_bytes=4)(q) / c("divergence", "constant", distinct=1, stride_bytes=4)(q),
              "{:.1f}×", gpu=g),
        Value("constant_divergence.per_address." + g, CD, per_address, "{:.1f}", gpu=g),
        Value("constant_divergence.ldg." + g, CD, c("divergence", "ldg", distinct=32, stride_bytes=4), "{:.0f}", gpu=g),
        # 16 words 256 B apart if every one of them misses the first level: the uniform read, 15 more
        # addresses at the per-address step, and 16 first-level misses at the footprint table's cost
        # (64 KB against 512 B); against the measured time
        Value("constant_divergence.miss_model." + g, CD,
              lambda q: (c("divergence", "constant", distinct=1, stride_bytes=4)(q) + 15 * per_address(q)
                         + 16 * (c("footprint", "constant", footprint_bytes=65536)(q) - c("footprint", "constant", footprint_bytes=512)(q)),
                         c("divergence", "constant", distinct=16, stride_bytes=256)(q)),
              "{:,.0f} cycles predicted against {:,.0f} measured", gpu=g),
        Value("constant_divergence.lines32." + g, CD, c("divergence", "constant", distinct=32, stride_bytes=256), "{:.0f}", gpu=g),
        Value("constant_divergence.lines32_ldg." + g, CD, c("divergence", "ldg", distinct=32, stride_bytes=256), "{:.0f}", gpu=g),
        Value("constant_divergence.l1_bounds." + g, CD, constant_l1, "at least {:,} and less than {:,} bytes", gpu=g),
        Value("constant_divergence.l1_last." + g, CD, lambda q: constant_l1(q)[0], "{:,} bytes", gpu=g),
        Value("constant_divergence.l1_first." + g, CD, lambda q: constant_l1(q)[1], "{:,} bytes", gpu=g),
        Value("constant_divergence.l1_hit." + g, CD, c("footprint", "constant", footprint_bytes=512), "{:.0f}", gpu=g),
        Value("constant_divergence.l1_miss." + g, CD, c("footprint", "constant", footprint_bytes=65536), "{:.0f}", gpu=g),
        Value("constant_divergence.sm_mhz." + g, CD, lambda q: max(r["sm_mhz"] for r in q.rows()), "{:.0f}", gpu=g),
    ]


VALUES = globals().get("VALUES", []) + _values("h100") + _values("h200")  # after any declarations above


def cd_gaps(q, beyond):
    """The two GPUs' differences, in % of the H100's cycles per read, over the constant reads whose
    bytes (footprint_bytes) exceed the H100's first constant level (beyond=True), or over every
    other row."""
    last = constant_l1(q, "h100")[0]
    h100 = {(r["experiment"], r["kernel"], r["distinct"], r["stride_bytes"], r["footprint_bytes"]): r["cycles_per_read"]
            for r in q.rows(gpu="h100")}
    out = []
    for r in q.rows(gpu="h200"):
        if (r["kernel"] == "constant" and r["footprint_bytes"] > last) == beyond:
            out.append((r["cycles_per_read"] / h100[(r["experiment"], r["kernel"], r["distinct"], r["stride_bytes"],
                                                      r["footprint_bytes"])] - 1) * 100)
    return out


VALUES += [Value("constant_divergence.h200_vs_h100", CD, lambda q: max(abs(x) for x in cd_gaps(q, False)), "{:.2f}%", gpu="h200"),
           # the H200 faster on every one of them: the README says "fewer cycles"
           Value("constant_divergence.h200_beyond_l1", CD,
                 lambda q: span([-x for x in cd_gaps(q, True)], "{:.1f}", sep=" to ") + "%" if max(cd_gaps(q, True)) < 0
                 else _refuse(q.path(), "the H200 is not faster on every constant read beyond the first level"), gpu="h200")]


def _refuse(path, why):
    raise DataError(f"{path}: {why}")


COLORS = {"constant": "tab:red", "ldg": "tab:blue", "global": "tab:green"}
MARKS = {"constant": "o", "ldg": "s", "global": "x"}  # ldg and global often coincide: both stay visible


def draw_divergence(ax, rows):
    for kernel, col in COLORS.items():
        for stride, style in ((4, "-"), (256, ":")):
            pts = [(r["distinct"], r["cycles_per_read"]) for r in rows
                   if r["experiment"] == "divergence" and r["kernel"] == kernel and r["stride_bytes"] == stride]
            ax.plot([p[0] for p in pts], [p[1] for p in pts], style, marker=MARKS[kernel], color=col,
                    label=f"{kernel}, {stride} B apart")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xticks([1, 2, 4, 8, 16, 32])
    ax.set_xticklabels(["1", "2", "4", "8", "16", "32"])
    ax.set_xlabel("distinct addresses per warp read (k)")
    ax.set_ylabel("cycles per dependent warp read (log)")
    ax.legend(fontsize=7, ncol=2)
    ax.grid(alpha=0.3)


def draw_footprint(ax, rows):
    for kernel, col in COLORS.items():
        pts = [(r["footprint_bytes"] / 1024, r["cycles_per_read"]) for r in rows
               if r["experiment"] == "footprint" and r["kernel"] == kernel]
        ax.plot([p[0] for p in pts], [p[1] for p in pts], "-", marker=MARKS[kernel], color=col, label=kernel)
    ax.set_xscale("log", base=2)
    ax.set_xticks([0.5, 1, 2, 4, 8, 16, 32, 64])
    ax.set_xticklabels(["0.5", "1", "2", "4", "8", "16", "32", "64"])
    ax.set_ylim(bottom=0)
    ax.set_xlabel("KB chased by all lanes together (one word per 64 B)")
    ax.set_ylabel("cycles per dependent warp read")
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)


def draw_cd(data_dir, gpus, out_path, title):
    """One row per GPU: divergence (left), working set (right)."""
    import os

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from plot_timings import DPI, FIGSIZE, meta_of, read_csv, stamp
    fig, axes = plt.subplots(len(gpus), 2, figsize=FIGSIZE, dpi=DPI, squeeze=False)
    metas = []
    for (left, right), g in zip(axes, gpus):
        rows = read_csv(os.path.join(data_dir, g, CD))
        draw_divergence(left, rows)
        draw_footprint(right, rows)
        metas.append(meta_of(os.path.join(data_dir, g), g))
        left.set_title(f"{metas[-1]['gpu']}: lanes on k different words", fontsize=9)
        right.set_title(f"{metas[-1]['gpu']}: one address per read, footprint grows", fontsize=9)
    stamp(fig, metas, title)
    fig.tight_layout()
    fig.savefig(out_path, dpi=DPI)
    plt.close(fig)


FIGURES = globals().get("FIGURES", []) + [  # after any declarations above in this file
    Figure("constant_divergence", CD, ["experiment", "kernel", "distinct", "stride_bytes", "footprint_bytes",
                                       "cycles_per_read"],
           "Chapter 09 constant_divergence: one warp's dependent reads, __constant__ vs __ldg vs plain loads", "figure",
           draw=draw_cd, numeric=["cycles_per_read", "distinct", "footprint_bytes"],
           made_by="chapters/09_stencil_1d/gpu_extras.sh"),
]
