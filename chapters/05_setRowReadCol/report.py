"""Chapter 05's measured tables, quoted numbers and figure (format: plots/plot_timings.py).
setRowReadCol: bank conflicts counted by Nsight Compute and timed at throughput scale;
syncthreads_ifelse: source 003's __syncthreads() in if/else, run plainly and under synccheck."""
import os
import re

from plot_timings import Col, DataError, Figure, Table, Value, read_csv, span

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


# ---------------------------------------------------------------------------------------------- tables
SQUARE = ["setRowReadRow", "setColReadCol", "setColReadRow", "setRowReadCol", "setRowReadColDyn",
          "setRowReadColPad", "setRowReadColDynPad"]
KERNELS = SQUARE + ["rect_" + k for k in SQUARE]
SOURCE_004 = {  # 004's ld / st "transactions", quoted from its ncu table (the source's measurement)
    "setRowReadRow": "32 / 32", "setColReadCol": "1024 / 1024", "setColReadRow": "32 / 1024",
    "setRowReadCol": "1024 / 32", "setRowReadColDyn": "1024 / 32", "setRowReadColPad": "32 / 32",
    "setRowReadColDynPad": "32 / 32", "rect_setRowReadRow": "16 / 16", "rect_setColReadCol": "256 / 256",
    "rect_setColReadRow": "16 / 256", "rect_setRowReadCol": "256 / 16", "rect_setRowReadColDyn": "256 / 16",
    "rect_setRowReadColPad": "16 / 16", "rect_setRowReadColDynPad": "16 / 16",
}


def ways(r, d):
    return r[f"{d}_wavefronts"] / r[f"{d}_instructions"]


def fmt_ways(v):
    return f"{v:.0f}" if v == int(v) else f"{v:.2f}"


def wavefronts_per_warp(r, q):
    if r["kernel"] in ("copy", "cudaMemcpy"):
        return ""
    b = q(csv="bank_conflicts.csv", kernel=r["kernel"])
    return f"{fmt_ways(ways(b, 'ld'))} + {fmt_ways(ways(b, 'st'))}"


TABLES = [
    Table("setRowReadCol.wavefronts", "bank_conflicts.csv",
          rows=[{"kernel": k, "src": SOURCE_004[k]} for k in KERNELS], columns=[
              Col("kernel", "`{kernel}`", "l"), Col("004 ld / st transactions", "{src}"),
              Col("our ld / st wavefronts", "{ld_wavefronts} / {st_wavefronts}"),
              Col("ld / st instructions", "{ld_instructions} / {st_instructions}"),
              Col("ld / st bank conflicts", "{ld_conflicts} / {st_conflicts}"),
              Col("n-way ld / st", lambda r, q: f"{fmt_ways(ways(r, 'ld'))} / {fmt_ways(ways(r, 'st'))}"),
          ]),
    Table("setRowReadCol.bench", CSV,
          rows=[{"kernel": k, "label": f"`{k}`"} for k in KERNELS] + [{"kernel": "copy", "label": "`copy` (global memory)"}],
          columns=[
              Col("kernel", "{label}", "l"), Col("time (ms)", "{time_ms:.4f}"), Col("shared GB/s", "{gbps:.0f}"),
              Col("% of DRAM copy", "{pct_of_copy:.1f}"),
              Col("slowdown vs row/row", lambda r, q: "" if r["slowdown_vs_rowrow"] == "" else f"{r['slowdown_vs_rowrow']:.2f}"),
              Col("wavefronts per warp (ld + st)", wavefronts_per_warp),
          ]),
]


# ---------------------------------------------------------------------------------------------- values
SMS = 132  # SMs of the H100 SXM and the H200 (the `device:` lines of both logs/workbook.log)


def predicted_ms(q, kernel, mhz=None):
    """Warp accesses x mean wavefronts per access / (SMs x SM clock): one wavefront per clock. The
    clock is the estimate the run made beside this kernel (sm_mhz, common/timer.h: clock64() cycles
    of a spin over the event time around its launch, so launch overhead lowers it), or mhz."""
    r, b = q(kernel=kernel), q(csv="bank_conflicts.csv", kernel=kernel)
    mean_ways = (b["ld_wavefronts"] + b["st_wavefronts"]) / (b["ld_instructions"] + b["st_instructions"])
    return r["size"] / 32 * mean_ways / (SMS * (mhz or r["sm_mhz"]) * 1e6) * 1e3


