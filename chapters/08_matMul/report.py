"""Chapter 08's measured tables, quoted numbers and figure (format: plots/plot_timings.py)."""
import math
import re

from plot_timings import Col, DataError, Field, Figure, Table, Value, span

CSV = "matMul.csv"

FIGURES = [
    Figure("matMul", CSV, ["kernel", "n", "time_ms", "tflops", "pct_of_cublas"],
           "Chapter 08 matMul: FP32 TFLOP/s against n, cublasSgemm without TF32", "lines",
           x="n", y="tflops", logx=True, references={"cublas*": "black"}, legend_cols=1,
           xlabel="n (C = A B, all n x n, FP32)", ylabel="TFLOP/s (2 n^3 / time)"),
    # one bar per step at 4096^3: the share of cuBLAS's speed in the same run
    Figure("matMul_steps", CSV, ["kernel", "n", "tflops", "pct_of_cublas"],
           "Chapter 08 matMul: each step at 4096^3, % of cublasSgemm's speed (FP32, no TF32)", "bar",
           x="kernel", y="pct_of_cublas", where=lambda r: r["n"] == 4096, colors={"cublas*": "black", "MatMul*": "gray"},
           xlabel="kernel (in the chapter's order)", ylabel="% of cublasSgemm (its time / the kernel's)"),
]


# ---------------------------------------------------------------------------------------------- tables
LABELS = {"MatMulKernel_gmem": "`MatMulKernel` (gmem, source)", "MatMulKernel_smem": "`MatMulKernel` (smem, source)",
          "sgemmRegTile": "`sgemmRegTile` (ours)", "sgemmVec4": "`sgemmVec4` (ours)",
          "sgemmDoubleBuffer": "`sgemmDoubleBuffer` (ours)", "sgemmWarpTile": "`sgemmWarpTile` (ours)",
          "sgemmAsync": "`sgemmAsync` (ours)", "sgemmTuned": "`sgemmTuned` (ours)",
          "sgemmWarpSpecialized": "`sgemmWarpSpecialized` (ours)", "sgemmSetMaxNReg": "`sgemmSetMaxNReg` (ours)",
          "cublasSgemm": "`cublasSgemm`"}
SIZES = [1024, 2048, 4096, 8192]


def best(q, gpu=None):
    """Our last step in the GPU's table: sgemmSetMaxNReg (timed only with sm_90a code), else
    sgemmWarpSpecialized, else the later of sgemmTuned and sgemmDoubleBuffer that the table has."""
    kernels = {r["kernel"] for r in q.rows(gpu=gpu)}
    return next(k for k in ("sgemmSetMaxNReg", "sgemmWarpSpecialized", "sgemmTuned", "sgemmDoubleBuffer") if k in kernels)


DOUBLE = "sgemmDoubleBuffer"  # step 5


def tflops_at(n):
    def cell(r, q):
        text = f"{q(kernel=r['kernel'], n=n)['tflops']:.2f}"
        return f"**{text}**" if r["kernel"] == best(q) and n >= 4096 else text
    return cell


def vs_cublas(q, kernel, n):
    return q(kernel="cublasSgemm", n=n)["time_ms"] / q(kernel=kernel, n=n)["time_ms"]


def vs_at(n):
    def cell(r, q):
        text = f"{vs_cublas(q, r['kernel'], n):.3f}×"
        return f"**{text}**" if r["kernel"] == best(q) else text
    return cell


def bench(gpu):  # every kernel of the GPU's table, in the program's order
    return Table(f"matMul.bench.{gpu}", CSV, gpu=gpu, where=lambda r: r["n"] == 4096,
                 columns=[Col("kernel", lambda r, q: f"**{LABELS[r['kernel']]}**" if r["kernel"] == best(q)
                              else LABELS[r["kernel"]], "l"),
                          Col("1024³ TFLOP/s", tflops_at(1024))] +
                         [Col(f"{n}³", tflops_at(n)) for n in SIZES[1:]] +
                         [Col("vs cuBLAS at 2048³", vs_at(2048)), Col("at 4096³", vs_at(4096)),
                          Col("at 8192³", vs_at(8192)),
                          # the row's TFLOP/s over 132 SMs x 128 lanes x 2 FLOP x the row's sm_mhz (one
                          # clock reading right after its runs; the program's pct_of_fp32_peak); absent
                          # from a table timed without it
                          Col("% of FP32 peak at 4096³", lambda r, q: f"{r['pct_of_fp32_peak']:.1f}%"
                              if r.get("pct_of_fp32_peak") not in (None, "") else "–")])


T = "matMul_traffic.csv"
READ_BYTES = 2 * 4096 * 4096 * 4  # A plus B, floats


