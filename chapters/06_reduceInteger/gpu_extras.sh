#!/usr/bin/env bash
# Chapter 06's GPU work beyond --bench: the global load and store sectors and requests of the six
# source kernels and ours (not reduceFinal, not the errata kernels) under Nsight Compute, against
# the source's table (reduceInteger_transactions.csv).
# usage: bash chapters/06_reduceInteger/gpu_extras.sh <build_dir> <results_dir> <log_dir>
# Programs are in <build_dir>/bin; CSVs go to <results_dir>/<gpu>/ (the programs' --csv-dir);
# logs to <log_dir>/<name>.log. Exits non-zero when a step fails.
set -uo pipefail
[ $# -eq 3 ] || { echo "usage: $0 <build_dir> <results_dir> <log_dir>" >&2; exit 2; }
build=$1 results=$2 logs=$3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$results" "$logs"
rc=0
python3 "$here/gmem_transactions.py" --program "$build/bin/reduceInteger" --probe "$build/bin/workbook_probe" \
  --csv-dir "$results" > "$logs/reduceInteger_ncu.log" 2>&1 || rc=1
exit $rc