def sm_mhz_range(q):
    """The SM clock the run estimated (sm_mhz, launch overhead included), over the shared-memory
    kernels: (lowest, highest) in MHz."""
    v = [q(kernel=k)["sm_mhz"] for k in KERNELS]
    return (min(v), max(v))


CONFLICTED = ["setColReadCol", "setRowReadCol", "rect_setColReadCol", "rect_setRowReadCol"]


def over_bound(q, mhz=None):
    """How far above its wavefront bound each conflicted kernel runs, in %: (lowest, highest)."""
    v = [100 * (q(kernel=k)["time_ms"] / predicted_ms(q, k, mhz) - 1) for k in CONFLICTED]
    return (min(v), max(v))


def smem_sizes(q):
    """The shared-memory sizes setRowReadCol printed on stderr in the H200 run: (default per block,
    opt-in per block, per SM) in bytes."""
    m = re.search(r"(\d+) B per block by default, (\d+) B per block opt-in .*?, (\d+) B per SM",
                  q.text("logs/workbook.log"))
    if not m:
        raise DataError("logs/workbook.log: no 'shared memory on this GPU' line")
    return tuple(int(g) for g in m.groups())


CONFLICT_FREE = ["setRowReadRow", "setRowReadColPad", "setRowReadColDynPad", "rect_setRowReadRow",
                 "rect_setRowReadColPad", "rect_setRowReadColDynPad"]


def free_range(q):
    v = [q(kernel=k)["time_ms"] for k in CONFLICT_FREE]
    return (min(v), max(v))


def h100_vs_h200_pct(q):
    """The largest difference between the two GPUs' shared-memory times, in %."""
    return max(abs(q(gpu="h100", kernel=k)["time_ms"] / q(gpu="h200", kernel=k)["time_ms"] - 1) * 100 for k in KERNELS)


