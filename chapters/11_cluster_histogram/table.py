#!/usr/bin/env python3
"""table.py — chapter 11's per-bin table for one GPU's benchmark CSV, and the chapter's target.

usage: table.py plots/data/h100/cluster_histogram.csv

Prints the table the README quotes (declared in report.py, drawn by plots/plot_timings.py): per bin
count, GB/s of global atomics, CUB, the source's cluster kernel at its best cluster size and the best
of ours, each cell "uniform / source", with the ratio of ours to the faster baseline of the same input
and its share of read_reference. Then checks the chapter's target (the README's "Target"): at every bin count and on both
inputs, the best of ours is at least 2.0x the faster of CUB and global atomics, or at least 0.90x
read_reference where 2.0x would exceed it; and at <= 16384 bins at least 0.90x read_reference.
Exit 0 when the target is met, 1 when not, 2 on a bad table.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "plots"))
sys.path.insert(0, HERE)
import plot_timings  # noqa: E402
import report  # noqa: E402


def main(path):
    gpu_dir, name = os.path.split(os.path.abspath(path))
    q = plot_timings.Query(os.path.dirname(gpu_dir), name, os.path.basename(gpu_dir))
    try:
        lines = report.table_lines(q)
        data, read = report.per_bin(q.rows())
    except (plot_timings.DataError, KeyError, StopIteration, TypeError) as e:
        print(f"table.py: {path}: not a chapter 11 table with a dist column ({e!r})", file=sys.stderr)
        return 2
    print("\n".join(lines))
    failures = []
    for b, cells in data:
        for d in report.DISTS:
            c = cells[d]
            base = max(c["global_atomics"]["gbps"], c["cub_HistogramEven"]["gbps"])
            ratio, pct = c["ours"]["gbps"] / base, c["ours"]["gbps"] / read
            ok = ratio >= 2.0 or (2.0 * base > read and pct >= 0.90)
            if b <= 16384:
                ok = ok and pct >= 0.90
            if not ok:
                failures.append(f"{b} bins, {d}: ours {c['ours']['gbps']:.0f} GB/s = {ratio:.2f}x the faster "
                                f"baseline ({base:.0f}), {100 * pct:.1f}% of read_reference")
    print(f"\nread_reference {read:.0f} GB/s")
    for f in failures:
        print("TARGET MISSED: " + f)
    print("target met at every bin count on both inputs" if not failures else f"{len(failures)} misses")
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
