#!/usr/bin/env python3
"""sgemm_ncu.py: what holds our best SGEMM back, next to cuBLAS's own kernel, in Nsight Compute.

Runs `matMul --profile` (one checked launch of each kernel at 4096^3) under ncu for
sgemmDoubleBuffer, sgemmAsync, sgemmTuned, sgemmWarpSpecialized, sgemmSetMaxNReg and the kernel that
cublasSgemm launches, with the same sections and metrics for each: issue-slot use, FMA-pipe use,
instructions, shared-memory loads, wavefronts and bank conflicts, and the warp stall reasons (warps
stalled per issued instruction).
Writes one row per kernel (sgemm_ncu.csv); the raw ncu CSV beside it (--raw FILE) if asked.

usage: sgemm_ncu.py --program PATH [--probe PATH] [--ncu PATH] (--csv FILE | --csv-dir DIR) [--raw FILE]
       sgemm_ncu.py --from-details NCU_CSV (--csv FILE | --csv-dir DIR --gpu SLUG)
  --from-details reads an ncu `--csv --page details` output of that same command instead of
  running ncu (e.g. to rebuild a table from a raw output kept with --raw).
Exit: 0 pass, 1 fail, 77 skip (no GPU, or no ncu; with WORKBOOK_STRICT=1 a skip fails instead).
"""
import argparse
import csv
import io
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from ncu_util import skip, start  # noqa: E402  (scripts/ncu_util.py)

KERNELS = "regex:sgemmDoubleBuffer|sgemmAsync|sgemmTuned|sgemmWarpSpecialized|sgemmSetMaxNReg|xmma|gemm_|sgemm_"
SECTIONS = ["SpeedOfLight", "WarpStateStats", "SchedulerStats", "Occupancy", "LaunchStats"]
STALL = "smsp__average_warps_issue_stalled_{}_per_issue_active.ratio"
STALLS = ["barrier", "dispatch_stall", "short_scoreboard", "long_scoreboard", "mio_throttle", "math_pipe_throttle",
          "wait", "lg_throttle", "no_instruction", "branch_resolving", "drain", "misc", "not_selected", "selected"]
METRICS = ["smsp__inst_executed.sum", "smsp__inst_executed_pipe_fma.sum", "smsp__inst_executed_pipe_lsu.sum",
           "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
           "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "smsp__sass_inst_executed_op_shared_ld.sum",
           "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum", "sm__cycles_elapsed.avg",
           "smsp__issue_active.avg.pct_of_peak_sustained_active",
           "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active"] + [STALL.format(s) for s in STALLS]

