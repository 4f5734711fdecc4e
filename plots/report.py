"""What the top README quotes across chapters (format: plots/plot_timings.py). A chapter's own
tables and values live in chapters/NN_x/report.py; the headline table quotes those by name."""
import json
import os
import re

from plot_timings import DataError, Value


def ctest_passed(q):
    """What the committed ctest log's summary says: how many passed, failed and were skipped, and
    which skips are exercises a learner has not attempted or browser tests on a machine without
    Chromium (the two skips strict mode allows)."""
    text = q.text("logs/ctest.log")
    m = re.search(r"(\d+)% tests passed(?:, (\d+) tests failed)? out of (\d+)", text)
    if not m:
        raise DataError(q.path("logs/ctest.log") + ": no CTest summary line")
    total, failed = int(m.group(3)), int(m.group(2) or 0)
    skipped = re.findall(r"^\s*\d+ - (\S+) \(Skipped\)", text, re.M)
    out = f"{total - failed - len(skipped)} of {total} tests passed"
    if failed:
        out += f", {failed} failed"
    if skipped:
        ex = [n for n in skipped if n.startswith("exercise.")]
        br = [n for n in skipped if n.startswith("explorer.browser")]
        parts = []
        if ex:
            parts.append(f"{len(ex)} exercise tests, skipped until a learner edits them")
        if br:
            parts.append(f"{len(br)} browser tests, skipped on a machine without Chromium")
        if len(ex) + len(br) < len(skipped):
            parts.append(f"{len(skipped) - len(ex) - len(br)} other skips")
        out += f"; the other {len(skipped)}: " + "; ".join(parts)
    return out


VALUES = [Value(f"ctest.passed.{g}", "logs/ctest.log", ctest_passed, "{}", gpu=g) for g in ("h100", "h200")]


def every_table(q):
    """The rows of every CSV in the GPU's folder, one list per CSV."""
    folder = os.path.dirname(q.path())
    return [q.rows(csv=name) for name in sorted(os.listdir(folder)) if name.endswith(".csv")]


def copy_range(q):
    """The 16-byte `copy` kernel at 2 GiB moved, in every chapter's table of the GPU: (lowest, highest) GB/s."""
    v = [r["gbps"] for rows in every_table(q) for r in rows if r.get("kernel") == "copy" and r.get("bytes") == 2**31]
    if not v:
        raise DataError(f"{os.path.dirname(q.path())}: no `copy` row at 2 GiB in any CSV")
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


def csv_date(csv):
    """The date of the run that timed `csv` (meta.json's "dates", else its "date")."""
    def f(q, gpu=None):
        meta = json.loads(q.text("meta.json", gpu))
        return meta.get("dates", {}).get(csv) or run_date(q, gpu)
    return f


VALUES += [Value(f"run.date.{g}", "meta.json", run_date, gpu=g) for g in ("h100", "h200")]
VALUES += [Value(f"run.date.{c}.{g}", "meta.json", csv_date(c + ".csv"), gpu=g)
           for c in ("transpose", "stencil_1d", "matMul", "matMul_traffic", "cache_config") for g in ("h100", "h200")]
VALUES += [Value("run.date", "meta.json", run_dates)]


def test_command_s(q):
    """Wall time of the README's test command on a fresh build (scripts/gpu_check.sh, step test_command)."""
    m = re.search(r"^wall_s=([\d.]+)", q.text("logs/test_command.txt"), re.M)
    if not m:
        raise DataError(q.path("logs/test_command.txt") + ": no wall_s= line")
    return float(m.group(1))


def test_command_slowest(q):
    """The slowest test of the run and its seconds, and how many took over 90 s."""
    text = q.text("logs/test_command.txt")
    m = re.search(r"^slowest: (\S+) ([\d.]+) s", text, re.M)
    over = re.search(r"^over_90s=(\d+)", text, re.M)
    if not (m and over):
        raise DataError(q.path("logs/test_command.txt") + ": no slowest:/over_90s= line")
    n = int(over.group(1))
    return (f"{n} test" + ("" if n == 1 else "s"), m.group(1), float(m.group(2)))


