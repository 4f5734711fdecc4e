#!/usr/bin/env bash
# Everything that needs the GPU, in steps (STEPS, default all of them, in this order):
#   test_command  the README's test command exactly as written, `cmake --workflow --preset default`,
#            on a fresh build/ (configure, build, every test in parallel; strict mode is on because
#            configure sees the GPU), timed: res/test_command.txt (wall_s=..., the slowest tests,
#            any over 90 s), res/test_command.log, and its ctest output as res/ctest.log
#   build    configure (strict mode) and build; a build/ left by an earlier call is reused
#            (FRESH=1 starts over)
#   record   re-record the golden files with update_expected (also when RECORD=1)
#   ctest    the full ctest through the test preset (parallel, ncu tests alone), sanitizer, ncu and
#            sass labels included; strict: a skip fails. Not needed after test_command, which ran it.
#   serial_vs_parallel  rerun the gpu tests one at a time (ctest -j1) and compare with the parallel
#            run before it (test_command or ctest): every test's result, and every cell of the
#            Nsight Compute CSVs (build/ncu/; only with SERIAL_LABELS='^(gpu|ncu)$', since the ncu
#            tests already run alone in the parallel run): res/serial_vs_parallel.txt
#   old_arch build every program with -DCMAKE_CUDA_ARCHITECTURES=75-virtual (PTX only, compiled by
#            the driver at load) into build-old/ and run each as its golden test does: one line per
#            program in res/old_arch.log, rc=0 with stdout equal to its golden file, or rc=77 (the
#            program refuses an image below its floor); any other outcome fails the step
#   learner_machine  the test command's tests as a learner's machine runs them: with counters closed
#            to the user (a stand-in ncu that answers ERR_NVGPUCTRPERM) and with no ncu and no
#            compute-sanitizer: res/restricted_counters.log, res/without_tools.log (every test must
#            pass or skip; strict mode as configure sets it, tools not required)
#   toolkits the programs of other toolkits' builds carried in TOOLKIT_BINS (default .carry;
#            folders bin-<toolkit>/ with a VERSION file): res/toolkits.log, one line per program
#   bench    the workbook run: every chapter's --bench, timing CSVs, figures (WORKBOOK_ONLY=matMul,...:
#            only those programs, logged to res/workbook_matMul....log, not workbook.log)
#   exercises  every exercise's solution must pass and every wrong answer be rejected
#            (scripts/exercise_modes.sh gpu): res/exercises.log
#   extras   every chapters/*/gpu_extras.sh <build_dir> <results_dir> <log_dir>: counters and
#            demonstrations that are not tests (chapter 05's and 07's shared-memory wavefronts,
#            06's and 08's global traffic under ncu, 09's race demo under compute-sanitizer)
# After bench or extras, the run's CSVs and logs over the committed plots/data/ go to
# $OUT/res/data/<gpu>/ (the committed layout) and plots/plot_timings.py --update regenerates every
# README table, value and figure from them ($OUT/res/tree/). To take a run: copy res/data/<gpu>/
# into plots/data/<gpu>/ and run `python3 plots/plot_timings.py --update`.
# Everything it produces lands in $OUT/gpu_results.tgz (plus ctest.log beside it): env.txt,
# configure/build logs, ctest.log, workbook.log, expected_outputs/, results/<gpu>/*.csv, plots/.
# The steps run in the order above, whatever the order in STEPS. A device call is limited to
# 10 minutes, so split them, on one warm machine (build/ stays between calls):
#   STEPS="test_command" bash scripts/gpu_check.sh                 (fresh build and every test)
#   STEPS="serial_vs_parallel old_arch" bash scripts/gpu_check.sh  (reuses that build/)
#   STEPS="build bench extras" bash scripts/gpu_check.sh
# To re-record golden files first: RECORD=1 STEPS="build record ctest" bash scripts/gpu_check.sh
# Also in $OUT/res: test_command.txt, serial_vs_parallel.txt and old_arch.log, which go to
# plots/data/<gpu>/logs/ beside ctest.log.
set -uo pipefail
OUT=${OUT:-$PWD/gpu_out}
RES=$OUT/res
mkdir -p "$RES"
cd "$(dirname "$0")/.."

{
  date -u
  grep -E '^PRETTY_NAME=' /etc/os-release 2>/dev/null
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv
  nvcc --version | tail -2
  cmake --version | head -1
  for t in compute-sanitizer ncu; do echo "$t: $(command -v $t || ls /usr/local/cuda/bin/$t 2>/dev/null)"; done
  python3 -c 'import matplotlib; print("matplotlib", matplotlib.__version__)' 2>&1 | tail -1
  ls /usr/lib/x86_64-linux-gnu/cmake/GTest 2>/dev/null | head -1 || echo "no GTest"
  echo "ninja $(ninja --version 2>/dev/null || echo 'not found')"; echo "cores $(nproc)"
} > "$RES/env.txt" 2>&1
cat "$RES/env.txt"

