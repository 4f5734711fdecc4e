"""Chapter 05's measured tables, quoted numbers and figure (format: plots/plot_timings.py)."""
import os

from plot_timings import Col, Figure, Table, Value, at, read_csv

CSV = "setRowReadCol.csv"
BANK = ["kernel", "ld_wavefronts", "st_wavefronts", "ld_instructions", "st_instructions", "ld_conflicts",
        "st_conflicts"]


def draw(ax, rows, gpu_dir):
    """Slowdown against row/row per access pattern, beside the mean n-way conflict that Nsight
    Compute measured (bank_conflicts.csv, when present)."""
    kernels = [r for r in rows if r["kernel"] not in ("copy", "cudaMemcpy")]
    names = [r["kernel"] for r in kernels]
    y = range(len(kernels))
    ax.barh(list(y), [r["slowdown_vs_rowrow"] for r in kernels], color="tab:red", height=0.4,
            label="measured slowdown vs row/row")
    bank = os.path.join(gpu_dir, "bank_conflicts.csv")
    if os.path.exists(bank):
        b = {r["kernel"]: r for r in read_csv(bank, BANK, BANK[1:])}
        ways = [(b[n]["ld_wavefronts"] + b[n]["st_wavefronts"]) / (b[n]["ld_instructions"] + b[n]["st_instructions"])
                if n in b else 0 for n in names]
        ax.barh([i + 0.4 for i in y], ways, color="tab:purple", height=0.4,
                label="mean n-way conflict (ncu wavefronts / instructions)")
    ax.set_yticks([i + 0.2 for i in y])
    ax.set_yticklabels(names, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("times")
    ax.legend(fontsize=8, loc="lower right")


FIGURES = [
    Figure("setRowReadCol", CSV, ["kernel", "size", "bytes", "time_ms", "gbps", "pct_of_copy", "slowdown_vs_rowrow"],
           "Chapter 05 setRowReadCol: the cost of bank conflicts", "panel", draw=draw,
           numeric=["gbps"]),
]