for _g in ("h100", "h200"):
    VALUES += [Value(f"readme.test_command_s.{_g}", "logs/test_command.txt", test_command_s, "{:.0f} s", gpu=_g),
               Value(f"readme.test_command_slowest.{_g}", "logs/test_command.txt", test_command_slowest,
                     "{} over 90 s; the slowest, `{}`, {:.0f} s", gpu=_g)]


def exercises_result(q):
    """(solutions passed, exercises, wrong answers rejected, exercises) from logs/exercises.log."""
    text = q.text("logs/exercises.log")
    names = set(re.findall(r"^(\w+): (?:solutions|wrong answer)", text, re.M))
    passed = len(re.findall(r"^\w+: solutions passed", text, re.M))
    rejected = len(re.findall(r"^\w+: wrong answer rejected by", text, re.M))
    if not names:
        raise DataError(q.path("logs/exercises.log") + ": no exercise lines")
    return passed, len(names), rejected, len(names)


VALUES += [Value(f"readme.exercises.{_g}", "logs/exercises.log", exercises_result,
                 "{} of {} solutions passed, {} of {} wrong answers rejected", gpu=_g)
           for _g in ("h100", "h200")]


def copy_vs_memcpy(q):
    """The copy kernel's GB/s over cudaMemcpy's at the same size, lowest and highest over every
    bandwidth table of the run (each table measures both on its own data)."""
    ratios = []
    for rows in every_table(q):
        memcpy = {r.get("size"): r["gbps"] for r in rows if r.get("kernel") == "cudaMemcpy"}
        ratios += [r["gbps"] / memcpy[r.get("size")] for r in rows
                   if r.get("kernel") == "copy" and r.get("size") in memcpy]
    if not ratios:
        raise DataError("no copy and cudaMemcpy rows of the same size")
    return min(ratios), max(ratios), len(ratios)


VALUES += [Value(f"copy.vs_memcpy.{g}", "warpReduce.csv", copy_vs_memcpy, "{:.3f}× to {:.3f}× (at {} sizes)", gpu=g)
           for g in ("h100", "h200")]


def toolkit_golden(which):
    """What the programs of another toolkit's build printed on this GPU (logs/toolkits.log, written by
    scripts/gpu_check.sh's toolkits step from scripts/compare_runs.py --programs): its RESULT line in
    words, with the library a program lacked named."""
    def value(q):
        text = q.text("logs/toolkits.log")
        m = re.search(r"^== CUDA " + re.escape(which) + r" build \((.*?)\)\n(.*?)^RESULT: ([^\n]*)$", text, re.M | re.S)
        if not m:
            raise DataError(q.path("logs/toolkits.log") + f": no RESULT for the CUDA {which} build")
        version, result = m.group(1), m.group(3)
        r = re.match(r"(\d+) of (\d+) programs printed their golden output(?:; (\d+) not run for a missing library \(([^)]*)\))?(.*)$", result.strip())
        if not r or r.group(5):
            raise DataError(q.path("logs/toolkits.log") + f": the CUDA {which} build did not pass: {result}")
        lib = re.search(r"not run: it needs (\S+),", m.group(2))
        said = f"{r.group(1)} of its {r.group(2)} programs printed their golden files ({version})"
        linked = re.search(r"matMul's cuBLAS: (\S+) => (/\S+)", m.group(2))
        if linked:
            said += f"; cuBLAS at run time: the GPU machine's {linked.group(1)} ({os.path.dirname(linked.group(2))})"
        if r.group(3):
            said += (f"; {r.group(4).replace(', ', ' and ')} need {lib.group(1) if lib else 'a library'}, which the "
                     "GPU machine lacks, and were not run")
        return said
    return value


VALUES += [Value("toolkits.golden_124.h100", "logs/toolkits.log", toolkit_golden("12.4"), gpu="h100"),
           Value("toolkits.golden_newest.h100", "logs/toolkits.log", toolkit_golden("newest"), gpu="h100")]
