#!/usr/bin/env bash
# Everything that needs the GPU, in steps (STEPS, default all of them, in this order):
#   build    configure (strict mode) and build; a build/ left by an earlier call is reused
#            (FRESH=1 starts over)
#   record   re-record the golden files with update_expected (also when RECORD=1)
#   ctest    the full ctest, sanitizer, ncu and sass labels included; strict: a skip fails
#   bench    the workbook run: every chapter's --bench, timing CSVs, bank-conflict counters, figures
#   extras   counters and demonstrations that are not tests: the stencil race demo under
#            compute-sanitizer, transpose wavefronts, reduceInteger and matMul global traffic
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
  # Demonstrations and counters that are not tests: the source's racy stencil under the sanitizers,
  # shared-memory wavefronts of the four shared-memory transposes at 4096 x 4096, and the global
  # traffic of the reduction and matrix-multiply kernels against what their texts predict.
  cmake --build build --target stencil_1d_race_demo_check > "$RES/race_demo.log" 2>&1
  python3 scripts/bank_conflicts.py --program build/bin/transposeSmemUnrollPad --program-arg=--profile \
    --kernels '^transposeSmem(Unroll)?(Pad)?$' --name transpose_smem_wavefronts --probe build/bin/workbook_probe \
    --csv-dir build/results > "$RES/transpose_ncu.log" 2>&1 || rc=1
  python3 chapters/06_reduceInteger/gmem_transactions.py --program build/bin/reduceInteger --probe build/bin/workbook_probe \
    --csv-dir build/results > "$RES/reduceInteger_ncu.log" 2>&1 || rc=1
  python3 chapters/08_matMul/matmul_traffic.py --program build/bin/matMul --probe build/bin/workbook_probe \
    --csv-dir build/results > "$RES/matmul_ncu.log" 2>&1 || rc=1
  echo "extras done (rc so far $rc)"
fi

if [ -n "${EXTRA:-}" ]; then bash -c "$EXTRA" > "$RES/extra.log" 2>&1; tail -40 "$RES/extra.log"; fi

[ -d build/plots ] && cp -r build/plots "$RES/"
cp -r expected_outputs "$RES/"
[ -d build/results ] && cp -r build/results "$RES/"
tar czf "$OUT/gpu_results.tgz" -C "$OUT" res
echo "gpu_check exit $rc"
exit $rc
