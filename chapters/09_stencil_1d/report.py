"""Chapter 09's measured tables, quoted numbers and figure (format: plots/plot_timings.py)."""
from plot_timings import Col, Field, Figure, Table, Value, at

CSV = "stencil_1d.csv"

FIGURES = [
    Figure("stencil_1d", CSV, ["kernel", "size", "bytes", "time_ms", "gbps", "pct_of_copy"],
           "Chapter 09 stencil_1d: GB/s against N", "lines",
           references={"copy": "black", "cudaMemcpy": "gray"}, xlabel="N (floats)", xticks="log2"),
]