VALUES = [
    Value("setRowReadCol.accesses_m", CSV, lambda q: q(kernel="setRowReadRow")["size"] / 1e6, "{:.1f} M"),
    Value("setRowReadCol.warp_accesses_m", CSV, lambda q: q(kernel="setRowReadRow")["size"] / 32 / 1e6, "{:.1f} M"),
    Value("setRowReadCol.sm_mhz.h200", CSV, sm_mhz_range, "{:.0f}–{:.0f} MHz"),
    Value("setRowReadCol.sm_mhz.h100", CSV, sm_mhz_range, "{:.0f}–{:.0f} MHz", gpu="h100"),
    Value("setRowReadCol.max_sm_mhz.h200", CSV, lambda q: q.max_sm_mhz(), "{:.0f} MHz"),
    Value("setRowReadCol.over_bound.h200", CSV, over_bound, "{:+.1f}% to {:+.1f}%"),
    Value("setRowReadCol.over_bound_at_max.h200", CSV, lambda q: over_bound(q, q.max_sm_mhz()), "{:+.1f}% to {:+.1f}%"),
    Value("setRowReadCol.smem_sizes.h200", "logs/workbook.log", smem_sizes,
          "{} B per block by default, {} B per block opt-in and {} B per SM"),
    Value("setRowReadCol.smem_vs_dram.h200", CSV, lambda q: q(kernel="setRowReadRow")["gbps"] / q(kernel="copy")["gbps"], "{:.1f}×"),
    Value("setRowReadCol.dram_vs_conflict.h200", CSV, lambda q: q(kernel="copy")["gbps"] / q(kernel="setColReadCol")["gbps"], "{:.1f}×"),
    Value("setRowReadCol.conflict_vs_copy.h200", CSV,
          lambda q: (q(kernel="setColReadCol")["gbps"], q(kernel="copy")["gbps"]), "{:.0f} against {:.0f} GB/s"),
    Value("setRowReadCol.free_range.h200", CSV, free_range, "{:.2f}–{:.2f} ms"),
    Value("setRowReadCol.free_over_bound.h200", CSV,
          lambda q: span([q(kernel=k)["time_ms"] / predicted_ms(q, k) for k in CONFLICT_FREE], "{:.2f}", "–"),
          "{}×"),
    Value("setRowReadCol.free_bound.h200", CSV, lambda q: predicted_ms(q, "setRowReadRow"), "{:.3f} ms"),
    Value("setRowReadCol.slowdowns.h200", CSV,
          lambda q: (q(kernel="setColReadCol")["slowdown_vs_rowrow"], q(kernel="setRowReadCol")["slowdown_vs_rowrow"]),
          "{:.1f}×\nand {:.1f}×"),
    Value("setRowReadCol.h100_within", CSV, h100_vs_h200_pct, "{:.0f}%"),
    Value("setRowReadCol.colcol.h100", CSV,
          lambda q: (q(kernel="setColReadCol")["time_ms"], q(kernel="setColReadCol")["slowdown_vs_rowrow"]),
          "{:.4f} ms ({:.2f}× row/row)", gpu="h100"),
    Value("setRowReadCol.rowcol.h100", CSV,
          lambda q: (q(kernel="setRowReadCol")["time_ms"], q(kernel="setRowReadCol")["slowdown_vs_rowrow"]),
          "{:.4f} ms ({:.2f}×)", gpu="h100"),
    Value("setRowReadCol.copy_gbps.h100", CSV, lambda q: q(kernel="copy")["gbps"], "{:.0f} GB/s", gpu="h100"),
    Value("setRowReadCol.conflict_pct_of_copy.h100", CSV, lambda q: q(kernel="setColReadCol")["pct_of_copy"], "{:.0f}%", gpu="h100"),
    Value("setRowReadCol.conflict_pct_of_copy.h200", CSV, lambda q: q(kernel="setColReadCol")["pct_of_copy"], "{:.0f}%"),
    # the top README's headline row
    Value("setRowReadCol.pad_gbps.h200", CSV, lambda q: q(kernel="setRowReadColPad")["gbps"], "{:.0f} GB/s"),
    Value("setRowReadCol.pad_gbps.h100", CSV, lambda q: q(kernel="setRowReadColPad")["gbps"], "{:.0f} GB/s", gpu="h100"),
    Value("setRowReadCol.conflict32.h200", CSV, lambda q: q(kernel="setColReadCol")["slowdown_vs_rowrow"], "{:.1f}×"),
    Value("setRowReadCol.conflict32.h100", CSV, lambda q: q(kernel="setColReadCol")["slowdown_vs_rowrow"], "{:.1f}×", gpu="h100"),
] + [Value(f"setRowReadCol.predicted.{k}.h200", CSV, (lambda k: lambda q: predicted_ms(q, k))(k), "{:.2f} ms")
     for k in CONFLICTED] + [
    Value(f"setRowReadCol.measured.{k}.h200", CSV, (lambda k: lambda q: q(kernel=k)["time_ms"])(k), "{:.2f}")
    for k in CONFLICTED]


# ---------------------------------------------------------------------------------------------- syncthreads_ifelse
DEMO = "logs/syncthreads_ifelse_demo.log"


def section(q, command_part):
    """The part of the Value's GPU's demo log after the first '$ ...' line that contains command_part."""
    text = q.text(DEMO)
    parts = re.split(r"^\$ ", text, flags=re.M)
    for p in parts:
        if command_part in p.split("\n", 1)[0]:
            return p
    raise DataError(f"{DEMO}: no command with {command_part!r}")


def plain(kernel):
    """'N of M' values wrong for `kernel` in the plain run (--kernel all)."""
    def compute(q):
        m = re.search(rf"^{kernel}\s+(\d+) of (\d+) values wrong", section(q, "syncthreads_ifelse --kernel all"), re.M)
        if not m:
            raise DataError(f"{DEMO}: no result line for {kernel} in the plain run")
        return int(m.group(1)), int(m.group(2))
    return compute


