"""Chapter 09's measured tables, quoted numbers and figure (format: plots/plot_timings.py)."""
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
    Table("stencil_1d.bench", CSV, key=("kernel", "size"),
          rows=[{"kernel": "stencil_1d", "size": N28, "label": "`stencil_1d` (constant memory)"},
                {"kernel": "stencil_1d_readonly", "size": N28, "label": "`stencil_1d_readonly` (`const __restrict__`)"},
                {"kernel": "stencil_1d_ldg", "size": N28, "label": "`stencil_1d_ldg` (`__ldg`)"},
                {"kernel": "stencil_1d_vec4", "size": N28, "label": "`stencil_1d_vec4` (ours)", "_bold": True},
                {"kernel": "copy", "size": N28, "label": "`copy`"}],
          columns=[Col("kernel", "{label}", "l"),
                   Col("N = 2^26: GB/s", lambda r, q: f"{q(kernel=r['kernel'], size=N26)['gbps']:.1f}"
                       if r["kernel"] in BOOK else f"{q(kernel=r['kernel'], size=N26)['gbps']:.0f}"),
                   Col("% of copy", at_n("pct_of_copy", N26, "{:.1f}")),
                   Col("N = 2^28: GB/s", lambda r, q: f"{q(kernel=r['kernel'], size=N28)['gbps']:.1f}"
                       if r["kernel"] in BOOK else f"{q(kernel=r['kernel'], size=N28)['gbps']:.0f}"),
                   Col("% of copy", at_n("pct_of_copy", N28, "{:.1f}"))]),
]


# ---------------------------------------------------------------------------------------------- values
def coef_spread(q):
    """The largest difference between the three coefficient paths at any N, in %."""
    sizes = sorted({r["size"] for r in q.rows()})
    return max(max(q(kernel=k, size=n)["time_ms"] for k in BOOK) / min(q(kernel=k, size=n)["time_ms"] for k in BOOK) - 1
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


RACE = "logs/race_demo.log"
VALUES = [
    Value("stencil_1d.racecheck.h200", RACE, lambda q: summary(race_log(q)[0], "RACECHECK")),
    Value("stencil_1d.synccheck.h200", RACE, lambda q: summary(race_log(q)[1], "ERROR")),
    Value("stencil_1d.memcheck.h200", RACE, lambda q: summary(race_log(q)[2], "ERROR")),
    Value("stencil_1d.over_read.h200", RACE, over_reads, "{} bytes after the nearest allocation` ({} for the next three)"),
    Value("stencil_1d.coef_spread.h200", CSV, coef_spread, "{:.1f}%"),
    Value("stencil_1d.coef_times_26.h200", CSV, times(N26), "{:.4f}, {:.4f} and {:.4f} ms"),
    Value("stencil_1d.coef_times_28.h200", CSV, times(N28), "{:.4f}, {:.4f} and {:.4f} ms"),
    Field("stencil_1d.book_pct_28.h200", CSV, "pct_of_copy", "{:.1f}%", kernel="stencil_1d", size=N28),
    Field("stencil_1d.vec4_pct_26.h200", CSV, "pct_of_copy", "{:.1f}%", kernel="stencil_1d_vec4", size=N26),
    Field("stencil_1d.vec4_pct_28.h200", CSV, "pct_of_copy", "{:.1f}%", kernel="stencil_1d_vec4", size=N28),
    Field("stencil_1d.vec4_pct_20.h200", CSV, "pct_of_copy", "{:.0f}%", kernel="stencil_1d_vec4", size=N20),
    Value("stencil_1d.copy_20.h200", CSV, lambda q: q(kernel="copy", size=N20)["gbps"] / 1e3, "{:.2f} TB/s"),
    Field("stencil_1d.vec4_pct_26.h100", CSV, "pct_of_copy", "{:.1f}%", "h100", kernel="stencil_1d_vec4", size=N26),
    Value("stencil_1d.vec4_28.h100", CSV,
          lambda q: (q(kernel="stencil_1d_vec4", size=N28)["pct_of_copy"], q(kernel="stencil_1d_vec4", size=N28)["gbps"]),
          "{:.1f}% at 2^28 ({:.0f} GB/s)", gpu="h100"),
    Value("stencil_1d.coef_times_26.h100", CSV, times(N26), "{:.4f}, {:.4f} and {:.4f} ms", gpu="h100"),
    Value("stencil_1d.book_gbps_both", CSV,
          lambda q: span([q(gpu=g, kernel="stencil_1d", size=n)["gbps"] for g in ("h100", "h200") for n in (N26, N28)], sep="–")),
    Value("stencil_1d.copy_h100_slower", CSV,
          lambda q: (100 * (1 - q(gpu="h100", kernel="copy", size=N28)["gbps"] / q(kernel="copy", size=N28)["gbps"]),
                     q(gpu="h100", kernel="copy", size=N28)["gbps"], q(kernel="copy", size=N28)["gbps"]),
          "{:.0f}% slower ({:.0f} against {:.0f} GB/s at 2^28)"),
    # the top README's headline row and copy ranges
    Field("stencil_1d.vec4_gbps.h200", CSV, "gbps", "{:.0f} GB/s", kernel="stencil_1d_vec4", size=N28),
    Field("stencil_1d.vec4_gbps.h100", CSV, "gbps", "{:.0f} GB/s", "h100", kernel="stencil_1d_vec4", size=N28),
    Field("stencil_1d.vec4_pct.h200", CSV, "pct_of_copy", "{:.1f}%", kernel="stencil_1d_vec4", size=N28),
    Field("stencil_1d.vec4_pct.h100", CSV, "pct_of_copy", "{:.1f}%", "h100", kernel="stencil_1d_vec4", size=N28),
]