def reads(count, unit_bytes):
    return count * unit_bytes / READ_BYTES


def fmt_reads(x):
    return f"{x:.0f}" if x >= 100 or x == int(x) else f"{x:.1f}" if x >= 10 else f"{x:.2f}"


def dram_reads(x):
    return f"{x:.1f}" if x >= 10 else f"{x:.2f}"


def traffic_cell(field, unit_bytes, fmt, fmt_x=fmt_reads):
    """H100 / H200 of one counter, each with its "× read" ("–" where a GPU's table lacks the kernel)."""
    def cell(r, q):
        parts = []
        for g in ("h100", "h200"):
            if not q.rows(gpu=g, where=lambda x: x["kernel"] == r["kernel"]):
                parts.append("–")
                continue
            v = q(gpu=g, kernel=r["kernel"])[field]
            parts.append(f"{fmt(v)} ({fmt_x(reads(v, unit_bytes))})")
        return " / ".join(parts)
    return cell


def thread_loads(r, q):
    if r["kernel"] in ("sgemmAsync", "sgemmTuned", "sgemmWarpSpecialized"):  # LDGSTS are not global load instructions
        return "0 (copies: `LDGSTS`)"
    if r["kernel"] in ("sgemmVec4", "sgemmDoubleBuffer", "sgemmWarpTile"):  # 16-byte loads
        return f"{r['thread_loads']:,} × 16 B ({reads(r['thread_loads'], 16):.0f})"
    x = reads(r["thread_loads"], 4)
    text = f"{x:.0f}"
    return f"{r['thread_loads']:,} (**{text}**)" if r["kernel"].startswith("MatMul") else f"{r['thread_loads']:,} ({text})"


def gb(v):
    return f"{v / 1e9:.2f} GB" if v >= 1e9 else f"{v / 1e9:.3f} GB"


TABLES = [bench("h100"), bench("h200"),
          Table("matMul.traffic", T, gpu="h100",
                rows=[{"kernel": k, "label": label} for k, label in [
                    ("MatMulKernel_gmem", "`MatMulKernel` (gmem)"), ("MatMulKernel_smem", "`MatMulKernel` (smem)"),
                    ("sgemmRegTile", "`sgemmRegTile`"), ("sgemmVec4", "`sgemmVec4`"),
                    ("sgemmDoubleBuffer", "`sgemmDoubleBuffer`"), ("sgemmWarpTile", "`sgemmWarpTile`"),
                    ("sgemmAsync", "`sgemmAsync`"), ("sgemmTuned", "`sgemmTuned`"),
                    ("sgemmWarpSpecialized", "`sgemmWarpSpecialized`")]],
                columns=[Col("kernel", "{label}", "l"), Col("global loads by threads (× read)", thread_loads),
                         Col("32-byte sectors asked of L1 (× read)",
                             lambda r, q: f"{r['l1_sectors']:,} ({fmt_reads(reads(r['l1_sectors'], 32))})"),
                         Col("sectors from L2 (× read), H100 / H200", traffic_cell("l2_sectors", 32, lambda v: f"{v:,}")),
                         Col("bytes from DRAM (× read), H100 / H200", traffic_cell("dram_bytes", 1, gb, dram_reads)),
                         Col("shared wavefronts per shared load", lambda r, q: "–" if not r["smem_ld_instructions"] else
                             f"{r['smem_ld_wavefronts'] / r['smem_ld_instructions']:.2f}")])]


TUNE = "sgemm_tune.csv"


def tune_render(q):
    """The 2 fastest shapes at each size of each GPU's tune, with their share of cuBLAS's speed in the same run."""
    out = ["| n | GPU | shape (block tile x k-tile, warp tile, thread tile, stages, blocks/SM, block order) | registers "
           "| TFLOP/s | vs cuBLAS |", "|---:|---|---|---:|---:|---:|"]
    for n in sorted({r["n"] for r in q.rows()}):
        for g in ("h100", "h200"):
            rows = q.rows(gpu=g, where=lambda r: r["n"] == n)
            cub = [r for r in rows if r["config"] == "cublasSgemm"][0]
            ours = sorted([r for r in rows if r["config"] != "cublasSgemm"], key=lambda r: r["time_ms"])
            for r in ours[:2]:
                shape = (f"{r['bm']}×{r['bn']}×{r['bk']}, {r['wm']}×{r['wn']}, {r['tm']}×{r['tn']}"
                         f"{' (next k prefetched)' if r['pf'] else ''}, {r['stages']}, {r['minb']}, "
                         f"{'rows' if r['group'] == 1 else 'groups of ' + str(r['group'])}")
                out.append(f"| {n} | {g.upper()} | {shape} | {r['regs']} | {r['tflops']:.2f} "
                           f"| {cub['time_ms'] / r['time_ms']:.3f}× |")
    return out


