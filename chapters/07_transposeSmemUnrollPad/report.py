"""Chapter 07's measured tables, quoted numbers and figure (format: plots/plot_timings.py):
transpose.csv and transpose_smem_wavefronts.csv (transposeSmemUnrollPad.cu), and cache_config.csv
(cache_config.cu: cudaFuncSetCacheConfig and the shared-memory carveout on three transposes)."""
import math
import re

from plot_timings import Col, DataError, Field, Figure, Table, Value, span

CSV = "transpose.csv"

FIGURES = [
    Figure("transpose", CSV, ["kernel", "size", "bytes", "time_ms", "gbps", "pct_of_copy"],
           "Chapter 07 transpose: GB/s against matrix size", "lines",
           references={"copy": "black", "cudaMemcpy": "tab:brown", "copyGmem": "gray", "cublasSgeam": "tab:green"},
           xlabel="matrix side n (n x n), then rows x cols"),
]


# ---------------------------------------------------------------------------------------------- tables
BOOK = ["copyGmem", "naiveGmem", "transposeSmem", "transposeSmemPad", "transposeSmemUnroll", "transposeSmemUnrollPad"]
SOURCE_004 = {"transposeSmem": "8,460,165 / 533,345", "transposeSmemPad": "545,540 / 533,686"}  # quoted from 004
BIG, MID = 16384, 8192


def at_size(field, size, fmt, bold=False):
    def cell(r, q):
        text = fmt.format(q(kernel=r["kernel"], size=size)[field])
        return f"**{text}**" if bold and r["kernel"] == "transposeTiled" else text
    return cell


def vs(other, fmt, bold=False, blank=()):
    """This kernel's GB/s over `other`'s, at 16384²."""
    def cell(r, q):
        if r["kernel"] in blank:
            return ""
        x = q(kernel=r["kernel"], size=BIG)["gbps"] / q(kernel=other, size=BIG)["gbps"]
        text = fmt.format(x)
        return f"**{text}**" if bold and r["kernel"] == "transposeTiled" else text
    return cell


def per_instr(r, q):
    return f"{r['ld_wavefronts'] / r['ld_instructions']:.2f} / {r['st_wavefronts'] / r['st_instructions']:.2f}"


TABLES = [
    Table("transpose.bench.h100", CSV, gpu="h100", key=("kernel",),
          rows=[{"kernel": k, "label": f"`{k}`"} for k in BOOK] + [
              {"kernel": "transposeTiled", "label": "**`transposeTiled` (ours)**"},
              {"kernel": "transposeTiled_colsFirst", "label": "`transposeTiled_colsFirst` (ours, numbered across)"},
              {"kernel": "transposeTiled_plainLoads", "label": "`transposeTiled_plainLoads` (ours, no L2::256B hint)"},
              {"kernel": "cublasSgeam", "label": "`cublasSgeam`"}, {"kernel": "copy", "label": "`copy` (16-byte)"}],
          columns=[
              Col("kernel", "{label}", "l"), Col("8192² GB/s", at_size("gbps", MID, "{:.0f}", True)),
              Col("% copyGmem", at_size("pct_of_copy", MID, "{:.1f}")),
              Col("16384² GB/s", at_size("gbps", BIG, "{:.0f}", True)),
              Col("% copyGmem", at_size("pct_of_copy", BIG, "{:.1f}")),
              Col("% of `copy` (16384²)", lambda r, q: "" if r["kernel"] == "copy" else
                  vs("copy", "{:.1%}", True)(r, q).replace("%", "")),
              Col("vs cuBLAS (16384²)", vs("cublasSgeam", "{:.3f}×", True, blank=("copy",))),
          ]),
]
# The table picks its rows by kernel and size; rows of other sizes are the same kernels.
TABLES[0].rows = [dict(r, size=BIG) for r in TABLES[0].rows]
TABLES[0].key = ("kernel", "size")


