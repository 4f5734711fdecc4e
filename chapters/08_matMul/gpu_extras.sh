#!/usr/bin/env bash
# Chapter 08's GPU work beyond --bench: the global loads, L1/L2 sectors, DRAM bytes and shared
# wavefronts of each of our kernels (not cuBLAS's) under Nsight Compute, against the text's read
# counts (matMul_traffic.csv);
# the tune (sgemm_tune.csv: step 7's body at the tune's shapes, which ranks sgemmTuned's hand-set
# shapes); steps 8 to 10 each alone beside cuBLAS, 50 runs (matMul_<kernel>_<n>.csv), and step 10
# so with --lane-release (matMul_sgemmSetMaxNReg_laneRelease_<n>.csv); steps 5 and 7 to 10 beside
# cuBLAS's own kernel under the same Nsight Compute counters (sgemm_ncu.csv, raw ncu output in
# <log_dir>/sgemm_ncu_details.csv); and racecheck on steps 9 and 10 alone, step 10 as timed and with
# --lane-release (<log_dir>/matMul_racecheck_step10.log: the summary and first reports of each run).
# usage: bash chapters/08_matMul/gpu_extras.sh <build_dir> <results_dir> <log_dir>
# Programs are in <build_dir>/bin; CSVs go to <results_dir>/<gpu>/ (the programs' --csv-dir);
# logs to <log_dir>/<name>.log. Exits non-zero when a step fails, when the traffic or sgemm_ncu step
# skips (exit 77: no GPU or no ncu), or when a CSV that a run which passed should have written is
# missing; a run alone that skips (exit 77: step 10 is timed only in sm_90a code) is no failure.
set -uo pipefail
[ $# -eq 3 ] || { echo "usage: $0 <build_dir> <results_dir> <log_dir>" >&2; exit 2; }
build=$1 results=$2 logs=$3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$results" "$logs"
rc=0
python3 "$here/matmul_traffic.py" --program "$build/bin/matMul" --probe "$build/bin/workbook_probe" \
  --csv-dir "$results" > "$logs/matmul_ncu.log" 2>&1 || rc=1
"$build/bin/matMul" --tune --csv-dir "$results" > /dev/null 2> "$logs/sgemm_tune.log" || rc=1
slug=$("$build/bin/workbook_probe" 2> /dev/null | awk '{print $NF}')
run() { "$@"; local st=$?; [ $st -eq 0 ] || [ $st -eq 77 ] || rc=1; return $st; }
keep() { if [ -n "$slug" ] && [ -f "$1" ]; then mkdir -p "${2%/*}" && cp "$1" "$2"; else echo "missing $1" >&2; rc=1; fi; }
# Our last three steps, each alone beside cuBLAS, 50 runs each, and step 10 with one arrival per
# consumer thread (--lane-release, which the program writes as matMul_sgemmSetMaxNReg_laneRelease.csv).
for spec in "sgemmTuned sgemm_tuned" "sgemmWarpSpecialized sgemm_warp_specialized" \
            "sgemmSetMaxNReg sgemm_setmaxnreg" "sgemmSetMaxNReg sgemm_setmaxnreg_lane_release --lane-release"; do
  set -- $spec
  k=$1 log=$2 opt=${3:-}
  csv=matMul_$k${opt:+_laneRelease}
  for n in 2048 4096 8192; do
    run "$build/bin/matMul" --bench --kernel $k $opt --n $n --reps 50 --csv-dir "$results/${log}_$n" > /dev/null \
      2> "$logs/${log}_$n.log" && keep "$results/${log}_$n/$slug/$csv.csv" "$results/$slug/${csv}_$n.csv"
    rm -rf "$results/${log}_$n"
  done
done
# racecheck of the lesson run, one kernel at a time: step 9; step 10 as timed, where racecheck reports
# hazards (the README says why; not a failure here); step 10 with --lane-release. The tests
# matMul.racecheck and matMul.racecheck_sgemmSetMaxNReg are what pass or fail; this keeps the record.
cs=$(sed -n 's/^WORKBOOK_COMPUTE_SANITIZER:FILEPATH=//p' "$build/CMakeCache.txt" 2> /dev/null)
if [ -x "$cs" ]; then
  {
    echo "# compute-sanitizer --tool racecheck on matMul's lesson run, one kernel at a time ($("$cs" --version | tail -1));"
    echo "# $("$build/bin/workbook_probe" 2> /dev/null); for each run its exit status, its summary and first reports"
    echo "# (each line cut at 220 characters); the rest of the output is not kept."
    for what in "sgemmWarpSpecialized" "sgemmSetMaxNReg" "sgemmSetMaxNReg --lane-release"; do
      set -- $what
      echo "== compute-sanitizer --tool racecheck --print-limit 3 --kernel-name kns=$1 matMul ${2:-}"
      "$cs" --tool racecheck --print-limit 3 --kernel-name "kns=$1" "$build/bin/matMul" ${2:-} > "$logs/.rc.out" 2>&1
      echo "exit $?"
      grep -E "RACECHECK SUMMARY" "$logs/.rc.out"
      grep -E "Error: Race|and (Read|Write) access" "$logs/.rc.out" | cut -c1-220 | head -4
    done
    rm -f "$logs/.rc.out"
  } > "$logs/matMul_racecheck_step10.log" 2>&1
else
  echo "gpu_extras: no compute-sanitizer in $build/CMakeCache.txt: no racecheck record" >&2
fi
python3 "$here/sgemm_ncu.py" --program "$build/bin/matMul" --probe "$build/bin/workbook_probe" --csv-dir "$results" \
  --raw "$logs/sgemm_ncu_details.csv" > "$logs/sgemm_ncu.log" 2>&1 || rc=1
exit $rc
