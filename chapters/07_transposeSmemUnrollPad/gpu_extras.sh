#!/usr/bin/env bash
# Chapter 07's GPU work beyond --bench: the shared-memory wavefronts of the four shared-memory
# transposes at 4096 x 4096 under Nsight Compute (transpose_smem_wavefronts.csv), and cache_config's
# table (cache configuration and carveout).
# usage: bash chapters/07_transposeSmemUnrollPad/gpu_extras.sh <build_dir> <results_dir> <log_dir>
# Programs are in <build_dir>/bin; CSVs go to <results_dir>/<gpu>/ (the programs' --csv-dir);
# logs to <log_dir>/<name>.log. Exits non-zero when a step fails.
set -uo pipefail
[ $# -eq 3 ] || { echo "usage: $0 <build_dir> <results_dir> <log_dir>" >&2; exit 2; }
build=$1 results=$2 logs=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$results" "$logs"
rc=0
python3 "$root/scripts/bank_conflicts.py" --program "$build/bin/transposeSmemUnrollPad" --program-arg=--profile \
  --kernels '^transposeSmem(Unroll)?(Pad)?$' --name transpose_smem_wavefronts --probe "$build/bin/workbook_probe" \
  --csv-dir "$results" > "$logs/transpose_ncu.log" 2>&1 || rc=1
"$build/bin/cache_config" --bench --csv-dir "$results" > "$logs/cache_config.log" 2>&1 || rc=1
exit $rc