def wavefronts(gpu):
    return Table(f"transpose.wavefronts.{gpu}", "transpose_smem_wavefronts.csv", gpu=gpu,
                 rows=[{"kernel": k, "src": SOURCE_004.get(k, "")} for k in
                       ["transposeSmem", "transposeSmemPad", "transposeSmemUnroll", "transposeSmemUnrollPad"]],
                 columns=[Col("kernel", "`{kernel}`", "l"), Col("004: shared load / store transactions", "{src}"),
                          Col("ours: load / store wavefronts", lambda r, q: f"{r['ld_wavefronts']:,} / {r['st_wavefronts']:,}"),
                          Col("load / store instructions", lambda r, q: f"{r['ld_instructions']:,} / {r['st_instructions']:,}"),
                          Col("load / store bank conflicts", lambda r, q: f"{r['ld_conflicts']:,} / {r['st_conflicts']:,}"),
                          Col("wavefronts per load / store", per_instr)])


TABLES += [wavefronts("h100")]


# ---------------------------------------------------------------------------------------------- values
def tiled_vs_cublas(size):
    return lambda q: q(kernel="transposeTiled", size=size)["gbps"] / q(kernel="cublasSgeam", size=size)["gbps"] * 100


def ld_per_instr(k):
    return lambda q: q(kernel=k)["ld_wavefronts"] / q(kernel=k)["ld_instructions"]


def ld_cut(pad, plain):
    return lambda q: q(kernel=plain)["ld_wavefronts"] / q(kernel=pad)["ld_wavefronts"]


W = "transpose_smem_wavefronts.csv"
SOURCE_GBPS_4096 = {  # 004's times at 4096 x 4096, recomputed as GB/s (its own figure is 1000x too small)
    "copyGmem": 460.5, "naiveGmem": 135.0, "transposeSmem": 390.7, "transposeSmemPad": 411.4, "transposeSmemUnrollPad": 416.1}
SOURCE_004_MS = {  # 004's tables at 4096 x 4096, in the order it prints them: one run each
    "transposeSmem": [0.343520, 0.404192, 0.377856], "transposeSmemPad": [0.326272, 0.326656],
    "transposeSmemUnrollPad": [0.322560]}
SOURCE_004_NCU = {  # 004's ncu device-memory read / write throughput (GB/s) at 4096 x 4096, one run each
    "transposeSmemPad": (205.98, 178.52), "transposeSmemUnrollPad": (206.65, 186.28)}
SMALL = 2048
SOURCE_004_SMEM_LD = {"transposeSmem": 8460165, "transposeSmemPad": 545540}  # 004's shared load transactions


def pad_ld_instructions(q):
    """transposeSmemPad's shared load instructions at --profile's 4096², which the launch fixes:
    128 x 256 blocks of 16 warps, one column read each (004's grid, the same as ours)."""
    n = q(kernel="transposeSmemPad")["ld_instructions"]
    if n != 128 * 256 * 16:
        raise DataError(f"{q.path()}: transposeSmemPad's {n} load instructions are not 128 x 256 x 16")
    return n


def pct_range(kernels):
    """The lowest and highest % of copyGmem of `kernels` over every bench shape."""
    def f(q):
        xs = [r["pct_of_copy"] for r in q.rows(where=lambda r: r["kernel"] in kernels)]
        return (min(xs), max(xs))
    return f


def slower_small(q):
    """How many rows of the CSV at 2048² (kernels, copy and cudaMemcpy) run slower than at 16384²."""
    ks = [r["kernel"] for r in q.rows(where=lambda r: str(r["size"]) == str(SMALL))]
    n = sum(q(kernel=k, size=SMALL)["gbps"] < q(kernel=k, size=BIG)["gbps"] for k in ks)
    return f"all {n}" if n == len(ks) else f"{n} of the {len(ks)}"


