# cmake/Exercises.cmake — the workbook's exercises: a kernel the learner writes, judged by a checker.
#
# WORKBOOK_EXERCISES picks which file each exercise compiles:
#   learner    (default) chapters/NN_x/exercises/<name>.cu, what the learner edits
#   solutions  chapters/NN_x/exercises/solutions/<name>.cu, a reference solution
#   wrong      chapters/NN_x/exercises/wrong/<name>.cu, a plausible wrong answer that some check
#              must reject, every time
#
# workbook_exercise(<name> CHECKER <check_<name>.cu>
#     [SANITIZE <memcheck|racecheck|synccheck|initcheck>...]  the checker runs under these tools too
#     [SASS <rules file>]        scripts/sass_check.py rules on the exercise's kernels (sm_90 SASS)
#     [BANK_MODEL]               `<checker> --bank-model` judges the exercise's index function with
#                                the chapter's CPU bank model (host code, no GPU)
#     [NCU_BANK <kernel regex>]  Nsight Compute: no shared-memory bank conflict in those kernels
#     [LIBRARIES <lib>...]
#     [REPEAT <n>])              runs of each GPU check in `wrong` mode (default 3)
#
# Builds target ex_<name> from the checker with WB_EXERCISE_FILE set to the file of the mode (the
# checker #includes it), and registers (label `exercise`):
#   exercise.<name>.build   builds ex_<name> (a compile error fails this exercise only; the target
#                           is EXCLUDE_FROM_ALL in learner mode, so `ctest -L exercise` needs no
#                           separate build command); an untouched learner file is not compiled:
#                           the step reports "not attempted" as a skip
#   exercise.<name>         tests/exercise_check.py: the checker, the sanitizers, SASS, bank model,
#                           ncu, in that order (label `gpu` too when it needs one). Untouched
#                           learner files report as skipped ("not attempted: edit <file>"), even in
#                           strict mode. In `wrong` mode the test passes iff some check rejects the
#                           answer in every run, and says which.
# A checker that rejects wrong values draws them, expected against got, into
# build/exercises/<name>_mistake.svg (WB_EXERCISE_PICTURE; common/exercise_picture.h) and names it.
# Each run writes build/exercise_results/<name>.json; `exercise_check.py summary` turns them into
# the exercises log (scripts/gpu_check.sh) and tells whether every CPU-decidable check ran (CI).

set(WORKBOOK_EXERCISES learner CACHE STRING "Which exercise files to build: learner, solutions or wrong")
set_property(CACHE WORKBOOK_EXERCISES PROPERTY STRINGS learner solutions wrong)
if(NOT WORKBOOK_EXERCISES MATCHES "^(learner|solutions|wrong)$")
  message(FATAL_ERROR "WORKBOOK_EXERCISES must be learner, solutions or wrong, not '${WORKBOOK_EXERCISES}'")
endif()
set(WORKBOOK_EXERCISE_RUNNER ${WORKBOOK_ROOT}/tests/exercise_check.py)
set(WORKBOOK_EXERCISE_RESULTS ${CMAKE_BINARY_DIR}/exercise_results)
add_custom_target(exercises)  # every exercise checker of this mode

