"""Chapter 10's measured tables and quoted numbers (format: plots/plot_timings.py). Most cells show
both GPUs as "H100 / H200"."""
import re

from plot_timings import Col, DataError, Table, Value, span

F, R, D = "memoryFence.csv", "memoryFence_reduce.csv", "memoryFence_domains.csv"
GPUS = ("h100", "h200")


def both(field, fmt, csv=None):
    """The same row's field on each GPU, "H100 / H200"."""
    def cell(r, q):
        match = {k: r[k] for k in r["_key"]}
        return " / ".join(fmt.format(q(csv=csv, gpu=g, **match)[field]) for g in GPUS)
    return cell


# ---------------------------------------------------------------------------------------------- tables
FENCES = [("loopNoFence", "none", "—"), ("loopThreadfenceBlock", "`__threadfence_block()`", "`MEMBAR.SC.CTA`"),
          ("loopThreadfence", "`__threadfence()`", "`MEMBAR.SC.GPU`"),
          ("loopFenceAcqRelDevice", "`atomic_thread_fence(acq_rel, device)`", "`MEMBAR.ALL.GPU`"),
          ("loopThreadfenceSystem", "`__threadfence_system()`", "`MEMBAR.SC.SYS`"),
          ("loopFenceAcqRelSystem", "`atomic_thread_fence(acq_rel, system)`", "`MEMBAR.ALL.SYS`")]


def at_config(field, config, fmt):
    def cell(r, q):
        return " / ".join(fmt.format(q(gpu=g, kernel=r["kernel"], config=config)[field]) for g in GPUS)
    return cell


REDUCE = [("sumThreadfence", "partial; `__threadfence()`; `atomicAdd` ticket; in the last block, `__threadfence()`", ""),
          ("sumReleaseAcquire", "partial; `ticket.fetch_add(1, acq_rel)`", ""),
          ("sumNoFence", "partial; `atomicAdd` ticket: racy, timed only to price the fence", " (not guaranteed)"),
          ("sumTwoPass", "partials, then a second 1-block kernel: no fence, no atomic", ""),
          ("cub_DeviceReduce_Sum", "the library peer", ""),
          ("copy", "bandwidth reference (read + write)", "")]


def exact(r, q):
    v = {q(csv=R, gpu=g, kernel=r["kernel"])["exact"] for g in GPUS}
    return "" if v == {""} else " / ".join(sorted(v)) + r["note"]


WORK = [("store + __threadfence", "store + `__threadfence()`"), ("store + __threadfence_system", "store + `__threadfence_system()`"),
        ("__threadfence only", "`__threadfence()` only, no store"), ("__threadfence_system only", "`__threadfence_system()` only"),
        ("kernel boundary (graph of launches)", "one-thread kernel in a graph (per launch, boundary included)")]
W_DEV, W_SYS, W_DEV0, W_SYS0, W_K = [w for w, _ in WORK]
# Where the domain changes a fence's price beside the writer by more than this, the cell is bold.
DOMAIN_EFFECT = 0.2
# The domain table's store + __threadfence baseline runs the fence table's one-warp loopThreadfence
# loop; where the two disagree by more than this, the baseline is marked † and no ratio is taken on it.
DISAGREE = 0.1


def ns_op(r):
    """A domain-table row's ns per op, unrounded where the CSV allows: time_ms (4 decimals, so ± 50 ns
    over the run) / count is finer than ns_per_op (± 0.05 ns) once count > 1000; a formatted cell then
    rounds the measurement, not the CSV's already rounded column (932.5 in the CSV is 932.54)."""
    return r["time_ms"] * 1e6 / r["count"] if r["count"] > 1000 else r["ns_per_op"]


def dev_store_pair(q, g):
    """The one-warp store + __threadfence loop on GPU g: (domain table, fence table), ns per iteration."""
    return (ns_op(q(csv=D, gpu=g, work=W_DEV, beside="none")),
            q(csv=F, gpu=g, kernel="loopThreadfence", config="1 warp")["ns_per_iteration"])


def dev_store_disagrees(q, g):
    a, b = dev_store_pair(q, g)
    return max(a, b) / min(a, b) - 1 > DISAGREE


