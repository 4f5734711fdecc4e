#!/usr/bin/env python3
"""exercise_check.py — judges one exercise (CTest calls it; see cmake/Exercises.cmake).

  build --mode M --file FILE [--learner-file REL] -- CMD...
        the build step: runs CMD (cmake --build ... --target ex_<name>); in learner mode an untouched
        FILE (still `#define WB_NOT_ATTEMPTED`) is not compiled and reports "not attempted" (77)

  check --name N --mode learner|solutions|wrong --checker BIN --learner-file REL [--repeat R]
        [--file FILE]
        [--probe PROBE] [--result JSON]
        [--sanitize memcheck,racecheck,... --sanitizer PATH]
        [--sass-rules FILE --sass-script sass_check.py [--sass-binary SM90_FILE --nvcc-version V
         --cuda-bin DIR --cuobjdump PATH]]
        [--bank-model] [--ncu-bank KERNEL_REGEX --ncu PATH --ncu-util ncu_util.py]

Runs, in order: the checker (exact output against the CPU reference), the checker under each
sanitizer, the SASS rules on the exercise's kernels, the checker's --bank-model (host only), and
Nsight Compute's shared-memory bank-conflict counters. Each check passes, fails, or is skipped
(it needs a GPU, or a tool, that this machine lacks).

  learner, solutions  exit 0 iff no check fails and every check ran; 1 if one fails; 77 (skip) if
                      none failed but one could not run (a failure under WORKBOOK_STRICT=1).
                      An untouched learner file ("not attempted: edit <file>") is a skip, always,
                      even under WORKBOOK_STRICT: it is the learner's to do, not a broken machine.
  wrong               every GPU check runs --repeat times; a check rejects the answer only if it
                      fails in every run (a race caught once in three is luck, not a check).
                      exit 0 iff some check rejects it, saying which; 1 if every check ran and none
                      rejects it; 77 if none rejects it but a check that might could not run.

  summary --results DIR [--log FILE] [--require-cpu-checks] [--expect-mode M]
        reads every <name>.json that `check` wrote and prints one line per exercise (the
        exercises log of scripts/gpu_check.sh). With --require-cpu-checks it fails unless every
        check that needs no GPU (SASS, bank model) ran and passed on solutions, and ran on wrong
        answers (CI, without a GPU).
"""
import argparse
import glob
import importlib.util
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import skips  # noqa: E402  (why a check skips, its remedy, and whether this machine may skip it)

SKIP = 77
PASS, FAIL, SKIPPED = "pass", "fail", "skip"
RACE_SUMMARY = re.compile(r"RACECHECK SUMMARY: (\d+) hazards? displayed \((\d+) errors?, (\d+) warnings?\)")
ERROR_SUMMARY = re.compile(r"ERROR SUMMARY: (\d+) errors?")
NCU_METRICS = {
    "ld_wavefronts": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "st_wavefronts": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "ld_conflicts": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "st_conflicts": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
}


def text(b):
    return b.decode("utf-8", errors="replace") if isinstance(b, bytes) else (b or "")


def run(cmd, timeout=300):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
        return p.returncode, text(p.stdout), text(p.stderr)
    except OSError as e:
        return 127, "", f"cannot run {cmd[0]}: {e}"
    except subprocess.TimeoutExpired as e:
        return None, text(e.stdout), text(e.stderr) + f"\n(timed out after {timeout} s)"


def last_line(s, prefer=("FAIL", "SKIP", "not attempted", "error")):
    lines = [l.strip() for l in s.strip().splitlines() if l.strip()]
    for l in lines:
        if l.startswith(prefer):
            return l
    return lines[-1] if lines else "(no output)"


class Result:
    def __init__(self, status, detail, output=""):
        self.status, self.detail, self.output = status, detail, output


# ------------------------------------------------------------------------------------------------
# The checks. Each returns a Result; `gpu` is None (unknown), True or False.
# ------------------------------------------------------------------------------------------------

def check_checker(o):
    rc, out, err = run([o.checker])
    both = out + err
    if rc == SKIP:
        return Result(SKIPPED, last_line(err or out), both)
    if rc is None:
        return Result(FAIL, "the checker timed out (a hang: a shuffle or barrier some lanes never reach?)", both)
    if rc == 0:
        return Result(PASS, last_line(out, ("PASS",)), both)
    return Result(FAIL, last_line(out + "\n" + err) + picture(out), both)


