# cmake/Workbook.cmake — one function registers a chapter with its program and all its tests.
#
# workbook_chapter(<name>
#     SOURCE <file.cu>            the chapter program; its stdout must equal expected_outputs/<name>.txt
#     MODEL  <file.cpp>           host C++ that predicts the same stdout without a GPU
#     [LIBRARIES <lib>...]        e.g. CUDA::cublas
#     [SANITIZE_ARGS <arg>...]    arguments for the compute-sanitizer runs (they should reach every kernel)
#     [BENCH_ARGS <arg>...]       arguments the workbook run adds to write the timing CSV
#     [TAKES_N]                   the program takes --n: also test bad --n values
#     [N_ARGS <arg>...]           arguments that --n needs beside it (e.g. --bench)
#     [MIN_SM <NN> [MIN_SM_WHY <text>]]
#                                 the chapter needs compute capability NN (e.g. 90 for clusters): its
#                                 newer code is guarded at compile time, so it builds for every
#                                 architecture, and on an older GPU the program exits 77 saying
#                                 "<MIN_SM_WHY> need sm_NN; this GPU (...) is sm_MM". It also exits
#                                 77 when the image the runtime picked was compiled for a virtual
#                                 architecture below NN (e.g. a 75-virtual build JIT-compiled on an
#                                 H100), where the guarded code is compiled out (common/check.h).
#                                 Give every chapter with `#if __CUDA_ARCH__ >= ...` code its floor.
#     [SASS <file>]               expectations on the compiled sm_90 machine code (scripts/sass_check.py)
#     [RACECHECK_EXCLUDE <name> [RACECHECK_EXCLUDED_ARGS <arg>...]]
#                                 kernels whose name contains <name> are left out of the racecheck run
#                                 (compute-sanitizer --kernel-name-exclude kns=<name>); the chapter says
#                                 why. With RACECHECK_EXCLUDED_ARGS, a racecheck run of those kernels
#                                 alone (--kernel-name kns=<name>) with these arguments instead
#     [SM90A]                     the program's Hopper code is sm_90a, which has Hopper's
#                                 architecture-specific instructions (setmaxnreg): each 90, 90-real or
#                                 90-virtual of the architecture list ("native" resolved first) becomes
#                                 90a for this program, and its sass test reads sm_90a code
#     [DIAGRAMS <file.cpp>]       host C++ that draws the chapter's pictures from its CPU model:
#                                 `<name>_diagrams OUTDIR` writes OUTDIR/<diagram>.svg (common/svg.h);
#                                 the committed copies are chapters/NN_x/diagrams/*.svg
# )
#
# Tests (labels in brackets):
#   <name>.golden [gpu]            run twice; require exit 0 both times and each stdout ==
#                                  expected_outputs/<name>.txt (diff if not): a golden output that
#                                  changes from run to run fails here
#   <name>.model [cpu]             the CPU model's stdout == the same golden file
#   <name>.sass [sass, cpu]        (with SASS) the sm_90 SASS obeys the rules file, and the README's
#                                  generated SASS block is current (cmake/Sass.cmake)
#   <name>.<tool> [sanitize]       compute-sanitizer memcheck, racecheck, synccheck, initcheck
#   <name>.racecheck_<kernel> [sanitize]  (with RACECHECK_EXCLUDED_ARGS) racecheck of the excluded
#                                  kernels alone, the program run with those arguments
#   <name>.diagrams [cpu]          (with DIAGRAMS) the committed pictures equal what the model draws,
#                                  byte for byte, twice over; each is well-formed SVG with a <title>
#                                  (tests/diagram_check.py; `update_diagrams` rewrites them)
#   <name>.badarg.unknown_flag [cpu]  an unknown flag exits 2 with a message (no GPU needed); the
#                                  generic parsing rules of common/args.h (malformed numbers, options
#                                  given twice, empty values, unwritable folders, ...) are tested
#                                  once, by args.unit (tests/args_test.cpp), not in every chapter
#   <name>.badarg.n_zero [cpu]     (TAKES_N) --n 0 is out of the program's range
#   <name>.badarg.n_too_big [gpu]  (TAKES_N) an --n beyond device memory exits 2
# A chapter adds its Nsight Compute test with workbook_ncu_test() (below).
# Exit code 77 (no GPU, a GPU without what the chapter needs, a tool the machine lacks) is reported as
# skipped, with one line that names the cause and its remedy (scripts/skips.py), and the test
# command ends with the skips grouped by cause (tests/skip_summary.py, run by ctest through
# build/CTestCustom.cmake). Strict mode (WORKBOOK_STRICT, or WORKBOOK_STRICT=1 in the environment of
# ctest) is on by default when configure sees a GPU (nvidia-smi lists one): there a test that would
# skip because the GPU or its driver is unusable fails and says why, so that a machine with a GPU
# and a broken driver does not report "100% tests passed"; what the machine lacks or keeps from
# the user (Nsight Compute, readable counters, compute-sanitizer, a newer GPU, Chromium) stays a
# skip. WORKBOOK_REQUIRE_TOOLS=1 in the environment (scripts/gpu_check.sh) fails those too.
# -DWORKBOOK_STRICT=OFF turns strict mode off.
#
# Parallel tests. ctest runs tests in parallel under the resource spec build/ctest_resources.json,
# written here at configure time with one `cpu` slot per logical core of this machine; every test
# takes one slot (RESOURCE_GROUPS cpu:1, set for every test of a directory at its end), so the test
# preset's large "jobs" is only a cap and the machine's cores decide (CMake 3.25 presets take no
# "as many jobs as cores"). Tests that read hardware counters (label ncu) are RUN_SERIAL: a counter
# such as L2 sectors counts every kernel on the GPU, so nothing else may run beside them (a
# RESOURCE_LOCK would only keep apart the tests that name the same lock). Long tests get a COST
# so that they start first.

