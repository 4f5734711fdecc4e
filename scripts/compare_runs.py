#!/usr/bin/env python3
"""compare_runs.py — two checks of scripts/gpu_check.sh that need a GPU run's results.

Serial vs parallel (step serial_vs_parallel):
  compare_runs.py --parallel-junit P.xml --serial-junit S.xml --parallel-csv DIR --serial-csv DIR
  Every test of the serial run (ctest -j1 over the gpu and ncu labels) must have the same result in
  the parallel run (the test preset: parallel, ncu tests alone), and every Nsight Compute CSV the
  ncu tests wrote must hold the same cells in both. Prints one line per test and per CSV; exit 1 on
  any difference, or when a run is missing.

Old architecture (step old_arch):
  compare_runs.py --old-arch build-old/workbook_manifest.json --expected expected_outputs
  Runs every program of a build for an older architecture (e.g. 75-virtual) as its golden test does
  (no arguments) and prints `<program> rc=N <verdict>`: rc=0 with stdout equal to its golden file,
  or rc=77 (it refuses the image: below its floor) pass; anything else fails (exit 1).

Another toolkit's programs (step toolkits):
  compare_runs.py --programs DIR --expected expected_outputs
  Runs DIR/<name> for every golden file <name>.txt (binaries built with another CUDA toolkit and
  carried here) and prints `<program> rc=N <verdict>`; a program that cannot start for a shared
  library this machine lacks is named with it and counted apart. Exit 1 when one fails or differs.
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET


def junit(path):
    """{test name: (status, seconds)}; status is ctest's JUnit status (run, fail, notrun, ...)."""
    out = {}
    for t in ET.parse(path).iter("testcase"):
        out[t.get("name")] = (t.get("status"), float(t.get("time") or 0))
    return out


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.reader(f))


def serial_vs_parallel(o):
    ok = True
    for p in (o.parallel_junit, o.serial_junit):
        if not os.path.exists(p):
            print(f"FAIL: {p} is missing (run the parallel test step first)")
            return 1
    par, ser = junit(o.parallel_junit), junit(o.serial_junit)
    print(f"tests: {len(ser)} run serially, compared with the parallel run")
    for name in sorted(ser):
        s_status, s_time = ser[name]
        p_status, p_time = par.get(name, ("absent", 0.0))
        # The same verdict in both runs (a test skipped in both, e.g. an exercise the learner has not
        # attempted, is the same result); a failure fails the ctest step that ran it, not this one.
        same = s_status == p_status
        ok &= same
        print(f"{'same' if same else 'DIFF'} {name}: parallel {p_status} {p_time:.2f} s, serial {s_status} {s_time:.2f} s")
    if not any(n.endswith(".ncu") for n in ser):
        print("Nsight Compute CSVs: not compared (the ncu tests were not rerun: they run alone, RUN_SERIAL,"
              " in the parallel run too)")
        return 0 if ok else 1
    names = sorted(set(os.listdir(o.serial_csv)) | set(os.listdir(o.parallel_csv)))
    csvs = [n for n in names if n.endswith(".csv")]
    if not csvs:
        print("FAIL: no Nsight Compute CSV in either run")
        ok = False
    for n in csvs:
        a, b = os.path.join(o.parallel_csv, n), os.path.join(o.serial_csv, n)
        if not (os.path.exists(a) and os.path.exists(b)):
            print(f"DIFF {n}: only in the {'parallel' if os.path.exists(a) else 'serial'} run")
            ok = False
            continue
        ra, rb = read_csv(a), read_csv(b)
        diffs = []
        if ra[:1] != rb[:1] or len(ra) != len(rb):
            diffs.append(f"header or row count differs ({len(ra)} vs {len(rb)} rows)")
        else:
            for i, (x, y) in enumerate(zip(ra[1:], rb[1:]), 1):
                for col, u, v in zip(ra[0], x, y):
                    if u != v:
                        diffs.append(f"row {i} ({x[0]}) {col}: parallel {u}, serial {v}")
        cells = sum(len(r) for r in ra[1:])
        ok &= not diffs
        print(f"{'same' if not diffs else 'DIFF'} {n}: {len(ra) - 1} rows, {cells} cells"
              + ("" if not diffs else "; " + "; ".join(diffs[:20])))
    print("RESULT: " + ("the serial and the parallel run agree" if ok else "the runs DIFFER"))
    return 0 if ok else 1


