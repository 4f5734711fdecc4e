"""Chapter 06's measured tables, quoted numbers and figure (format: plots/plot_timings.py)."""
from plot_timings import Col, Figure, Table, Value, at

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
            ax.text(i + width / 2, g, f"{g:.0f}", ha="center", va="bottom", fontsize=7)
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels([r["kernel"] for r in rows], rotation=30, ha="right", fontsize=8)
    ax.set_ylabel("GB/s of input read (n x 4 bytes, GB = 1e9); copy: read + write")
    ax.set_title(f"sum of {rows[0]['size']:,} ints. Solid: the whole sum; pale: the first pass alone "
                 "(what the book times). Blue: the source's kernels, orange: ours, green: CUB, gray: copy",
                 fontsize=8, wrap=True)


FIGURES = [
    Figure("reduceInteger", CSV, ["kernel", "size", "bytes", "time_ms", "gbps", "pct_of_copy", "first_pass_ms",
                                  "pct_of_cub"],
           "Chapter 06 reduceInteger: the book's reductions against CUB, 2^28 ints", "panel", draw=draw),
]