get_filename_component(WORKBOOK_ROOT ${CMAKE_CURRENT_LIST_DIR}/.. ABSOLUTE)
set(WORKBOOK_RUNNER ${WORKBOOK_ROOT}/tests/wbtest.py)
set(WORKBOOK_EXPECTED_DIR ${WORKBOOK_ROOT}/expected_outputs)
set(CMAKE_RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)
if(NOT DEFINED WORKBOOK_GPU_SEEN)
  set(WORKBOOK_GPU_SEEN OFF)
endif()
option(WORKBOOK_STRICT "A test that would skip fails instead (default: ON when configure sees a GPU)"
       ${WORKBOOK_GPU_SEEN})
message(STATUS "Workbook: strict mode (a skip for an unusable GPU or driver fails) ${WORKBOOK_STRICT}")

# One cpu slot per logical core: the test preset reads this file (resourceSpecFile).
cmake_host_system_information(RESULT WORKBOOK_CORES QUERY NUMBER_OF_LOGICAL_CORES)
if(NOT WORKBOOK_CORES GREATER 0)
  set(WORKBOOK_CORES 1)
endif()
file(WRITE ${CMAKE_BINARY_DIR}/ctest_resources.json
     "{\"version\": {\"major\": 1, \"minor\": 0},\n \"local\": [{\"cpu\": [{\"id\": \"0\", \"slots\": ${WORKBOOK_CORES}}]}]}\n")
string(REPLACE ";" " " WORKBOOK_ARCHS_TEXT "${CMAKE_CUDA_ARCHITECTURES}")
include(${CMAKE_CURRENT_LIST_DIR}/Sass.cmake)  # workbook_sass_test(): the `sass` tests (SASS option)
include(${CMAKE_CURRENT_LIST_DIR}/Tables.cmake)  # the `readme.tables` test: README tables from the CSVs