NCU = "sgemm_ncu.csv"
NCU_ROWS = [  # (label, function of the kernel's row)
    ("registers per thread, warps per SM", lambda r: f"{r['registers']}, {r['warps_per_sm']:.1f}"),
    ("time under ncu (base clock), ms", lambda r: f"{r['duration_ns'] / 1e6:.3f}"),
    ("issue slots used, FMA pipe busy (%)", lambda r: f"{r['issue_active_pct']:.1f}, {r['fma_pipe_active_pct']:.1f}"),
    ("instructions (millions), % of them on the FMA pipe",
     lambda r: f"{r['inst_executed'] / 1e6:,.0f}, {100 * r['inst_fma_pipe'] / r['inst_executed']:.1f}"),
    ("shared load instructions (millions), wavefronts per shared load",
     lambda r: f"{r['shared_ld_inst'] / 1e6:,.0f}, {r['smem_ld_wavefronts'] / r['shared_ld_inst']:.2f}"),
    ("shared wavefronts not from loads, bank conflicts (millions)",
     lambda r: f"{(r['smem_wavefronts'] - r['smem_ld_wavefronts']) / 1e6:,.0f}, {r['smem_bank_conflicts'] / 1e6:,.0f}"),
    ("cycles between a warp's instructions (1 of them its issue)", lambda r: f"{r['warp_cycles_per_issue']:.2f}"),
    ("… of them at a barrier", lambda r: f"{r['stall_barrier']:.2f}"),
    ("… held at dispatch", lambda r: f"{r['stall_dispatch_stall']:.2f}"),
    ("… on an MIO (memory input/output) result, typically shared memory (short scoreboard)", lambda r: f"{r['stall_short_scoreboard']:.2f}"),
    ("… on the memory pipe's queue (MIO throttle)", lambda r: f"{r['stall_mio_throttle']:.2f}"),
    ("… on an L1TEX (L1/texture cache) result: global, local, texture (long scoreboard)", lambda r: f"{r['stall_long_scoreboard']:.2f}"),
    ("… for a fixed latency (wait)", lambda r: f"{r['stall_wait']:.2f}"),
    ("… ready, another warp issued (not selected)", lambda r: f"{r['stall_not_selected']:.2f}"),
]


def ncu_render(q):
    rows = q.rows()
    out = ["| at 4096³ | " + " | ".join(f"`{r['kernel']}`" for r in rows) + " |", "|---|" + "---:|" * len(rows)]
    for label, f in NCU_ROWS:
        out.append(f"| {label} | " + " | ".join(f(r) for r in rows) + " |")
    return out


TABLES += [Table("matMul.tune", TUNE, gpu="h100", render=tune_render)]
TABLES += [Table("matMul.ncu.h100", NCU, gpu="h100", render=ncu_render)]  # the H200's: matMul.ncu_gpus_agree


# ---------------------------------------------------------------------------------------------- values
SMS = 132  # SMs of the H100 SXM and the H200


def max_error(q, n, gpu):
    """The largest |C - ref| / tolerance of any kernel at n, from the bench's stderr in the workbook log."""
    m = None
    for log in ("logs/matMul_bench.log", "logs/workbook.log"):  # the bench's own log where there is one
        try:
            m = re.search(rf"n = {n}, largest \|C - ref\| / tolerance:([^\n]*)", q.text(log, gpu))
        except (OSError, DataError):
            continue
        if m:
            break
    if not m:
        raise DataError(q.path("logs/workbook.log", gpu) + f": no error line for n = {n}")
    return max(float(x) for x in re.findall(r"\s(\d+\.\d+)", m.group(1)))


def time_spread(q, sizes):
    """The largest difference between the two GPUs' times over `sizes`, in %, rounded up ("within")."""
    rows = q.rows(gpu="h100")
    h200 = {r["kernel"] for r in q.rows(gpu="h200")}  # kernels both tables have
    return math.ceil(10 * max(abs(q(gpu="h200", kernel=r["kernel"], n=r["n"])["time_ms"] / r["time_ms"] - 1) * 100
                              for r in rows if r["n"] in sizes and r["kernel"] in h200)) / 10


def ours_range_1024(q):  # steps 3 to 7: 128 x 128 tiles
    return span([vs_cublas(q, k, 1024) for k in ("sgemmRegTile", "sgemmVec4", "sgemmDoubleBuffer", "sgemmWarpTile",
                                                 "sgemmAsync")], "{:.2f}", sep="–") + "×"


