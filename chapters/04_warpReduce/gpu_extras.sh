#!/usr/bin/env bash
# Chapter 04's GPU work beyond --bench: shfl_vs_smem's latency and throughput table.
# usage: bash chapters/04_warpReduce/gpu_extras.sh <build_dir> <results_dir> <log_dir>
# Programs are in <build_dir>/bin; CSVs go to <results_dir>/<gpu>/ (the programs' --csv-dir);
# logs to <log_dir>/<name>.log. Exits non-zero when a program fails.
set -uo pipefail
[ $# -eq 3 ] || { echo "usage: $0 <build_dir> <results_dir> <log_dir>" >&2; exit 2; }
build=$1 results=$2 logs=$3
mkdir -p "$results" "$logs"
rc=0
"$build/bin/shfl_vs_smem" --bench --csv-dir "$results" > "$logs/shfl_vs_smem.log" 2>&1 || rc=1
exit $rc
