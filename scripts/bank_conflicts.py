#!/usr/bin/env python3
"""bank_conflicts.py — chapter 05's proof in hardware counters.

Runs setRowReadCol under Nsight Compute, reads for each one-block kernel the shared-memory load and
store wavefronts, the shared load and store instructions, and the bank-conflict counters, and
writes them as CSV:
    kernel,ld_wavefronts,st_wavefronts,ld_instructions,st_instructions,ld_conflicts,st_conflicts

With --check it asserts what the lesson claims, kernel by kernel: wavefronts == n * instructions,
where n is the n-way conflict the program prints for that kernel (1 = conflict-free). The counters
are deterministic for these kernels, so the assertion is exact.
With --check and --expect REGEX:ld|st:MIN:MAX (repeatable; MIN or MAX may be empty) it asserts
instead that every kernel whose name matches REGEX has between MIN and MAX load (ld) or store (st)
wavefronts per shared-memory instruction, and that some profiled kernel matches each REGEX. Chapter
07 uses this: at full-GPU scale the counts are not exact multiples (its README says why).

usage: bank_conflicts.py --program PATH [--probe PATH] [--ncu PATH]
                         (--csv FILE | --csv-dir DIR) [--check]
                         [--kernels REGEX] [--program-arg ARG ...] [--name NAME]
                         [--expect REGEX:ld|st:MIN:MAX ...]
  --csv-dir DIR writes DIR/<gpu>/NAME.csv (the committed tables: plots/data); NAME defaults to
  bank_conflicts. --kernels picks the kernels to profile (default: chapter 05's), and
  --program-arg passes arguments to the program (chapter 07 uses --profile).
Exit: 0 pass, 1 fail, 77 skip (no GPU, no ncu, or counters closed to this user: scripts/skips.py says which fail in strict mode).
"""
import argparse
import csv
import re
import subprocess
import sys

from ncu_util import csv_path, parse, profile, skip, start

METRICS = {
    "ld_wavefronts": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "st_wavefronts": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "ld_instructions": "smsp__sass_inst_executed_op_shared_ld.sum",
    "st_instructions": "smsp__sass_inst_executed_op_shared_st.sum",
    "ld_conflicts": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "st_conflicts": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
}
CLAIM = re.compile(r"^(\S+)\s+(PASS|FAIL)\s+ld\s+(\d+)-way, st\s+(\d+)-way$")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--kernels", default="^(rect_)?set")
    p.add_argument("--program-arg", action="append", default=[])
    p.add_argument("--name", default="bank_conflicts")
    p.add_argument("--expect", action="append", default=[])
    o = parse(p)
    expects = []
    for e in o.expect:
        try:
            rx, which, lo, hi = e.rsplit(":", 3)
            assert which in ("ld", "st")
            expects.append((re.compile(rx), which, float(lo) if lo else None, float(hi) if hi else None, e))
        except (ValueError, AssertionError, re.error):
            p.error(f"--expect {e!r}: want REGEX:ld|st:MIN:MAX (MIN or MAX may be empty)")

    setup = start(o)
    if isinstance(setup, int):
        return setup
    slug, ncu = setup

    # The claims: the program's own output names each kernel's n-way conflicts.
    run = subprocess.run([o.program] + o.program_arg, capture_output=True, text=True)
    if run.returncode == 77:
        return skip(run.stderr.strip())
    if run.returncode != 0:
        print(run.stdout + run.stderr)
        print(f"FAIL: {o.program} exited {run.returncode}")
        return 1
    claims = {}
    for line in run.stdout.splitlines():
        m = CLAIM.match(line)
        if m:
            claims[m.group(1)] = (int(m.group(3)), int(m.group(4)))

    prof = profile(ncu, [o.program] + o.program_arg, "regex:" + o.kernels, METRICS)
    if isinstance(prof, int):
        return prof
    table = [[name] + [v[k] for k in METRICS] for name, v in prof.kernels]

    out = csv_path(o, slug, o.name)
    with open(out, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["kernel"] + list(METRICS))
        w.writerows(table)
    print(f"wrote {out}")
    print(f"{'kernel':26} {'ld_wf':>6} {'st_wf':>6} {'ld_inst':>7} {'st_inst':>7} {'ld_cf':>6} {'st_cf':>6}  n-way ld/st")
    for r in table:
        ways = "%g/%g" % (r[1] / r[3], r[2] / r[4]) if r[3] and r[4] else "?"
        print(f"{r[0]:26} {r[1]:6} {r[2]:6} {r[3]:7} {r[4]:7} {r[5]:6} {r[6]:6}  {ways}")

    if not o.check:
        return 0
    failures = []
    if expects:
        for rx, which, lo, hi, text in expects:
            rows = [r for r in table if rx.search(r[0])]
            if not rows:
                failures.append(f"--expect {text}: no profiled kernel matches")
            for r in rows:
                wf, inst = (r[1], r[3]) if which == "ld" else (r[2], r[4])
                per = wf / inst if inst else float("nan")
                ok = inst > 0 and (lo is None or per >= lo) and (hi is None or per <= hi)
                print(f"{'ok  ' if ok else 'FAIL'} {r[0]}: {which} wavefronts per instruction {per:.3f} "
                      f"({wf} / {inst}), expected {lo if lo is not None else '-inf'} .. {hi if hi is not None else 'inf'}")
                if not ok:
                    failures.append(f"{r[0]}: {which} wavefronts per instruction {per:.3f} outside --expect {text}")
        for f in failures:
            print("FAIL: " + f)
        print(f"{len(expects)} expectations checked against the counters: "
              f"{'all hold' if not failures else str(len(failures)) + ' failures'}")
        return 1 if failures else 0
    seen = {r[0] for r in table}
    for name in claims:
        if name not in seen:
            failures.append(f"{name}: not profiled")
    for name, ld_wf, st_wf, ld_in, st_in, _, _ in table:
        if name not in claims:
            failures.append(f"{name}: no claim in the program's output")
            continue
        ld_way, st_way = claims[name]
        if ld_in <= 0 or st_in <= 0:
            failures.append(f"{name}: no shared-memory instructions counted")
        if ld_wf != ld_way * ld_in:
            failures.append(f"{name}: load wavefronts {ld_wf} != {ld_way} x {ld_in} instructions")
        if st_wf != st_way * st_in:
            failures.append(f"{name}: store wavefronts {st_wf} != {st_way} x {st_in} instructions")
    for f in failures:
        print("FAIL: " + f)
    print(f"{len(claims)} kernels' claims checked against the counters: "
          f"{'all hold' if not failures else str(len(failures)) + ' failures'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