def per_gpu(g):
    P = "matMul."
    return [
        Value(P + f"best_name.{g}", CSV, lambda q: f"`{best(q)}`", gpu=g),
        Value(P + f"best_vs_cublas_4096.{g}", CSV, lambda q: vs_cublas(q, best(q), 4096), "{:.3f}×", gpu=g),
        Value(P + f"step_source.{g}", CSV,
              lambda q: (q(kernel="MatMulKernel_gmem", n=4096)["tflops"], q(kernel="MatMulKernel_smem", n=4096)["tflops"],
                         q(kernel="MatMulKernel_smem", n=4096)["tflops"] / q(kernel="MatMulKernel_gmem", n=4096)["tflops"]),
              "{:.2f} → {:.2f} TFLOP/s ({:.2f}×)", gpu=g),
        # the source's tiled kernel: its shared-load wavefronts (the traffic run) over the SM cycles of
        # its timed run at 4096^3 (132 SMs x time x that run's SM clock); at most one wavefront per SM
        # cycle is our reading of NVIDIA's forum, not a documented figure (README, "wavefront")
        Value(P + f"smem_busy_source.{g}", T,
              lambda q: 100 * q(kernel="MatMulKernel_smem")["smem_ld_wavefronts"]
              / (SMS * q(csv=CSV, kernel="MatMulKernel_smem", n=4096)["time_ms"] * 1e-3
                 * q(csv=CSV, kernel="MatMulKernel_smem", n=4096)["sm_mhz"] * 1e6), "{:.0f}%", gpu=g),
        Value(P + f"ours_1024.{g}", CSV, ours_range_1024, gpu=g),
        Value(P + f"step_regtile.{g}", CSV,
              lambda q: (q(kernel="MatMulKernel_smem", n=4096)["tflops"], q(kernel="sgemmRegTile", n=4096)["tflops"],
                         q(kernel="sgemmRegTile", n=4096)["tflops"] / q(kernel="MatMulKernel_smem", n=4096)["tflops"]),
              "{:.2f} → {:.2f} TFLOP/s ({:.1f}×)", gpu=g),
        Value(P + f"step_vec4.{g}", CSV,
              lambda q: (q(kernel="sgemmVec4", n=4096)["tflops"],
                         q(kernel="sgemmVec4", n=4096)["tflops"] / q(kernel="sgemmRegTile", n=4096)["tflops"]),
              "→ {:.2f} ({:.2f}×)", gpu=g),
        Value(P + f"step_double.{g}", CSV,
              lambda q: (q(kernel=DOUBLE, n=4096)["tflops"],
                         q(kernel=DOUBLE, n=4096)["tflops"] / q(kernel="sgemmVec4", n=4096)["tflops"]),
              "→ {:.2f} ({:.2f}×)", gpu=g),
        # the top README's headline row
        Value(P + f"best_tflops.{g}", CSV, lambda q: q(kernel=best(q), n=4096)["tflops"], "{:.1f} TFLOP/s", gpu=g),
    ]


OURS = ("sgemmRegTile", "sgemmVec4", "sgemmDoubleBuffer", "sgemmWarpTile", "sgemmAsync", "sgemmTuned")


def ways(q, k):  # shared wavefronts per shared load instruction (matMul_traffic.csv)
    return q(kernel=k)["smem_ld_wavefronts"] / q(kernel=k)["smem_ld_instructions"]


# sgemmTuned's two shapes (matMul_lesson.h: kTunedSmall below 4096^2 outputs, kTunedLarge from there
# on), as the tune names them
TUNED_SMALL = "64x128x16_w32x64_t8x8_s4_b4_g1"
TUNED_LARGE = "64x128x16_w32x64_t8x8_s4_b4_g16"


def tuned_ranks(q):
    """Where the tune ranks sgemmTuned's shapes at the sizes where sgemmTuned uses them (1st: fastest)."""
    def rank(config, n):
        rows = sorted(q.rows(where=lambda r: r["n"] == n and r["config"] != "cublasSgemm"), key=lambda r: r["time_ms"])
        i = next((i for i, r in enumerate(rows) if r["config"] == config), None)
        if i is None:
            return f"untimed at {n}³"
        k = i + 1
        nth = f"{k}{'th' if 10 <= k % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(k % 10, 'th')}"
        return f"{nth} of {len(rows)} at {n}³" if config == TUNED_SMALL else f"{nth} at {n}³"
    return f"`kTunedSmall` {rank(TUNED_SMALL, 2048)}, `kTunedLarge` {rank(TUNED_LARGE, 4096)}, {rank(TUNED_LARGE, 8192)}"