# The skips of each ctest run, by cause, printed at its end: ctest reads CTestCustom.cmake from the
# build folder; the pre-test command empties the folder of skip records, the post-test one prints them.
set(_wb_summary "\"${Python3_EXECUTABLE}\" \"${WORKBOOK_ROOT}/tests/skip_summary.py\"")
file(WRITE ${CMAKE_BINARY_DIR}/CTestCustom.cmake
     "set(CTEST_CUSTOM_PRE_TEST [==[${_wb_summary} clear \"${CMAKE_BINARY_DIR}/skips\"]==])\n"
     "set(CTEST_CUSTOM_POST_TEST [==[${_wb_summary} print \"${CMAKE_BINARY_DIR}/skips\"]==])\n")

find_program(WORKBOOK_COMPUTE_SANITIZER compute-sanitizer
             HINTS ${CUDAToolkit_BIN_DIR} ${CUDAToolkit_BIN_DIR}/../compute-sanitizer)
find_program(WORKBOOK_NCU ncu HINTS ${CUDAToolkit_BIN_DIR} ${CUDAToolkit_BIN_DIR}/../nsight-compute)
foreach(_tool COMPUTE_SANITIZER NCU)
  if(NOT WORKBOOK_${_tool})
    set(WORKBOOK_${_tool} "")  # the tests that need it skip, saying so
  endif()
endforeach()
include(${CMAKE_CURRENT_LIST_DIR}/Exercises.cmake)  # workbook_exercise(): chapters/*/exercises/

# At the end of each directory that registers tests through these functions: every test of the
# directory without RESOURCE_GROUPS takes one cpu slot; ncu tests run alone; long tests get a COST
# (seconds, roughly their time on an H100 alone) so that ctest starts them first. ctest keeps the
# measured times in build/Testing/Temporary/CTestCostData.txt and uses those from the second run on.
function(_workbook_directory_resources)
  get_property(tests DIRECTORY PROPERTY TESTS)
  foreach(t IN LISTS tests)
    get_test_property(${t} RESOURCE_GROUPS groups)
    if(NOT groups)
      set_tests_properties(${t} PROPERTIES RESOURCE_GROUPS "cpu:1")
    endif()
    get_test_property(${t} LABELS labels)
    get_test_property(${t} COST cost)
    if(NOT labels)
      set(labels "")
    endif()
    if("ncu" IN_LIST labels)
      set_tests_properties(${t} PROPERTIES RUN_SERIAL ON)
      set(default_cost 60)
    elseif(t MATCHES "\\.racecheck$")
      set(default_cost 30)
    elseif("sanitize" IN_LIST labels)
      set(default_cost 10)
    elseif("gpu" IN_LIST labels)
      set(default_cost 3)
    else()
      set(default_cost 0)
    endif()
    if(NOT cost AND default_cost)
      set_tests_properties(${t} PROPERTIES COST ${default_cost})
    endif()
  endforeach()
endfunction()
function(_workbook_defer_resources)
  get_property(done DIRECTORY PROPERTY WORKBOOK_RESOURCES_DEFERRED)
  if(NOT done)
    set_property(DIRECTORY PROPERTY WORKBOOK_RESOURCES_DEFERRED ON)
    cmake_language(DEFER CALL _workbook_directory_resources)
  endif()
endfunction()

# Every test that can skip goes through this: it maps exit 77 to "skipped", tells the test its name
# and where to record a skip for the run's summary (scripts/skips.py, tests/skip_summary.py), and in
# strict mode tells it (WORKBOOK_STRICT=1) to fail where a skip means an unusable GPU or driver.
function(_workbook_skippable name)
  _workbook_defer_resources()
  set_tests_properties(${name} PROPERTIES SKIP_RETURN_CODE 77)
  set_property(TEST ${name} APPEND PROPERTY ENVIRONMENT
               WORKBOOK_TEST_NAME=${name} WORKBOOK_SKIP_DIR=${CMAKE_BINARY_DIR}/skips)
  if(WORKBOOK_STRICT)
    set_property(TEST ${name} APPEND PROPERTY ENVIRONMENT WORKBOOK_STRICT=1)
  endif()
endfunction()