VALUES = [
    Value("transpose.unrollpad.h100", CSV,
          lambda q: (q(kernel="transposeSmemUnrollPad", size=BIG)["gbps"], q(kernel="transposeSmemUnrollPad", size=BIG)["pct_of_copy"]),
          "{:.0f} GB/s at 16384², {:.0f}%", gpu="h100"),
    Value("transpose.slower_small.h100", CSV, slower_small, "{}", gpu="h100"),
    Value("transpose.copy_small_big.h100", CSV,
          lambda q: (q(kernel="copy", size=SMALL)["gbps"], q(kernel="copy", size=BIG)["gbps"],
                     1000 * q(kernel="copy", size=SMALL)["time_ms"]),
          "{:.0f} GB/s at 2048² against {:.0f} GB/s at 16384², in a kernel of {:.0f} µs", gpu="h100"),
    Value("transpose.pad_cut.h100", W, ld_cut("transposeSmemPad", "transposeSmem"), "{:.1f}×", gpu="h100"),
    Value("transpose.unrollpad_cut.h100", W, ld_cut("transposeSmemUnrollPad", "transposeSmemUnroll"), "{:.1f}×", gpu="h100"),
    Value("transpose.first_pair.h200", W, lambda q: (ld_per_instr("transposeSmem")(q), ld_per_instr("transposeSmemPad")(q)),
          "{:.2f} and {:.2f}"),
    Value("transpose.unrolled_pair.h200", W,
          lambda q: (ld_per_instr("transposeSmemUnroll")(q), ld_per_instr("transposeSmemUnrollPad")(q)), "{:.2f} and {:.2f}"),
    Value("transpose.unpadded_per_instr.h100", W,
          lambda q: (ld_per_instr("transposeSmem")(q), ld_per_instr("transposeSmemUnroll")(q)), "{:.2f} and {:.2f}",
          gpu="h100"),
    Value("transpose.padded_per_instr.h100", W,
          lambda q: (ld_per_instr("transposeSmemPad")(q), ld_per_instr("transposeSmemUnrollPad")(q),
                     q(kernel="transposeSmemPad")["st_wavefronts"] / q(kernel="transposeSmemPad")["st_instructions"],
                     q(kernel="transposeSmemUnrollPad")["st_wavefronts"] / q(kernel="transposeSmemUnrollPad")["st_instructions"]),
          "{:.2f} and {:.2f} for loads, {:.2f} and {:.2f} for stores", gpu="h100"),
    Value("transpose.vs_004.h100", CSV,
          lambda q: span([q(kernel=k, size=4096)["gbps"] / g for k, g in SOURCE_GBPS_4096.items()], "{:.1f}", sep="–") + "×",
          gpu="h100"),
    Value("transpose.pad_vs_unrollpad_4096.h100", CSV,
          lambda q: tuple(q(kernel=k, size=4096)[f] for k in ("transposeSmemPad", "transposeSmemUnrollPad")
                          for f in ("time_ms", "min_ms", "max_ms")),
          "{:.4f} ms ({:.4f}–{:.4f}) against {:.4f} ms ({:.4f}–{:.4f})", gpu="h100"),
    # 004's own single-run times at 4096² (quoted, SOURCE_004_MS): the unroll's gain against the
    # spread of one kernel's times over its tables
    Value("transpose.004_unroll_gain", CSV,
          lambda q: 100 * (SOURCE_004_MS["transposeSmemPad"][-1] / SOURCE_004_MS["transposeSmemUnrollPad"][-1] - 1), "{:.1f}%"),
    Value("transpose.004_smem_spread", CSV,
          lambda q: 100 * (max(SOURCE_004_MS["transposeSmem"]) / min(SOURCE_004_MS["transposeSmem"]) - 1), "{:.0f}%"),
    # 004's ncu throughputs (quoted, SOURCE_004_NCU): what unrolling added to read and write
    Value("transpose.004_ncu_gain", CSV,
          lambda q: tuple(100 * (SOURCE_004_NCU["transposeSmemUnrollPad"][i] / SOURCE_004_NCU["transposeSmemPad"][i] - 1)
                          for i in (0, 1)), "+{:.1f}% read and +{:.1f}% write"),
    Value("transpose.004_pad_ld", W, lambda q: SOURCE_004_SMEM_LD["transposeSmemPad"], "{:,}", gpu="h100"),
    Value("transpose.pad_ld_instructions.h100", W, pad_ld_instructions, "{:,}", gpu="h100"),
    Value("transpose.unroll_pct_range.h100", CSV, pct_range(["transposeSmemUnroll"]), "{:.0f}% to {:.0f}%", gpu="h100"),
    Value("transpose.more_per_thread_min_pct.h100", CSV, lambda q: pct_range(["transposeSmemUnrollPad", "transposeTiled"])(q)[0],
          "{:.0f}%", gpu="h100"),
    Value("transpose.004_pad_cut", CSV,
          lambda q: SOURCE_004_SMEM_LD["transposeSmem"] / SOURCE_004_SMEM_LD["transposeSmemPad"], "{:.1f}×"),
    # the top README's headline row
    Field("transpose.tiled_gbps.h200", CSV, "gbps", "{:.0f} GB/s", kernel="transposeTiled", size=BIG),
    Field("transpose.tiled_gbps.h100", CSV, "gbps", "{:.0f} GB/s", "h100", kernel="transposeTiled", size=BIG),
    Value("transpose.tiled_pct_of_copy.h200", CSV,
          lambda q: 100 * q(kernel="transposeTiled", size=BIG)["gbps"] / q(kernel="copy", size=BIG)["gbps"], "{:.1f}%"),
    Value("transpose.tiled_pct_of_copy.h100", CSV,
          lambda q: 100 * q(kernel="transposeTiled", size=BIG)["gbps"] / q(kernel="copy", size=BIG)["gbps"], "{:.1f}%", gpu="h100"),
    Value("transpose.tiled_vs_cublas.h200", CSV, lambda q: tiled_vs_cublas(BIG)(q) / 100, "{:.3f}×"),
    Value("transpose.tiled_vs_cublas.h100", CSV, lambda q: tiled_vs_cublas(BIG)(q) / 100, "{:.3f}×", gpu="h100"),
]


