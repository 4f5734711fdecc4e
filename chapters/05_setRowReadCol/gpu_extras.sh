#!/usr/bin/env bash
# Chapter 05's GPU work beyond --bench: the shared-memory wavefronts and bank conflicts of every
# kernel under Nsight Compute, into <results_dir>/<gpu>/bank_conflicts.csv (the README's proof table
# and the figure's second bar). Called by scripts/gpu_check.sh:
#   bash chapters/05_setRowReadCol/gpu_extras.sh <build_dir> <results_dir> <log_dir>
set -uo pipefail
[ $# -eq 3 ] || { echo "usage: $0 <build_dir> <results_dir> <log_dir>" >&2; exit 2; }
build=$1 results=$2 logs=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$logs"
python3 "$root/scripts/bank_conflicts.py" --program "$build/bin/setRowReadCol" --probe "$build/bin/workbook_probe" \
  --check --csv-dir "$results" > "$logs/bank_conflicts.log" 2>&1
