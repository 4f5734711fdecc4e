#!/usr/bin/env bash
# Chapter 08's GPU work beyond --bench: the global loads, L1/L2 sectors, DRAM bytes and shared
# wavefronts of every kernel under Nsight Compute, against the text's read counts (matMul_traffic.csv).
# usage: bash chapters/08_matMul/gpu_extras.sh <build_dir> <results_dir> <log_dir>
# Programs are in <build_dir>/bin; CSVs go to <results_dir>/<gpu>/ (the programs' --csv-dir);
# logs to <log_dir>/<name>.log. Exits non-zero when a step fails.
set -uo pipefail
[ $# -eq 3 ] || { echo "usage: $0 <build_dir> <results_dir> <log_dir>" >&2; exit 2; }
build=$1 results=$2 logs=$3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$results" "$logs"
rc=0
python3 "$here/matmul_traffic.py" --program "$build/bin/matMul" --probe "$build/bin/workbook_probe" \
  --csv-dir "$results" > "$logs/matmul_ncu.log" 2>&1 || rc=1
exit $rc