function(_workbook_test name labels)
  add_test(NAME ${name} COMMAND ${Python3_EXECUTABLE} ${WORKBOOK_RUNNER} ${ARGN})
  set_tests_properties(${name} PROPERTIES LABELS "${labels}" TIMEOUT 900)
  _workbook_skippable(${name})
endfunction()

# An Nsight Compute test (label ncu): `script` (scripts/ncu_util.py's options) profiles `program`
# with --probe, --ncu, --csv build/ncu/<csv>.csv and --check, plus the script's own ARGN. It skips
# without ncu or a GPU (a failure in strict mode).
function(workbook_ncu_test name script program csv)
  add_test(NAME ${name}
    COMMAND ${Python3_EXECUTABLE} ${script} --program $<TARGET_FILE:${program}>
            --probe $<TARGET_FILE:workbook_probe> "--ncu=${WORKBOOK_NCU}"
            --csv ${CMAKE_BINARY_DIR}/ncu/${csv}.csv --check ${ARGN})
  set_tests_properties(${name} PROPERTIES LABELS ncu TIMEOUT 600)
  _workbook_skippable(${name})
endfunction()

function(workbook_chapter name)
  cmake_parse_arguments(PARSE_ARGV 1 WB "TAKES_N;SM90A" "SOURCE;MODEL;MIN_SM;MIN_SM_WHY;SASS;DIAGRAMS;RACECHECK_EXCLUDE"
                        "LIBRARIES;SANITIZE_ARGS;BENCH_ARGS;N_ARGS;RACECHECK_EXCLUDED_ARGS")
  set(expected ${WORKBOOK_EXPECTED_DIR}/${name}.txt)

  add_executable(${name} ${WB_SOURCE})
  target_include_directories(${name} PRIVATE ${WORKBOOK_ROOT}/common ${CMAKE_CURRENT_SOURCE_DIR})
  target_compile_options(${name} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo -Xcompiler=-Wall>)
  target_link_libraries(${name} PRIVATE ${WB_LIBRARIES})
  set(sass_arch 90)
  if(WB_SM90A)
    set(archs ${CMAKE_CUDA_ARCHITECTURES})
    if("native" IN_LIST archs)  # CMake 3.24+ resolves native (on an H100: 90-real)
      list(REMOVE_ITEM archs native)
      list(APPEND archs ${CMAKE_CUDA_ARCHITECTURES_NATIVE})
    endif()
    set(archs_a "")
    foreach(a IN LISTS archs)
      if(a MATCHES "^90(-real|-virtual)?$")
        string(REPLACE "90" "90a" a "${a}")
      endif()
      list(APPEND archs_a ${a})
    endforeach()
    set_target_properties(${name} PROPERTIES CUDA_ARCHITECTURES "${archs_a}")
    set(sass_arch 90a)
  endif()
  if(NOT WB_MIN_SM)
    set(WB_MIN_SM 0)
  endif()
  target_compile_definitions(${name} PRIVATE WB_MIN_SM=${WB_MIN_SM} "WB_CUDA_ARCHS=\"${WORKBOOK_ARCHS_TEXT}\"")
  if(WB_MIN_SM_WHY)
    target_compile_definitions(${name} PRIVATE "WB_MIN_SM_WHY=\"${WB_MIN_SM_WHY}\"")
  endif()

  add_executable(${name}_model ${WB_MODEL})
  target_include_directories(${name}_model PRIVATE ${WORKBOOK_ROOT}/common ${CMAKE_CURRENT_SOURCE_DIR})
  target_compile_options(${name}_model PRIVATE -Wall -Wextra)

  set(prog $<TARGET_FILE:${name}>)
  set(probe $<TARGET_FILE:workbook_probe>)
  _workbook_test(${name}.golden gpu golden --runs 2 --expected ${expected} -- ${prog})
  _workbook_test(${name}.model cpu golden --expected ${expected} -- $<TARGET_FILE:${name}_model>)
  foreach(tool memcheck racecheck synccheck initcheck)
    set(exclude "")
    if(tool STREQUAL "racecheck" AND WB_RACECHECK_EXCLUDE)
      set(exclude "--exclude-kernels=${WB_RACECHECK_EXCLUDE}")
    endif()
    _workbook_test(${name}.${tool} sanitize sanitize --tool ${tool}
                   "--sanitizer=${WORKBOOK_COMPUTE_SANITIZER}" --probe ${probe} ${exclude}
                   -- ${prog} ${WB_SANITIZE_ARGS})
  endforeach()
  if(WB_RACECHECK_EXCLUDED_ARGS)
    _workbook_test(${name}.racecheck_${WB_RACECHECK_EXCLUDE} sanitize sanitize --tool racecheck
                   "--sanitizer=${WORKBOOK_COMPUTE_SANITIZER}" --probe ${probe}
                   "--only-kernels=${WB_RACECHECK_EXCLUDE}" -- ${prog} ${WB_RACECHECK_EXCLUDED_ARGS})
  endif()

  # The parsing rules every program shares are args.unit's (tests/args_test.cpp); here only that
  # this program hands its command line to them, and its own limits.
  _workbook_test(${name}.badarg.unknown_flag cpu
                 exit-code --rc 2 "--stderr=unknown argument '--frobnicate'" -- ${prog} --frobnicate)
  if(WB_TAKES_N)
    _workbook_test(${name}.badarg.n_zero cpu exit-code --rc 2 "--stderr=out of range" -- ${prog} ${WB_N_ARGS} --n 0)
    _workbook_test(${name}.badarg.n_too_big gpu
                   exit-code --rc 2 "--stderr=bytes of device memory" -- ${prog} ${WB_N_ARGS} --n 2^36)
  endif()

  if(WB_SASS AND COMMAND workbook_sass_test)
    workbook_sass_test(${name} ${CMAKE_CURRENT_SOURCE_DIR}/${WB_SASS} ${sass_arch})
  endif()

  if(WB_DIAGRAMS)
    add_executable(${name}_diagrams ${WB_DIAGRAMS})
    target_include_directories(${name}_diagrams PRIVATE ${WORKBOOK_ROOT}/common ${CMAKE_CURRENT_SOURCE_DIR})
    target_compile_options(${name}_diagrams PRIVATE -Wall -Wextra)
    add_test(NAME ${name}.diagrams
      COMMAND ${Python3_EXECUTABLE} ${WORKBOOK_ROOT}/tests/diagram_check.py check
              --program $<TARGET_FILE:${name}_diagrams> --committed ${CMAKE_CURRENT_SOURCE_DIR}/diagrams
              --out ${CMAKE_BINARY_DIR}/diagrams/${name})
    set_tests_properties(${name}.diagrams PROPERTIES LABELS cpu TIMEOUT 120)
    _workbook_defer_resources()
    set_property(GLOBAL APPEND PROPERTY WORKBOOK_DIAGRAMS
      "{\"program\": \"$<TARGET_FILE:${name}_diagrams>\", \"committed\": \"${CMAKE_CURRENT_SOURCE_DIR}/diagrams\"}")
    set_property(GLOBAL APPEND PROPERTY WORKBOOK_DIAGRAM_TARGETS ${name}_diagrams)
  endif()

  # The manifest drives update_expected and the workbook run, chapter by chapter in order.
  set(bench "")
  foreach(a ${WB_BENCH_ARGS})
    list(APPEND bench "\"${a}\"")
  endforeach()
  list(JOIN bench ", " bench)
  get_filename_component(dir ${CMAKE_CURRENT_SOURCE_DIR} NAME)
  set_property(GLOBAL APPEND PROPERTY WORKBOOK_MANIFEST
    "{\"name\": \"${name}\", \"chapter\": \"${dir}\", \"program\": \"${prog}\", \"model\": \"$<TARGET_FILE:${name}_model>\", \"bench_args\": [${bench}]}")
  set_property(GLOBAL APPEND PROPERTY WORKBOOK_PROGRAMS ${name})
  set_property(GLOBAL APPEND PROPERTY WORKBOOK_MODELS ${name}_model)
