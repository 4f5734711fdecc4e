#!/usr/bin/env python3
"""exercise_check_selftest.py — the exercise runner's verdicts, on fake checkers (no GPU, no build).

A wrong answer that no check rejects, or rejects only sometimes, must fail its test; an untouched
learner file must skip even in strict mode; a solution file that still says "not attempted" must
fail; a CPU check's rejection must count without a GPU.

usage: exercise_check_selftest.py tests/exercise_check.py
"""
import os
import stat
import subprocess
import sys
import tempfile

runner = sys.argv[1]
failures = 0


def fake(d, name, body):
    """A fake checker: a shell script. `$1` is --quick or --bank-model when the runner passes one."""
    path = os.path.join(d, name)
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + body + "\n")
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
    return path


def case(what, want_rc, args, env=None, want_text=""):
    global failures
    e = dict(os.environ)
    for v in ("WORKBOOK_STRICT", "WORKBOOK_REQUIRE_TOOLS", "WORKBOOK_SKIP_DIR", "WORKBOOK_TEST_NAME"):
        e.pop(v, None)  # each case sets what it tests; the run's own mode (gpu_check.sh's) must not leak in
    e.update(env or {})
    p = subprocess.run([sys.executable, runner] + args, capture_output=True, text=True, env=e)
    ok = p.returncode == want_rc and want_text in p.stdout
    print(f"{'ok  ' if ok else 'FAIL'} {what}: exit {p.returncode} (want {want_rc})")
    if not ok:
        print(p.stdout[-2000:] + p.stderr[-2000:])
        failures += 1