STEPS=${STEPS:-test_command record serial_vs_parallel old_arch learner_machine bench extras exercises}
[ "${RECORD:-0}" = 1 ] || STEPS=${STEPS/record/}
has() { [[ " $STEPS " == *" $1 "* ]]; }
rc=0

# Strict mode, tools required: on this machine every test must run; a skip (a broken driver, a
# missing compute-sanitizer or ncu, counters closed to this user) fails the run and says why. Only an
# exercise not attempted and the browser test without Chromium may skip (scripts/skips.py).
export WORKBOOK_STRICT=1 WORKBOOK_REQUIRE_TOOLS=1

# The slowest tests of a ctest log, and how many ran over 90 s (the limit for an H100).
slow_tests() {
  python3 - "$1" <<'PY'
import re, sys
rows = re.findall(r"Test\s+#\d+: (\S+) \.+\s*\S.*?\s([\d.]+) sec", open(sys.argv[1], errors="replace").read())
rows = sorted(((float(t), n) for n, t in rows), reverse=True)
print("over_90s=" + str(sum(t > 90 for t, _ in rows)) + ("" if not rows else " (" + ", ".join(n for t, n in rows if t > 90) + ")"))
for t, n in rows[:8]:
    print(f"slowest: {n} {t:.2f} s")
PY
}

if has test_command; then
  # Exactly the README's command, on a fresh build/ (the copy on the device has no build yet or a
  # stale one: both are removed). Its ctest output becomes ctest.log.
  rm -rf build
  start=$(date +%s.%N)
  cmake --workflow --preset default > "$RES/test_command.log" 2>&1
  tc_rc=$?
  end=$(date +%s.%N)
  [ $tc_rc = 0 ] || rc=1
  {
    echo "command=cmake --workflow --preset default"
    echo "wall_s=$(python3 -c "print(round($end - $start, 1))")"
    echo "exit=$tc_rc"
    echo "cores=$(nproc)"
    echo "gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
    grep -E "tests passed|Total Test time" "$RES/test_command.log"
    slow_tests "$RES/test_command.log"
  } > "$RES/test_command.txt"
  cat "$RES/test_command.txt"
  # The test step's part of the log, for plots/data/<gpu>/logs/ctest.log.
  sed -n '/^Test project/,$p' "$RES/test_command.log" > "$RES/ctest.log"
  cp "$RES/ctest.log" "$OUT/ctest.log"
  cp build/ctest-junit.xml "$RES/" 2>/dev/null
fi

if has build; then
  [ "${FRESH:-0}" = 1 ] && rm -rf build
  start=$(date +%s)
  cmake --preset default -DWORKBOOK_STRICT=ON > "$RES/configure.log" 2>&1 || { cat "$RES/configure.log"; exit 1; }
  cmake --build --preset default > "$RES/build.log" 2>&1 || { tail -50 "$RES/build.log"; exit 1; }
  echo "build: $(( $(date +%s) - start )) s"
fi

if has record; then
  cmake --build build --target update_expected 2>&1 | tee "$RES/update_expected.log"
  [ "${PIPESTATUS[0]}" = 0 ] || rc=1
  tar czf "$OUT/expected_outputs.tgz" expected_outputs  # back at once, even if a later step runs out of time
fi

if has ctest; then
  # The README's test command's test step (the build above is its configure and build steps):
  # parallel by the test preset's resource spec (one slot per core), ncu tests alone.
  start=$(date +%s)
  ctest --preset default > "$RES/ctest.log" 2>&1 || rc=1
  tail -45 "$RES/ctest.log"
  echo "ctest: $(( $(date +%s) - start )) s"
  slow_tests "$RES/ctest.log"
  cp "$RES/ctest.log" "$OUT/ctest.log"
  cp build/ctest-junit.xml "$RES/" 2>/dev/null
fi

