#!/usr/bin/env python3
"""The plot script on the committed data: each declared figure (chapters/*/report.py) whose CSV is
present gets a non-empty PNG of the expected size; and a CSV with a missing column is refused with a
message naming file and column.

usage: plot_test.py STAMP PLOT_SCRIPT DATA_DIR OUT_DIR
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

stamp, script, data, out = sys.argv[1:5]
python = open(stamp).read().strip()
if python.startswith("ERROR"):
    # No matplotlib on the system and no way to install it (offline): nothing to test with. A skip
    # with its remedy (a failure under WORKBOOK_REQUIRE_TOOLS=1: scripts/skips.py).
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
    import skips
    sys.exit(skips.report("no Python with matplotlib, and none could be installed: " + python, "no-matplotlib"))

# The declared figures (chapters/*/report.py) and the figure size, from the plot script itself (run
# by the Python that plots).
query = ("import json, sys; sys.path.insert(0, sys.argv[1]); import plot_timings as p; "
         "d = p.load_declarations(); "
         "print(json.dumps([[[f.name, f.csv] for f in d['figures'].values()], [int(v * p.DPI) for v in p.FIGSIZE]]))")
info = subprocess.run([python, "-c", query, os.path.dirname(os.path.abspath(script))], capture_output=True, text=True)
if info.returncode != 0:
    print("FAIL: cannot import plots/plot_timings.py or a chapter's report.py: " + info.stderr.strip())
    sys.exit(1)
figures, (want_w, want_h) = json.loads(info.stdout)
if not figures:
    print("FAIL: no figure is declared in any chapters/*/report.py")
    sys.exit(1)
gpus = sorted(d for d in os.listdir(data) if os.path.isdir(os.path.join(data, d)))
shutil.rmtree(out, ignore_errors=True)
failures = []
for gpu in gpus:
    proc = subprocess.run([python, script, "--data-dir", data, "--out-dir", os.path.join(out, gpu), "--gpu", gpu],
                          capture_output=True, text=True)
    print(proc.stdout + proc.stderr, end="")
    if proc.returncode != 0:
        failures.append(f"{gpu}: plot_timings.py exited {proc.returncode}")
        continue
    expected = [name for name, csv in figures if os.path.exists(os.path.join(data, gpu, csv))]
    if not expected:
        failures.append(f"{gpu}: no chapter CSVs to plot")
    for name in expected:
        png = os.path.join(out, gpu, name + ".png")
        if not os.path.exists(png) or os.path.getsize(png) < 10000:
            failures.append(f"{png}: missing or too small")
            continue
        with open(png, "rb") as f:
            head = f.read(24)
        w, h = struct.unpack(">II", head[16:24])
        if head[:8] != b"\x89PNG\r\n\x1a\n" or (w, h) != (want_w, want_h):
            failures.append(f"{png}: {w} x {h}, expected {want_w} x {want_h}")
        else:
            print(f"ok {png}: {w} x {h}, {os.path.getsize(png)} bytes")

# A bad table must be refused, naming the file and the column.
with tempfile.TemporaryDirectory() as d:
    os.makedirs(os.path.join(d, "gpu"))
    bad = os.path.join(d, "gpu", "stencil_1d.csv")
    with open(bad, "w") as f:
        f.write("kernel,size,bytes,time_ms,pct_of_copy\ncopy,1,8,0.1,100\n")
    proc = subprocess.run([python, script, "--data-dir", d, "--out-dir", d], capture_output=True, text=True)
    if proc.returncode != 2 or "stencil_1d.csv" not in proc.stderr or "'gbps'" not in proc.stderr:
        failures.append(f"a CSV without gbps: exit {proc.returncode}, stderr {proc.stderr.strip()!r}")
    else:
        print("ok a CSV without 'gbps' is refused: " + proc.stderr.strip())

for f in failures:
    print("FAIL: " + f)
sys.exit(1 if failures else 0)
