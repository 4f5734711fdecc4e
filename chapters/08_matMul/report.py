"""Chapter 08's measured tables, quoted numbers and figure (format: plots/plot_timings.py)."""
import re

from plot_timings import Col, DataError, Field, Figure, Table, Value, span

CSV = "matMul.csv"

FIGURES = [
    Figure("matMul", CSV, ["kernel", "n", "time_ms", "tflops", "pct_of_cublas"],
           "Chapter 08 matMul: FP32 TFLOP/s against n, cublasSgemm without TF32", "lines",
           x="n", y="tflops", logx=True, references={"cublas*": "black"}, legend_cols=1,
           xlabel="n (C = A B, all n x n, FP32)", ylabel="TFLOP/s (2 n^3 / time)"),
]


# ---------------------------------------------------------------------------------------------- tables
LADDER = [("MatMulKernel_gmem", "`MatMulKernel` (gmem, source)"), ("MatMulKernel_smem", "`MatMulKernel` (smem, source)"),
          ("sgemmRegTile", "`sgemmRegTile` (ours)"), ("sgemmVec4", "`sgemmVec4` (ours)"),
          ("sgemmDoubleBuffer", "**`sgemmDoubleBuffer` (ours)**"), ("cublasSgemm", "`cublasSgemm`")]
SIZES = [1024, 2048, 4096, 8192]
BEST = "sgemmDoubleBuffer"


def tflops_at(n):
    def cell(r, q):
        text = f"{q(kernel=r['kernel'], n=n)['tflops']:.2f}"
        return f"**{text}**" if r["kernel"] == BEST and n >= 4096 else text
    return cell


def vs_cublas(q, kernel, n):
    return q(kernel="cublasSgemm", n=n)["time_ms"] / q(kernel=kernel, n=n)["time_ms"]


def vs_at(n):
    def cell(r, q):
        text = f"{vs_cublas(q, r['kernel'], n):.3f}×"
        return f"**{text}**" if r["kernel"] == BEST else text
    return cell


def bench(gpu):
    return Table(f"matMul.bench.{gpu}", CSV, gpu=gpu, key=("kernel", "n"),
                 rows=[{"kernel": k, "n": 4096, "label": label} for k, label in LADDER],
                 columns=[Col("kernel", "{label}", "l"), Col("1024³ TFLOP/s", tflops_at(1024))] +
                         [Col(f"{n}³", tflops_at(n)) for n in SIZES[1:]] +
                         [Col("vs cuBLAS at 4096³", vs_at(4096)), Col("at 8192³", vs_at(8192))])


T = "matMul_traffic.csv"
READ_BYTES = 2 * 4096 * 4096 * 4  # A plus B, floats


def reads(count, unit_bytes):
    return count * unit_bytes / READ_BYTES


def fmt_reads(x):
    return f"{x:.0f}" if x >= 100 or x == int(x) else f"{x:.1f}" if x >= 10 else f"{x:.2f}"


def dram_reads(x):
    return f"{x:.1f}" if x >= 10 else f"{x:.2f}"


def traffic_cell(field, unit_bytes, fmt, fmt_x=fmt_reads):
    """H100 / H200 of one counter, each with its "× read"."""
    def cell(r, q):
        parts = []
        for g in ("h100", "h200"):
            v = q(gpu=g, kernel=r["kernel"])[field]
            parts.append(f"{fmt(v)} ({fmt_x(reads(v, unit_bytes))})")
        return " / ".join(parts)
    return cell


def thread_loads(r, q):
    if r["kernel"] in ("sgemmVec4", "sgemmDoubleBuffer"):  # 16-byte loads
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
                    ("sgemmDoubleBuffer", "`sgemmDoubleBuffer`")]],
                columns=[Col("kernel", "{label}", "l"), Col("global loads by threads (× read)", thread_loads),
                         Col("32-byte sectors asked of L1 (× read)",
                             lambda r, q: f"{r['l1_sectors']:,} ({fmt_reads(reads(r['l1_sectors'], 32))})"),
                         Col("sectors from L2 (× read), H100 / H200", traffic_cell("l2_sectors", 32, lambda v: f"{v:,}")),
                         Col("bytes from DRAM (× read), H100 / H200", traffic_cell("dram_bytes", 1, gb, dram_reads)),
                         Col("shared wavefronts per shared load", lambda r, q: "–" if not r["smem_ld_instructions"] else
                             f"{r['smem_ld_wavefronts'] / r['smem_ld_instructions']:.2f}")])]


# ---------------------------------------------------------------------------------------------- values
SMS, LANES = 132, 128  # SMs of the H100 SXM and the H200; FP32 lanes per SM on sm_90


def peak_tflops(q):
    return SMS * LANES * 2 * q.max_sm_mhz() * 1e6 / 1e12


def max_error(q, n, gpu):
    """The largest |C - ref| / tolerance of any kernel at n, from the bench's stderr in the workbook log."""
    m = re.search(rf"n = {n}, largest \|C - ref\| / tolerance:([^\n]*)", q.text("logs/workbook.log", gpu))
    if not m:
        raise DataError(q.path("logs/workbook.log", gpu) + f": no error line for n = {n}")
    return max(float(x) for x in re.findall(r"\s(\d+\.\d+)", m.group(1)))