def dev_store_h100(q):
    """The H100's pair, with how much slower the domain table's is, in %: refused unless it is slower, as
    the README says."""
    a, b = dev_store_checked(q, "h100", False)
    if a < b:
        raise DataError(f"{q.path(D, 'h100')}: the store + __threadfence baseline ({a:.1f} ns) is faster than the "
                        f"fence table's one-warp loop ({b} ns); the README says it is slower")
    return 100 * (a / b - 1), a, b


def dev_store_checked(q, g, disagree):
    """dev_store_pair, refused (DataError) unless the two disagree as the README says they do."""
    if dev_store_disagrees(q, g) != disagree:
        raise DataError(f"{q.path(D, g)}: the store + __threadfence baseline {'agrees' if disagree else 'disagrees'} "
                        f"with the fence table's one-warp loop {dev_store_pair(q, g)}; the README's † note says otherwise")
    return dev_store_pair(q, g)


def domain_rows(q):
    lines = ["| fence work | GPU | alone (ns/op) | beside writer, same domain | beside writer, remote domain |",
             "|---|---|---:|---:|---:|"]
    for work, label in WORK:
        for g in GPUS:
            alone = ns_op(q(gpu=g, work=work, beside="none"))
            same, remote = (q(gpu=g, work=work, beside="streamWrite", domain=dom) for dom in ("default", "remote"))
            fmt = "{:.0f}" if work.startswith("kernel") else "{:.1f}"
            alone_cell = fmt.format(alone)
            if work == W_DEV and dev_store_disagrees(q, g):
                # The baseline disagrees with the same loop in the fence table (the README's † note,
                # memoryFence.dev_store_runs.h200): no ratio on it.
                alone_cell += " †"
                cells = [f"{ns_op(r):.0f} (—)" for r in (same, remote)]
            else:
                cells = [f"{ns_op(r):.0f} ({r['slowdown_vs_alone']:.1f}×)" for r in (same, remote)]
            if abs(ns_op(remote) / ns_op(same) - 1) > DOMAIN_EFFECT:
                cells[1] = f"**{cells[1]}**"
            lines.append(f"| {label if g == 'h100' else ''} | {g.upper()} | {alone_cell} | {cells[0]} | {cells[1]} |")
    return lines


def fence_rows(q):
    """The fence table; its header names the full grid's thread count, from the CSVs."""
    threads = " / ".join(sorted({f"{q(gpu=g, kernel='loopNoFence', config='full GPU')['threads']:,.0f}" for g in GPUS}))
    lines = [f"| fence | SASS | 1 warp: ns/iter | extra ns | full GPU ({threads} threads): ns/iter | extra ns |",
             "|---|---|---:|---:|---:|---:|"]
    for kernel, fence, sass in FENCES:
        cells = [at_config(field, config, "{:.1f}")({"kernel": kernel}, q)
                 for config in ("1 warp", "full GPU") for field in ("ns_per_iteration", "extra_ns_vs_none")]
        lines.append(f"| {fence} | {sass} | " + " | ".join(cells) + " |")
    return lines


TABLES = [
    Table("memoryFence.fences", F, render=fence_rows),
    Table("memoryFence.reduce", R, rows=[{"kernel": k, "what": w, "note": n} for k, w, n in REDUCE],
          columns=[Col("kernel", "`{kernel}`", "l"), Col("what it is", "{what}", "l"),
                   Col("time (ms)", both("time_ms", "{:.4f}")), Col("GB/s", both("gbps", "{:.0f}")),
                   Col("% of copy", both("pct_of_copy", "{:.1f}")), Col("exact", exact, "l")]),
    Table("memoryFence.domains", D, render=domain_rows),
]


# ---------------------------------------------------------------------------------------------- values
def f(q, kernel, config, field="extra_ns_vs_none", gpu=None):
    return q(csv=F, gpu=gpu, kernel=kernel, config=config)[field]


def d(q, work, beside="none", domain="default", field="ns_per_op", gpu=None):
    r = q(csv=D, gpu=gpu, work=work, beside=beside, domain=domain)
    return ns_op(r) if field == "ns_per_op" else r[field]