# Ours against each other kernel at every bench shape (medians): what the load hint buys
# (transposeTiled over transposeTiled_plainLoads, the same kernel without it), what the block order
# buys (over transposeTiled_colsFirst, the same body numbered across), and where ours stands against
# cuBLAS and the 16-byte copy; on each GPU.
SIZES = (SMALL, 4096, MID, BIG, "10000x20000")


def size_label(n):
    return f"{n}²" if isinstance(n, int) else n.replace("x", " × ")


def apart(fast, slow):
    """At which bench shapes every run of `fast` beat every run of `slow` (its slowest run against
    the other's fastest), and at which their fastest–slowest ranges overlap."""
    def f(q):
        sep = [n for n in SIZES if q(kernel=fast, size=n)["max_ms"] < q(kernel=slow, size=n)["min_ms"]]
        over = [size_label(n) for n in SIZES if n not in sep]
        sep = [size_label(n) for n in sep]
        join = lambda xs: xs[0] if len(xs) == 1 else ", ".join(xs[:-1]) + " and " + xs[-1]
        if not over:
            return "at every shape"
        if not sep:
            return "at no shape: the ranges overlap at " + join(over)
        return f"at {join(sep)}; at {join(over)} the ranges overlap"
    return f


def overlap_medians(fast, slow):
    """Where the fastest–slowest ranges of `fast` and `slow` overlap (the shapes apart() does not
    separate), on the H100 and the H200: whether `fast` has the higher median there, and by how much."""
    def f(q):
        def g(gpu, n, field, kernel):
            return q(gpu=gpu, kernel=kernel, size=n)[field]
        gains = [g(gpu, n, "gbps", fast) / g(gpu, n, "gbps", slow) - 1 for gpu in ("h100", "h200") for n in SIZES
                 if not g(gpu, n, "max_ms", fast) < g(gpu, n, "min_ms", slow)]
        if not gains:
            return "the ranges overlap nowhere"
        ahead = sum(x > 0 for x in gains)
        if ahead == len(gains):
            return f"ours has the higher median there too, by {100 * min(gains):.1f}% to {100 * max(gains):.1f}%"
        return f"ours has the higher median at {ahead} of those {len(gains)} GPU-and-shape pairs"
    return f


OVER = [("transposeTiled_plainLoads", "`transposeTiled_plainLoads` (the hint)"),
        ("transposeTiled_colsFirst", "`transposeTiled_colsFirst` (the numbering)"),
        ("cublasSgeam", "`cublasSgeam`"), ("copy", "the 16-byte `copy`")]


def gains_cell(n):
    """transposeTiled over the row's kernel at shape n, "H100 / H200"."""
    return lambda r, q: " / ".join(f"{q(gpu=g, kernel='transposeTiled', size=n)['gbps'] / q(gpu=g, kernel=r['kernel'], size=n)['gbps']:.3f}×"
                                   for g in ("h100", "h200"))


TABLES += [Table("transpose.gains", CSV, gpu="h100", key=("kernel", "size"),
                 rows=[{"kernel": k, "size": BIG, "label": label} for k, label in OVER],
                 columns=[Col("`transposeTiled` over", "{label}", "l")] + [Col(size_label(n), gains_cell(n)) for n in SIZES])]