def tuned_rank_spread(q):
    """Whether the tune's order of sgemmTuned's shape (kTunedSmall at 2048^3, kTunedLarge at 4096^3) lies
    inside the spread of that shape's three runs (the tune, the ladder's, alone: slowest / fastest - 1):
    the README's phrase, naming each GPU and size where the shape ran further behind the tune's fastest."""
    outside = []
    for g, name in (("h100", "H100"), ("h200", "H200")):
        for n, cfg in ((2048, TUNED_SMALL), (4096, TUNED_LARGE)):
            fastest = min(r["time_ms"] for r in q.rows(gpu=g, where=lambda r: r["n"] == n and r["config"] != "cublasSgemm"))
            runs = [q(gpu=g, config=cfg, n=n)["time_ms"], q(csv=CSV, gpu=g, kernel="sgemmTuned", n=n)["time_ms"],
                    q(csv=f"matMul_sgemmTuned_{n}.csv", gpu=g, kernel="sgemmTuned")["time_ms"]]
            gap, spread = 100 * (runs[0] / fastest - 1), 100 * (max(runs) / min(runs) - 1)
            if gap > spread:
                outside.append(f"at {n}³ on the {name}: {gap:.1f}% behind the tune's fastest, its runs "
                               f"{math.ceil(spread * 10) / 10:.1f}% apart")
    return "ranks within the spread of the shape's own three runs (the tune's, the ladder's, alone)" + (
        ", except " + "; ".join(outside) if outside else "")


def tune_ws_tiling(q):
    """The best of the tune's shapes with step 9's tiling (128 x 256 blocks, 64 x 64 warp tiles, 16 x 8 or
    8 x 16 sums per thread; __syncthreads(), every warp copying) at each size, as a share of cuBLAS, and
    step 9's share in the ladder's run."""
    def best_at(n):
        cub = q(config="cublasSgemm", n=n)
        return max(cub["time_ms"] / r["time_ms"] for r in q.rows(where=lambda r: r["n"] == n and r["bm"] == 128
                   and r["bn"] == 256 and r["wm"] == 64 and r["wn"] == 64 and r["tm"] * r["tn"] == 128))
    sizes = (2048, 4096, 8192)
    return tuple(best_at(n) for n in sizes) + tuple(q(csv=CSV, kernel="cublasSgemm", n=n)["time_ms"]
                                                    / q(csv=CSV, kernel="sgemmWarpSpecialized", n=n)["time_ms"] for n in sizes)


def step(k, prev):  # k at 4096³: its TFLOP/s, its gain over the step before, its share of cuBLAS
    return lambda q: (q(kernel=k, n=4096)["tflops"], q(kernel=k, n=4096)["tflops"] / q(kernel=prev, n=4096)["tflops"],
                      vs_cublas(q, k, 4096))


def alone(name, k, g, variant=""):
    """k run alone beside cuBLAS (matMul_<k><variant>_<n>.csv) at 2048, 4096 and 8192: cuBLAS's time over k's."""
    files = [f"matMul_{k}{variant}_{n}.csv" for n in (2048, 4096, 8192)]
    return Value(f"matMul.{name}.{g}", files[0],
                 lambda q: tuple(q(csv=f, kernel="cublasSgemm")["time_ms"] / q(csv=f, kernel=k)["time_ms"] for f in files),
                 "{:.3f}×, {:.3f}× and {:.3f}×", gpu=g)


def tuned_ladder_vs_alone_8192(q):
    """sgemmTuned at 8192^3 in the ladder's run against its run alone: how much longer it took (%) and
    how much lower its SM clock reading was (%)."""
    alone = "matMul_sgemmTuned_8192.csv"
    ladder, solo = q(kernel="sgemmTuned", n=8192), q(csv=alone, kernel="sgemmTuned")
    return 100 * (ladder["time_ms"] / solo["time_ms"] - 1), 100 * (1 - ladder["sm_mhz"] / solo["sm_mhz"])


