#!/usr/bin/env bash
# Chapter 08's GPU work beyond --bench: the global loads, L1/L2 sectors, DRAM bytes and shared
# wavefronts of every kernel under Nsight Compute, against the text's read counts, into
# <results_dir>/<gpu>/matMul_traffic.csv. Called by scripts/gpu_check.sh:
#   bash chapters/08_matMul/gpu_extras.sh <build_dir> <results_dir> <log_dir>
set -uo pipefail
[ $# -eq 3 ] || { echo "usage: $0 <build_dir> <results_dir> <log_dir>" >&2; exit 2; }
build=$1 results=$2 logs=$3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$logs"
python3 "$here/matmul_traffic.py" --program "$build/bin/matMul" --probe "$build/bin/workbook_probe" \
  --csv-dir "$results" > "$logs/matmul_ncu.log" 2>&1
