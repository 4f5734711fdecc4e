#!/usr/bin/env python3
"""plot_env.py — find or make a Python that can import matplotlib, and record its path.

usage: plot_env.py --venv build/venv --requirements requirements.txt --stamp build/plot_python.txt
Uses this Python if it already has matplotlib; otherwise creates the virtual environment (with the
system's site packages visible) and pip-installs the requirements into it. Writes the chosen
interpreter's path to the stamp file, or, if none works, a line starting with "ERROR:" that the plot
test and the workbook run print. Never fails the build: the programs do not need Python packages.
"""
import argparse
import os
import subprocess
import sys


def has_matplotlib(python):
    return subprocess.run([python, "-c", "import matplotlib"], capture_output=True).returncode == 0


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--venv", required=True)
    p.add_argument("--requirements", required=True)
    p.add_argument("--stamp", required=True)
    o = p.parse_args()
    venv_python = os.path.join(o.venv, "bin", "python3")
    result = None
    if has_matplotlib(sys.executable):
        result = sys.executable
    elif os.path.exists(venv_python) and has_matplotlib(venv_python):
        result = venv_python
    else:
        print(f"plot_env: matplotlib is missing; installing {o.requirements} into {o.venv}", flush=True)
        steps = [[sys.executable, "-m", "venv", "--system-site-packages", o.venv],
                 [venv_python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r", o.requirements]]
        for step in steps:
            proc = subprocess.run(step, capture_output=True, text=True)
            if proc.returncode != 0:
                result = "ERROR: " + " ".join(step) + " failed: " + (proc.stderr or proc.stdout).strip()[-600:]
                break
        else:
            result = venv_python if has_matplotlib(venv_python) else "ERROR: matplotlib still not importable"
    with open(o.stamp, "w") as f:
        f.write(result + "\n")
    print("plot_env: " + result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