def late(g):  # steps 6 to 8, the tune, and sgemmTuned alone beside cuBLAS
    P = "matMul."
    return [
        Value(P + f"step_warptile.{g}", CSV, step("sgemmWarpTile", "sgemmDoubleBuffer"), "→ {:.2f} ({:.2f}×, {:.3f}× cuBLAS)", gpu=g),
        Value(P + f"step_async.{g}", CSV, step("sgemmAsync", "sgemmWarpTile"), "→ {:.2f} ({:.2f}×, {:.3f}× cuBLAS)", gpu=g),
        Value(P + f"step_tuned.{g}", CSV, step("sgemmTuned", "sgemmAsync"), "→ {:.2f} ({:.2f}×, {:.3f}× cuBLAS)", gpu=g),
        Value(P + f"tuned_ranks.{g}", TUNE, tuned_ranks, "{}", gpu=g),
        Value(P + f"tuned_tune_vs_ladder.{g}", TUNE,
              lambda q: (q(config=TUNED_LARGE, n=4096)["tflops"], q(csv=CSV, kernel="sgemmTuned", n=4096)["tflops"]),
              "{:.2f} TFLOP/s in the tune and {:.2f} in the ladder's run", gpu=g),
        alone("tuned_alone", "sgemmTuned", g),
        Value(P + f"tuned_ladder_vs_alone_8192.{g}", CSV, tuned_ladder_vs_alone_8192,
              "{:.1f}% longer in the ladder's run than alone, its `sm_mhz` {:.1f}% lower" if g == "h100"
              else "{:.1f}% and {:.1f}%", gpu=g),
    ]


def counters_h100():  # what the README quotes of the H100's counters and tune only (the H200's are in its tables)
    P, g = "matMul.", "h100"
    def ncu(k, field, fmt):
        return Value(P + f"ncu_{field}_{k}.{g}", NCU, lambda q: q(kernel=k)[field], fmt, gpu=g)
    return [
        Value(P + f"gmem_l2_filtered.{g}", T,
              lambda q: 100 * (1 - q(kernel="MatMulKernel_gmem")["l2_sectors"] / q(kernel="MatMulKernel_gmem")["l1_sectors"]),
              "{:.0f}%", gpu=g),
        Value(P + f"tuned_1024.{g}", CSV, lambda q: vs_cublas(q, "sgemmTuned", 1024), "{:.2f}×", gpu=g),
        Value(P + f"tune_shapes.{g}", TUNE, lambda q: len({re.sub(r"_g\d+", "", r["config"]) for r in q.rows()
                                                          if r["config"] != "cublasSgemm"}), "{}", gpu=g),
        ncu("sgemmTuned", "issue_active_pct", "{:.0f}%"), ncu("cublasSgemm", "issue_active_pct", "{:.0f}%"),
        ncu("sgemmTuned", "stall_barrier", "{:.2f}"), ncu("cublasSgemm", "stall_barrier", "{:.2f}"),
        ncu("sgemmTuned", "stall_dispatch_stall", "{:.2f}"), ncu("cublasSgemm", "stall_dispatch_stall", "{:.2f}"),
        ncu("sgemmTuned", "stall_not_selected", "{:.2f}"), ncu("cublasSgemm", "stall_not_selected", "{:.2f}"),
        ncu("sgemmWarpSpecialized", "stall_barrier", "{:.2f}"),
        ncu("sgemmWarpSpecialized", "registers", "{}"), ncu("sgemmWarpSpecialized", "dynamic_smem_bytes", "{:,}"),
        Value(P + f"ncu_fma_share_sgemmTuned.{g}", NCU,
              lambda q: 100 * q(kernel="sgemmTuned")["inst_fma_pipe"] / q(kernel="sgemmTuned")["inst_executed"], "{:.0f}%", gpu=g),
        Value(P + f"ncu_inst_ratio.{g}", NCU, lambda q: q(kernel="sgemmTuned")["inst_executed"] / q(kernel="cublasSgemm")["inst_executed"],
              "{:.3f}", gpu=g),
        Value(P + f"ncu_inst_async_vs_double.{g}", NCU,
              lambda q: q(kernel="sgemmAsync")["inst_executed"] / q(kernel="sgemmDoubleBuffer")["inst_executed"], "{:.3f}", gpu=g),
    ]


