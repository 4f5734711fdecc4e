#!/usr/bin/env bash
# Chapter 08's GPU work beyond --bench: the global loads, L1/L2 sectors, DRAM bytes and shared
# wavefronts of every kernel under Nsight Compute, against the text's read counts (matMul_traffic.csv);
# the tile-shape search of sgemmTuned (sgemm_tune.csv); steps 8 to 10 each alone beside cuBLAS, 50 runs
# (matMul_<kernel>_<n>.csv), and step 10 so with --lane-release
# (matMul_sgemmSetMaxNReg_laneRelease_<n>.csv); and steps 5 and 7 to 10 beside cuBLAS's own kernel
# under the same Nsight Compute counters (sgemm_ncu.csv, raw ncu output in <log_dir>/sgemm_ncu_details.csv).
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
"$build/bin/matMul" --tune --csv-dir "$results" > /dev/null 2> "$logs/sgemm_tune.log" || rc=1
slug=$("$build/bin/workbook_probe" 2> /dev/null | awk '{print $NF}')
for k in sgemmTuned sgemmWarpSpecialized sgemmSetMaxNReg; do  # our last three steps, each alone beside cuBLAS, 50 runs each
  case $k in sgemmTuned) log=sgemm_tuned ;; sgemmWarpSpecialized) log=sgemm_warp_specialized ;; *) log=sgemm_setmaxnreg ;; esac
  for n in 2048 4096 8192; do
    "$build/bin/matMul" --bench --kernel $k --n $n --reps 50 --csv-dir "$results/${k}_$n" > /dev/null \
      2> "$logs/${log}_$n.log" || rc=1
    [ -n "$slug" ] && cp "$results/${k}_$n/$slug/matMul_$k.csv" "$results/$slug/matMul_${k}_$n.csv" 2> /dev/null
    rm -rf "$results/${k}_$n"
  done
done
for n in 2048 4096 8192; do  # step 10 with one arrival per consumer thread (--lane-release), alone, 50 runs
  "$build/bin/matMul" --bench --kernel sgemmSetMaxNReg --lane-release --n $n --reps 50 --csv-dir "$results/lane_$n" \
    > /dev/null 2> "$logs/sgemm_setmaxnreg_lane_release_$n.log" || rc=1
  [ -n "$slug" ] && cp "$results/lane_$n/$slug/matMul_sgemmSetMaxNReg_laneRelease.csv" \
    "$results/$slug/matMul_sgemmSetMaxNReg_laneRelease_$n.csv" 2> /dev/null
  rm -rf "$results/lane_$n"
done
python3 "$here/sgemm_ncu.py" --program "$build/bin/matMul" --probe "$build/bin/workbook_probe" --csv-dir "$results" \
  --raw "$logs/sgemm_ncu_details.csv" > "$logs/sgemm_ncu.log" 2>&1 || rc=1
exit $rc
