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
#                                 "<MIN_SM_WHY> need sm_NN; this GPU (...) is sm_MM"
#     [SASS <file>]               expectations on the compiled sm_90 machine code (scripts/sass_check.py)
# )
#
# Tests (labels in brackets):
#   <name>.golden [gpu]            run, require exit 0, stdout == expected_outputs/<name>.txt (diff if not)
#   <name>.determinism [gpu]       two runs give byte-identical stdout
#   <name>.model [cpu]             the CPU model's stdout == the same golden file
#   <name>.sass [sass, cpu]        (with SASS) the sm_90 SASS obeys the rules file, and the README's
#                                  generated SASS block is current (cmake/Sass.cmake)
#   <name>.<tool> [sanitize]       compute-sanitizer memcheck, racecheck, synccheck, initcheck
#   <name>.badarg.* [cpu]          bad command lines exit 2 with a message (no GPU needed): an unknown
#                                  flag; a benchmark option without --bench; malformed --n values
#   <name>.badarg.n_too_big [gpu]  an --n beyond device memory exits 2
# A chapter adds its Nsight Compute test with workbook_ncu_test() (below).
# Exit code 77 (no GPU, or a GPU without what the chapter needs) is reported as skipped, except in
# strict mode (-DWORKBOOK_STRICT=ON, or WORKBOOK_STRICT=1 in the environment of ctest): there any
# test that would skip fails and says why, so that a green run on a GPU machine means every test ran.

get_filename_component(WORKBOOK_ROOT ${CMAKE_CURRENT_LIST_DIR}/.. ABSOLUTE)
set(WORKBOOK_RUNNER ${WORKBOOK_ROOT}/tests/wbtest.py)
set(WORKBOOK_EXPECTED_DIR ${WORKBOOK_ROOT}/expected_outputs)
set(CMAKE_RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)
option(WORKBOOK_STRICT "A test that would skip fails instead (for GPU machines)" OFF)
string(REPLACE ";" " " WORKBOOK_ARCHS_TEXT "${CMAKE_CUDA_ARCHITECTURES}")
include(${CMAKE_CURRENT_LIST_DIR}/Sass.cmake)  # workbook_sass_test(): the `sass` tests (SASS option)

find_program(WORKBOOK_COMPUTE_SANITIZER compute-sanitizer
             HINTS ${CUDAToolkit_BIN_DIR} ${CUDAToolkit_BIN_DIR}/../compute-sanitizer)
find_program(WORKBOOK_NCU ncu HINTS ${CUDAToolkit_BIN_DIR} ${CUDAToolkit_BIN_DIR}/../nsight-compute)
foreach(_tool COMPUTE_SANITIZER NCU)
  if(NOT WORKBOOK_${_tool})
    set(WORKBOOK_${_tool} "")  # the tests that need it skip, saying so
  endif()
endforeach()
include(${CMAKE_CURRENT_LIST_DIR}/Exercises.cmake)  # workbook_exercise(): chapters/*/exercises/