if has serial_vs_parallel; then
  # The parallel run's results: its JUnit file and the ncu CSVs (each ncu test rewrites its CSV).
  rm -rf "$RES/ncu_parallel" "$RES/ncu_serial"
  cp -r build/ncu "$RES/ncu_parallel" 2>/dev/null || mkdir -p "$RES/ncu_parallel"
  cp build/ctest-junit.xml "$RES/parallel-junit.xml" 2>/dev/null
  start=$(date +%s)
  # The gpu tests only: the ncu tests already run alone in the parallel run (RUN_SERIAL), so a serial
  # rerun of them would compare two runs made the same way. SERIAL_LABELS='^(gpu|ncu)$' reruns both.
  # The exercises are left out: in the learner's build they are skipped (not attempted).
  ctest --test-dir build -L "${SERIAL_LABELS:-^gpu$}" -LE '^exercise$' -j 1 --output-on-failure --output-junit "$RES/serial-junit.xml" \
    > "$RES/ctest_serial.log" 2>&1 || rc=1
  echo "serial gpu+ncu tests: $(( $(date +%s) - start )) s"
  cp -r build/ncu "$RES/ncu_serial" 2>/dev/null || mkdir -p "$RES/ncu_serial"
  python3 scripts/compare_runs.py --parallel-junit "$RES/parallel-junit.xml" --serial-junit "$RES/serial-junit.xml" \
    --parallel-csv "$RES/ncu_parallel" --serial-csv "$RES/ncu_serial" > "$RES/serial_vs_parallel.txt" 2>&1 || rc=1
  cat "$RES/serial_vs_parallel.txt"
fi

if has old_arch; then
  # A PTX-only build for compute_75: kernels whose code needs a newer GPU are compiled out of it, and
  # the driver JIT-compiles it for this GPU. Each program must print its golden output or exit 77.
  start=$(date +%s)
  { cmake -S . -B build-old -G Ninja -DCMAKE_CUDA_ARCHITECTURES=75-virtual -DWORKBOOK_STRICT=OFF &&
    cmake --build build-old --target programs; } > "$RES/old_arch_build.log" 2>&1
  if [ $? != 0 ]; then
    tail -40 "$RES/old_arch_build.log"; echo "old_arch: build FAILED" | tee "$RES/old_arch.log"; rc=1
  else
    python3 scripts/compare_runs.py --old-arch build-old/workbook_manifest.json --expected expected_outputs \
      > "$RES/old_arch.log" 2>&1 || rc=1
    cat "$RES/old_arch.log"
  fi
  echo "old_arch: $(( $(date +%s) - start )) s"
fi

if has learner_machine; then
  # What the test command prints on a learner's machine (README, "What your machine needs"), on
  # the build of test_command or build: (1) counters closed to the user, as the Linux and WSL
  # drivers keep them by default: configured with tests/standins/ncu_restricted as ncu, which
  # answers ERR_NVGPUCTRPERM; (2) a toolkit without Nsight Compute and compute-sanitizer: configured
  # with the folders where configure finds them hidden (CMAKE_IGNORE_PATH). Strict mode as configure
  # sets it (a GPU is seen), without WORKBOOK_REQUIRE_TOOLS: the learner's view. Every test must pass
  # or skip; the logs end with the skips by cause. The build is configured back as it was after.
  ( unset WORKBOOK_REQUIRE_TOOLS
    cmake --preset default -DWORKBOOK_NCU="$PWD/tests/standins/ncu_restricted" > "$RES/learner_configure.log" 2>&1
    ctest --preset default > "$RES/restricted_counters.log" 2>&1 || echo "restricted counters: ctest FAILED"
    hidden=""
    for i in 1 2 3 4; do
      cmake --preset default -UWORKBOOK_NCU -UWORKBOOK_COMPUTE_SANITIZER -DCMAKE_IGNORE_PATH="$hidden" \
        >> "$RES/learner_configure.log" 2>&1
      more=$(grep -E '^WORKBOOK_(NCU|COMPUTE_SANITIZER):FILEPATH=.+' build/CMakeCache.txt | sed 's/.*=//' | grep -v NOTFOUND | xargs -r -n1 dirname)
      [ -z "$more" ] && break
      hidden=$(printf '%s\n%s\n' "$hidden" "$more" | grep -v '^$' | sort -u | paste -sd';')
    done
    echo "hidden from configure: $hidden" > "$RES/without_tools.log"
    grep -E '^WORKBOOK_(NCU|COMPUTE_SANITIZER):' build/CMakeCache.txt >> "$RES/without_tools.log"
    ctest --preset default >> "$RES/without_tools.log" 2>&1 || echo "without tools: ctest FAILED"
    cmake --preset default -UWORKBOOK_NCU -UWORKBOOK_COMPUTE_SANITIZER -UCMAKE_IGNORE_PATH >> "$RES/learner_configure.log" 2>&1
  ) | tee "$RES/learner_machine.txt"
  grep -q FAILED "$RES/learner_machine.txt" && rc=1
  for f in restricted_counters without_tools; do
    echo "== $f"; grep -E "tests passed|^Skipped tests by cause|^ +[0-9]+  " "$RES/$f.log"
  done
fi

