"""Chapter 04's measured tables, quoted numbers and figure (format: plots/plot_timings.py).
warpReduce.csv: the full-array sum; shfl_vs_smem.csv: one exchange through a shuffle or through
shared memory."""
from plot_timings import Col, DataError, Figure, Table, Value

CSV = "warpReduce.csv"
SV = "shfl_vs_smem.csv"
CUB = "cub_DeviceReduce_Sum"


def pct_of_cub(r, q):
    if r["kernel"] == "copy":
        return ""
    return f"{100 * r['gbps'] / q(kernel=CUB)['gbps']:.1f}"


TABLES = [
    Table("warpReduce.bench", CSV, gpu="h200", rows=[
        {"kernel": "reduceVec4", "what": "**ours**: 16-byte loads, 4 in flight per thread, persistent grid, one launch"},
        {"kernel": CUB, "what": "the library peer"},
        {"kernel": "copy", "what": "bandwidth reference (read + write)"},
    ], columns=[
        Col("kernel", "`{kernel}`", "l"), Col("what it is", "{what}", "l"), Col("time (ms)", "{time_ms:.4f}"),
        Col("GB/s", "{gbps:.0f}"), Col("% of copy", "{pct_of_copy:.1f}"), Col("% of CUB", pct_of_cub),
    ]),
]


def cub_spread(q):
    """CUB's sum of the same 2^28 unsigned ints into an unsigned int, in chapters 04 and 06 of one
    run: the spread in %. (Chapter 10's CUB sums ints into a long long: another reduction.)"""
    g = [q(kernel=CUB)["gbps"], q(csv="reduceInteger.csv", kernel=CUB)["gbps"]]
    return 100 * (max(g) / min(g) - 1)


def gbps_range(r):
    """A row's slowest and fastest run in GB/s (GB = 1e9), as the CSV's gbps is its median's."""
    return r["bytes"] / r["max_ms"] / 1e6, r["bytes"] / r["min_ms"] / 1e6


def overlap(a, b):
    """Whether two (slowest, fastest) ranges share a value."""
    return a[0] <= b[1] and b[0] <= a[1]


def cub_range(q):
    """CUB's range, after checking the README's words about the ranges on this GPU: CUB's
    overlaps `reduceVec4`'s, yet CUB's median is above `reduceVec4`'s fastest run; `reduceVec4`'s
    overlaps the copy's; on the H100 CUB's overlaps the copy's too, and CUB's median is above the
    copy's fastest run; on the H200 CUB's slowest run is above the copy's fastest in this file, but
    chapter 06's CUB and copy ranges of the same run overlap."""
    vec4, cub, copy = (gbps_range(q(kernel=k)) for k in ("reduceVec4", CUB, "copy"))
    median = q(kernel=CUB)["gbps"]
    words = {"CUB's and reduceVec4's ranges overlap": overlap(cub, vec4),
             "CUB's median is above reduceVec4's fastest run": median > vec4[1],
             "reduceVec4's and the copy's ranges overlap": overlap(vec4, copy)}
    if q.gpu == "h100":
        words["CUB's and the copy's ranges overlap"] = overlap(cub, copy)
        words["CUB's median is above the copy's fastest run"] = median > copy[1]
    elif q.gpu == "h200":
        cub6, copy6 = (gbps_range(q(csv="reduceInteger.csv", kernel=k)) for k in (CUB, "copy"))
        words["CUB's slowest run is above the copy's fastest"] = cub[0] > copy[1]
        words["chapter 06's CUB and copy ranges of the same run (reduceInteger.csv) overlap"] = overlap(cub6, copy6)
    for claim, holds in words.items():
        if not holds:
            raise DataError(f"{q.path()}: the README says {claim}; it no longer holds")
    return cub