def old_arch(o):
    with open(o.old_arch) as f:
        manifest = json.load(f)
    ok = True
    for ch in manifest["chapters"]:
        name, prog = ch["name"], ch["program"]
        expected = os.path.join(o.expected, name + ".txt")
        p = subprocess.run([prog], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
        err = p.stderr.decode(errors="replace").strip().splitlines()
        if p.returncode == 0:
            same = os.path.exists(expected) and open(expected, "rb").read() == p.stdout
            verdict = "stdout == golden" if same else "stdout DIFFERS from the golden file"
            ok &= same
        elif p.returncode == 77:
            verdict = "skip: " + (err[-1] if err else "no reason given")
        else:
            verdict = "FAIL: " + (err[-1] if err else "no message")
            ok = False
        print(f"{name} rc={p.returncode} {verdict}")
    print("RESULT: " + ("every program printed its golden output or exited 77" if ok else "FAILED"))
    return 0 if ok else 1


def programs(o):
    """Each program of a folder of binaries built elsewhere (another toolkit's build, carried to this
    machine) against its golden file: one line per program. A program that cannot start because a
    shared library it was linked against is missing here (another cuBLAS, say) is named with the
    library, and counted apart: not run, neither passed nor failed."""
    names = sorted(f[:-4] for f in os.listdir(o.expected) if f.endswith(".txt"))
    passed, missing, ok = 0, [], True
    for name in names:
        prog = os.path.join(o.programs, name)
        if not os.path.exists(prog):
            print(f"{name} FAIL: not in {o.programs}")
            ok = False
            continue
        p = subprocess.run([prog], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
        err = p.stderr.decode(errors="replace").strip().splitlines()
        lib = next((l.split("error while loading shared libraries: ")[1].split(":")[0]
                    for l in err if "error while loading shared libraries: " in l), None)
        if lib:
            verdict = f"not run: it needs {lib}, which this machine lacks"
            missing.append(name)
        elif p.returncode == 0 and open(os.path.join(o.expected, name + ".txt"), "rb").read() == p.stdout:
            verdict = "stdout == golden"
            passed += 1
        else:
            verdict = f"FAIL: exit {p.returncode}" + (", stdout DIFFERS from the golden file" if p.returncode == 0 else
                                                     ": " + (err[-1] if err else "no message"))
            ok = False
        print(f"{name} rc={p.returncode} {verdict}")
    print(f"RESULT: {passed} of {len(names)} programs printed their golden output"
          + (f"; {len(missing)} not run for a missing library ({', '.join(missing)})" if missing else "")
          + ("" if ok else "; FAILED"))
    return 0 if ok else 1


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--parallel-junit")
    p.add_argument("--serial-junit")
    p.add_argument("--parallel-csv")
    p.add_argument("--serial-csv")
    p.add_argument("--old-arch", metavar="MANIFEST")
    p.add_argument("--programs", metavar="DIR", help="binaries built elsewhere, one per golden file")
    p.add_argument("--expected")
    o = p.parse_args()
    if o.programs:
        if not o.expected:
            p.error("--programs needs --expected")
        return programs(o)
    if o.old_arch:
        if not o.expected:
            p.error("--old-arch needs --expected")
        return old_arch(o)
    if not all([o.parallel_junit, o.serial_junit, o.parallel_csv, o.serial_csv]):
        p.error("give --parallel-junit, --serial-junit, --parallel-csv and --serial-csv (or --old-arch)")
    return serial_vs_parallel(o)


if __name__ == "__main__":
    sys.exit(main())
