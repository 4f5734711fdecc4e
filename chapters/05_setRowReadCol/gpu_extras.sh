#!/usr/bin/env bash
# Chapter 05's GPU work beyond --bench:
#  - the shared-memory wavefronts and bank conflicts of the 14 one-block kernels under Nsight Compute
#    (bank_conflicts.csv: the README's proof table, the figure's second bar);
#  - source 003's __syncthreads() in if/else, run plainly and under compute-sanitizer synccheck (a
#    demonstration: the source's kernels' outcome is reported, not judged; only the correct kernel
#    must pass), and the barriers of its machine code, where synccheck's offsets point.
#    timeout guards against a kernel that hangs.
# usage: bash chapters/05_setRowReadCol/gpu_extras.sh <build_dir> <results_dir> <log_dir>
# Programs are in <build_dir>/bin; CSVs go to <results_dir>/<gpu>/ (the programs' --csv-dir);
# logs to <log_dir>/<name>.log. Exits non-zero when a step fails.
set -uo pipefail
[ $# -eq 3 ] || { echo "usage: $0 <build_dir> <results_dir> <log_dir>" >&2; exit 2; }
build=$1 results=$2 logs=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$results" "$logs"
rc=0
python3 "$root/scripts/bank_conflicts.py" --program "$build/bin/setRowReadCol" --probe "$build/bin/workbook_probe" \
  --check --csv-dir "$results" > "$logs/bank_conflicts.log" 2>&1 || rc=1
sanitizer=${COMPUTE_SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
cuobjdump=${CUOBJDUMP:-$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)}
"$build/bin/syncthreads_ifelse" > "$logs/syncthreads_ifelse.log" 2>&1 || rc=1
{ echo "\$ syncthreads_ifelse --kernel all"; timeout 60 "$build/bin/syncthreads_ifelse" --kernel all; echo "exit $?"
  for k in lane warp; do
    echo "\$ compute-sanitizer --tool synccheck --print-limit 4 syncthreads_ifelse --kernel $k"
    timeout 60 "$sanitizer" --tool synccheck --print-limit 4 "$build/bin/syncthreads_ifelse" --kernel $k; echo "exit $?"
  done
  # The machine code synccheck's offsets point into: each function's barriers with their offsets.
  echo "\$ cuobjdump -sass syncthreads_ifelse | grep -E 'arch = |Function : |BAR'"
  "$cuobjdump" -sass "$build/bin/syncthreads_ifelse" | grep -E 'arch = |Function : |BAR'; echo "exit $?"
} > "$logs/syncthreads_ifelse_demo.log" 2>&1
grep -q "ERROR SUMMARY" "$logs/syncthreads_ifelse_demo.log" || rc=1  # the report is the point
exit $rc