endfunction()

# Called once at the end of the top-level CMakeLists.txt.
function(workbook_finalize)
  get_property(entries GLOBAL PROPERTY WORKBOOK_MANIFEST)
  get_property(programs GLOBAL PROPERTY WORKBOOK_PROGRAMS)
  get_property(models GLOBAL PROPERTY WORKBOOK_MODELS)
  list(JOIN entries ",\n  " body)
  set(manifest ${CMAKE_BINARY_DIR}/workbook_manifest.json)
  set(plot_stamp ${CMAKE_BINARY_DIR}/plot_python.txt)
  file(GENERATE OUTPUT ${manifest} CONTENT
       "{\"probe\": \"$<TARGET_FILE:workbook_probe>\",
 \"cuda_version\": \"${CMAKE_CUDA_COMPILER_VERSION}\",
 \"plot_python_stamp\": \"${plot_stamp}\",
 \"plot_script\": \"${WORKBOOK_ROOT}/plots/plot_timings.py\",
 \"reference_data\": \"${WORKBOOK_ROOT}/plots/data\",
 \"plots_out\": \"${CMAKE_BINARY_DIR}/plots\",
 \"root\": \"${WORKBOOK_ROOT}\",
 \"chapters\": [\n  ${body}\n]}\n")

  # A Python that can plot: the system's if it has matplotlib, else build/venv from requirements.txt.
  add_custom_command(OUTPUT ${plot_stamp}
    COMMAND ${Python3_EXECUTABLE} ${WORKBOOK_ROOT}/scripts/plot_env.py --venv ${CMAKE_BINARY_DIR}/venv
            --requirements ${WORKBOOK_ROOT}/requirements.txt --stamp ${plot_stamp}
    DEPENDS ${WORKBOOK_ROOT}/requirements.txt ${WORKBOOK_ROOT}/scripts/plot_env.py VERBATIM)
  add_custom_target(plot_env ALL DEPENDS ${plot_stamp})
  add_test(NAME plots.render COMMAND ${Python3_EXECUTABLE} ${WORKBOOK_ROOT}/tests/plot_test.py ${plot_stamp}
           ${WORKBOOK_ROOT}/plots/plot_timings.py ${WORKBOOK_ROOT}/plots/data ${CMAKE_BINARY_DIR}/plot_test)
  set_tests_properties(plots.render PROPERTIES LABELS cpu TIMEOUT 300)
  _workbook_skippable(plots.render)  # skips only without matplotlib and without a way to install it

  # The chapters' diagrams: `update_diagrams` redraws every committed picture from the CPU models
  # (plots/plot_timings.py --update builds it); diagrams.selftest proves the check can fail.
  get_property(diagrams GLOBAL PROPERTY WORKBOOK_DIAGRAMS)
  get_property(diagram_targets GLOBAL PROPERTY WORKBOOK_DIAGRAM_TARGETS)
  list(JOIN diagrams ",\n " diagram_body)
  file(GENERATE OUTPUT ${CMAKE_BINARY_DIR}/diagrams_manifest.json CONTENT "[\n ${diagram_body}\n]\n")
  add_custom_target(update_diagrams
    COMMAND ${Python3_EXECUTABLE} ${WORKBOOK_ROOT}/tests/diagram_check.py update-all
            --manifest ${CMAKE_BINARY_DIR}/diagrams_manifest.json
    DEPENDS ${diagram_targets} USES_TERMINAL VERBATIM)
  if(diagram_targets)
    list(GET diagram_targets 0 first_diagrams)
    add_test(NAME diagrams.selftest COMMAND ${Python3_EXECUTABLE} ${WORKBOOK_ROOT}/tests/diagram_check.py selftest
             --program $<TARGET_FILE:${first_diagrams}>)
    set_tests_properties(diagrams.selftest PROPERTIES LABELS cpu TIMEOUT 120)
  endif()

  # Every chapter program (CI builds this target for every supported architecture).
  add_custom_target(programs DEPENDS ${programs})

  # Re-record every golden file from a GPU run; refuses without a GPU.
  add_custom_target(update_expected
    COMMAND ${Python3_EXECUTABLE} ${WORKBOOK_RUNNER} update --manifest ${manifest}
            --dest ${WORKBOOK_EXPECTED_DIR}
    DEPENDS ${programs} workbook_probe USES_TERMINAL VERBATIM)

  # Run every chapter in order under a banner; timing CSVs go to build/results/<gpu>/, figures to
  # build/plots/. Without a GPU it runs each chapter's CPU model under the same banner (its
  # prediction of the GPU's output) and draws the committed reference data.
  add_custom_target(workbook
    COMMAND ${Python3_EXECUTABLE} ${WORKBOOK_RUNNER} workbook --manifest ${manifest}
            --results ${CMAKE_BINARY_DIR}/results
    DEPENDS ${programs} ${models} workbook_probe plot_env USES_TERMINAL VERBATIM)