def warp_specialized(g):  # step 9: its step over sgemmTuned, alone beside cuBLAS, its counters
    P = "matMul."
    def ncu(field, fmt):
        return Value(P + f"ncu_ws_{field}.{g}", NCU,
                     lambda q: tuple(q(kernel=k)[field] for k in ("sgemmTuned", "sgemmWarpSpecialized", "cublasSgemm")),
                     fmt, gpu=g)
    return [
        Value(P + f"step_ws.{g}", CSV, step("sgemmWarpSpecialized", "sgemmTuned"), "→ {:.2f} ({:.2f}×, {:.3f}× cuBLAS)", gpu=g),
        alone("ws_alone", "sgemmWarpSpecialized", g),
        ncu("stall_long_scoreboard", "{:.2f}, {:.2f} and {:.2f}"),
        ncu("warps_per_sm", "{:.0f}, {:.0f} and {:.0f}"),
        Value(P + f"tune_mhz_4096.{g}", TUNE, lambda q: span([r["sm_mhz"] for r in q.rows(where=lambda r: r["n"] == 4096)], "{:.0f}", sep="–") + " MHz", gpu=g),
        Value(P + f"tune_mhz_8192.{g}", TUNE, lambda q: span([r["sm_mhz"] for r in q.rows(where=lambda r: r["n"] == 8192)], "{:.0f}", sep="–") + " MHz", gpu=g),
        Value(P + f"tune_ws_tiling.{g}", TUNE, tune_ws_tiling,
              "{:.3f}×, {:.3f}× and {:.3f}× of cuBLAS at 2048³, 4096³ and 8192³, where step 9 reaches {:.3f}×, "
              "{:.3f}× and {:.3f}× in the ladder's run", gpu=g),
        Value(P + f"smem_ways.{g}", T,
              lambda q: (ways(q, "sgemmRegTile"), span([ways(q, k) for k in OURS[1:]], "{:.2f}", sep="–"),
                         ways(q, "sgemmWarpSpecialized")), "{:.2f} in step 3, {} in steps 4 to 8 and {:.2f} in step 9", gpu=g),
        Value(P + f"ncu_ws_inst.{g}", NCU,
              lambda q: (q(kernel="sgemmWarpSpecialized")["inst_executed"] / q(kernel="sgemmTuned")["inst_executed"],
                         q(kernel="sgemmWarpSpecialized")["shared_ld_inst"] / q(kernel="sgemmTuned")["shared_ld_inst"]),
              "{:.3f}× the instructions and {:.2f}× the shared loads", gpu=g),
    ]




# The counters of the ncu table's rows (not the time, not the stall rows), with the row's label.
NCU_COUNTERS = {"registers": "registers", "warps_per_sm": "warps per SM", "issue_active_pct": "issue slots used",
                "fma_pipe_active_pct": "FMA pipe busy", "inst_executed": "instructions",
                "inst_fma_pipe": "instructions on the FMA pipe", "shared_ld_inst": "shared load instructions",
                "smem_ld_wavefronts": "shared load wavefronts", "smem_wavefronts": "shared wavefronts",
                "smem_bank_conflicts": "shared bank conflicts"}


def ncu_gpus_agree(q):
    """How far the H200's ncu counters are from the H100's: the largest relative gap (%), its kernel and
    counter, and the largest of the rest."""
    both = {r["kernel"] for r in q.rows(gpu="h200")}
    gaps = sorted((abs(q(gpu="h200", kernel=r["kernel"])[c] / r[c] - 1) * 100, r["kernel"], label)
                  for r in q.rows(gpu="h100") if r["kernel"] in both for c, label in NCU_COUNTERS.items() if r.get(c))
    def up(x):  # "within" rounds up
        return math.ceil(x * 10) / 10
    return (up(gaps[-1][0]),) + gaps[-1][1:] + (up(gaps[-2][0]),)


def tune_gaps(q, sizes):
    """How much slower the tune's second fastest shape ran than its fastest (%), per GPU, at `sizes`."""
    def gap(g, n):
        t = sorted(r["time_ms"] for r in q.rows(gpu=g, where=lambda r: r["n"] == n and r["config"] != "cublasSgemm"))
        return 100 * (t[1] / t[0] - 1)
    return [gap(g, n) for g in ("h100", "h200") for n in sizes]


def tune_top2_mhz(q, n):
    """The SM clock readings (sm_mhz) of the tune's fastest shape at n on the H100 and the H200, then
    those of the second fastest. The README says that the faster ran at the lower reading: an error
    where it did not."""
    top = {}
    for g in ("h100", "h200"):
        top[g] = sorted(q.rows(gpu=g, where=lambda r: r["n"] == n and r["config"] != "cublasSgemm"),
                        key=lambda r: r["time_ms"])[:2]
        if top[g][0]["sm_mhz"] >= top[g][1]["sm_mhz"]:
            raise DataError(q.path(gpu=g) + f": at n = {n} the fastest shape's sm_mhz is not the lower of the two")
    return tuple(top[g][i]["sm_mhz"] for i in (0, 1) for g in ("h100", "h200"))


def l2_mb(q, g):
    """The L2 size that the device line of the GPU's workbook log reports, in MB."""
    m = re.search(r"L2 (\d+) MB", q.text("logs/workbook.log", g))
    if not m:
        raise DataError(q.path("logs/workbook.log", g) + ": no 'L2 ... MB' in its device line")
    return int(m.group(1))


def ncu_stalls_agree(q):
    """The largest difference between the GPUs in any stall row of the ncu table (cycles per instruction)."""
    fields = ["warp_cycles_per_issue"] + [k for k in q.rows(gpu="h100")[0] if k.startswith("stall_")]
    both = {r["kernel"] for r in q.rows(gpu="h200")}
    return max(abs(q(gpu="h200", kernel=r["kernel"])[f] - r[f]) for r in q.rows(gpu="h100") if r["kernel"] in both
               for f in fields)


