"""ncu_util.py — what the workbook's Nsight Compute scripts share (scripts/bank_conflicts.py,
chapters/06_reduceInteger/gmem_transactions.py, chapters/08_matMul/matmul_traffic.py):
their common options, the GPU probe and the search for ncu, one profiled run of a program read back
as a raw-page CSV, the output CSV's path, and the workbook's skip rule.

    o = parse(parser)                      # adds --program --probe --ncu --csv --csv-dir --check
    setup = start(o)                       # an int: the exit code (skipped, or failed); else (slug, ncu)
    run = profile(ncu, [o.program, "--profile"], "regex:...", METRICS)
                                           # an int, or Run(stdout, kernels=[(name, {key: value})])
    out = csv_path(o, slug, "name")        # o.csv, or <csv-dir>/<slug>/name.csv (folders made)

Exit codes: 0 pass, 1 fail, 77 skip (no GPU, no ncu, or counters this user may not read), each
skip with its remedy; scripts/skips.py says which skips fail under WORKBOOK_STRICT=1 (no GPU does;
a missing ncu or restricted counters do only under WORKBOOK_REQUIRE_TOOLS=1).
"""
import csv
import io
import os
import shutil
import subprocess
import sys
import tempfile
from collections import namedtuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import skips  # noqa: E402

SKIP = 77
Run = namedtuple("Run", "stdout kernels")
# What ncu prints when the driver keeps the performance counters to administrators (the Linux
# driver's default since 418.43, Windows' since 419.17): NVIDIA's ERR_NVGPUCTRPERM.
COUNTERS_RESTRICTED = "ERR_NVGPUCTRPERM"


def skip(reason):
    """77 (skipped, with the remedy), or 1 where this machine must not skip (scripts/skips.py)."""
    return skips.report(reason)


def number(s):
    return int(float(s.replace(",", "")))


def parse(p):
    """Adds the options every ncu script takes, parses, and insists on --csv or --csv-dir."""
    p.add_argument("--program", required=True)
    p.add_argument("--probe")
    p.add_argument("--ncu", default=None,
                   help="the ncu to use; given empty (configure found none) there is none, even on PATH")
    p.add_argument("--csv")
    p.add_argument("--csv-dir")
    p.add_argument("--check", action="store_true")
    o = p.parse_args()
    if not o.csv and not o.csv_dir:
        p.error("give --csv FILE or --csv-dir DIR")
    return o


def start(o):
    """(GPU slug, ncu path), or the exit code when there is no GPU or no ncu."""
    slug = "gpu"
    if o.probe:
        probe = subprocess.run([o.probe], capture_output=True, text=True)
        if probe.returncode == SKIP:
            return skip(probe.stderr.strip())
        slug = probe.stdout.split()[-1] if probe.stdout.split() else slug
    # The ctest tests pass configure's finding (--ncu=PATH, or --ncu= for none): that decides, so
    # that a build configured without ncu skips its ncu tests even where one is on PATH. Run by hand
    # without --ncu, the script takes the ncu on PATH.
    ncu = o.ncu if o.ncu is not None else (shutil.which("ncu") or "")
    if not ncu or not os.path.exists(ncu):
        return skip("Nsight Compute (ncu) not found" + (f" at {o.ncu}" if o.ncu else ""))
    return slug, ncu


def profile(ncu, command, kernels, metrics, optional=None, ncu_args=(), kernel_base="function"):
    """Runs `command` under ncu for the kernels matching `kernels` (an ncu --kernel-name value),
    collecting `metrics` ({key: metric}) and, where this ncu knows them, `optional` ones. Returns
    Run(the program's stdout, [(kernel name, {key: value})] in launch order), or an exit code: a skip
    when the program skipped, 1 when ncu or the program failed or a metric is missing."""
    optional = optional or {}
    wanted = list(metrics.values()) + list(optional.values())
    with tempfile.TemporaryDirectory() as d:
        report = os.path.join(d, "report")
        prof = subprocess.run([ncu, "--clock-control", "none", *ncu_args, "--kernel-name", kernels,
                               "--metrics", ",".join(wanted), "-f", "-o", report, *command],
                              capture_output=True, text=True)
        said = prof.stdout + prof.stderr
        if prof.returncode == SKIP or "SKIP:" in prof.stderr or "exited with code 77" in said:
            lines = prof.stderr.strip().splitlines()
            return skip(lines[-1] if lines else "the program skipped")
        if prof.returncode != 0 and COUNTERS_RESTRICTED in said:
            said_line = next(l for l in said.splitlines() if COUNTERS_RESTRICTED in l)
            return skip("ncu: " + said_line.replace("==ERROR==", "").strip())
        if prof.returncode != 0:
            print(prof.stdout[-3000:] + prof.stderr[-3000:])
            print(f"FAIL: ncu (or {os.path.basename(command[0])} under it) exited {prof.returncode}")
            return 1
        raw = subprocess.run([ncu, "--import", report + ".ncu-rep", "--csv", "--page", "raw",
                              "--print-units", "base", "--print-kernel-base", kernel_base],
                             capture_output=True, text=True)
    if raw.returncode != 0:
        print(raw.stdout[-3000:] + raw.stderr[-3000:])
        print(f"FAIL: ncu --import exited {raw.returncode}")
        return 1
    rows = list(csv.reader(io.StringIO(raw.stdout)))
    header = rows[0]
    missing = [m for m in metrics.values() if m not in header]
    if missing:
        print("FAIL: ncu reported no " + ", ".join(missing) + " (columns: " + ", ".join(header) + ")")
        return 1
    name_col = header.index("Kernel Name")
    cols = {k: header.index(m) for k, m in metrics.items()}
    cols.update({k: header.index(m) for k, m in optional.items() if m in header})
    kernels_seen = [(r[name_col], {k: number(r[c]) for k, c in cols.items()})
                    for r in rows[2:] if len(r) == len(header)]  # rows[1] holds the units
    return Run(prof.stdout, kernels_seen)


def csv_path(o, slug, name):
    """--csv, or <csv-dir>/<gpu slug>/<name>.csv; its folder is created."""
    out = o.csv or os.path.join(o.csv_dir, slug, name + ".csv")
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    return out
