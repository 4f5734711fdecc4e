"""Chapter 08's measured tables, quoted numbers and figure (format: plots/plot_timings.py)."""
from plot_timings import Col, Field, Figure, Table, Value, at

CSV = "matMul.csv"

FIGURES = [
    Figure("matMul", CSV, ["kernel", "n", "time_ms", "tflops", "pct_of_cublas"],
           "Chapter 08 matMul: FP32 TFLOP/s against n, cublasSgemm without TF32", "lines",
           x="n", y="tflops", logx=True, references={"cublas*": "black"}, legend_cols=1,
           xlabel="n (C = A B, all n x n, FP32)", ylabel="TFLOP/s (2 n^3 / time)"),
]
