#!/usr/bin/env python3
"""The README generator's own test (readme.tables.selftest): on a small workbook in a temporary
folder, plots/plot_timings.py --check must pass when the README is current and fail when it is not.

  1. --update writes a table and a value; --check then passes (exit 0).
  2. a value edited by hand: --check exits 1 and its diff shows the line.
  3. a table row edited by hand: --check exits 1.
  4. the timer's appended columns (min_ms,max_ms,in_l2,sm_mhz) and a cudaMemcpy row: --check still
     passes, the table unchanged (declarations ignore what they do not name).
  5. a measured number changes in the CSV: --check exits 1 until --update, which rewrites it.
  6. a marker naming nothing declared: exit 2, naming it; a row the table needs is missing: exit 2,
     naming the file.

usage: tables_test.py PLOT_SCRIPT
"""
import os
import subprocess
import sys
import tempfile

script = os.path.abspath(sys.argv[1])
failures = []

REPORT = '''from plot_timings import Col, Table, Value
TABLES = [Table("t.bench", "t.csv", rows=[{"kernel": "ours"}, {"kernel": "copy"}],
                columns=[Col("kernel", "`{kernel}`", "l"), Col("GB/s", "{gbps:.0f}")])]
VALUES = [Value("t.ratio", "t.csv", lambda q: q(kernel="ours")["gbps"] / q(kernel="copy")["gbps"], "{:.3f}×")]
'''
README = '''# t
<!-- wb:table t.bench -->
<!-- /wb:table -->

Ours is <!-- wb:value t.ratio -->?<!-- /wb:value --> of copy.
'''
CSV = "kernel,size,bytes,time_ms,gbps,pct_of_copy\nours,1,8,0.1,3900.0,97.5\ncopy,1,8,0.1,4000.0,100.0\n"
CSV_TIMER = ("kernel,size,bytes,time_ms,gbps,pct_of_copy,min_ms,max_ms,in_l2,sm_mhz\n"
             "ours,1,8,0.1,3900.0,97.5,0.09,0.11,0,1980\ncopy,1,8,0.1,4000.0,100.0,0.09,0.11,0,1980\n"
             "cudaMemcpy,1,8,0.1,3950.0,98.8,0.09,0.11,0,1980\n")


def run(root, *args):
    return subprocess.run([sys.executable, script, "--root", root, "--data-dir", os.path.join(root, "plots", "data"),
                           *args], capture_output=True, text=True)


def expect(what, proc, rc, needle=None):
    out = proc.stdout + proc.stderr
    if proc.returncode != rc or (needle and needle not in out):
        failures.append(f"{what}: exit {proc.returncode} (expected {rc}"
                        + (f", output naming {needle!r}" if needle else "") + f"); output:\n{out}")
    else:
        print(f"ok {what}: exit {rc}")


with tempfile.TemporaryDirectory() as root:
    chapter = os.path.join(root, "chapters", "01_t")
    data = os.path.join(root, "plots", "data", "h200")
    os.makedirs(chapter)
    os.makedirs(data)
    write = lambda path, text: open(path, "w").write(text)  # noqa: E731
    write(os.path.join(chapter, "report.py"), REPORT)
    write(os.path.join(chapter, "README.md"), README)
    write(os.path.join(data, "t.csv"), CSV)
    readme = os.path.join(chapter, "README.md")

    expect("a stale README", run(root, "--check"), 1, "t.bench")
    expect("--update", run(root, "--update", "--no-figures"), 0)
    text = open(readme).read()
    if "| `ours` | 3900 |" not in text or "-->0.975×<!--" not in text:
        failures.append("--update did not write the table and the value:\n" + text)
    expect("a current README", run(root, "--check"), 0)

    write(readme, text.replace("0.975×", "0.990×"))
    expect("a value edited by hand", run(root, "--check"), 1, "+Ours is <!-- wb:value t.ratio -->0.975×")
    write(readme, text.replace("| `ours` | 3900 |", "| `ours` | 3999 |"))
    expect("a table row edited by hand", run(root, "--check"), 1, "| `ours` | 3900 |")
    write(readme, text)

    write(os.path.join(data, "t.csv"), CSV_TIMER)
    expect("appended columns and a cudaMemcpy row", run(root, "--check"), 0)
    write(os.path.join(data, "t.csv"), CSV_TIMER.replace("3900.0", "3600.0"))
    expect("a new measurement, README not updated", run(root, "--check"), 1, "0.900×")
    expect("--update after a new measurement", run(root, "--update", "--no-figures"), 0)
    expect("the updated README", run(root, "--check"), 0)

    write(readme, text + "\n<!-- wb:value t.nothing -->1<!-- /wb:value -->\n")
    expect("a marker naming nothing declared", run(root, "--check"), 2, "t.nothing")
    write(readme, text)
    write(os.path.join(data, "t.csv"), CSV.replace("copy,1,8,0.1,4000.0,100.0\n", ""))
    expect("a row the table needs is missing", run(root, "--check"), 2, "t.csv")

for f in failures:
    print("FAIL: " + f)
sys.exit(1 if failures else 0)
