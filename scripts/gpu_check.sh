#!/usr/bin/env bash
# Everything that needs the GPU, in steps (STEPS, default all of them, in this order):
#   build    configure (strict mode) and build; a build/ left by an earlier call is reused
#            (FRESH=1 starts over)
#   record   re-record the golden files with update_expected (also when RECORD=1)
#   ctest    the full ctest, sanitizer, ncu and sass labels included; strict: a skip fails
#   bench    the workbook run: every chapter's --bench, timing CSVs, figures
#   extras   every chapters/*/gpu_extras.sh <build_dir> <results_dir> <log_dir>: counters and
#            demonstrations that are not tests (chapter 05's and 07's shared-memory wavefronts,
#            06's and 08's global traffic under ncu, 09's race demo under compute-sanitizer)
# After bench or extras, the run's CSVs and logs over the committed plots/data/ go to
# $OUT/res/data/<gpu>/ (the committed layout) and plots/plot_timings.py --update regenerates every
# README table, value and figure from them ($OUT/res/tree/). To take a run: copy res/data/<gpu>/
# into plots/data/<gpu>/ and run `python3 plots/plot_timings.py --update`.
# Everything it produces lands in $OUT/gpu_results.tgz (plus ctest.log beside it): env.txt,
# configure/build logs, ctest.log, workbook.log, expected_outputs/, results/<gpu>/*.csv, plots/.
# Usage on the device machine:  RECORD=1 bash scripts/gpu_check.sh
#                               STEPS="build ctest" bash scripts/gpu_check.sh   (one device call)
#                               STEPS="build bench extras" bash scripts/gpu_check.sh   (the next)
set -uo pipefail
OUT=${OUT:-$PWD/gpu_out}
RES=$OUT/res
mkdir -p "$RES"
cd "$(dirname "$0")/.."

{
  date -u
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv
  nvcc --version | tail -2
  cmake --version | head -1
  for t in compute-sanitizer ncu; do echo "$t: $(command -v $t || ls /usr/local/cuda/bin/$t 2>/dev/null)"; done
  python3 -c 'import matplotlib; print("matplotlib", matplotlib.__version__)' 2>&1 | tail -1
  ls /usr/lib/x86_64-linux-gnu/cmake/GTest 2>/dev/null | head -1 || echo "no GTest"
} > "$RES/env.txt" 2>&1
cat "$RES/env.txt"

STEPS=${STEPS:-build record ctest bench extras}
[ "${RECORD:-0}" = 1 ] || STEPS=${STEPS/record/}
has() { [[ " $STEPS " == *" $1 "* ]]; }
rc=0

# Strict mode: on this machine every test must run; a skip (a broken driver, a missing
# compute-sanitizer or ncu) fails the run and says why.
export WORKBOOK_STRICT=1
if has build; then
  [ "${FRESH:-0}" = 1 ] && rm -rf build
  start=$(date +%s)
  cmake --preset default -DWORKBOOK_STRICT=ON > "$RES/configure.log" 2>&1 || { cat "$RES/configure.log"; exit 1; }
  cmake --build --preset default -j 16 > "$RES/build.log" 2>&1 || { tail -50 "$RES/build.log"; exit 1; }
  echo "build: $(( $(date +%s) - start )) s"
fi

if has record; then
  cmake --build build --target update_expected 2>&1 | tee "$RES/update_expected.log"
  [ "${PIPESTATUS[0]}" = 0 ] || rc=1
  tar czf "$OUT/expected_outputs.tgz" expected_outputs  # back at once, even if a later step runs out of time
fi

if has ctest; then
  # The README's test command's test step (the build above is its configure and build steps).
  start=$(date +%s)
  ctest --preset default -j 12 --timeout 900 > "$RES/ctest.log" 2>&1 || rc=1
  tail -45 "$RES/ctest.log"
  echo "ctest: $(( $(date +%s) - start )) s"
  cp "$RES/ctest.log" "$OUT/ctest.log"
  cp build/ctest-junit.xml "$RES/" 2>/dev/null
fi

if has bench; then
  start=$(date +%s)
  cmake --build build --target workbook > "$RES/workbook.log" 2>&1 || rc=1
  echo "workbook: exit $rc, $(( $(date +%s) - start )) s"
  grep -E "^(FAILED|.*MISMATCH)" "$RES/workbook.log" | head
fi

if has extras; then
  # Each chapter's GPU work that is not a test and not its --bench (Nsight Compute counters,
  # demonstrations) lives in chapters/NN_x/gpu_extras.sh: CSVs into build/results/<gpu>/, logs
  # into $RES. Every chapter that has one is run; a failure is named and fails the run.
  for x in chapters/*/gpu_extras.sh; do
    [ -f "$x" ] || continue
    start=$(date +%s)
    if bash "$x" build build/results "$RES"; then
      echo "extras: $x ok, $(( $(date +%s) - start )) s"
    else
      echo "extras: $x FAILED (exit $?), logs in $RES"; rc=1
    fi
  done
fi

if has bench || has extras; then
  # The committed layout, plots/data/<gpu>/ with its logs/, from this run over the committed
  # files: every README table, value and figure regenerated from it (plots/plot_timings.py
  # --update), so that a CSV the declarations cannot read fails here, on the GPU machine. The
  # tree's READMEs and figures are rewritten; both come back in $RES/tree/.
  rm -rf "$RES/data" && cp -r plots/data "$RES/data"
  for g in build/results/*/; do
    [ -d "$g" ] || continue
    gpu=$(basename "$g"); mkdir -p "$RES/data/$gpu/logs"
    cp "$g"* "$RES/data/$gpu/" 2>/dev/null
    for f in env.txt build.log ctest.log workbook.log update_expected.log race_demo.log bank_conflicts.log \
             transpose_ncu.log reduceInteger_ncu.log matmul_ncu.log; do
      [ -f "$RES/$f" ] && cp "$RES/$f" "$RES/data/$gpu/logs/"
    done
  done
  python=$(cat build/plot_python.txt 2>/dev/null || echo ERROR)
  figures=""; [[ $python == ERROR* ]] && { python=python3; figures=--no-figures; }
  if "$python" plots/plot_timings.py --update $figures --data-dir "$RES/data" > "$RES/tables.log" 2>&1; then
    echo "tables: every README block, value and figure regenerated from this run ($RES/tables.log)"
  else
    echo "tables: plots/plot_timings.py --update FAILED:"; tail -5 "$RES/tables.log"; rc=1
  fi
  mkdir -p "$RES/tree" && cp --parents README.md chapters/*/README.md plots/*.png "$RES/tree/" 2>/dev/null
fi

if [ -n "${EXTRA:-}" ]; then bash -c "$EXTRA" > "$RES/extra.log" 2>&1; tail -40 "$RES/extra.log"; fi

[ -d build/plots ] && cp -r build/plots "$RES/"
cp -r expected_outputs "$RES/"
[ -d build/results ] && cp -r build/results "$RES/"
tar czf "$OUT/gpu_results.tgz" -C "$OUT" res
echo "gpu_check exit $rc"
exit $rc
