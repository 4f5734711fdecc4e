"""Chapter 07's measured tables, quoted numbers and figure (format: plots/plot_timings.py)."""
from plot_timings import Col, Field, Figure, Table, Value, at

CSV = "transpose.csv"

FIGURES = [
    Figure("transpose", CSV, ["kernel", "size", "bytes", "time_ms", "gbps", "pct_of_copy"],
           "Chapter 07 transpose: GB/s against matrix size", "lines",
           references={"copy": "black", "cudaMemcpy": "tab:brown", "copyGmem": "gray", "cublasSgeam": "tab:green"},
           xlabel="matrix side n (n x n), then rows x cols"),
]