def synccheck(which):
    """synccheck on one if/else kernel (which: 'lane' or 'warp'): (its message, the error count)."""
    def compute(q):
        s = None
        for cmd in (f"--kernel {which}", "--kernel all"):  # one kernel per run, or all of them in one
            try:
                s = _synccheck_section(q, cmd)
                break
            except DataError:
                continue
        if s is None:
            raise DataError(f"{DEMO}: no synccheck run of the {which} kernel")
        msg = re.search(r"^========= (Barrier error detected\. [^\n]*)", s, re.M)
        n = re.search(r"ERROR SUMMARY: (\d+) error", s)
        if not (msg and n):
            raise DataError(f"{DEMO}: the synccheck run has no barrier error or no ERROR SUMMARY")
        return msg.group(1), int(n.group(1))
    return compute


def _synccheck_section(q, kernel_arg):
    text = q.text(DEMO)
    for p in re.split(r"^\$ ", text, flags=re.M):
        head = p.split("\n", 1)[0]
        if "synccheck" in head and head.rstrip().endswith(kernel_arg):
            return p
    raise DataError(f"{DEMO}: no synccheck run with {kernel_arg}")


def synccheck_site(q):
    """Where synccheck reports barrierIfElseLane (one offset for every error printed) and the
    instruction there in the log's cuobjdump listing of the GPU's architecture."""
    s = _synccheck_section(q, "--kernel lane")
    offsets = set(re.findall(r"at barrierIfElseLane\(int \*\)\+(0x[0-9a-f]+)", s))
    if len(offsets) != 1:
        raise DataError(f"{DEMO}: synccheck reports barrierIfElseLane at {sorted(offsets) or 'no offset'}, not one")
    off = offsets.pop()
    arch = re.search(r"^device: .*?, (sm_\d+),", q.text(DEMO), re.M)
    listing = section(q, "cuobjdump -sass syncthreads_ifelse")
    cur_arch = func = None
    for line in listing.splitlines():
        if m := re.search(r"arch = (sm_\d+)", line):
            cur_arch = m.group(1)
        elif m := re.search(r"Function : (\S+)", line):
            func = m.group(1)
        elif (m := re.match(r"\s*/\*([0-9a-f]+)\*/\s+(.*?)\s*;", line)) and arch and cur_arch == arch.group(1) \
                and func == "_Z17barrierIfElseLanePi" and int(m.group(1), 16) == int(off, 16):
            return off, arch.group(1), m.group(2)
    raise DataError(f"{DEMO}: no barrier at {off} of barrierIfElseLane in the cuobjdump listing")


VALUES += [
    Value("syncthreads_ifelse.synccheck_site.h100", DEMO, synccheck_site,
          "`+{0}`, which in the {1} SASS listed in the same log is `{2}`", gpu="h100"),
    Value("syncthreads_ifelse.plain_lane.h100", DEMO, plain("barrierIfElseLane"), "{} of {}", gpu="h100"),
    Value("syncthreads_ifelse.plain_warp.h100", DEMO, plain("barrierIfElseWarp"), "{} of {}", gpu="h100"),
    Value("syncthreads_ifelse.synccheck_message.h100", DEMO, lambda q: synccheck("lane")(q)[0], "{}", gpu="h100"),
    Value("syncthreads_ifelse.synccheck_errors.h100", DEMO, lambda q: synccheck("lane")(q)[1], "{:,}", gpu="h100"),
    Value("syncthreads_ifelse.synccheck_message_warp.h100", DEMO, lambda q: synccheck("warp")(q)[0], "{}", gpu="h100"),
    Value("syncthreads_ifelse.synccheck_errors_warp.h100", DEMO, lambda q: synccheck("warp")(q)[1], "{:,}", gpu="h100"),
    # the H200's run: the same outcome, other counts
    Value("syncthreads_ifelse.synccheck_errors.h200", DEMO, lambda q: synccheck("lane")(q)[1], "{:,}"),
    Value("syncthreads_ifelse.synccheck_errors_warp.h200", DEMO, lambda q: synccheck("warp")(q)[1], "{:,}"),
]