def time_spread(q, sizes):
    """The largest difference between the two GPUs' times over `sizes`, in %."""
    rows = q.rows(gpu="h100")
    return max(abs(q(gpu="h200", kernel=r["kernel"], n=r["n"])["time_ms"] / r["time_ms"] - 1) * 100
               for r in rows if r["n"] in sizes)


def ours_range_1024(q):
    return span([vs_cublas(q, k, 1024) for k in ("sgemmRegTile", "sgemmVec4", "sgemmDoubleBuffer")], "{:.2f}", sep="–") + "×"


def per_gpu(g):
    P = "matMul."
    return [
        Value(P + f"best_vs_cublas_4096.{g}", CSV, lambda q: vs_cublas(q, BEST, 4096), "{:.3f}×", gpu=g),
        Value(P + f"best_vs_cublas_8192.{g}", CSV, lambda q: vs_cublas(q, BEST, 8192), "{:.3f}×", gpu=g),
        Value(P + f"best_pct_of_peak.{g}", CSV, lambda q: 100 * q(kernel=BEST, n=4096)["tflops"] / peak_tflops(q), "{:.0f}%", gpu=g),
        Value(P + f"cublas_pct_of_peak.{g}", CSV, lambda q: 100 * q(kernel="cublasSgemm", n=4096)["tflops"] / peak_tflops(q),
              "{:.0f}%", gpu=g),
        Value(P + f"source_tflops.{g}", CSV,
              lambda q: (q(kernel="MatMulKernel_gmem", n=4096)["tflops"], q(kernel="MatMulKernel_smem", n=4096)["tflops"]),
              "{:.2f} and {:.2f}", gpu=g),
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
              lambda q: (q(kernel=BEST, n=4096)["tflops"],
                         q(kernel=BEST, n=4096)["tflops"] / q(kernel="sgemmVec4", n=4096)["tflops"]),
              "→ {:.2f} ({:.2f}×)", gpu=g),
        Value(P + f"left_to_cublas.{g}", CSV, lambda q: 100 * (1 - vs_cublas(q, BEST, 4096)), "{:.0f}%", gpu=g),
        Value(P + f"dram_reads_ours.{g}", T,
              lambda q: span([reads(q(kernel=k)["dram_bytes"], 1) for k in ("sgemmRegTile", "sgemmVec4", BEST)], "{:.1f}", sep="–"),
              gpu=g),
        Value(P + f"smem_dram_gb.{g}", T, lambda q: q(kernel="MatMulKernel_smem")["dram_bytes"] / 1e9, "{:.2f} GB", gpu=g),
        Value(P + f"gmem_l2_filtered.{g}", T,
              lambda q: 100 * (1 - q(kernel="MatMulKernel_gmem")["l2_sectors"] / q(kernel="MatMulKernel_gmem")["l1_sectors"]),
              "{:.0f}%", gpu=g),
        Value(P + f"smem_ways_regtile.{g}", T,
              lambda q: q(kernel="sgemmRegTile")["smem_ld_wavefronts"] / q(kernel="sgemmRegTile")["smem_ld_instructions"], "{:.1f}", gpu=g),
        Value(P + f"smem_ways_vec4.{g}", T,
              lambda q: q(kernel="sgemmVec4")["smem_ld_wavefronts"] / q(kernel="sgemmVec4")["smem_ld_instructions"], "{:.1f}", gpu=g),
        # the top README's headline row
        Field(P + f"best_tflops.{g}", CSV, "tflops", "{:.1f} TFLOP/s", g, kernel=BEST, n=4096),
    ]


VALUES = per_gpu("h100") + per_gpu("h200") + [
    Value("matMul.max_error_1024", CSV, lambda q: max(max_error(q, 1024, g) for g in ("h100", "h200")), "{:.4f}"),
    Value("matMul.max_error_8192", CSV, lambda q: max(max_error(q, 8192, g) for g in ("h100", "h200")), "{:.4f}"),
    Value("matMul.sm_ghz", CSV, lambda q: q.max_sm_mhz() / 1e3, "{:.2f} GHz"),
    Value("matMul.peak_tflops", CSV, peak_tflops, "{:.1f} TFLOP/s"),
    Value("matMul.time_spread_2048", CSV, lambda q: time_spread(q, (2048, 4096, 8192)), "{:.1f}%"),
    Value("matMul.time_spread_4096", CSV, lambda q: time_spread(q, (4096,)), "{:.1f}%"),
    Value("matMul.dram_gmem_vs_smem", T,
          lambda q: tuple(q(gpu=g, kernel=k)["dram_bytes"] / 1e9 for g in ("h100", "h200") for k in ("MatMulKernel_smem", "MatMulKernel_gmem")),
          "H100: {:.1f} GB against {:.1f} GB; H200: {:.1f} GB against {:.1f} GB"),
    Value("matMul.smem_speedup", CSV,
          lambda q: span([q(gpu=g, kernel="MatMulKernel_gmem", n=4096)["time_ms"] / q(gpu=g, kernel="MatMulKernel_smem", n=4096)["time_ms"]
                          for g in ("h100", "h200")], "{:.1f}", sep="–") + "×"),
]
