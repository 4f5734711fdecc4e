#!/usr/bin/env bash
# Chapter 09's GPU work beyond --bench: the source's racy stencil (stencil_1d_race_demo.cu) under
# racecheck, synccheck and memcheck; the README quotes <log_dir>/race_demo.log. Its reports are
# the point, so the sanitizers' own exit codes do not fail this script; a build failure does.
# Called by scripts/gpu_check.sh:
#   bash chapters/09_stencil_1d/gpu_extras.sh <build_dir> <results_dir> <log_dir>
set -uo pipefail
[ $# -eq 3 ] || { echo "usage: $0 <build_dir> <results_dir> <log_dir>" >&2; exit 2; }
build=$1 logs=$3
mkdir -p "$logs"
cmake --build "$build" --target stencil_1d_race_demo_check > "$logs/race_demo.log" 2>&1 || exit 1
grep -q "RACECHECK SUMMARY" "$logs/race_demo.log" || { echo "race_demo.log: racecheck did not run" >&2; exit 1; }