endfunction()

# A measurement program of a chapter (a claim of the source, timed; no golden file): one call builds
# it (in `programs`, so CI builds it for every architecture) and registers its tests:
#   <name>.check [gpu]           the quick mode: every value checked, untimed
#   <name>.<tool> [sanitize]     the quick mode under each tool of SANITIZE
#   <name>.badarg.reps_without_bench [cpu]   (with BENCH) --reps without --bench exits 2
#   <name>.sass [sass, cpu]      (with SASS) the rules file on its sm_90 code (no README block)
# Its timed run belongs to the chapter's gpu_extras.sh, never to a test.
#
# workbook_measurement(<name> SOURCE <file.cu> [SANITIZE <tool>...] [SASS <rules>] [BENCH])
function(workbook_measurement name)
  cmake_parse_arguments(PARSE_ARGV 1 WM "BENCH" "SOURCE;SASS" "SANITIZE")
  add_executable(${name} ${WM_SOURCE})
  target_include_directories(${name} PRIVATE ${WORKBOOK_ROOT}/common)
  target_compile_options(${name} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo -Xcompiler=-Wall>)
  target_compile_definitions(${name} PRIVATE "WB_CUDA_ARCHS=\"${WORKBOOK_ARCHS_TEXT}\"")
  set_property(GLOBAL APPEND PROPERTY WORKBOOK_PROGRAMS ${name})
  _workbook_test(${name}.check gpu exit-code --rc 0 -- $<TARGET_FILE:${name}>)
  foreach(tool ${WM_SANITIZE})
    _workbook_test(${name}.${tool} sanitize sanitize --tool ${tool} "--sanitizer=${WORKBOOK_COMPUTE_SANITIZER}"
                   --probe $<TARGET_FILE:workbook_probe> -- $<TARGET_FILE:${name}>)
  endforeach()
  if(WM_BENCH)
    _workbook_test(${name}.badarg.reps_without_bench cpu
      exit-code --rc 2 "--stderr=--reps only applies with --bench" -- $<TARGET_FILE:${name}> --reps 3)
  endif()
  if(WM_SASS AND WORKBOOK_SASS_FROM_PROGRAM)
    add_test(NAME ${name}.sass COMMAND ${Python3_EXECUTABLE} ${WORKBOOK_ROOT}/scripts/sass_check.py
             --binary $<TARGET_FILE:${name}> --rules ${CMAKE_CURRENT_SOURCE_DIR}/${WM_SASS}
             --nvcc-version ${CMAKE_CUDA_COMPILER_VERSION} --cuda-bin ${CUDAToolkit_BIN_DIR} "--cuobjdump=${WORKBOOK_CUOBJDUMP}")
    set_tests_properties(${name}.sass PROPERTIES LABELS "sass;cpu" TIMEOUT 120)
    _workbook_skippable(${name}.sass)
  endif()
endfunction()