def stream_tbs(q, gpu):
    m = re.search(r"streamWrite alone: .*?, (\d+) GB/s of stores", q.text("logs/workbook.log", gpu))
    if not m:
        raise DataError(q.path("logs/workbook.log", gpu) + ": no 'streamWrite alone' line")
    return int(m.group(1)) / 1e3


def pair(fn, fmt):
    return lambda q: " / ".join(fmt.format(fn(q, g)) for g in GPUS)


SYS_LOOPS = ("loopThreadfenceSystem", "loopFenceAcqRelSystem")


def max_gpu_diff(q):
    """The largest H100/H200 ratio of any full-GPU extra cost other than the system fences', in %."""
    rows = [r for r in q.rows(csv=F, gpu="h100") if r["config"] == "full GPU" and r["extra_ns_vs_none"] and "System" not in r["kernel"]]
    return max(max(a, b) / min(a, b) - 1 for a, b in
               ((r["extra_ns_vs_none"], f(q, r["kernel"], "full GPU", gpu="h200")) for r in rows)) * 100


def reduce_spread(q, g):
    v = [q(csv=R, gpu=g, kernel=k)["time_ms"] for k, _, _ in REDUCE if k != "copy"]
    return (max(v) / min(v) - 1) * 100


def nofence_gain(q, g):
    """How much faster sumNoFence ran than sumThreadfence, in %: refused (DataError) unless sumNoFence is
    the fastest of the five sums and both fenced medians lie inside its runs' spread (min_ms to max_ms),
    as the README says."""
    t = {k: q(csv=R, gpu=g, kernel=k) for k, _, _ in REDUCE if k != "copy"}
    nf = t["sumNoFence"]
    if min(t, key=lambda k: t[k]["time_ms"]) != "sumNoFence" or \
            not all(nf["min_ms"] <= t[k]["time_ms"] <= nf["max_ms"] for k in ("sumThreadfence", "sumReleaseAcquire")):
        raise DataError(f"{q.path(R, g)}: sumNoFence is not the fastest sum, or a fenced sum's median lies outside "
                        "its min_ms to max_ms; the README says otherwise")
    return 100 * (t["sumThreadfence"]["time_ms"] / nf["time_ms"] - 1)


def remote_k_h200(q):
    """How much slower the graph of one-thread kernels ran beside the writer in the remote domain than in
    the same one on the H200, in %: refused (DataError) unless the remote median lies inside the
    same-domain runs' min_ms to max_ms, as the README says."""
    same = q(csv=D, gpu="h200", work=W_K, beside="streamWrite", domain="default")
    rem = q(csv=D, gpu="h200", work=W_K, beside="streamWrite", domain="remote")
    if not same["min_ms"] <= rem["time_ms"] <= same["max_ms"]:
        raise DataError(f"{q.path(D, 'h200')}: the remote-domain graph's median {rem['time_ms']} ms lies outside the "
                        f"same-domain runs' {same['min_ms']} to {same['max_ms']} ms; the README says it lies inside")
    return 100 * (rem["ns_per_op"] / same["ns_per_op"] - 1)


def fences_per_thread(q, g):
    """A fence per element of the 2^28-int sum, spread over the fence table's full grid: fences per thread."""
    return 2**28 / f(q, "loopThreadfence", "full GPU", "threads", gpu=g)


def remote_effect(q, g, works):
    return max(abs(d(q, w, "streamWrite", "remote", gpu=g) / d(q, w, "streamWrite", "default", gpu=g) - 1) * 100 for w in works)