# output column: (section or "", metric name as ncu's details page prints it)
COLUMNS = [
    ("duration_ns", "GPU Speed Of Light Throughput", "Duration"),
    ("sm_hz", "GPU Speed Of Light Throughput", "SM Frequency"),
    ("block_size", "Launch Statistics", "Block Size"),
    ("grid_size", "Launch Statistics", "Grid Size"),
    ("registers", "Launch Statistics", "Registers Per Thread"),
    ("dynamic_smem_bytes", "Launch Statistics", "Dynamic Shared Memory Per Block"),
    ("warps_per_sm", "Occupancy", "Achieved Active Warps Per SM"),
    ("issue_active_pct", "", "smsp__issue_active.avg.pct_of_peak_sustained_active"),
    ("fma_pipe_active_pct", "", "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active"),
    ("warp_cycles_per_issue", "Warp State Statistics", "Warp Cycles Per Issued Instruction"),
    ("eligible_warps_per_scheduler", "Scheduler Statistics", "Eligible Warps Per Scheduler"),
    ("inst_executed", "", "smsp__inst_executed.sum"),
    ("inst_fma_pipe", "", "smsp__inst_executed_pipe_fma.sum"),
    ("inst_lsu_pipe", "", "smsp__inst_executed_pipe_lsu.sum"),
    ("shared_ld_inst", "", "smsp__sass_inst_executed_op_shared_ld.sum"),
    ("smem_ld_wavefronts", "", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
    ("smem_st_wavefronts", "", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"),
    ("smem_wavefronts", "", "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"),
    ("smem_bank_conflicts", "", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"),
] + [("stall_" + s, "", STALL.format(s)) for s in STALLS]


def label(name):
    m = re.match(r"(?:void )?(\w+)", name)
    base = m.group(1) if m else name
    return base if base.startswith("sgemm") and "xmma" not in base else "cublasSgemm"


def table(details_text):
    lines = details_text.splitlines()
    start_at = next((i for i, l in enumerate(lines) if l.startswith('"ID"')), None)
    if start_at is None:
        raise ValueError("no ncu CSV header (\"ID\", ...) in the details output")
    rows = list(csv.reader(io.StringIO("\n".join(lines[start_at:]))))
    h = rows[0]
    kc, sc, mc, vc = (h.index(x) for x in ("Kernel Name", "Section Name", "Metric Name", "Metric Value"))
    kernels, values = [], {}
    for r in rows[1:]:
        if len(r) <= vc or not r[mc]:
            continue
        if r[kc] not in kernels:
            kernels.append(r[kc])
        values[(r[kc], r[sc], r[mc])] = r[vc].replace(",", "")
        values[(r[kc], "", r[mc])] = r[vc].replace(",", "")
    out = []
    for k in kernels:
        row = {"kernel": label(k), "ncu_name": re.sub(r"\(.*", "", k)}
        for col, sec, metric in COLUMNS:
            v = values.get((k, sec, metric))
            if v is None:
                raise ValueError(f"{k}: ncu reported no {sec} / {metric}")
            row[col] = v
        out.append(row)
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--program")
    p.add_argument("--probe")
    p.add_argument("--ncu", default=None,
                   help="the ncu to use (default: the one on PATH); given empty there is none")
    p.add_argument("--csv")
    p.add_argument("--csv-dir")
    p.add_argument("--gpu", help="with --from-details: the <gpu> folder under --csv-dir")
    p.add_argument("--raw", help="also keep ncu's details CSV here")
    p.add_argument("--from-details")
    o = p.parse_args()
    if not o.csv and not o.csv_dir:
        p.error("give --csv FILE or --csv-dir DIR")
    if o.from_details:
        text = open(o.from_details).read()
        slug = o.gpu or "gpu"
    else:
        if not o.program:
            p.error("give --program (or --from-details)")
        o.check = False
        setup = start(o)
        if isinstance(setup, int):
            return setup
        slug, ncu = setup
        cmd = [ncu, "--kernel-name", KERNELS, "--metrics", ",".join(METRICS), "--csv", "--page", "details"]
        for s in SECTIONS:
            cmd += ["--section", s]
        prof = subprocess.run(cmd + [o.program, "--profile"], capture_output=True, text=True)
        if prof.returncode == 77 or "SKIP:" in prof.stderr:
            return skip(prof.stderr.strip().splitlines()[-1] if prof.stderr.strip() else "the program skipped")
        if prof.returncode != 0:
            print(prof.stdout[-3000:] + prof.stderr[-3000:])
            print(f"FAIL: ncu (or matMul under it) exited {prof.returncode}")
            return 1
        text = prof.stdout
        if o.raw:
            with open(o.raw, "w") as f:
                f.write(text)
    try:
        rows = table(text)
    except ValueError as e:
        print("FAIL: " + str(e))
        return 1
    if not any(r["kernel"] == "cublasSgemm" for r in rows) or not any(r["kernel"] == "sgemmTuned" for r in rows):
        print("FAIL: the profile lacks sgemmTuned or cuBLAS's kernel: " + ", ".join(r["ncu_name"] for r in rows))
        return 1
    out = o.csv or os.path.join(o.csv_dir, slug, "sgemm_ncu.csv")
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    with open(out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["kernel", "ncu_name"] + [c for c, _, _ in COLUMNS], lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    print(f"wrote {out}")
    for r in rows:
        print(f"{r['kernel']:18} issue {float(r['issue_active_pct']):5.1f}%  fma pipe {float(r['fma_pipe_active_pct']):5.1f}%  "
              f"barrier {float(r['stall_barrier']):.2f}  dispatch {float(r['stall_dispatch_stall']):.2f}  "
              f"short sb {float(r['stall_short_scoreboard']):.2f}  mio {float(r['stall_mio_throttle']):.2f}  "
              f"smem wf/ld {int(r['smem_ld_wavefronts']) / max(1, int(r['shared_ld_inst'])):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