function(workbook_exercise name)
  cmake_parse_arguments(PARSE_ARGV 1 EX "BANK_MODEL" "CHECKER;SASS;NCU_BANK;REPEAT" "SANITIZE;LIBRARIES")
  if(NOT EX_CHECKER)
    message(FATAL_ERROR "workbook_exercise(${name}): CHECKER is required")
  endif()
  if(EX_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "workbook_exercise(${name}): unknown arguments ${EX_UNPARSED_ARGUMENTS}")
  endif()
  set(dir ${CMAKE_CURRENT_SOURCE_DIR}/exercises)
  if(WORKBOOK_EXERCISES STREQUAL "learner")
    set(file ${dir}/${name}.cu)
  else()
    set(file ${dir}/${WORKBOOK_EXERCISES}/${name}.cu)
  endif()
  foreach(f ${dir}/${name}.cu ${dir}/solutions/${name}.cu ${dir}/wrong/${name}.cu ${dir}/${EX_CHECKER})
    if(NOT EXISTS ${f})
      message(FATAL_ERROR "workbook_exercise(${name}): ${f} is missing (each exercise has a learner file, a solution, a wrong answer and a checker)")
    endif()
  endforeach()
  file(RELATIVE_PATH learner_rel ${WORKBOOK_ROOT} ${dir}/${name}.cu)
  if(NOT EX_REPEAT)
    set(EX_REPEAT 3)
  endif()

  set(target ex_${name})
  add_executable(${target} ${dir}/${EX_CHECKER})
  if(WORKBOOK_EXERCISES STREQUAL "learner")
    set_target_properties(${target} PROPERTIES EXCLUDE_FROM_ALL TRUE)
  endif()
  # The checker recompiles when the included file changes (CMake's dependency scan follows it).
  set_source_files_properties(${dir}/${EX_CHECKER} PROPERTIES OBJECT_DEPENDS ${file})
  target_include_directories(${target} PRIVATE ${WORKBOOK_ROOT}/common ${CMAKE_CURRENT_SOURCE_DIR} ${dir})
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo -Xcompiler=-Wall>)
  target_compile_definitions(${target} PRIVATE "WB_EXERCISE_FILE=\"${file}\""
    "WB_EXERCISE_LEARNER_FILE=\"${learner_rel}\"" "WB_EXERCISE_NAME=\"${name}\""
    "WB_EXERCISE_MODE=\"${WORKBOOK_EXERCISES}\"" "WB_CUDA_ARCHS=\"${WORKBOOK_ARCHS_TEXT}\""
    # A rejection for wrong values draws the mistake here (common/exercise_picture.h).
    "WB_EXERCISE_PICTURE=\"${CMAKE_BINARY_DIR}/exercises/${name}_mistake.svg\"")
  target_link_libraries(${target} PRIVATE ${EX_LIBRARIES})
  add_dependencies(exercises ${target})

  # The SASS rules read sm_90 machine code: the checker carries it when the build targets sm_90;
  # otherwise (e.g. "native" on another GPU) an sm_90 object of the same source is built beside it.
  set(built ${target} workbook_probe)  # the runner asks the probe whether there is a GPU
  set(sass_binary $<TARGET_FILE:${target}>)
  if(EX_SASS AND NOT WORKBOOK_SASS_FROM_PROGRAM)
    add_library(${target}_sm90 OBJECT ${dir}/${EX_CHECKER})
    set_target_properties(${target}_sm90 PROPERTIES CUDA_ARCHITECTURES 90-real)
    if(WORKBOOK_EXERCISES STREQUAL "learner")
      set_target_properties(${target}_sm90 PROPERTIES EXCLUDE_FROM_ALL TRUE)
    endif()
    foreach(prop INCLUDE_DIRECTORIES COMPILE_DEFINITIONS COMPILE_OPTIONS)
      set_property(TARGET ${target}_sm90 PROPERTY ${prop} $<TARGET_PROPERTY:${target},${prop}>)
    endforeach()
    list(APPEND built ${target}_sm90)
    set(sass_binary $<TARGET_OBJECTS:${target}_sm90>)
    add_dependencies(exercises ${target}_sm90)
  endif()

  # The build step: its own test, so that a learner's compile error fails this exercise alone and
  # shows the compiler's message. One build at a time in a build tree.
  # An untouched learner file is not compiled: the step says "not attempted" and skips.
  add_test(NAME exercise.${name}.build
           COMMAND ${Python3_EXECUTABLE} ${WORKBOOK_EXERCISE_RUNNER} build --mode ${WORKBOOK_EXERCISES}
                   --file ${file} --learner-file ${learner_rel}
                   -- ${CMAKE_COMMAND} --build ${CMAKE_BINARY_DIR} --target ${built} --config $<CONFIG>)
  set_tests_properties(exercise.${name}.build PROPERTIES LABELS exercise TIMEOUT 600
    FIXTURES_SETUP ex_${name}_built RESOURCE_LOCK workbook_build_tree SKIP_RETURN_CODE 77
    ENVIRONMENT "WORKBOOK_TEST_NAME=exercise.${name}.build;WORKBOOK_SKIP_DIR=${CMAKE_BINARY_DIR}/skips")

  set(args --name ${name} --mode ${WORKBOOK_EXERCISES} --checker $<TARGET_FILE:${target}> --file ${file}
           --learner-file ${learner_rel} --repeat ${EX_REPEAT} --probe $<TARGET_FILE:workbook_probe>
           --result ${WORKBOOK_EXERCISE_RESULTS}/${name}.json)
  set(labels exercise gpu)  # the checker always needs a GPU; the CPU checks run without one
  if(EX_SANITIZE)
    list(JOIN EX_SANITIZE "," tools)
    list(APPEND args --sanitize ${tools} "--sanitizer=${WORKBOOK_COMPUTE_SANITIZER}")
  endif()
  if(EX_SASS)
    list(APPEND args --sass-rules ${CMAKE_CURRENT_SOURCE_DIR}/${EX_SASS} --sass-binary ${sass_binary}
         --sass-script ${WORKBOOK_ROOT}/scripts/sass_check.py --nvcc-version ${CMAKE_CUDA_COMPILER_VERSION}
         --cuda-bin ${CUDAToolkit_BIN_DIR} "--cuobjdump=${WORKBOOK_CUOBJDUMP}")
  endif()
  if(EX_BANK_MODEL)
    list(APPEND args --bank-model)
  endif()
  if(EX_NCU_BANK)
    list(APPEND args --ncu-bank ${EX_NCU_BANK} "--ncu=${WORKBOOK_NCU}"
         --ncu-util ${WORKBOOK_ROOT}/scripts/ncu_util.py)
  endif()
  add_test(NAME exercise.${name} COMMAND ${Python3_EXECUTABLE} ${WORKBOOK_EXERCISE_RUNNER} check ${args})
  set_tests_properties(exercise.${name} PROPERTIES LABELS "${labels}" TIMEOUT 900
    FIXTURES_REQUIRED ex_${name}_built)
  if(EX_NCU_BANK)  # one profiler at a time on the GPU
    set_tests_properties(exercise.${name} PROPERTIES RESOURCE_LOCK workbook_gpu_counters)
  endif()
  _workbook_skippable(exercise.${name})  # the runner keeps "not attempted" a skip even in strict mode
  set_property(GLOBAL APPEND PROPERTY WORKBOOK_EXERCISE_NAMES ${name})
