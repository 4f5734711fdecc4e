"""Chapter 05's quoted numbers (format: plots/plot_timings.py).
syncthreads_ifelse: source 003's __syncthreads() in if/else, run plainly and under synccheck."""
import re

from plot_timings import DataError, Value

DEMO = "logs/syncthreads_ifelse_demo.log"


def section(q, command_part):
    """The part of the demo log after the first '$ ...' line that contains command_part."""
    text = q.text(DEMO, gpu="h100")
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


def synccheck_lane(q):
    """synccheck on the lane-divergent kernel: (its message, the error count)."""
    s = None
    for cmd in ("--kernel lane", "--kernel all"):  # one kernel per run, or all of them in one
        try:
            s = _synccheck_section(q, cmd)
            break
        except DataError:
            continue
    if s is None:
        raise DataError(f"{DEMO}: no synccheck run of barrierIfElseLane")
    msg = re.search(r"^========= (Barrier error detected\. [^\n]*)", s, re.M)
    n = re.search(r"ERROR SUMMARY: (\d+) error", s)
    if not (msg and n):
        raise DataError(f"{DEMO}: the synccheck run has no barrier error or no ERROR SUMMARY")
    return msg.group(1), int(n.group(1))


def _synccheck_section(q, kernel_arg):
    text = q.text(DEMO, gpu="h100")
    for p in re.split(r"^\$ ", text, flags=re.M):
        head = p.split("\n", 1)[0]
        if "synccheck" in head and head.rstrip().endswith(kernel_arg):
            return p
    raise DataError(f"{DEMO}: no synccheck run with {kernel_arg}")


VALUES = globals().get("VALUES", []) + [  # after any declarations above in this file
    Value("syncthreads_ifelse.plain_lane.h100", DEMO, plain("barrierIfElseLane"), "{} of {}", gpu="h100"),
    Value("syncthreads_ifelse.plain_warp.h100", DEMO, plain("barrierIfElseWarp"), "{} of {}", gpu="h100"),
    Value("syncthreads_ifelse.synccheck_message.h100", DEMO, lambda q: synccheck_lane(q)[0], "{}", gpu="h100"),
    Value("syncthreads_ifelse.synccheck_errors.h100", DEMO, lambda q: synccheck_lane(q)[1], "{:,}", gpu="h100"),
]