VALUES = [
    Value("memoryFence.block_extra", F, lambda q: span([f(q, "loopThreadfenceBlock", "1 warp", gpu=g) for g in GPUS]) + " ns"),
    Value("memoryFence.device_extra.h100", F, lambda q: f(q, "loopThreadfence", "1 warp", gpu="h100"), "{:.0f} ns"),
    Value("memoryFence.device_extra.h200", F, lambda q: f(q, "loopThreadfence", "1 warp"), "{:.0f} ns"),
    Value("memoryFence.system_extra", F, pair(lambda q, g: f(q, "loopThreadfenceSystem", "1 warp", gpu=g), "{:.0f}"), "{} ns"),
    Value("memoryFence.h200_cheaper", F,
          lambda q: span([100 * (1 - f(q, k, "1 warp") / f(q, k, "1 warp", gpu="h100"))
                          for k in ("loopThreadfence", "loopThreadfenceSystem")], sep="–") + "%"),
    Value("memoryFence.sc_vs_acqrel", F,
          lambda q: max(abs(f(q, a, "1 warp", gpu=g) - f(q, b, "1 warp", gpu=g)) for g in GPUS
                        for a, b in (("loopThreadfence", "loopFenceAcqRelDevice"), ("loopThreadfenceSystem", "loopFenceAcqRelSystem"))),
          "{:.1f} ns"),
    Value("memoryFence.device_full", F, pair(lambda q, g: f(q, "loopThreadfence", "full GPU", gpu=g), "{:.0f}"), "{} ns"),
    Value("memoryFence.device_gfences", F, pair(lambda q, g: f(q, "loopThreadfence", "full GPU", "gfences_per_s", gpu=g), "{:.0f}"),
          "{} G"),
    Value("memoryFence.system_full", F,
          lambda q: (f(q, "loopThreadfenceSystem", "full GPU", gpu="h100") / 1e3, f(q, "loopThreadfenceSystem", "full GPU") / 1e3,
                     f(q, "loopThreadfenceSystem", "full GPU", gpu="h100") / f(q, "loopThreadfenceSystem", "full GPU")),
          "{:.2f} µs extra on the H100, {:.2f} µs on the H200 ({:.1f}×)"),
    Value("memoryFence.other_rows_diff", F, max_gpu_diff, "{:.0f}%"),
    # The within-run spread of the two system-fence rows under full load (min_ms / max_ms of 50 runs).
    Value("memoryFence.system_full_spread", F,
          lambda q: (min(f(q, k, "full GPU", "min_ms", gpu="h100") for k in SYS_LOOPS),
                     max(f(q, k, "full GPU", "max_ms", gpu="h100") for k in SYS_LOOPS),
                     min(f(q, k, "full GPU", "min_ms") for k in SYS_LOOPS),
                     max(f(q, k, "full GPU", "max_ms") for k in SYS_LOOPS),
                     min(f(q, k, "full GPU", "min_ms", gpu="h100") for k in SYS_LOOPS)
                     / max(f(q, k, "full GPU", "max_ms") for k in SYS_LOOPS)),
          "{:.3f} to {:.3f} ms per launch on the H100 and {:.3f} to {:.3f} ms on the H200; the H100's fastest run "
          "still took {:.1f}× the H200's slowest"),
    Value("memoryFence.dev_nostore.h100", D, lambda q: (d(q, W_DEV, gpu="h100"), d(q, W_DEV0, gpu="h100")),
          "{:.0f} / {:.0f} ns"),
    Value("memoryFence.sys_nostore", D, lambda q: (d(q, W_SYS, gpu="h100"), d(q, W_SYS0, gpu="h100"), d(q, W_SYS), d(q, W_SYS0)),
          "{:.0f} / {:.0f} ns on the H100, {:.0f} / {:.0f} ns on the H200"),
    Value("memoryFence.reduce_spread", R, lambda q: (reduce_spread(q, "h100"), reduce_spread(q, "h200")),
          "{:.2f}% on the H100 and {:.2f}% on the H200"),
    Value("memoryFence.nofence_gain", R, lambda q: (nofence_gain(q, "h100"), nofence_gain(q, "h200")),
          "{:.1f}% on the H100 and {:.1f}% on the H200"),
    # One warp's extra time per device fence in the fence table (beyond the loop without a fence).
    Value("memoryFence.reduce_fence_cost", F,
          lambda q: span([f(q, "loopThreadfence", "1 warp", gpu=g) for g in GPUS], sep=" to ") + " ns"),
    Value("memoryFence.fences_per_thread", F, lambda q: span([fences_per_thread(q, g) for g in GPUS], "{:,.0f}")),
    Value("memoryFence.per_element_ms", F,
          pair(lambda q, g: f(q, "loopThreadfence", "full GPU", gpu=g) * fences_per_thread(q, g) / 1e6, "{:.2f}"), "{} ms"),
    Value("memoryFence.sum_ms", R, pair(lambda q, g: q(csv=R, gpu=g, kernel="sumThreadfence")["time_ms"], "{:.2f}"), "{} ms"),
    Value("memoryFence.stream", D, lambda q: (stream_tbs(q, "h100"), stream_tbs(q, "h200")), "{:.2f} TB/s on the H100 and {:.2f} TB/s on the H200"),
    Value("memoryFence.writer_ms", D, lambda q: span([r["writer_ms"] for g in GPUS for r in q.rows(csv=D, gpu=g) if r["writer_ms"] != ""])
          + " ms"),
    Value("memoryFence.overlap", D, lambda q: span([r["overlap_pct"] for g in GPUS for r in q.rows(csv=D, gpu=g) if r["overlap_pct"] != ""]) + "%"),
    Value("memoryFence.writer_left.h100", D, lambda q: span([r["writer_left_ms"] for r in q.rows(csv=D, gpu="h100") if r["writer_left_ms"] != ""])
          + " ms"),
    Value("memoryFence.writer_left.h200", D, lambda q: span([r["writer_left_ms"] for r in q.rows(csv=D) if r["writer_left_ms"] != ""]) + " ms"),
    Value("memoryFence.slow.h100", D,
          lambda q: (span([d(q, w, "streamWrite", dm, "slowdown_vs_alone", "h100") for w in (W_DEV, W_DEV0) for dm in ("default", "remote")], "{:.0f}"),
                     span([d(q, w, "streamWrite", dm, "slowdown_vs_alone", "h100") for w in (W_SYS, W_SYS0) for dm in ("default", "remote")], "{:.0f}"),
                     span([d(q, W_K, "streamWrite", dm, "slowdown_vs_alone", "h100") for dm in ("default", "remote")], "{:.1f}")),
          "about {}× for device fences, {}× for system fences and {}× for one-thread kernels in a graph"),
    Value("memoryFence.slow.h200", D,
          lambda q: (span([d(q, w, "streamWrite", dm, "slowdown_vs_alone") for w in (W_SYS, W_SYS0) for dm in ("default", "remote")], "{:.1f}"),
                     span([d(q, W_K, "streamWrite", dm, "slowdown_vs_alone") for dm in ("default", "remote")], "{:.1f}")),
          "{}× for system fences and {}× for one-thread kernels in a graph"),
    # The store + __threadfence one-warp loop in the two tables of one run: the README says the
    # H200's disagree (its † note) and the H100's are within DISAGREE, and by how much.
    Value("memoryFence.dev_store_runs.h200", D, lambda q: dev_store_checked(q, "h200", True),
          "{:.0f} ns in the domain table and {:.1f} ns in the fence table of the same run"),
    Value("memoryFence.dev_store_runs.h100", D,
          dev_store_h100,
          "{:.1f}% slower than the same loop in the fence table ({:.0f} against {:.0f} ns)"),
    Value("memoryFence.remote.h100", D, lambda q: remote_effect(q, "h100", [w for w, _ in WORK]), "{:.2f}%"),
    Value("memoryFence.remote4.h200", D, lambda q: remote_effect(q, "h200", [W_DEV, W_SYS, W_SYS0]), "{:.1f}%"),
    Value("memoryFence.remote_k.h200", D, remote_k_h200, "{:.1f}%"),
    Value("memoryFence.remote_dev0.h200", D,
          lambda q: d(q, W_DEV0, "streamWrite", "default") / d(q, W_DEV0, "streamWrite", "remote"), "{:.1f}×"),
    Value("memoryFence.remote_dev0_ns.h200", D,
          lambda q: (d(q, W_DEV0, "streamWrite", "remote"), d(q, W_DEV0, "streamWrite", "default")), "{:.0f} ns against {:.0f} ns"),
    Value("memoryFence.remote_dev0_slow.h200", D, lambda q: d(q, W_DEV0, "streamWrite", "remote", "slowdown_vs_alone"), "{:.1f}×"),
    Value("memoryFence.dev0_alone.h200", D, lambda q: d(q, W_DEV0), "{:.0f} ns"),
]