VALUES = [
    Value("warpReduce.cub_in_ch06.h200", "reduceInteger.csv", lambda q: q(kernel=CUB)["gbps"], "{:.0f}"),
    Value("warpReduce.cub_gbps.h200", CSV, lambda q: q(kernel=CUB)["gbps"], "{:.0f}"),
    Value("warpReduce.cub_spread.h200", CSV, cub_spread, "{:.1f}%"),
    # the 50 runs' slowest and fastest, as bandwidth (bytes over max_ms, then over min_ms)
    Value("warpReduce.vec4_gbps_range.h200", CSV, lambda q: gbps_range(q(kernel="reduceVec4")), "{:.0f} to {:.0f}"),
    Value("warpReduce.cub_gbps_range.h200", CSV, cub_range, "{:.0f} to {:.0f}"),
    Value("warpReduce.copy_gbps_range.h200", CSV, lambda q: gbps_range(q(kernel="copy")), "{:.0f} to {:.0f}"),
    # the same run's chapter 06 timing of the same CUB sum and copy
    Value("warpReduce.cub_gbps_range_ch06.h200", "reduceInteger.csv", lambda q: gbps_range(q(kernel=CUB)), "{:.0f} to {:.0f}"),
    Value("warpReduce.copy_gbps_range_ch06.h200", "reduceInteger.csv", lambda q: gbps_range(q(kernel="copy")), "{:.0f} to {:.0f}"),
    Value("warpReduce.vec4_gbps.h200", CSV, lambda q: q(kernel="reduceVec4")["gbps"], "{:.0f}"),
    Value("warpReduce.vec4_pct_of_cub.h200", CSV,
          lambda q: 100 * q(kernel="reduceVec4")["gbps"] / q(kernel=CUB)["gbps"], "{:.1f}%"),
    Value("warpReduce.vec4_pct_of_copy.h200", CSV, lambda q: q(kernel="reduceVec4")["pct_of_copy"], "{:.0f}%"),
    Value("warpReduce.vec4_gbps.h100", CSV, lambda q: q(kernel="reduceVec4")["gbps"], "{:.0f}", gpu="h100"),
    Value("warpReduce.vec4_pct_of_cub.h100", CSV,
          lambda q: 100 * q(kernel="reduceVec4")["gbps"] / q(kernel=CUB)["gbps"], "{:.1f}%", gpu="h100"),
    Value("warpReduce.cub_gbps.h100", CSV, lambda q: q(kernel=CUB)["gbps"], "{:.0f}", gpu="h100"),
    Value("warpReduce.vec4_pct_of_copy.h100", CSV, lambda q: q(kernel="reduceVec4")["pct_of_copy"], "{:.0f}%", gpu="h100"),
    Value("warpReduce.copy_gbps.h100", CSV, lambda q: q(kernel="copy")["gbps"], "{:.0f}", gpu="h100"),
    Value("warpReduce.vec4_gbps_range.h100", CSV, lambda q: gbps_range(q(kernel="reduceVec4")), "{:.0f} to {:.0f}", gpu="h100"),
    Value("warpReduce.cub_gbps_range.h100", CSV, cub_range, "{:.0f} to {:.0f}", gpu="h100"),
    Value("warpReduce.copy_gbps_range.h100", CSV, lambda q: gbps_range(q(kernel="copy")), "{:.0f} to {:.0f}", gpu="h100"),
    # the top README's headline row
    Value("warpReduce.vec4_vs_cub.h200", CSV,
          lambda q: q(kernel="reduceVec4")["gbps"] / q(kernel=CUB)["gbps"], "{:.3f}×"),
    Value("warpReduce.vec4_vs_cub.h100", CSV,
          lambda q: q(kernel="reduceVec4")["gbps"] / q(kernel=CUB)["gbps"], "{:.3f}×", gpu="h100"),
]

FIGURES = [
    Figure("warpReduce", CSV, ["kernel", "size", "bytes", "time_ms", "gbps", "pct_of_copy"],
           "Chapter 04 warpReduce: full-array sum, 2^28 ints", "bar",
           colors={"copy": "tab:gray", "cudaMemcpy": "tab:gray", "cub*": "tab:green"},
           subtitle="sum of {size:,} ints; blue: ours, green: CUB, gray: the two copies"),
]

# ---- shfl_vs_smem: one exchange through a shuffle or through shared memory


