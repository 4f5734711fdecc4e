#!/usr/bin/env bash
# Chapter 06's GPU work beyond --bench: the global load and store sectors and requests of every
# reduction kernel under Nsight Compute, against the source's table, into
# <results_dir>/<gpu>/reduceInteger_transactions.csv. Called by scripts/gpu_check.sh:
#   bash chapters/06_reduceInteger/gpu_extras.sh <build_dir> <results_dir> <log_dir>
set -uo pipefail
[ $# -eq 3 ] || { echo "usage: $0 <build_dir> <results_dir> <log_dir>" >&2; exit 2; }
build=$1 results=$2 logs=$3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$logs"
python3 "$here/gmem_transactions.py" --program "$build/bin/reduceInteger" --probe "$build/bin/workbook_probe" \
  --csv-dir "$results" > "$logs/reduceInteger_ncu.log" 2>&1