def picture(out):
    """The checker's picture of wrong values (common/exercise_picture.h), named in the verdict."""
    drawn = [l.split(": ", 1)[1].split(" (", 1)[0] for l in out.splitlines()
             if l.strip().startswith("picture of the mistake: ")]
    return f"; picture: {drawn[-1]}" if drawn else ""


def check_sanitizer(o, tool):
    if not o.sanitizer or not os.path.exists(o.sanitizer):
        return Result(SKIPPED, "compute-sanitizer not found (configure found none)")
    extra = {"memcheck": ["--leak-check", "full"], "racecheck": ["--racecheck-report", "all"],
             "synccheck": [], "initcheck": []}[tool]
    rc, out, err = run([o.sanitizer, "--tool", tool, "--error-exitcode", "86"] + extra + [o.checker, "--quick"],
                       timeout=600)
    both = out + err
    if rc == SKIP:
        return Result(SKIPPED, last_line(err or out), both)
    errors = [int(e) for e in ERROR_SUMMARY.findall(both)]
    races = [tuple(map(int, r)) for r in RACE_SUMMARY.findall(both)]
    summaries = races if tool == "racecheck" else errors
    hazards = sum(errors) + sum(sum(r) for r in races)
    if rc is None:
        return Result(FAIL, f"{tool}: timed out", both)
    if rc == 0 and summaries and not hazards:
        return Result(PASS, f"{tool}: no hazard", both)
    if rc == 1 and summaries and not hazards:
        # The tool saw no hazard; the wrong value is the checker's verdict, reported by the checker
        # check. Counting it here too would credit the sanitizer with a rejection it did not make.
        return Result(PASS, f"{tool}: no hazard (the checker's own verdict failed under it)", both)
    # The first report line names the hazard ("Race reported between ...", "Barrier error ...").
    first = next((l.strip("= ").strip() for l in both.splitlines()
                  if l.startswith("=========") and ("rror" in l or "azard" in l or "Race" in l or "Invalid" in l)
                  and "SUMMARY" not in l), "")
    what = f"{hazards} hazard(s)" if hazards else f"exited {rc}"
    if not summaries:
        what = f"exited {rc} without its summary"
    return Result(FAIL, f"{tool}: {what}" + (f": {first}" if first else ""), both)


def check_sass(o):
    cmd = [sys.executable, o.sass_script, "--binary", o.sass_binary or o.checker, "--rules", o.sass_rules]
    if o.nvcc_version:
        cmd += ["--nvcc-version", o.nvcc_version]
    if o.cuda_bin:
        cmd += ["--cuda-bin", o.cuda_bin]
    if o.cuobjdump:
        cmd += ["--cuobjdump=" + o.cuobjdump]
    rc, out, err = run(cmd, timeout=120)
    both = out + err
    if rc == 0:
        return Result(PASS, "SASS rules hold (" + os.path.basename(o.sass_rules) + ")", both)
    # sass_check.py follows a failed rule's line with what it asks for and what the kernel has,
    # in the learner's words, then the rule's why: the verdict quotes those two.
    lines = [l.strip() for l in both.splitlines()]
    task = next((l for l in lines if l.startswith("the task asks")), "")
    why = next((l[len("why: "):] for l in lines if l.startswith("why: ")), "")
    if task:
        return Result(FAIL, f"SASS: {task}" + (f". Why: {why}" if why and not why.startswith("(") else ""), both)
    bad = [l for l in lines if l.startswith(("FAIL", "x ", "✗"))]
    return Result(FAIL, "SASS: " + (bad[0] if bad else last_line(both)), both)


def check_bank_model(o):
    rc, out, err = run([o.checker, "--bank-model"], timeout=60)
    both = out + err
    lines = out.splitlines()
    model = next((l for l in lines if "extra" in l), "") or next((l for l in lines if l.startswith("bank model")), "")
    if rc == 0:
        return Result(PASS, model or last_line(out, ("PASS",)), both)
    return Result(FAIL, (model or last_line(both)), both)