# Every test that can skip goes through this: it maps exit 77 to "skipped", and in strict mode
# tells the test (WORKBOOK_STRICT=1) to fail instead.
function(_workbook_skippable name)
  set_tests_properties(${name} PROPERTIES SKIP_RETURN_CODE 77)
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
  cmake_parse_arguments(PARSE_ARGV 1 WB "TAKES_N" "SOURCE;MODEL;MIN_SM;MIN_SM_WHY;SASS"
                        "LIBRARIES;SANITIZE_ARGS;BENCH_ARGS;N_ARGS")
  set(expected ${WORKBOOK_EXPECTED_DIR}/${name}.txt)

  add_executable(${name} ${WB_SOURCE})
  target_include_directories(${name} PRIVATE ${WORKBOOK_ROOT}/common ${CMAKE_CURRENT_SOURCE_DIR})
  target_compile_options(${name} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo -Xcompiler=-Wall>)
  target_link_libraries(${name} PRIVATE ${WB_LIBRARIES})
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
  _workbook_test(${name}.golden gpu golden --expected ${expected} -- ${prog})
  _workbook_test(${name}.determinism gpu determinism -- ${prog})
  _workbook_test(${name}.model cpu golden --expected ${expected} -- $<TARGET_FILE:${name}_model>)
  foreach(tool memcheck racecheck synccheck initcheck)
    _workbook_test(${name}.${tool} sanitize sanitize --tool ${tool}
                   "--sanitizer=${WORKBOOK_COMPUTE_SANITIZER}" --probe ${probe}
                   -- ${prog} ${WB_SANITIZE_ARGS})
  endforeach()

  _workbook_test(${name}.badarg.unknown_flag cpu
                 exit-code --rc 2 "--stderr=unknown argument '--frobnicate'" -- ${prog} --frobnicate)
  if(WB_BENCH_ARGS)  # a benchmark option without --bench is refused, not ignored
    _workbook_test(${name}.badarg.csv_dir_without_bench cpu
                   exit-code --rc 2 "--stderr=--csv-dir only applies with --bench" -- ${prog} --csv-dir out)
    # Malformed command lines, refused before any GPU work (so these run without a GPU):
    # a folder that cannot be created, an option's value that is another option, an empty value,
    # an option given twice.
    _workbook_test(${name}.badarg.csv_dir_unwritable cpu
                   exit-code --rc 2 "--stderr=cannot create the folder" -- ${prog} --bench --csv-dir /proc/wb_forbidden/x)
    _workbook_test(${name}.badarg.option_as_value cpu
                   exit-code --rc 2 "--stderr=--csv-dir needs a value, not the option '--bench'" -- ${prog} --csv-dir --bench)
    _workbook_test(${name}.badarg.empty_value cpu
                   exit-code --rc 2 "--stderr=--csv-dir needs a value, not an empty one" -- ${prog} --bench --csv-dir=)
    _workbook_test(${name}.badarg.repeated_option cpu
                   exit-code --rc 2 "--stderr=--bench is given twice" -- ${prog} --bench --bench)
  endif()
  if(WB_TAKES_N)
    _workbook_test(${name}.badarg.n_abc cpu exit-code --rc 2 "--stderr=--n expects" -- ${prog} ${WB_N_ARGS} --n abc)
    _workbook_test(${name}.badarg.n_zero cpu exit-code --rc 2 "--stderr=out of range" -- ${prog} ${WB_N_ARGS} --n 0)
    _workbook_test(${name}.badarg.n_negative cpu exit-code --rc 2 "--stderr=--n expects" -- ${prog} ${WB_N_ARGS} --n -5)
    _workbook_test(${name}.badarg.n_missing cpu exit-code --rc 2 "--stderr=--n needs a value" -- ${prog} ${WB_N_ARGS} --n)
    _workbook_test(${name}.badarg.n_too_big gpu
                   exit-code --rc 2 "--stderr=bytes of device memory" -- ${prog} ${WB_N_ARGS} --n 2^38)
  endif()

  if(WB_SASS AND COMMAND workbook_sass_test)
    workbook_sass_test(${name} ${CMAKE_CURRENT_SOURCE_DIR}/${WB_SASS})
  endif()

  # The manifest drives update_expected and the workbook run, chapter by chapter in order.
  set(bench "")
  foreach(a ${WB_BENCH_ARGS})
    list(APPEND bench "\"${a}\"")
  endforeach()
  list(JOIN bench ", " bench)
  get_filename_component(dir ${CMAKE_CURRENT_SOURCE_DIR} NAME)
  set_property(GLOBAL APPEND PROPERTY WORKBOOK_MANIFEST
    "{\"name\": \"${name}\", \"chapter\": \"${dir}\", \"program\": \"${prog}\", \"bench_args\": [${bench}]}")
  set_property(GLOBAL APPEND PROPERTY WORKBOOK_PROGRAMS ${name})
endfunction()

# Called once at the end of the top-level CMakeLists.txt.
function(workbook_finalize)
  get_property(entries GLOBAL PROPERTY WORKBOOK_MANIFEST)
  get_property(programs GLOBAL PROPERTY WORKBOOK_PROGRAMS)
  list(JOIN entries ",\n  " body)
  set(manifest ${CMAKE_BINARY_DIR}/workbook_manifest.json)
  set(plot_stamp ${CMAKE_BINARY_DIR}/plot_python.txt)
  file(GENERATE OUTPUT ${manifest} CONTENT
       "{\"probe\": \"$<TARGET_FILE:workbook_probe>\",
 \"cuda_version\": \"${CMAKE_CUDA_COMPILER_VERSION}\",
 \"ncu\": \"${WORKBOOK_NCU}\",
 \"bank_script\": \"${WORKBOOK_ROOT}/scripts/bank_conflicts.py\",
 \"plot_python_stamp\": \"${plot_stamp}\",
 \"plot_script\": \"${WORKBOOK_ROOT}/plots/plot_timings.py\",
 \"reference_data\": \"${WORKBOOK_ROOT}/plots/data\",
 \"plots_out\": \"${CMAKE_BINARY_DIR}/plots\",
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

  # Every chapter program (CI builds this target for every supported architecture).
  add_custom_target(programs DEPENDS ${programs})

  # Re-record every golden file from a GPU run; refuses without a GPU.
  add_custom_target(update_expected
    COMMAND ${Python3_EXECUTABLE} ${WORKBOOK_RUNNER} update --manifest ${manifest}
            --dest ${WORKBOOK_EXPECTED_DIR}
    DEPENDS ${programs} workbook_probe USES_TERMINAL VERBATIM)

  # Run every chapter in order under a banner; timing CSVs go to build/results/<gpu>/, figures to
  # build/plots/. Without a GPU it says so and draws the committed reference data instead.
  add_custom_target(workbook
    COMMAND ${Python3_EXECUTABLE} ${WORKBOOK_RUNNER} workbook --manifest ${manifest}
            --results ${CMAKE_BINARY_DIR}/results
    DEPENDS ${programs} workbook_probe plot_env USES_TERMINAL VERBATIM)
endfunction()