if has toolkits; then
  # The programs of other toolkits' builds (CUDA 12.4 in a Debian 13 root, the newest 13.x from PyPI),
  # built on a machine without a GPU and carried here in TOOLKIT_BINS (a folder of bin-<toolkit>/
  # folders): each must print its golden file; one that needs a library this machine lacks is named.
  # The shared libraries they link (cuBLAS) come from this machine's toolkit where it has them: its
  # lib64 goes on LD_LIBRARY_PATH, and the log names the cuBLAS each build's matMul resolves to.
  cudalib=$(dirname "$(dirname "$(readlink -f "$(command -v nvcc)")")")/lib64
  for d in "${TOOLKIT_BINS:-.carry}"/bin-*; do
    [ -d "$d" ] || { echo "toolkits: no bin-* folder in ${TOOLKIT_BINS:-.carry}"; rc=1; break; }
    t=${d##*/bin-}
    { echo "== CUDA $t build ($(cat "$d/VERSION" 2>/dev/null || echo 'version not recorded'))"
      echo "on $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1); LD_LIBRARY_PATH adds $cudalib;" \
           "matMul's cuBLAS: $(LD_LIBRARY_PATH="$cudalib:${LD_LIBRARY_PATH:-}" ldd "$d/matMul" | grep -o 'libcublas\.so[^ ]* => [^ ]*' | head -1)"
      LD_LIBRARY_PATH="$cudalib:${LD_LIBRARY_PATH:-}" python3 scripts/compare_runs.py --programs "$d" --expected expected_outputs
    } >> "$RES/toolkits.log" 2>&1 || rc=1
  done
  cat "$RES/toolkits.log"
fi

if has bench; then
  start=$(date +%s)
  wlog=workbook.log  # a run of some chapters only keeps its own log beside the whole run's
  [ -n "${WORKBOOK_ONLY:-}" ] && wlog=workbook_${WORKBOOK_ONLY//,/_}.log
  cmake --build build --target workbook > "$RES/$wlog" 2>&1 || rc=1
  echo "workbook: exit $rc, $(( $(date +%s) - start )) s"
  grep -E "^(FAILED|.*MISMATCH)" "$RES/$wlog" | head
fi

if has extras; then
  # Each chapter's GPU work that is not a test and not its --bench (Nsight Compute counters,
  # demonstrations) lives in chapters/NN_x/gpu_extras.sh: CSVs into build/results/<gpu>/, logs
  # into $RES. Every chapter that has one is run; a failure is named and fails the run.
  # EXTRAS="04 08" runs only those chapters' (default: every chapter's).
  for x in chapters/*/gpu_extras.sh; do
    [ -f "$x" ] || continue
    if [ -n "${EXTRAS:-}" ]; then
      ch=$(basename "$(dirname "$x")"); [[ " $EXTRAS " == *" ${ch%%_*} "* ]] || continue
    fi
    start=$(date +%s)
    if bash "$x" build build/results "$RES"; then
      echo "extras: $x ok, $(( $(date +%s) - start )) s"
    else
      echo "extras: $x FAILED (exit $?), logs in $RES"; rc=1
    fi
  done
fi

if has exercises; then
  # The proof that every exercise checker works: the solutions build must pass every check and the
  # wrong-answers build must be rejected by some check in every run (scripts/exercise_modes.sh),
  # strict. Writes build/results/<gpu>/logs/exercises.log.
  start=$(date +%s)
  bash scripts/exercise_modes.sh gpu build/results > "$RES/exercise_modes.log" 2>&1 || rc=1
  tail -30 "$RES/exercise_modes.log"
  for g in build/results/*/logs/exercises.log; do [ -f "$g" ] && cp "$g" "$RES/exercises.log"; done
  echo "exercises: $(( $(date +%s) - start )) s"
fi

if has bench || has extras || has exercises; then
  # The committed layout, plots/data/<gpu>/ with its logs/, from this run over the committed
  # files: every README table, value and figure regenerated from it (plots/plot_timings.py
  # --update), so that a CSV the declarations cannot read fails here, on the GPU machine. The
  # tree's READMEs and figures are rewritten; both come back in $RES/tree/.
  rm -rf "$RES/data" && cp -r plots/data "$RES/data"
  for g in build/results/*/; do
    [ -d "$g" ] || continue
    gpu=$(basename "$g"); mkdir -p "$RES/data/$gpu/logs"
    cp "$g"* "$RES/data/$gpu/" 2>/dev/null
    # Every log and record of this run (ctest, the test command, the extras' logs, old_arch, ...).
    for f in "$RES"/*.log "$RES"/*.txt; do
      [ -f "$f" ] && cp "$f" "$RES/data/$gpu/logs/"
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