def check_ncu(o):
    spec = importlib.util.spec_from_file_location("ncu_util", o.ncu_util)
    nu = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(nu)
    ncu = o.ncu or ""
    if not ncu or not os.path.exists(ncu):
        return Result(SKIPPED, "Nsight Compute (ncu) not found")
    # ncu_util reports a skip itself (and fails it under strict); ask it not to, and decide here.
    saved = {v: os.environ.pop(v, None) for v in ("WORKBOOK_STRICT", "WORKBOOK_REQUIRE_TOOLS", "WORKBOOK_SKIP_DIR")}
    try:
        import io
        import contextlib
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            prof = nu.profile(ncu, [o.checker, "--quick"], "regex:" + o.ncu_bank, NCU_METRICS)
    finally:
        os.environ.update({v: val for v, val in saved.items() if val is not None})
    said = buf.getvalue()
    if prof == SKIP:
        return Result(SKIPPED, last_line(said), said)
    if isinstance(prof, int):
        if "ERR_NVGPUCTRPERM" in said:  # a learner's machine that keeps the counters to admins
            return Result(SKIPPED, "ncu may not read this GPU's performance counters (ERR_NVGPUCTRPERM)", said)
        return Result(FAIL, "ncu: " + last_line(said), said)
    if not prof.kernels:
        return Result(FAIL, f"ncu profiled no kernel matching '{o.ncu_bank}'", said)
    rows, bad = [], []
    for name, v in prof.kernels:
        rows.append(f"{name}: ld {v['ld_wavefronts']} wavefronts ({v['ld_conflicts']} conflicts), "
                    f"st {v['st_wavefronts']} ({v['st_conflicts']} conflicts)")
        if v["ld_conflicts"] or v["st_conflicts"]:
            bad.append(rows[-1])
    if bad:
        return Result(FAIL, "ncu bank conflicts: " + bad[0], "\n".join(rows))
    return Result(PASS, f"ncu: no bank conflict in {len(rows)} launch(es)", "\n".join(rows))


# ------------------------------------------------------------------------------------------------

