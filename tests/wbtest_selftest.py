#!/usr/bin/env python3
"""Checks that the test runner can fail: a wrong stdout fails, exit 77 skips (never passes),
a non-zero exit fails, exit-code tests insist on the code and the message, and in strict mode
(WORKBOOK_STRICT=1) a test that would skip fails."""
import os
import subprocess
import sys
import tempfile

runner = sys.argv[1]
py = sys.executable


def rc_of(*args, strict=False, require_tools=False):
    env = {k: v for k, v in os.environ.items()
           if k not in ("WORKBOOK_STRICT", "WORKBOOK_REQUIRE_TOOLS", "WORKBOOK_SKIP_DIR")}
    if strict:
        env["WORKBOOK_STRICT"] = "1"
    if require_tools:
        env["WORKBOOK_REQUIRE_TOOLS"] = "1"
    return subprocess.run([py, runner, *args], stdout=subprocess.DEVNULL, env=env).returncode


def prog(code, out="hello\n", err=""):
    return [py, "-c", f"import sys; sys.stdout.write({out!r}); sys.stderr.write({err!r}); sys.exit({code})"]


failures = []
with tempfile.TemporaryDirectory() as d:
    exp = os.path.join(d, "expected.txt")
    with open(exp, "w") as f:
        f.write("hello\n")
    # Prints "hello" the first time, "hullo" after: a golden test of two runs must catch it.
    state = os.path.join(d, "flaky_state")
    flaky = [py, "-c", "import os, sys; p = sys.argv[1]; seen = os.path.exists(p); open(p, 'w').close(); "
             "sys.stdout.write('hullo\\n' if seen else 'hello\\n')", state]
    cases = [
        ("golden match", ["golden", "--expected", exp, "--", *prog(0)], 0),
        ("golden mismatch", ["golden", "--expected", exp, "--", *prog(0, "hullo\n")], 1),
        ("golden missing newline", ["golden", "--expected", exp, "--", *prog(0, "hello")], 1),
        ("golden nonzero exit", ["golden", "--expected", exp, "--", *prog(1)], 1),
        ("golden skip", ["golden", "--expected", exp, "--", *prog(77, "", "no GPU")], 77),
        ("golden no file", ["golden", "--expected", exp + ".none", "--", *prog(0)], 1),
        ("exit-code ok", ["exit-code", "--rc", "2", "--stderr=bad n", "--", *prog(2, "", "error: bad n")], 0),
        ("exit-code wrong rc", ["exit-code", "--rc", "2", "--stderr=bad n", "--", *prog(0, "", "bad n")], 1),
        ("exit-code wrong text", ["exit-code", "--rc", "2", "--stderr=bad n", "--", *prog(2, "", "x")], 1),
        ("exit-code skip", ["exit-code", "--rc", "2", "--stderr=x", "--", *prog(77, "", "no GPU")], 77),
        ("golden 2 runs", ["golden", "--runs", "2", "--expected", exp, "--", *prog(0)], 0),
        ("golden second run differs", ["golden", "--runs", "2", "--expected", exp, "--", *flaky], 1),
        ("match same", ["match", "--", *prog(0), "--", *prog(0)], 0),
        ("match differs", ["match", "--", *prog(0), "--", *prog(0, "hullo\n")], 1),
        ("match program fails", ["match", "--", *prog(0), "--", *prog(1)], 1),
        ("match reference fails", ["match", "--", *prog(1), "--", *prog(0)], 1),
        ("match skip", ["match", "--", *prog(0), "--", *prog(77, "", "no GPU")], 77),
        ("sanitize skip", ["sanitize", "--tool", "memcheck", "--probe", py, "--", *prog(0)], None),
    ]
    for name, args, want in cases:
        if name == "sanitize skip":  # the probe (python with no script) exits 0: missing tool skips
            args = ["sanitize", "--tool", "memcheck", "--sanitizer", "", "--probe",
                    os.path.join(d, "probe.sh"), "--", *prog(0)]
            with open(args[6], "w") as f:
                f.write("#!/bin/sh\nexit 0\n")
            os.chmod(args[6], 0o755)
            want = 77
        got = rc_of(*args)
        status = "ok" if got == want else "WRONG"
        print(f"{status:5} {name}: exit {got} (want {want})")
        if got != want:
            failures.append(name)

    # Fake sanitizers: the runner must read the summary lines, not only the exit code.
    def fake(name, body):
        path = os.path.join(d, name)
        with open(path, "w") as f:
            f.write("#!/bin/sh\n" + body + "\n")
        os.chmod(path, 0o755)
        return path
    probe = fake("probe_ok", "exit 0")
    sanitizer_cases = [
        ("racecheck clean", "racecheck", "echo '========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)'", 0),
        ("racecheck hazard", "racecheck", "echo '========= RACECHECK SUMMARY: 2 hazards displayed (0 errors, 2 warnings)'", 1),
        ("racecheck no summary", "racecheck", "true", 1),
        ("memcheck clean", "memcheck", "echo '========= ERROR SUMMARY: 0 errors'", 0),
        ("memcheck error", "memcheck", "echo '========= ERROR SUMMARY: 3 errors'", 1),
        ("memcheck exit code", "memcheck", "echo '========= ERROR SUMMARY: 0 errors'; exit 86", 1),
        ("program skipped", "initcheck", "exit 77", 77),
    ]
    for i, (name, tool, body, want) in enumerate(sanitizer_cases):
        san = fake(f"san{i}", body)
        got = rc_of("sanitize", "--tool", tool, "--sanitizer", san, "--probe", probe, "--", *prog(0))
        print(f"{'ok' if got == want else 'WRONG':5} sanitize {name}: exit {got} (want {want})")
        cases.append(name)
        if got != want:
            failures.append(name)
    # Strict mode: a skip that means no usable GPU fails instead; a missing tool stays a skip (what the
    # learner's machine lacks), unless WORKBOOK_REQUIRE_TOOLS=1 (scripts/gpu_check.sh) requires it.
    missing_sanitizer = ["sanitize", "--tool", "memcheck", "--sanitizer", "", "--probe", probe, "--", *prog(0)]
    strict_cases = [
        ("strict golden skip", ["golden", "--expected", exp, "--", *prog(77, "", "no CUDA device")], 1, False),
        ("strict exit-code skip", ["exit-code", "--rc", "2", "--stderr=x", "--", *prog(77, "", "no CUDA device")], 1, False),
        ("strict skip of unknown cause", ["golden", "--expected", exp, "--", *prog(77, "", "no GPU")], 1, False),
        ("strict sanitizer missing: a skip", missing_sanitizer, 77, False),
        ("require-tools sanitizer missing: fails", missing_sanitizer, 1, True),
        ("strict still passes", ["golden", "--expected", exp, "--", *prog(0)], 0, False),
    ]
    for name, args, want, require in strict_cases:
        got = rc_of(*args, strict=True, require_tools=require)
        print(f"{'ok' if got == want else 'WRONG':5} {name}: exit {got} (want {want})")
        cases.append(name)
        if got != want:
            failures.append(name)
print(f"{len(cases) - len(failures)} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