VALUES += [Value("transpose.cublas_overlap_medians", CSV, overlap_medians("transposeTiled", "cublasSgeam"), "{}",
                 gpu="h100")]
for _g in ("h100", "h200"):
    VALUES += [
        Value(f"transpose.order_apart.{_g}", CSV, apart("transposeTiled", "transposeTiled_colsFirst"), "{}", gpu=_g),
        Value(f"transpose.hint_apart.{_g}", CSV, apart("transposeTiled", "transposeTiled_plainLoads"), "{}", gpu=_g),
        Value(f"transpose.cublas_apart.{_g}", CSV, apart("transposeTiled", "cublasSgeam"), "{}", gpu=_g),
    ]


# ---------------------------------------------------------------------------------------------- cache_config
CC = "cache_config.csv"
CC_GPU = "h100"
CC_KEY = ("kernel", "api", "setting")


def cc(kernel, api, setting, field):
    return lambda q: q(kernel=kernel, api=api, setting=setting)[field]


# The rows that carry the lesson (the CSV has every setting of every kernel): each kernel's default,
# transposeSmem under PreferL1 and under carveouts 0 and 100, naiveGmemReadCol under carveout 100.
CC_ROWS = [("naiveGmem", "none", "default"), ("naiveGmemReadCol", "none", "default"),
           ("naiveGmemReadCol", "carveout", "100"), ("transposeSmem", "none", "default"),
           ("transposeSmem", "cudaFuncSetCacheConfig", "PreferL1"), ("transposeSmem", "carveout", "0"),
           ("transposeSmem", "carveout", "100")]
TABLES += [
    Table("cache_config.table.h100", CC, gpu=CC_GPU, key=CC_KEY,
          rows=[dict(zip(CC_KEY, r)) for r in CC_ROWS],
          columns=[Col("kernel", "`{kernel}`", "l"), Col("set with", "{api}", "l"), Col("value", "{setting}", "l"),
                   Col("blocks/SM (occupancy API)", "{blocks_per_sm_api}"),
                   Col("blocks/SM (seen resident)", "{blocks_per_sm_seen}"),
                   Col("time (ms)", "{time_ms:.4f}"), Col("GB/s", "{gbps:.0f}")]),
]


# The settings that ask for the most shared memory (carveout: percent of the largest capacity;
# PreferEqual: as much shared memory as L1).
MORE_SHARED = [("cudaFuncSetCacheConfig", "PreferShared"), ("cudaFuncSetCacheConfig", "PreferEqual"),
               ("carveout", "50"), ("carveout", "100")]


def more_shared_slowdown(kernel, skip=()):
    """How much slower (median, %) `kernel` ran under the MORE_SHARED settings than under the
    default, from the CSV's gbps (bytes over the unrounded median: 5 significant digits for these
    kernels, time_ms 4); the README's words about them are checked here: apart from the settings in
    `skip` ((api, setting) pairs), they are its four slowest medians, and each of their
    fastest–slowest ranges overlaps the default's."""
    def f(q):
        d = q(kernel=kernel, api="none", setting="default")
        rows = q.rows(where=lambda r: r["kernel"] == kernel and (r["api"], str(r["setting"])) not in skip)
        slowest = sorted(rows, key=lambda r: r["gbps"])[:len(MORE_SHARED)]
        if sorted((r["api"], str(r["setting"])) for r in slowest) != sorted(MORE_SHARED):
            raise DataError(f"{q.path()}: {kernel}'s four slowest medians are not those of {MORE_SHARED}")
        picked = [q(kernel=kernel, api=a, setting=s) for a, s in MORE_SHARED]
        if any(r["min_ms"] > d["max_ms"] for r in picked):
            raise DataError(f"{q.path()}: a range of {kernel} under {MORE_SHARED} no longer overlaps the default's")
        xs = [100 * (d["gbps"] / r["gbps"] - 1) for r in picked]  # the same bytes: the time ratio
        return (min(xs), max(xs))
    return f