def cmd_check(o):
    results = {}  # check -> list of Result (one per run)
    repeat = o.repeat if o.mode == "wrong" else 1

    def record(name, fn, runs):
        results[name] = []
        for i in range(runs):
            r = fn()
            results[name].append(r)
            if r.status == SKIPPED:
                break  # no GPU or no tool: running again changes nothing
        return results[name]

    first = record("checker", lambda: check_checker(o), repeat)
    not_attempted = any("not attempted:" in r.output for r in first)
    if not_attempted:
        line = next(l for l in first[0].output.splitlines() if "not attempted:" in l)
        if o.mode != "learner":
            print(f"FAIL: the {o.mode} file of {o.name} still says WB_NOT_ATTEMPTED: {line}")
            write_result(o, "fail", results, None)
            return 1
        skips.announce(line.replace("SKIPPED: ", ""), "not-attempted")
        write_result(o, "not-attempted", results, None)
        return SKIP  # even under WORKBOOK_STRICT: the learner's to do

    no_gpu = None  # the reason there is no GPU, from the probe: the GPU tools then skip at once
    if o.probe and any(r.status == SKIPPED for r in first):
        rc, out, err = run([o.probe], timeout=60)
        if rc == SKIP:
            no_gpu = last_line(err or out)
    gpu_or = (lambda fn: (lambda: Result(SKIPPED, no_gpu)) if no_gpu else fn)

    for tool in [t for t in (o.sanitize or "").split(",") if t]:
        record(tool, gpu_or(lambda t=tool: check_sanitizer(o, t)), repeat)
    if o.sass_rules:
        record("sass", lambda: check_sass(o), 1)
    if o.bank_model:
        record("bank-model", lambda: check_bank_model(o), 1)
    if o.ncu_bank:
        record("ncu-bank", gpu_or(lambda: check_ncu(o)), repeat)

    def status(runs):
        s = {r.status for r in runs}
        if s == {FAIL}:
            return FAIL  # failed every run
        if FAIL in s and PASS in s:
            return "flaky"
        return SKIPPED if SKIPPED in s else (FAIL if FAIL in s else PASS)

    for name, runs in results.items():
        st = status(runs)
        count = f" ({sum(r.status == FAIL for r in runs)}/{len(runs)} runs failed)" if len(runs) > 1 else ""
        detail = next((r.detail for r in runs if r.status == FAIL), runs[-1].detail)
        print(f"  {name:<11} {st:<5} {detail}{count}")

    timing = [l for l in first[0].output.splitlines() if l.startswith("time (")]
    if timing:
        print("  " + timing[0])  # the checker's timing line (stderr): shown, never judged
    o.timing = timing[0] if timing else ""

    statuses = {n: status(r) for n, r in results.items()}
    if o.mode == "wrong":
        rejected = [n for n, s in statuses.items() if s == FAIL]
        if rejected:
            n = rejected[0]
            d = next(r.detail for r in results[n] if r.status == FAIL)
            print(f"PASS: the wrong answer is rejected by {', '.join(rejected)} (every run): {d}")
            write_result(o, "rejected", results, rejected)
            return 0
        skipped = [n for n, s in statuses.items() if s == SKIPPED]
        flaky = [n for n, s in statuses.items() if s == "flaky"]
        if skipped and not flaky:
            write_result(o, "skipped", results, [])
            return skip(f"no check that ran rejects the wrong answer; {', '.join(skipped)} could not run "
                        f"({results[skipped[0]][-1].detail})")
        print("FAIL: no check rejects the wrong answer in every run"
              + (f" ({', '.join(flaky)} caught it only sometimes)" if flaky else ""))
        show_output(results)
        write_result(o, "accepted", results, [])
        return 1

    failed = [n for n, s in statuses.items() if s in (FAIL, "flaky")]
    if failed:
        for n in failed:
            r = next(r for r in results[n] if r.status == FAIL)
            if n != "checker":
                sys.stdout.write(r.output[-4000:] + ("\n" if r.output and not r.output.endswith("\n") else ""))
        print(f"FAIL: {o.name}: {', '.join(failed)}: "
              + next(r.detail for r in results[failed[0]] if r.status == FAIL))
        if "checker" in failed:
            out = results["checker"][0].output
            sys.stdout.write("--- checker output ---\n" + out[-4000:])
        write_result(o, "fail", results, None)
        return 1
    skipped = [n for n, s in statuses.items() if s == SKIPPED]
    if skipped:
        write_result(o, "skipped", results, None)
        ran = [n for n in statuses if n not in skipped]
        return skip(f"{', '.join(skipped)} could not run ({results[skipped[0]][-1].detail})"
                    + (f"; {', '.join(ran)} passed" if ran else ""))
    print(f"PASS: {o.name}: {', '.join(statuses)} all pass")
    write_result(o, "passed", results, None)
    return 0


def skip(reason):
    """77 with the cause's remedy, or 1 where this machine must not skip (scripts/skips.py)."""
    return skips.report(reason)


def show_output(results):
    for name, runs in results.items():
        if runs and runs[0].output and name == "checker":
            sys.stdout.write(f"--- {name} output ---\n" + runs[0].output[-3000:] + "\n")


def write_result(o, verdict, results, rejected_by):
    if not o.result:
        return
    os.makedirs(os.path.dirname(o.result) or ".", exist_ok=True)
    doc = {"name": o.name, "mode": o.mode, "verdict": verdict, "rejected_by": rejected_by,
           "time": getattr(o, "timing", ""),
           "checks": {n: [{"status": r.status, "detail": r.detail} for r in runs]
                      for n, runs in results.items()}}
    with open(o.result, "w") as f:
        json.dump(doc, f, indent=1)


NOT_ATTEMPTED = re.compile(r"^\s*#\s*define\s+WB_NOT_ATTEMPTED\b", re.M)


def untouched(o):
    """The learner's file still has its WB_NOT_ATTEMPTED line (learner mode only)."""
    if o.mode != "learner" or not o.file or not os.path.exists(o.file):
        return False
    return bool(NOT_ATTEMPTED.search(open(o.file, encoding="utf-8", errors="replace").read()))


def not_attempted(o):
    skips.announce(f"not attempted: edit {o.learner_file or o.file} "
                   "(delete its WB_NOT_ATTEMPTED line and write the TODO)", "not-attempted")
    return SKIP  # even under WORKBOOK_STRICT: the learner's to do


def cmd_build(o, cmd):
    """The build step of one exercise. An untouched learner file is not compiled at all."""
    if untouched(o):
        return not_attempted(o)
    p = subprocess.run(cmd)
    if p.returncode != 0:
        print(f"FAIL: {o.learner_file or o.file} does not compile (the compiler's message is above)")
        return 1
    return 0