with tempfile.TemporaryDirectory() as d:
    gpu = fake(d, "probe_gpu", "echo 'GPU 0: fake h100'; exit 0")
    passes = fake(d, "passes", "echo 'PASS: fake'; exit 0")
    fails = fake(d, "fails", "echo 'FAIL n = 40: element 8: expected 3, got 4'; exit 1")
    # Fails every second run: a counter file beside it.
    flaky = fake(d, "flaky", f"c={d}/count; n=$(cat $c 2>/dev/null || echo 0); echo $((n+1)) > $c; "
                             "if [ $((n % 2)) = 0 ]; then echo FAIL; exit 1; fi; echo PASS; exit 0")
    untouched = fake(d, "untouched", "echo 'not attempted: edit chapters/x/exercises/e.cu'; exit 77")
    nogpu_bank_bad = fake(d, "nogpu_bank_bad",
                          "if [ \"$1\" = --bank-model ]; then echo 'bank model: 4 extra'; exit 1; fi; "
                          "echo 'SKIP: no CUDA device' >&2; exit 77")
    nogpu = fake(d, "nogpu_probe", "echo 'SKIP: no CUDA device' >&2; exit 77")
    base = ["check", "--name", "e", "--learner-file", "chapters/x/exercises/e.cu", "--probe", gpu]

    case("a solution that passes", 0, base + ["--mode", "solutions", "--checker", passes])
    case("a solution that fails", 1, base + ["--mode", "solutions", "--checker", fails], want_text="element 8")
    case("a wrong answer the checker rejects every run", 0, base + ["--mode", "wrong", "--checker", fails],
         want_text="rejected by checker")
    drawn = fake(d, "drawn", "echo 'FAIL n = 40: element 8: expected 3, got 4'; "
                             "echo 'picture of the mistake: /b/exercises/e_mistake.svg (n = 40, elements 8 to 39)'; "
                             "echo 'FAIL: e: 1 of 1 cases wrong; picture: /b/exercises/e_mistake.svg'; exit 1")
    case("a rejection for wrong values names the checker's picture", 0,
         base + ["--mode", "wrong", "--checker", drawn], want_text="; picture: /b/exercises/e_mistake.svg")
    sass_fail = os.path.join(d, "sass_fail.py")
    with open(sass_fail, "w") as f:
        f.write("print('FAIL e.sass:1: e | has >=5 SHFL.BFLY')\n"
                "print('       the task asks for at least 5 `__shfl_xor_sync` butterflies (SHFL.BFLY); "
                "your kernel e has: SHFL.DOWN ×5')\n"
                "print('       why: Five butterfly steps.')\nraise SystemExit(1)\n")
    case("a SASS rejection quotes what the rule asks for, what the kernel has, and why", 0,
         base + ["--mode", "wrong", "--checker", passes, "--sass-rules", "e.sass", "--sass-script", sass_fail],
         want_text="SASS: the task asks for at least 5 `__shfl_xor_sync` butterflies (SHFL.BFLY); your kernel e "
                   "has: SHFL.DOWN ×5. Why: Five butterfly steps.")
    case("a wrong answer no check rejects", 1, base + ["--mode", "wrong", "--checker", passes])
    case("a wrong answer rejected only sometimes", 1,
         base + ["--mode", "wrong", "--checker", flaky, "--repeat", "4"], want_text="only sometimes")
    case("an untouched learner file skips", 77, base + ["--mode", "learner", "--checker", untouched])
    case("an untouched learner file skips even in strict mode", 77,
         base + ["--mode", "learner", "--checker", untouched], env={"WORKBOOK_STRICT": "1"})
    case("a solution file that says not attempted fails", 1, base + ["--mode", "solutions", "--checker", untouched])
    nogpu_base = [a if a != gpu else nogpu for a in base]
    case("without a GPU, a bank-model rejection still counts", 0,
         nogpu_base + ["--mode", "wrong", "--checker", nogpu_bank_bad, "--bank-model"],
         want_text="rejected by bank-model")
    case("without a GPU, a solution skips", 77, nogpu_base + ["--mode", "solutions", "--checker", nogpu_bank_bad])
    case("without a GPU, a solution fails in strict mode", 1,
         nogpu_base + ["--mode", "solutions", "--checker", nogpu_bank_bad], env={"WORKBOOK_STRICT": "1"})
    case("without a GPU, a learner's bank conflict fails", 1,
         nogpu_base + ["--mode", "learner", "--checker", nogpu_bank_bad, "--bank-model"], want_text="bank model")
    # A fake compute-sanitizer: runs the checker (the argument before --quick) and reports no error,
    # or (hazard_sanitizer) one error with exit 86.
    clean_san = fake(d, "clean_sanitizer", 'for a; do prev=$cur; cur=$a; done; "$prev" --quick; rc=$?; '
                                           'echo "========= ERROR SUMMARY: 0 errors"; exit $rc')
    hazard_san = fake(d, "hazard_sanitizer", 'echo "========= Invalid __global__ read of size 4"; '
                                             'echo "========= ERROR SUMMARY: 1 error"; exit 86')
    case("a sanitizer is not credited with the checker's rejection", 0,
         base + ["--mode", "wrong", "--checker", fails, "--sanitize", "memcheck", "--sanitizer", clean_san],
         want_text="rejected by checker (every run)")
    case("a sanitizer's hazard rejects a wrong answer whose values are right", 0,
         base + ["--mode", "wrong", "--checker", passes, "--sanitize", "memcheck", "--sanitizer", hazard_san],
         want_text="rejected by memcheck")
    case("a sanitizer's hazard fails a solution", 1,
         base + ["--mode", "solutions", "--checker", passes, "--sanitize", "memcheck", "--sanitizer", hazard_san])
    learner = os.path.join(d, "e.cu")
    with open(learner, "w") as f:
        f.write("// task\n#define WB_NOT_ATTEMPTED  // delete this line when you start\n")
    case("the build step does not compile an untouched file", 77,
         ["build", "--mode", "learner", "--file", learner, "--", "false"], want_text="not attempted")
    case("the build step fails on a compile error", 1,
         ["build", "--mode", "solutions", "--file", learner, "--", "false"], want_text="does not compile")

print("PASS" if not failures else f"FAIL: {failures} case(s)")
sys.exit(1 if failures else 0)
