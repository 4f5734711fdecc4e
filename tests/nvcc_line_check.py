#!/usr/bin/env python3
"""nvcc_line_check.py — the one-line nvcc command in a program's header must build a working program.

Every chapter program's header says how to build it without CMake:

    // Build without CMake, in this folder:
    //   nvcc -std=c++17 -O3 -arch=native -I../../common -o NAME NAME.cu [-lcublas]

This test reads that line from SOURCE and runs it as a learner would, in the source's folder, with
three changes only: `nvcc` is the configured compiler (--nvcc), the program is written into --out
instead of the chapter folder, and `-arch=native` becomes `-arch=sm_90` when no GPU is visible
(nvcc would otherwise fall back to its default architecture, with a warning). The built program must
then answer `--help` with exit 0 (it links and starts; no GPU needed).

Exit: 0 pass, 1 fail (no such line, a line that does not name its own source and program, a failed
build, a program that does not start).
"""
import argparse
import os
import shlex
import subprocess
import sys

MARKER = "// Build without CMake, in this folder:"


def build_line(source):
    """The command on the line after the marker, or None."""
    with open(source, encoding="utf-8") as f:
        lines = f.read().splitlines()
    for i, line in enumerate(lines):
        if line.strip() == MARKER and i + 1 < len(lines):
            nxt = lines[i + 1]
            if nxt.startswith("//   nvcc "):
                return nxt[len("//   "):].strip()
    return None


def gpu_visible():
    try:
        p = subprocess.run(["nvidia-smi", "-L"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return p.returncode == 0 and b"GPU " in p.stdout


def fail(msg):
    print(f"FAIL: {msg}")
    sys.exit(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", required=True)
    ap.add_argument("--nvcc", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--no-run", action="store_true", help="build only (a program without --help)")
    opts = ap.parse_args()

    source = os.path.abspath(opts.source)
    folder, base = os.path.split(source)
    program = os.path.splitext(base)[0]
    line = build_line(source)
    if line is None:
        fail(f"{source} has no line '{MARKER}' followed by '//   nvcc ...'")
    print(f"header: {line}")
    argv = shlex.split(line)
    if base not in argv:
        fail(f"the line does not compile {base}")
    if "-o" not in argv or argv.index("-o") + 1 >= len(argv) or argv[argv.index("-o") + 1] != program:
        fail(f"the line does not write the program as '-o {program}'")
    os.makedirs(opts.out, exist_ok=True)
    exe = os.path.join(os.path.abspath(opts.out), program)
    if os.path.exists(exe):
        os.remove(exe)
    argv[0] = opts.nvcc
    argv[argv.index("-o") + 1] = exe
    if "-arch=native" in argv and not gpu_visible():
        argv[argv.index("-arch=native")] = "-arch=sm_90"
    print("run:    " + " ".join(shlex.quote(a) for a in argv) + f"    (in {folder})")
    p = subprocess.run(argv, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=1800)
    sys.stdout.write(p.stdout.decode("utf-8", errors="replace"))
    if p.returncode != 0:
        fail(f"nvcc exited {p.returncode}")
    if not os.path.isfile(exe):
        fail(f"nvcc made no {exe}")
    if opts.no_run:
        print(f"PASS: the header's nvcc line builds {program}")
        return 0
    h = subprocess.run([exe, "--help"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120)
    if h.returncode != 0 or b"usage" not in h.stdout.lower():
        fail(f"{program} --help exited {h.returncode}: {h.stdout.decode('utf-8', errors='replace')[:500]}")
    print(f"PASS: the header's nvcc line builds {program}, and it starts")
    return 0


if __name__ == "__main__":
    sys.exit(main())
