#!/usr/bin/env python3
"""gmem_transactions.py — chapter 06's claim in hardware counters.

Runs `reduceInteger --profile` (each source kernel once on 2^24 ints, with the book's grids, and ours) under
Nsight Compute and reads, per kernel, the global load and store sectors (32-byte units: what 004's
table calls transactions) and requests (one per warp-wide instruction). It derives the same four
numbers from each kernel's access pattern, warp by warp, and writes both as CSV:
    kernel,grid,block,ld_sectors,ld_requests,st_sectors,st_requests,
    expected_ld_sectors,expected_ld_requests,expected_st_sectors,expected_st_requests,
    source_ld_transactions,source_st_transactions

With --check it asserts, exactly (the counters are deterministic for these kernels):
  * every counter equals the derivation;
  * 004's table: reduceGmem 8,912,896 / 4,325,376, reduceSmem 2,097,152 / 131,072,
    reduceSmemUnroll 2,097,152 / 32,768 (load / store sectors);
  * the lesson's claims: shared memory cuts reduceGmem's loads 4.25x and stores 33x; unrolling
    cuts stores 4x at the same loads; dynamic shared memory changes nothing; the shuffle kernels
    move what their shared-memory twins move; ours (reduceUnrollShflVec, 16-byte loads) reads the
    same sectors in 4x fewer requests, and stores one partial per block of its GPU-sized grid.

usage: gmem_transactions.py --program PATH [--probe PATH] [--ncu PATH] (--csv FILE | --csv-dir DIR) [--check]
  --csv-dir DIR writes DIR/<gpu>/reduceInteger_transactions.csv (the committed tables: plots/data).
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
    "ld_sectors": "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "ld_requests": "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "st_sectors": "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "st_requests": "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "grid": "launch__grid_size",
    "block": "launch__block_size",
}
KERNELS = ["reduceGmem", "reduceSmem", "reduceSmemUnroll", "reduceSmemUnrollDyn", "reduceShfl",
           "reduceSmemUnrollShfl", "reduceUnrollShflVec"]
OURS = "reduceUnrollShflVec"  # its grid fills the GPU once: it is read from the launch
N = 1 << 24
DIM = 128
SECTOR = 32
WORD = 4
# 004's Nsight Compute table ("global load transactions", "global store transactions").
SOURCE = {"reduceGmem": (8912896, 4325376), "reduceSmem": (2097152, 131072),
          "reduceSmemUnroll": (2097152, 32768)}


def warp_access(first_word, lanes=32):
    """(sectors, requests) of one warp-wide 4-byte access to words first_word .. first_word+lanes-1
    of a 512-byte-aligned block: the distinct 32-byte sectors the lanes touch, one request."""
    return len({(first_word + l) * WORD // SECTOR for l in range(lanes)}), 1


def per_block(kernel):
    """Global (ld_sectors, ld_requests, st_sectors, st_requests) of one full block, from the code."""
    ld, st = [], []
    if kernel == "reduceGmem":
        for w in range(2):                       # tid < 64: idata[tid] += idata[tid + 64]
            ld += [warp_access(32 * w), warp_access(32 * w + 64)]
            st += [warp_access(32 * w)]
        for off in (32, 16, 8, 4, 2, 1):         # warp 0: vmem[tid] = vmem[tid] + vmem[tid + off]
            ld += [warp_access(0), warp_access(off)]
            st += [warp_access(0)]
        ld += [warp_access(0, lanes=1)]          # thread 0 reads idata[0] ...
        st += [warp_access(0, lanes=1)]          # ... and writes the block's partial
    else:
        unrolled = "Unroll" in kernel
        for w in range(DIM // 32):               # each warp reads its 32 words (x4 if unrolled)
            for k in range(4 if unrolled else 1):
                ld += [warp_access(k * DIM + 32 * w)]
        st += [warp_access(0, lanes=1)]          # thread 0 writes the block's partial
    total = lambda xs, i: sum(x[i] for x in xs)
    return total(ld, 0), total(ld, 1), total(st, 0), total(st, 1)


def expected(kernel, launched_grid):
    if kernel == OURS:
        # Every uint4 of the input once, a warp's 32 x 16 bytes = 16 sectors in one request; then
        # one partial per block. (2^24 is a whole number of its tiles on any grid: no tail loads.)
        return launched_grid, [N * WORD // SECTOR, N // 4 // 32, launched_grid, launched_grid]
    grid = N // (4 * DIM if "Unroll" in kernel else DIM)
    return grid, [grid * v for v in per_block(kernel)]


def main():
    o = parse(argparse.ArgumentParser())
    setup = start(o)
    if isinstance(setup, int):
        return setup
    slug, ncu = setup

    prof = profile(ncu, [o.program, "--profile"], "regex:^(" + "|".join(KERNELS) + ")$", METRICS)
    if isinstance(prof, int):
        return prof
    measured = {re.sub(r"\(.*$", "", name).strip(): v for name, v in prof.kernels}

    keys = ["ld_sectors", "ld_requests", "st_sectors", "st_requests"]
    table, failures = [], []
    for k in KERNELS:
        if k not in measured:
            failures.append(f"{k}: not profiled")
            continue
        m = measured[k]
        grid, exp = expected(k, m["grid"])
        src = SOURCE.get(k, ("", ""))
        table.append([k, m["grid"], m["block"]] + [m[x] for x in keys] + exp + list(src))
        block = 256 if k == OURS else DIM
        if m["grid"] != grid or m["block"] != block:
            failures.append(f"{k}: launched <<<{m['grid']}, {m['block']}>>>, expected <<<{grid}, {block}>>>")
        for x, e in zip(keys, exp):
            if m[x] != e:
                failures.append(f"{k}: {x} {m[x]:,} != {e:,} derived from the access pattern")
        if k in SOURCE and (m["ld_sectors"], m["st_sectors"]) != SOURCE[k]:
            failures.append(f"{k}: sectors ld {m['ld_sectors']:,} / st {m['st_sectors']:,} differ from 004's "
                            f"{SOURCE[k][0]:,} / {SOURCE[k][1]:,}")

    out = csv_path(o, slug, "reduceInteger_transactions")
    with open(out, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["kernel", "grid", "block"] + keys + ["expected_" + x for x in keys] +
                   ["source_ld_transactions", "source_st_transactions"])
        w.writerows(table)
    print(f"wrote {out}")
    print(f"{'kernel':22} {'grid':>7} {'ld sectors':>11} {'ld req':>9} {'st sectors':>11} {'st req':>9}"
          f"  {'004 ld':>9} {'004 st':>9}")
    for r in table:
        print(f"{r[0]:22} {r[1]:7} {r[3]:11,} {r[4]:9,} {r[5]:11,} {r[6]:9,}  "
              f"{r[11] if r[11] == '' else format(r[11], ','):>9} {r[12] if r[12] == '' else format(r[12], ','):>9}")

    if not o.check:
        return 0
    m = {k: v for k, v in measured.items() if k in KERNELS}
    if len(m) == len(KERNELS):
        g, s, u, dyn = m["reduceGmem"], m["reduceSmem"], m["reduceSmemUnroll"], m["reduceSmemUnrollDyn"]
        claims = [
            ("shared memory cuts loads 68/16 = 4.25x", g["ld_sectors"] * 16 == s["ld_sectors"] * 68),
            ("shared memory cuts stores 33x", g["st_sectors"] == 33 * s["st_sectors"]),
            ("unrolling cuts stores 4x", s["st_sectors"] == 4 * u["st_sectors"]),
            ("unrolling reads the same sectors", s["ld_sectors"] == u["ld_sectors"]),
            ("unrolling: 4x fewer blocks, so 4x fewer store requests", s["st_requests"] == 4 * u["st_requests"]),
            ("dynamic shared memory: the same counts", all(u[x] == dyn[x] for x in keys)),
            ("reduceShfl moves what reduceSmem moves", all(m["reduceShfl"][x] == s[x] for x in keys)),
            ("reduceSmemUnrollShfl moves what reduceSmemUnroll moves",
             all(m["reduceSmemUnrollShfl"][x] == u[x] for x in keys)),
            ("coalesced 4-byte loads: 4 sectors per request", s["ld_sectors"] == 4 * s["ld_requests"]),
            ("16-byte loads (ours): the same sectors, 16 per request",
             m[OURS]["ld_sectors"] == s["ld_sectors"] and m[OURS]["ld_sectors"] == 16 * m[OURS]["ld_requests"]),
        ]
        for what, ok in claims:
            print(f"{'PASS' if ok else 'FAIL'}: {what}")
            if not ok:
                failures.append(what)
    for f in failures:
        print("FAIL: " + f)
    print(f"{len(KERNELS)} kernels' counters checked against their access patterns and 004's table: "
          f"{'all hold' if not failures else str(len(failures)) + ' failures'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
