#!/usr/bin/env python3
"""matmul_traffic.py: chapter 08's read counts, measured with Nsight Compute.

Source 004 says the plain MatMulKernel reads A from global memory B.width times and B A.height
times, and the shared-memory MatMulKernel only B.width / BLOCK_SIZE and A.height / BLOCK_SIZE
times. This runs `matMul --profile` (n x n x n, n = 4096) under ncu and reads, for each kernel:

  warp_loads    global load instructions executed by warps; at n a multiple of 16 all 32 threads
                of every warp take part, so thread_loads = 32 warp_loads: one float each in the
                source's kernels, the loads the text counts
  l1_sectors    32-byte sectors those loads ask of L1: what remains after a warp's 32 loads are
                merged (coalesced) into sectors
  l2_sectors    sectors read from L2 on behalf of L1: what L1's cache does not catch
  dram_bytes    bytes read from device memory: what L2 does not catch
  and, for our kernels' bank story, shared load wavefronts and shared load instructions.

It writes them as CSV (kernel,n,warp_loads,thread_loads,l1_sectors,l2_sectors,dram_bytes,smem_ld_wavefronts,
smem_ld_instructions) and prints each as "times A and B are read": the quantity divided by the
size of A plus B (2 n^2 floats).

With --check it asserts the text's prediction, exactly, for the two source kernels:
  thread_loads = 2 n^3 (A and B each read n times) and 2 n^3 / 16 (n / 16 times), i.e.
  warp_loads = n^3 / 16 and n^3 / 256;
and the coalescing arithmetic for the sectors (16 x 16 blocks: a warp is two rows of 16 threads):
  plain kernel: per k a warp loads A at 2 addresses (2 sectors) and 16 floats of B, the same for
  both rows (64 bytes, 2 sectors): n^2 / 32 warps * n * 4 = n^3 / 8 sectors;
  tiled kernel: per tile a warp loads 2 rows of 16 floats of A and of B (4 + 4 sectors):
  n^2 / 32 warps * n / 16 tiles * 8 = n^3 / 64 sectors.

usage: matmul_traffic.py --program PATH [--probe PATH] [--ncu PATH] (--csv FILE | --csv-dir DIR) [--check]
  --csv-dir DIR writes DIR/<gpu>/matMul_traffic.csv (the committed table: plots/data).
Exit: 0 pass, 1 fail, 77 skip (no GPU, no ncu, or counters closed to this user: scripts/skips.py says which fail in strict mode).
"""
import argparse
import csv
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from ncu_util import csv_path, parse, profile, start  # noqa: E402  (scripts/ncu_util.py)

METRICS = {
    "warp_loads": "smsp__sass_inst_executed_op_global_ld.sum",
    "l1_sectors": "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l2_sectors": "lts__t_sectors_srcunit_tex_op_read.sum",
    "dram_bytes": "dram__bytes_read.sum",
    "smem_ld_wavefronts": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "smem_ld_instructions": "smsp__sass_inst_executed_op_shared_ld.sum",
}
# Counted per thread (predicated-off threads excluded), where this ncu knows it; else thread_loads
# is 32 warp_loads (exact when every lane takes part, as here).
THREAD_LOADS = "smsp__sass_thread_inst_executed_op_global_ld_pred_on.sum"
KERNELS = "regex:MatMulKernel|sgemm[A-Z]"


def label(demangled):
    """gmem::MatMulKernel(gmem::Matrix, ...) -> MatMulKernel_gmem; sgemmVec4<true>(...) -> sgemmVec4."""
    m = re.match(r"(?:void )?(?:(\w+)::)?(\w+)", demangled)
    if not m:
        return demangled
    space, name = m.group(1), m.group(2)
    return f"{name}_{space}" if space else name


def main():
    o = parse(argparse.ArgumentParser())
    setup = start(o)
    if isinstance(setup, int):
        return setup
    slug, ncu = setup

    prof = profile(ncu, [o.program, "--profile"], KERNELS, METRICS, optional={"thread_loads": THREAD_LOADS},
                   ncu_args=["--cache-control", "all"], kernel_base="demangled")
    if isinstance(prof, int):
        return prof
    m = re.search(r"^profile n (\d+)$", prof.stdout, re.M)
    if not m:
        print(prof.stdout[-3000:])
        print("FAIL: matMul --profile did not say its size ('profile n N')")
        return 1
    n = int(m.group(1))
    measured_threads = all("thread_loads" in v for _, v in prof.kernels)
    table = []
    for name, v in prof.kernels:
        values = [v[k] for k in METRICS]
        threads = v["thread_loads"] if "thread_loads" in v else 32 * values[0]
        table.append([label(name), n, values[0], threads] + values[1:])

    out = csv_path(o, slug, "matMul_traffic")
    with open(out, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["kernel", "n", "warp_loads", "thread_loads"] + list(METRICS)[1:])
        w.writerows(table)
    print(f"wrote {out}")
    print("thread_loads: " + ("measured (" + THREAD_LOADS + ")" if measured_threads else "32 x warp_loads"))

    ab_floats = 2 * n * n  # elements of A plus B
    print(f"n = {n}: each quantity as 'times A and B are read' = quantity / (2 n^2 floats)")
    print(f"{'kernel':20} {'thread loads':>14} {'x read':>8} {'L1 sectors':>14} {'x read':>8} "
          f"{'L2 sectors':>13} {'x read':>8} {'DRAM bytes':>14} {'x read':>7} {'smem wf/inst':>12}")
    for name, _, _, tl, l1, l2, dram, wf, si in table:
        print(f"{name:20} {tl:14,} {tl / ab_floats:8.1f} {l1:14,} {l1 * 8 / ab_floats:8.1f} {l2:13,} "
              f"{l2 * 8 / ab_floats:8.2f} {dram:14,} {dram / 4 / ab_floats:7.2f} "
              f"{(wf / si if si else 0):12.2f}")

    if not o.check:
        return 0
    want = {"MatMulKernel_gmem": (n ** 3 // 16, n ** 3 // 8), "MatMulKernel_smem": (n ** 3 // 256, n ** 3 // 64)}
    failures = []
    got = {r[0]: r for r in table}
    for name, (loads, sectors) in want.items():
        if name not in got:
            failures.append(f"{name}: not profiled")
            continue
        r = got[name]
        if r[2] != loads:
            failures.append(f"{name}: {r[2]:,} warp load instructions, the text predicts {loads:,} "
                            f"(A and B read {32 * loads // ab_floats} times each)")
        if r[3] != 32 * loads:
            failures.append(f"{name}: {r[3]:,} thread loads, the text predicts {32 * loads:,}")
        if r[4] != sectors:
            failures.append(f"{name}: {r[4]:,} L1 sectors, the coalescing arithmetic predicts {sectors:,}")
    for f in failures:
        print("FAIL: " + f)
    print(f"source 004's read counts at n = {n} (A read n = {n} times, then n / 16 = {n // 16}): "
          f"{'confirmed by the counters' if not failures else str(len(failures)) + ' failures'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
