"""What the top README quotes across chapters (format: plots/plot_timings.py). A chapter's own
tables and values live in chapters/NN_x/report.py; the headline table quotes those by name."""
import json
import os
import re

from plot_timings import DataError, Value


def ctest_passed(q):
    """"N of M" from the committed ctest log (CTest's summary line)."""
    text = q.text("logs/ctest.log")
    m = re.search(r"(\d+)% tests passed(?:, (\d+) tests failed)? out of (\d+)", text)
    if not m:
        raise DataError(q.path("logs/ctest.log") + ": no CTest summary line")
    total, failed = int(m.group(3)), int(m.group(2) or 0)
    return (total - failed, total)


VALUES = [Value(f"ctest.passed.{g}", "logs/ctest.log", ctest_passed, "{}/{}", gpu=g) for g in ("h100", "h200")]


def copy_range(q):
    """The 16-byte `copy` kernel at 2 GiB moved, in every chapter's table of the GPU: (lowest, highest) GB/s."""
    folder = os.path.dirname(q.path())
    v = []
    for name in sorted(os.listdir(folder)):
        if name.endswith(".csv"):
            rows = q.rows(csv=name)
            v += [r["gbps"] for r in rows if r.get("kernel") == "copy" and r.get("bytes") == 2**31]
    if not v:
        raise DataError(f"{folder}: no `copy` row at 2 GiB in any CSV")
    return (min(v), max(v))


VALUES += [Value(f"copy.range_2gib.{g}", "warpReduce.csv", copy_range, "{:.0f}–{:.0f} GB/s", gpu=g) for g in ("h100", "h200")]


def run_date(q, gpu=None):
    """The date of the workbook run that wrote the GPU's tables (meta.json)."""
    try:
        return json.loads(q.text("meta.json", gpu))["date"]
    except (ValueError, KeyError):
        raise DataError(q.path("meta.json", gpu) + ": no date")


def run_dates(q):
    d = {g: run_date(q, g) for g in ("h100", "h200")}
    return d["h100"] if d["h100"] == d["h200"] else f"{d['h100']} (H100) and {d['h200']} (H200)"


VALUES += [Value(f"run.date.{g}", "meta.json", run_date, gpu=g) for g in ("h100", "h200")]
VALUES += [Value("run.date", "meta.json", run_dates)]


def test_command_s(q):
    """Wall time of the README's test command on a fresh build (scripts/gpu_check.sh, step test_command)."""
    m = re.search(r"^wall_s=([\d.]+)", q.text("logs/test_command.txt"), re.M)
    if not m:
        raise DataError(q.path("logs/test_command.txt") + ": no wall_s= line")
    return float(m.group(1))


def test_command_result(q):
    """(passed, total) of the test command's ctest summary line."""
    m = re.search(r"(\d+)% tests passed(?:, (\d+) tests failed)? out of (\d+)", q.text("logs/test_command.txt"))
    if not m:
        raise DataError(q.path("logs/test_command.txt") + ": no CTest summary line")
    return (int(m.group(3)) - int(m.group(2) or 0), int(m.group(3)))


def test_command_slowest(q):
    """The slowest test of the run and its seconds, and how many took over 90 s."""
    text = q.text("logs/test_command.txt")
    m = re.search(r"^slowest: (\S+) ([\d.]+) s", text, re.M)
    over = re.search(r"^over_90s=(\d+)", text, re.M)
    if not (m and over):
        raise DataError(q.path("logs/test_command.txt") + ": no slowest:/over_90s= line")
    return (int(over.group(1)), m.group(1), float(m.group(2)))


VALUES += [Value("readme.test_command_s.h100", "logs/test_command.txt", test_command_s, "{:.0f} s", gpu="h100"),
           Value("readme.test_command_result.h100", "logs/test_command.txt", test_command_result,
                 "{} of {}", gpu="h100"),
           Value("readme.test_command_slowest.h100", "logs/test_command.txt", test_command_slowest,
                 "{} tests over 90 s; the slowest, `{}`, {:.0f} s", gpu="h100")]
