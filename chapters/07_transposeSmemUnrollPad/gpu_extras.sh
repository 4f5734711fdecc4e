#!/usr/bin/env bash
# Chapter 07's GPU work beyond --bench: the shared-memory wavefronts of the four shared-memory
# transposes at 4096 x 4096 under Nsight Compute, into
# <results_dir>/<gpu>/transpose_smem_wavefronts.csv. Called by scripts/gpu_check.sh:
#   bash chapters/07_transposeSmemUnrollPad/gpu_extras.sh <build_dir> <results_dir> <log_dir>
set -uo pipefail
[ $# -eq 3 ] || { echo "usage: $0 <build_dir> <results_dir> <log_dir>" >&2; exit 2; }
build=$1 results=$2 logs=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$logs"
python3 "$root/scripts/bank_conflicts.py" --program "$build/bin/transposeSmemUnrollPad" --program-arg=--profile \
  --kernels '^transposeSmem(Unroll)?(Pad)?$' --name transpose_smem_wavefronts --probe "$build/bin/workbook_probe" \
  --csv-dir "$results" > "$logs/transpose_ncu.log" 2>&1