def cmd_summary(o):
    files = sorted(glob.glob(os.path.join(o.results, "*.json")))
    lines, problems = [], []
    for path in files:
        d = json.load(open(path))
        if o.expect_mode and d["mode"] != o.expect_mode:
            continue
        checks = d["checks"]
        if d["mode"] == "wrong":
            if d["verdict"] == "rejected":
                first = next(c["detail"] for c in checks[d["rejected_by"][0]] if c["status"] == FAIL)
                lines.append(f"{d['name']}: wrong answer rejected by {', '.join(d['rejected_by'])}: {first}")
            else:
                lines.append(f"{d['name']}: wrong answer {d['verdict']}")
                if d["verdict"] != "skipped":
                    problems.append(lines[-1])
        else:
            ran = [n for n, c in checks.items() if c and c[-1]["status"] == PASS]
            not_run = [n for n, c in checks.items() if c and c[-1]["status"] == SKIPPED]
            lines.append(f"{d['name']}: {d['mode']} {d['verdict']}; passed: {', '.join(ran) or 'none'}"
                         + (f"; could not run: {', '.join(not_run)}" if not_run else "")
                         + (f"; {d['time']}" if d.get("time") else ""))
            if d["verdict"] not in ("passed", "skipped", "not-attempted"):
                problems.append(lines[-1])
        if o.require_cpu_checks:
            for n in ("sass", "bank-model"):
                if n in checks:
                    st = checks[n][-1]["status"]
                    if st == SKIPPED or (d["mode"] == "solutions" and st != PASS):
                        problems.append(f"{d['name']} ({d['mode']}): CPU check {n}: {st}: {checks[n][-1]['detail']}")
    if not files:
        problems.append(f"no exercise results in {o.results}")
    out = "\n".join(lines) + "\n"
    if o.log:
        os.makedirs(os.path.dirname(o.log) or ".", exist_ok=True)
        with open(o.log, "a") as f:
            f.write(out)
    sys.stdout.write(out)
    for p in problems:
        print("PROBLEM: " + p)
    return 1 if problems else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("check")
    c.add_argument("--name", required=True)
    c.add_argument("--mode", required=True, choices=["learner", "solutions", "wrong"])
    c.add_argument("--checker", required=True)
    c.add_argument("--learner-file", default="")
    c.add_argument("--repeat", type=int, default=3)
    c.add_argument("--probe", default="")
    c.add_argument("--result", default="")
    c.add_argument("--sanitize", default="")
    c.add_argument("--sanitizer", default="")
    c.add_argument("--sass-rules", default="")
    c.add_argument("--sass-script", default="")
    c.add_argument("--sass-binary", default="", help="the sm_90 code to read (default: the checker)")
    c.add_argument("--nvcc-version", default="")
    c.add_argument("--cuda-bin", default="")
    c.add_argument("--cuobjdump", default="")
    c.add_argument("--bank-model", action="store_true")
    c.add_argument("--ncu-bank", default="")
    c.add_argument("--ncu", default="")
    c.add_argument("--ncu-util", default="")
    c.add_argument("--file", default="", help="the file compiled in (learner mode: the learner's)")
    b = sub.add_parser("build")
    b.add_argument("--mode", required=True, choices=["learner", "solutions", "wrong"])
    b.add_argument("--file", required=True)
    b.add_argument("--learner-file", default="")
    b.add_argument("command", nargs=argparse.REMAINDER)
    s = sub.add_parser("summary")
    s.add_argument("--results", required=True)
    s.add_argument("--log", default="")
    s.add_argument("--expect-mode", default="")
    s.add_argument("--require-cpu-checks", action="store_true")
    o = ap.parse_args()
    if o.cmd == "build":
        return cmd_build(o, o.command[1:] if o.command[:1] == ["--"] else o.command)
    if o.cmd == "check":
        if untouched(o):
            return not_attempted(o)
        if o.repeat < 1:
            ap.error("--repeat must be at least 1")
        if not os.path.exists(o.checker):
            print(f"FAIL: no checker binary {o.checker} (the build step exercise.{o.name}.build failed?)")
            return 1
        return cmd_check(o)
    return cmd_summary(o)


if __name__ == "__main__":
    sys.exit(main())