def setmaxnreg_h100():  # step 10 (timed on the H100 only): its step over step 9, beside cuBLAS, alone
    P, g = "matMul.", "h100"
    return [
        Value(P + f"step_smr.{g}", CSV, lambda q: step("sgemmSetMaxNReg", "sgemmWarpSpecialized")(q)[:2],
              "→ {:.2f} ({:.2f}×)", gpu=g),  # its share of cuBLAS: smr_vs_cublas
        Value(P + f"smr_vs_cublas.{g}", CSV, lambda q: tuple(vs_cublas(q, "sgemmSetMaxNReg", n) for n in (2048, 4096, 8192)),
              "{:.3f}×, {:.3f}× and {:.3f}×", gpu=g),
        alone("smr_alone", "sgemmSetMaxNReg", g),
        alone("smr_lane_release_alone", "sgemmSetMaxNReg", g, "_laneRelease"),
    ]


VALUES = setmaxnreg_h100() + per_gpu("h100") + per_gpu("h200") + late("h100") + late("h200") + counters_h100() + warp_specialized("h100") + warp_specialized("h200") + [
    # the top README's headline row: one name where both GPUs' fastest is the same kernel
    Value("matMul.best_name", CSV, lambda q: (lambda a, b: f"`{a}`" if a == b else f"H200: `{b}`; H100: `{a}`")(
        best(q, "h100"), best(q, "h200"))),
    Value("matMul.ncu_gpus_agree", NCU, ncu_gpus_agree,
          "{:.1f}% (the largest gap: `{}`'s {}; every other counter within {:.1f}%)"),
    Value("matMul.ncu_stalls_agree", NCU, ncu_stalls_agree, "±{:.2f}"),
    # the tune's two fastest at 2048^3 and 4096^3 (the largest gap, rounded up), and at 8192^3
    Value("matMul.tuned_rank_spread", TUNE, tuned_rank_spread, "{}"),
    Value("matMul.tune_gap_top2", TUNE, lambda q: math.ceil(max(tune_gaps(q, (2048, 4096))) * 10) / 10, "{:.1f}%"),
    Value("matMul.tune_gap_8192", TUNE, lambda q: tuple(tune_gaps(q, (8192,))), "{:.1f}% and {:.1f}%"),
    Value("matMul.tune_top2_mhz_8192", TUNE, lambda q: tune_top2_mhz(q, 8192), "{:.0f} and {:.0f} MHz against {:.0f} and {:.0f}"),
    Value("matMul.cublas_ladder_vs_alone_8192", CSV,  # cuBLAS's time at 8192^3 in the ladder's run and beside sgemmTuned
          lambda q: math.ceil(max(abs(q(gpu=g, kernel="cublasSgemm", n=8192)["time_ms"]
                                      / q(csv="matMul_sgemmTuned_8192.csv", gpu=g, kernel="cublasSgemm")["time_ms"] - 1)
                                  for g in ("h100", "h200")) * 1000) / 10, "{:.1f}%"),
    Value("matMul.l2_mb", CSV, lambda q: (l2_mb(q, "h100"), l2_mb(q, "h200")), "{} MB on the H100, {} MB on the H200"),
    Value("matMul.max_error_1024", CSV, lambda q: max(max_error(q, 1024, g) for g in ("h100", "h200")), "{:.4f}"),
    Value("matMul.max_error_8192", CSV, lambda q: max(max_error(q, 8192, g) for g in ("h100", "h200")), "{:.4f}"),
    Value("matMul.time_spread_2048", CSV, lambda q: time_spread(q, (2048, 4096, 8192)), "{:.1f}%"),
    Value("matMul.time_spread_4096", CSV, lambda q: time_spread(q, (4096,)), "{:.1f}%"),
    Value("matMul.dram_gmem_vs_smem", T,
          lambda q: tuple(q(gpu=g, kernel=k)["dram_bytes"] / 1e9 for g in ("h100", "h200") for k in ("MatMulKernel_smem", "MatMulKernel_gmem")),
          "H100: {:.1f} GB against {:.1f} GB; H200: {:.1f} GB against {:.1f} GB"),
    # L1 sectors are the same on both GPUs (the traffic table shows one column)
    Value("matMul.l1_reads_async_tuned", T,
          lambda q: tuple(reads(q(gpu="h100", kernel=k)["l1_sectors"], 32) for k in ("sgemmAsync", "sgemmTuned")),
          "{:.0f} and {:.0f}"),
]
