#!/usr/bin/env bash
# The proof that every exercise checker works: build the exercises twice, once with the reference
# solutions and once with the wrong answers in place of the learner's files
# (-DWORKBOOK_EXERCISES=solutions / wrong, cmake/Exercises.cmake), and judge both with
# `ctest -L exercise`: every solution must pass, every wrong answer must be rejected, every time.
#
#   bash scripts/exercise_modes.sh gpu <results_dir>
#       On a GPU machine (scripts/gpu_check.sh, step `exercises`): strict mode, so a check that
#       cannot run fails. Writes <results_dir>/<gpu>/logs/exercises.log: one line per exercise,
#       "solutions passed (the checks)" and "wrong answer rejected by <check>: <what it saw>".
#   bash scripts/exercise_modes.sh ci
#       Without a GPU (.ci/run): the GPU checks skip; every check that needs no GPU (the SASS
#       rules, the bank model) must run, pass on every solution, and run on every wrong answer.
# Builds in build-ex-solutions/ and build-ex-wrong/ (sm_90 only: the SASS rules read sm_90 code).
set -uo pipefail
cd "$(dirname "$0")/.."
mode=${1:-}
case "$mode" in
  gpu) results=${2:?usage: exercise_modes.sh gpu <results_dir>} ;;
  ci) results="" ;;
  *) echo "usage: exercise_modes.sh gpu <results_dir> | ci" >&2; exit 2 ;;
esac
jobs=$(nproc)
rc=0
summaries=()
# Both variants configure and build at once (half the cores each), then each is judged.
build_variant() {
  local dir=build-ex-$1 logs=build-ex-$1/exercise_logs
  mkdir -p "$logs"
  cmake -S . -B "$dir" -DCMAKE_CUDA_ARCHITECTURES=90 -DWORKBOOK_EXERCISES=$1 \
        $([ "$mode" = gpu ] && echo -DWORKBOOK_STRICT=ON) > "$logs/configure.log" 2>&1 &&
    cmake --build "$dir" --target exercises workbook_probe -j $(( jobs > 1 ? jobs / 2 : 1 )) > "$logs/build.log" 2>&1
}
start=$(date +%s)
build_variant solutions & pid_s=$!
build_variant wrong & pid_w=$!
wait $pid_s; built_solutions=$?
wait $pid_w; built_wrong=$?
echo "exercises: both variants built in $(( $(date +%s) - start )) s"
for variant in solutions wrong; do
  dir=build-ex-$variant
  logs=$dir/exercise_logs  # configure, build and ctest output of this variant
  built=$built_solutions
  [ $variant = wrong ] && built=$built_wrong
  if [ "$built" != 0 ]; then
    tail -40 "$logs/configure.log" "$logs/build.log" 2>/dev/null
    echo "exercises ($variant): the build FAILED"
    rc=1
    continue
  fi
  start=$(date +%s)
  rm -rf "$dir/exercise_results"
  if [ "$mode" = gpu ]; then
    WORKBOOK_STRICT=1 ctest --test-dir "$dir" -L exercise -j 8 --timeout 900 --output-on-failure > "$logs/ctest.log" 2>&1 || rc=1
  else
    ctest --test-dir "$dir" -L exercise -j "$jobs" --timeout 900 --output-on-failure > "$logs/ctest.log" 2>&1 || rc=1
  fi
  grep -E "tests passed|FAILED|\*\*\*Failed|Not Run" "$logs/ctest.log" | head -20
  echo "exercises ($variant): judged in $(( $(date +%s) - start )) s"
  summaries+=("$dir/exercise_results")
done

check=()
[ "$mode" = ci ] && check=(--require-cpu-checks)
if [ "$mode" = gpu ]; then
  gpu=$(build-ex-solutions/bin/workbook_probe 2>/dev/null | awk '{print $NF}')
  log=$results/${gpu:-gpu}/logs/exercises.log
  mkdir -p "$(dirname "$log")"
  {
    echo "# exercises: solutions (-DWORKBOOK_EXERCISES=solutions) and wrong answers (=wrong), strict mode"
    echo "# $(date -u +%Y-%m-%d) $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1), $(nvcc --version | tail -1)"
  } > "$log"
  check=(--log "$log")
fi
for s in "${summaries[@]}"; do
  python3 tests/exercise_check.py summary --results "$s" "${check[@]}" || rc=1
done
[ "$mode" = gpu ] && echo "exercises log: $log"
echo "exercise_modes $mode: exit $rc"
exit $rc
