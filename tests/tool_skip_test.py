#!/usr/bin/env python3
"""tool_skip_test.py — a learner's machine that lacks a tool, or keeps the GPU's counters from the
user, gets skips that say why and how to fix it, never failures; and strict mode still fails a GPU
that cannot be used. Proven without a GPU, on this build's own registered tests.

usage: tool_skip_test.py harness BUILD_DIR
       tool_skip_test.py configure SOURCE_DIR BUILD_DIR SCRATCH_DIR
       tool_skip_test.py floor SOURCE_DIR SCRATCH_DIR

harness    takes the commands ctest would run for this build's ncu and sanitize tests
           (`ctest --show-only=json-v1`) and runs them with the stand-ins of tests/standins/: a
           probe that answers as a machine with a GPU does, and an ncu that answers as a driver
           that restricts the counters (ERR_NVGPUCTRPERM); then with no ncu and no compute-sanitizer
           (what configure passes when it finds none). Under WORKBOOK_STRICT=1 each must skip (77)
           with its cause, its reason and its remedy; under WORKBOOK_REQUIRE_TOOLS=1
           (scripts/gpu_check.sh) each must fail. Strict mode keeps its purpose: a program that
           skips because no GPU or driver is usable fails it, while one whose GPU is older than the
           chapter needs skips. The skips recorded are summarised by cause (tests/skip_summary.py).
configure  configures the workbook in SCRATCH_DIR as BUILD_DIR is configured (compiler,
           architectures), with every folder where it finds an ncu or a compute-sanitizer hidden
           from CMake (CMAKE_IGNORE_PATH), then asserts that configure found
           neither and that the ncu and sanitize tests it registered skip, in strict mode, with the
           remedy.
floor      configures the workbook with a stand-in nvcc of CUDA 12.3 and 11.8: configure stops with
           the version found and the version needed (cmake/Toolkit.cmake); 12.4 passes the floor.
Exit 0 pass, 1 fail.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
STANDINS = os.path.join(HERE, "standins")
PROBE = os.path.join(STANDINS, "gpu_probe")
NCU = os.path.join(STANDINS, "ncu_restricted")
PROGRAM_SKIPS = os.path.join(STANDINS, "program_skips")
PROGRAM_RUNS = os.path.join(STANDINS, "program_runs")
SUMMARY = os.path.join(HERE, "skip_summary.py")

failures = []


def check(what, ok, detail=""):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)
        if detail:
            print("     " + detail.strip().replace("\n", "\n     ")[-3000:])


def registered(build, label):
    """[(name, command, environment)] of the tests of `build` that carry `label`."""
    out = subprocess.run([os.environ.get("WB_CTEST", "ctest"), "--test-dir", build, "--show-only=json-v1", "-L", label],
                         capture_output=True, text=True, check=True).stdout
    tests = []
    for t in json.loads(out)["tests"]:
        env = {}
        for p in t.get("properties", []):
            if p["name"] == "ENVIRONMENT":
                env.update(v.split("=", 1) for v in p["value"])
        tests.append((t["name"], t["command"], env))
    return tests


def swap(cmd, flag, value):
    """The command with the value of its option `flag` (given as `flag value` or `flag=value`)
    replaced by `value`."""
    flag = flag.rstrip("=")
    out, i = [], 0
    while i < len(cmd):
        a = cmd[i]
        if a == flag:
            out += [a, value]
            i += 2
            continue
        out.append(f"{flag}={value}" if a.startswith(flag + "=") else a)
        i += 1
    return out


def run(cmd, env_extra, skip_dir=None):
    env = {k: v for k, v in os.environ.items()
           if k not in ("WORKBOOK_STRICT", "WORKBOOK_REQUIRE_TOOLS", "WORKBOOK_SKIP_DIR")}
    env.update(env_extra)
    if skip_dir:
        env["WORKBOOK_SKIP_DIR"] = skip_dir
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
    return p.returncode, p.stdout + p.stderr


def expect_skip(name, cmd, env, cause, remedy_words, skip_dir):
    strict = dict(env, WORKBOOK_STRICT="1", WORKBOOK_TEST_NAME=name)
    rc, out = run(cmd, strict, skip_dir)
    line = next((l for l in out.splitlines() if l.startswith("SKIPPED [")), "")
    ok = rc == 77 and line.startswith(f"SKIPPED [{cause}]: ") and all(w in line for w in remedy_words)
    check(f"{name}: strict mode, {cause}: skipped with reason and remedy", ok, f"exit {rc}\n{out}")
    rc, out = run(cmd, dict(strict, WORKBOOK_REQUIRE_TOOLS="1"))
    check(f"{name}: WORKBOOK_REQUIRE_TOOLS=1 (scripts/gpu_check.sh): fails", rc == 1 and "FAIL" in out,
          f"exit {rc}\n{out}")


COUNTERS = ["ERR_NVGPUCTRPERM", "sudo", "NVreg_RestrictProfilingToAdminUsers=0", "reboot", "Windows"]
NO_NCU = ["Nsight Compute (ncu) not found", "apt install nsight-compute", "-DWORKBOOK_NCU="]
NO_SANITIZER = ["compute-sanitizer not found", "-DWORKBOOK_COMPUTE_SANITIZER="]


def cmd_harness(build):
    skip_dir = tempfile.mkdtemp(prefix="wb_skips_")
    ncu_tests = registered(build, "ncu")
    sanitize_tests = registered(build, "sanitize")
    check(f"the build registers ncu tests ({len(ncu_tests)}) and sanitize tests ({len(sanitize_tests)})",
          len(ncu_tests) >= 4 and len(sanitize_tests) >= 40)
    for name, cmd, env in ncu_tests:
        gpu = swap(swap(cmd, "--probe", PROBE), "--program", PROGRAM_RUNS)
        expect_skip(name + " (counters restricted)", swap(gpu, "--ncu=", NCU), env, "ncu-counters", COUNTERS, skip_dir)
        expect_skip(name + " (no ncu)", swap(gpu, "--ncu=", ""), env, "no-ncu", NO_NCU, skip_dir)
    for name, cmd, env in sanitize_tests:
        gpu = swap(cmd, "--probe", PROBE)
        expect_skip(name + " (no compute-sanitizer)", swap(gpu, "--sanitizer=", ""), env, "no-sanitizer",
                    NO_SANITIZER, skip_dir)

    # Strict mode keeps its purpose: with a GPU seen at configure, a program that cannot use it fails.
    runner = [sys.executable, os.path.join(HERE, "wbtest.py")]
    golden = runner + ["golden", "--expected", os.devnull, "--", PROGRAM_SKIPS]
    rc, out = run(golden + ["no usable CUDA device or driver (cudaGetDeviceCount: cudaErrorInsufficientDriver)"],
                  {"WORKBOOK_STRICT": "1"})
    check("strict mode: a program that finds no usable driver fails", rc == 1 and "no-gpu" in out, out)
    rc, out = run(golden + ["no usable CUDA device or driver"], {})
    check("without strict mode: the same program skips", rc == 77 and "SKIPPED [no-gpu]" in out, out)
    too_old = "thread-block clusters need sm_90; this GPU (Stand-in sm_80 GPU) is sm_80"
    rc, out = run(golden + [too_old], {"WORKBOOK_STRICT": "1", "WORKBOOK_TEST_NAME": "chapter.golden (older GPU)"}, skip_dir)
    check("strict mode: a GPU older than the chapter needs is a skip", rc == 77 and "SKIPPED [gpu-too-old]" in out, out)
    rc, out = run(golden + [too_old], {"WORKBOOK_STRICT": "1", "WORKBOOK_REQUIRE_TOOLS": "1"})
    check("WORKBOOK_REQUIRE_TOOLS=1: the same fails", rc == 1, out)
    rc, out = run(golden + ["something unforeseen"], {"WORKBOOK_STRICT": "1"})
    check("strict mode: a skip of unknown cause fails", rc == 1, out)

    # The run's summary: one line per cause, with the remedy once.
    rc, out = run([sys.executable, SUMMARY, "print", skip_dir], {})
    counts = {c: sum(1 for f in os.listdir(skip_dir) if open(os.path.join(skip_dir, f)).read().split("\n")[1] == c)
              for c in ("ncu-counters", "no-ncu", "no-sanitizer", "gpu-too-old")}
    ok = rc == 0 and out.count("to run them:") == 4 and all(f"{n:3d}  " in out for n in counts.values()) \
        and counts["no-sanitizer"] == len(sanitize_tests) and counts["ncu-counters"] == counts["no-ncu"] == len(ncu_tests)
    check(f"the summary groups the skips by cause ({counts})", ok, out)
    print(out)
    shutil.rmtree(skip_dir, ignore_errors=True)


def cache_value(build, var):
    """A variable of BUILD_DIR/CMakeCache.txt, or None."""
    for line in open(os.path.join(build, "CMakeCache.txt"), encoding="utf-8", errors="replace"):
        if line.startswith(var + ":"):
            return line.rstrip("\n").split("=", 1)[1]
    return None


def cmd_configure(source, build, scratch):
    # The same compiler, architectures and generator as this build; each folder where configure
    # finds an ncu or a compute-sanitizer is hidden from it (CMAKE_IGNORE_PATH), until it finds none.
    base = ["cmake", "-S", source, "-B", scratch, "-DWORKBOOK_STRICT=ON",
            "-G", cache_value(build, "CMAKE_GENERATOR") or "Ninja"]
    for var in ("CMAKE_CUDA_COMPILER", "CUDAToolkit_ROOT", "CMAKE_CUDA_ARCHITECTURES", "Python3_EXECUTABLE"):
        value = cache_value(build, var)
        if value and not value.endswith("NOTFOUND"):
            base.append(f"-D{var}={value}")
    shutil.rmtree(scratch, ignore_errors=True)
    hidden, found = [], {}
    for _ in range(6):
        args = base + (["-DCMAKE_IGNORE_PATH=" + ";".join(hidden)] if hidden else []) + \
            ["-UWORKBOOK_NCU", "-UWORKBOOK_COMPUTE_SANITIZER"]
        p = subprocess.run(args, capture_output=True, text=True)
        if p.returncode != 0:
            check("configure with every ncu and compute-sanitizer hidden", False, p.stdout[-2000:] + p.stderr[-2000:])
            return
        found = {v: cache_value(scratch, v) or "" for v in ("WORKBOOK_NCU", "WORKBOOK_COMPUTE_SANITIZER")}
        found = {v: "" if f.endswith("-NOTFOUND") else f for v, f in found.items()}
        more = [os.path.dirname(f) for f in found.values() if f]
        if not more:
            break
        hidden += [d for d in more if d not in hidden]
    print("hidden from configure: " + (", ".join(hidden) or "nothing (this machine has neither tool)"))
    for var, value in found.items():
        check(f"configure found no {var[9:].lower().replace('_', '-')} ({var}={value})", value == "")
    skip_dir = tempfile.mkdtemp(prefix="wb_skips_")
    for label, cause, words in (("ncu", "no-ncu", NO_NCU), ("sanitize", "no-sanitizer", NO_SANITIZER)):
        tests = registered(scratch, label)
        check(f"configure registered {label} tests ({len(tests)})", len(tests) > 0)
        for name, cmd, env in tests[:3] + tests[-1:]:
            gpu = swap(swap(cmd, "--probe", PROBE), "--program", PROGRAM_RUNS)
            expect_skip(name, gpu, env, cause, words, skip_dir)
    shutil.rmtree(skip_dir, ignore_errors=True)
    shutil.rmtree(scratch, ignore_errors=True)


def cmd_floor(source, scratch):
    """A configure with an nvcc below the floor stops before project(), with the two versions."""
    nvcc = os.path.join(STANDINS, "nvcc")
    for release, ok_wanted in (("12.3", False), ("11.8", False), ("12.4", True)):
        shutil.rmtree(scratch, ignore_errors=True)
        rc, out = run(["cmake", "-S", source, "-B", scratch, f"-DCMAKE_CUDA_COMPILER={nvcc}"], {"WB_NVCC_RELEASE": release})
        message = f"CUDA {release} found (nvcc at {nvcc}); the workbook needs CUDA 12.4 or newer"
        flat = " ".join(out.split())
        if ok_wanted:
            # The stand-in passes the floor; CMake's own compiler check then fails on it (it compiles nothing).
            check(f"configure with CUDA {release}: past the floor", "the workbook needs CUDA" not in flat, out)
        else:
            check(f"configure with CUDA {release}: stops with the version found and the version needed",
                  rc != 0 and message in flat and "-DCMAKE_CUDA_COMPILER=" in flat, out)
    shutil.rmtree(scratch, ignore_errors=True)


def main(argv):
    if len(argv) == 3 and argv[1] == "harness":
        cmd_harness(argv[2])
    elif len(argv) == 4 and argv[1] == "floor":
        cmd_floor(argv[2], argv[3])
    elif len(argv) == 5 and argv[1] == "configure":
        cmd_configure(argv[2], argv[3], argv[4])
    else:
        print(__doc__)
        return 2
    print(f"{'FAIL' if failures else 'PASS'}: {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