def shfl_vs_smem(gpu):
    rows = [{"experiment": e, "warps_per_sm": w, "ilp": i, "kernel": "shfl", "what": what} for e, w, i, what in [
        ("latency", 1, 1, "latency: one warp, a dependent chain"),
        ("throughput", 1, 8, "one warp, 8 independent chains"),
        ("throughput", 64, 1, "SM full (64 warps), 1 chain each"),
        ("throughput", 64, 8, "SM full (64 warps), 8 chains each"),
    ]]

    def other(field, fmt):
        return lambda r, q: fmt.format(q(experiment=r["experiment"], warps_per_sm=r["warps_per_sm"], ilp=r["ilp"],
                                         kernel="smem")[field])

    def ratio(r, q):
        s = q(experiment=r["experiment"], warps_per_sm=r["warps_per_sm"], ilp=r["ilp"], kernel="smem")
        return f"{r['warp_exchanges_per_sm_cycle'] / s['warp_exchanges_per_sm_cycle']:.2f}×"

    return Table(f"shfl_vs_smem.table.{gpu}", SV, gpu=gpu, key=("experiment", "warps_per_sm", "ilp", "kernel"), rows=rows,
                 columns=[Col("case", "{what}", "l"),
                          Col("shfl: median warp's cycles per step", "{cycles_per_step:.1f}"),
                          Col("smem: median warp's cycles per step", other("cycles_per_step", "{:.1f}")),
                          Col("shfl: warp exchanges per SM cycle", "{warp_exchanges_per_sm_cycle:.3f}"),
                          Col("smem: warp exchanges per SM cycle", other("warp_exchanges_per_sm_cycle", "{:.3f}")),
                          Col("rate, shfl / smem", ratio)])


TABLES += [shfl_vs_smem("h100"), shfl_vs_smem("h200")]


def sv(gpu, field, **k):
    return Value(f"shfl_vs_smem.{field}.{'_'.join(f'{v}' for v in k.values())}.{gpu}", SV,
                 lambda q: q(**k)[field], "{:.1f}" if field == "cycles_per_step" else "{:.3f}", gpu=gpu)


def sv_ratio(gpu, warps, ilp):
    def f(q):
        a = q(kernel="shfl", experiment="throughput", warps_per_sm=warps, ilp=ilp)
        b = q(kernel="smem", experiment="throughput", warps_per_sm=warps, ilp=ilp)
        if (warps, ilp) == (1, 8):
            # the README: one warp with 8 chains runs at about a quarter of both full-SM rates
            for r in (a, b):
                full = q(kernel=r["kernel"], experiment="throughput", warps_per_sm=64, ilp=8)
                share = r["warp_exchanges_per_sm_cycle"] / full["warp_exchanges_per_sm_cycle"]
                if abs(share - 0.25) > 0.025:
                    raise DataError(f"{q.path()}: the README says one warp with 8 chains runs at about a "
                                    f"quarter of the full SM's {r['kernel']} rate; it is {share:.3f}")
        return a["warp_exchanges_per_sm_cycle"] / b["warp_exchanges_per_sm_cycle"]
    return Value(f"shfl_vs_smem.ratio.{warps}_{ilp}.{gpu}", SV, f, "{:.2f}×", gpu=gpu)


def no_convert(q):
    """Why the full-SM rows' two kinds of column do not convert: 64 warps x 8 exchanges over the
    median warp's cycles per step, against the rate over the SM's span (shfl, 8 chains)."""
    r = q(kernel="shfl", experiment="throughput", warps_per_sm=64, ilp=8)
    return r["cycles_per_step"], 64 * 8 / r["cycles_per_step"], r["warp_exchanges_per_sm_cycle"]


def latency_saved(q):
    """Cycles per step that the shuffle's dependent chain saves against the shared-memory one."""
    return (q(kernel="smem", experiment="latency")["cycles_per_step"]
            - q(kernel="shfl", experiment="latency")["cycles_per_step"])


VALUES.append(Value("shfl_vs_smem.latency_saved.h100", SV, latency_saved, "{:.1f}", gpu="h100"))
VALUES.append(Value("shfl_vs_smem.no_convert.h100", SV, no_convert, "64 × 8 / {:.1f} = {:.2f}, not {:.3f}", gpu="h100"))

for _g in ("h100", "h200"):
    VALUES += [sv(_g, "cycles_per_step", kernel="shfl", experiment="latency"),
               sv(_g, "cycles_per_step", kernel="smem", experiment="latency"),
               sv(_g, "warp_exchanges_per_sm_cycle", kernel="shfl", experiment="throughput", warps_per_sm=64, ilp=8),
               sv(_g, "warp_exchanges_per_sm_cycle", kernel="smem", experiment="throughput", warps_per_sm=64, ilp=8),
               sv_ratio(_g, 64, 8), sv_ratio(_g, 64, 1), sv_ratio(_g, 1, 8)]
