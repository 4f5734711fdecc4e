#!/usr/bin/env bash
# One device call does everything that needs the GPU:
#   build; (RECORD=1) re-record the golden files; the full ctest, sanitizer label included;
#   the workbook run (every chapter, timing CSVs, bank-conflict counters, figures); the stencil race
#   demo under compute-sanitizer; the transpose wavefront counters.
# Everything it produces lands in $OUT/gpu_results.tgz (plus ctest.log and summary.txt beside it):
#   env.txt, ctest.log, workbook.log, expected_outputs/, results/<gpu>/*.csv
# Usage on the device machine:  RECORD=1 bash scripts/gpu_check.sh
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

# Strict mode: on this machine every test must run; a skip (a broken driver, a missing
# compute-sanitizer or ncu) fails the run and says why.
export WORKBOOK_STRICT=1
rm -rf build
cmake --preset default -DWORKBOOK_STRICT=ON > "$RES/configure.log" 2>&1 || { cat "$RES/configure.log"; exit 1; }
cmake --build --preset default -j 16 > "$RES/build.log" 2>&1 || { tail -50 "$RES/build.log"; exit 1; }

if [ "${RECORD:-0}" = 1 ]; then
  cmake --build build --target update_expected 2>&1 | tee "$RES/update_expected.log"
fi

# The README's test command's test step (the build above is its configure and build steps).
ctest --preset default -j 8 --timeout 900 > "$RES/ctest.log" 2>&1
ctest_rc=$?
tail -40 "$RES/ctest.log"

if [ "${BENCH:-1}" = 1 ]; then
  cmake --build build --target workbook > "$RES/workbook.log" 2>&1
  echo "workbook exit $?"; grep -E "^(kernel|[a-zA-Z_0-9]+ +[0-9]+ )" "$RES/workbook.log" | head -80
fi

# Demonstrations and counters that are not tests: the source's racy stencil under the sanitizers,
# and the shared-memory wavefronts of transposeSmem against transposeSmemPad at 4096 x 4096.
cmake --build build --target stencil_1d_race_demo_check > "$RES/race_demo.log" 2>&1
slug=$(build/bin/workbook_probe | awk '{print $NF}')
python3 scripts/bank_conflicts.py --program build/bin/transposeSmemUnrollPad --program-arg=--profile \
  --kernels '^transposeSmem(Unroll)?(Pad)?$' --name transpose_smem_wavefronts --probe build/bin/workbook_probe \
  --csv-dir build/results > "$RES/transpose_ncu.log" 2>&1
python3 chapters/06_reduceInteger/gmem_transactions.py --program build/bin/reduceInteger --probe build/bin/workbook_probe \
  --csv-dir build/results > "$RES/reduceInteger_ncu.log" 2>&1
python3 chapters/08_matMul/matmul_traffic.py --program build/bin/matMul --probe build/bin/workbook_probe \
  --csv-dir build/results > "$RES/matmul_ncu.log" 2>&1
[ -d build/plots ] && cp -r build/plots "$RES/"

if [ -n "${EXTRA:-}" ]; then bash -c "$EXTRA" > "$RES/extra.log" 2>&1; tail -40 "$RES/extra.log"; fi

cp -r expected_outputs "$RES/"
[ -d build/results ] && cp -r build/results "$RES/"
cp build/ctest-junit.xml "$RES/" 2>/dev/null
cp "$RES/ctest.log" "$OUT/ctest.log"
tar czf "$OUT/gpu_results.tgz" -C "$OUT" res
echo "ctest exit $ctest_rc"
exit $ctest_rc