endfunction()

# The rejection picture (common/exercise_picture.h) drawn from a known-wrong result, on the CPU.
add_executable(exercise_picture_test ${WORKBOOK_ROOT}/tests/exercise_picture_test.cpp)
target_include_directories(exercise_picture_test PRIVATE ${WORKBOOK_ROOT}/common ${WORKBOOK_ROOT}/tests)
target_compile_options(exercise_picture_test PRIVATE -Wall -Wextra)
target_compile_definitions(exercise_picture_test PRIVATE "WB_PICTURE_TEST_DIR=\"${CMAKE_BINARY_DIR}/exercise_picture_test\"")
add_dependencies(exercises exercise_picture_test)  # scripts/exercise_modes.sh builds `exercises`
add_test(NAME exercise.picture.unit COMMAND exercise_picture_test)
set_tests_properties(exercise.picture.unit PROPERTIES LABELS "cpu;exercise" TIMEOUT 120)

# The runner's own verdicts on fake checkers: a wrong answer no check rejects (or rejects only
# sometimes) fails, an untouched file skips even in strict mode. No GPU, no build.
add_test(NAME exercise.runner.selftest
         COMMAND ${Python3_EXECUTABLE} ${WORKBOOK_ROOT}/tests/exercise_check_selftest.py ${WORKBOOK_EXERCISE_RUNNER})
set_tests_properties(exercise.runner.selftest PROPERTIES LABELS "cpu;exercise" TIMEOUT 120)
