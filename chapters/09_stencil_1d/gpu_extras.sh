#!/usr/bin/env bash
# Chapter 09's GPU work beyond --bench: the source's racy stencil (stencil_1d_race_demo.cu) under
# racecheck, synccheck and memcheck (race_demo.log, which the README quotes). The sanitizers'
# reports are the point, so their exit codes do not count (`|| true` in CMakeLists.txt); a failed
# build of stencil_1d_race_demo_check (which exists only where CMake found compute-sanitizer) or a
# log without racecheck's summary does. report.py refuses a log without all three runs' summaries.
# usage: bash chapters/09_stencil_1d/gpu_extras.sh <build_dir> <results_dir> <log_dir>
# Programs are in <build_dir>/bin; CSVs go to <results_dir>/<gpu>/ (the programs' --csv-dir);
# logs to <log_dir>/<name>.log. Exits non-zero when a step fails.
# Also constant_divergence's table (divergence and footprint).
set -uo pipefail
[ $# -eq 3 ] || { echo "usage: $0 <build_dir> <results_dir> <log_dir>" >&2; exit 2; }
build=$1 results=$2 logs=$3
mkdir -p "$results" "$logs"
rc=0
{ cmake --build "$build" --target stencil_1d_race_demo_check > "$logs/race_demo.log" 2>&1 &&
  grep -q "RACECHECK SUMMARY" "$logs/race_demo.log"; } || rc=1

"$build/bin/constant_divergence" --bench --csv-dir "$results" > "$logs/constant_divergence.log" 2>&1 || rc=1
exit $rc