def naive_drift(q):
    """The most naiveGmem's median moved (%) from its default under any setting, rounded up to 0.01%
    (the README says "within" it, so the rounding must not go below the largest move). The CSV
    rounds both time_ms and gbps (bytes over the unrounded median) and the two can give different
    moves: the larger counts."""
    d = q(kernel="naiveGmem", api="none", setting="default")
    most = max(max(abs(100 * (r["time_ms"] / d["time_ms"] - 1)), abs(100 * (d["gbps"] / r["gbps"] - 1)))
               for r in q.rows(where=lambda r: r["kernel"] == "naiveGmem"))
    return math.ceil(round(100 * most, 9)) / 100


def smem_per_sm(q):
    """cudaDeviceProp::sharedMemPerMultiprocessor as cache_config printed it (logs/cache_config.log),
    the same on the H100 and the H200 (the README says it of both)."""
    found = set()
    for g in ("h100", "h200"):
        m = re.search(r"(\d+) bytes of shared memory per SM", q.text("logs/cache_config.log", gpu=g))
        if not m:
            raise DataError(f"{q.path('logs/cache_config.log', g)}: no 'bytes of shared memory per SM'")
        found.add(int(m.group(1)))
    if len(found) != 1:
        raise DataError(f"cache_config.log: the H100 and the H200 differ in shared memory per SM: {sorted(found)}")
    return found.pop()


def naive_vs_bench(q):
    """naiveGmem's GB/s in cache_config.csv (default setting, 8192²) and in the measured table
    (transpose.csv, 8192²): the same machine code, timed in two runs. The README says their
    fastest–slowest ranges do not overlap; checked here."""
    c = q(kernel="naiveGmem", api="none", setting="default")
    b = q(csv=CSV, kernel="naiveGmem", size=MID)
    if not (c["max_ms"] < b["min_ms"] or b["max_ms"] < c["min_ms"]):
        raise DataError(f"{q.path()}: naiveGmem's range now overlaps the one in {q.path(CSV)}")
    return (c["gbps"], b["gbps"])


def _values(g):
    return [
        Value("cache_config.smem_default_gbps." + g, CC, cc("transposeSmem", "none", "default", "gbps"), "{:.0f}", gpu=g),
        Value("cache_config.smem_carveout0_gbps." + g, CC, cc("transposeSmem", "carveout", "0", "gbps"), "{:.0f}", gpu=g),
        Value("cache_config.smem_carveout0_ratio." + g, CC,
              lambda q: cc("transposeSmem", "carveout", "0", "gbps")(q) / cc("transposeSmem", "none", "default", "gbps")(q),
              "{:.2f}×", gpu=g),
        Value("cache_config.smem_carveout0_blocks." + g, CC, cc("transposeSmem", "carveout", "0", "blocks_per_sm_seen"), "{}",
              gpu=g),
        Value("cache_config.preferl1_api." + g, CC, cc("transposeSmem", "cudaFuncSetCacheConfig", "PreferL1", "blocks_per_sm_api"),
              "{}", gpu=g),
        Value("cache_config.preferl1_seen." + g, CC, cc("transposeSmem", "cudaFuncSetCacheConfig", "PreferL1", "blocks_per_sm_seen"),
              "{}", gpu=g),
        Value("cache_config.readcol_spread." + g, CC,
              lambda q: (min(r["gbps"] for r in q.rows(where=lambda r: r["kernel"] == "naiveGmemReadCol")),
                         max(r["gbps"] for r in q.rows(where=lambda r: r["kernel"] == "naiveGmemReadCol"))),
              "{:.0f} to {:.0f}", gpu=g),
        Value("cache_config.readcol_more_shared." + g, CC, more_shared_slowdown("naiveGmemReadCol"), "{:.1f}% to {:.1f}%",
              gpu=g),
        # transposeSmem's slowest setting is carveout 0, which halves its blocks per SM (README).
        Value("cache_config.smem_more_shared." + g, CC,
              more_shared_slowdown("transposeSmem", skip=[("carveout", "0")]), "{:.2f}% to {:.2f}%", gpu=g),
        Value("cache_config.naive_drift." + g, CC, naive_drift, "{:.2f}%", gpu=g),
    ]


VALUES += _values("h100") + _values("h200")
VALUES += [Value("cache_config.smem_per_sm.h100", CC, smem_per_sm, "{:,}", gpu="h100")]
VALUES += [Value("cache_config.naive_vs_bench.h100", CC, naive_vs_bench, "{:.0f} GB/s here against {:.0f} GB/s",
                 gpu="h100")]
