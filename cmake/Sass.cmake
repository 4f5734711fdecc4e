# cmake/Sass.cmake — the `sass` tests: what the compiler made of each chapter, checked without a GPU.
#
# workbook_sass_test(<name> <rules file>)   (workbook_chapter calls it for its SASS option)
#   adds the test <name>.sass [labels sass, cpu]: scripts/sass_check.py reads the sm_90 machine code
#   of the chapter's program with cuobjdump, checks every rule of <rules file> (e.g.
#   chapters/04_warpReduce/warpReduce.sass) kernel by kernel, and checks that the chapter README's
#   generated block ("What the compiler made of it", between <!-- sass:begin and <!-- sass:end -->)
#   is what the script generates now. It needs no GPU; without cuobjdump, nvdisasm or c++filt it
#   skips and says how to get them (CI has them: tests/ci_check.py fails a cpu test that skips).
#   Also adds the target <name>_sass_readme, which rewrites that README block; the target
#   update_sass_readmes runs all of them.
#
# Where the sm_90 machine code comes from:
#   * CMAKE_CUDA_ARCHITECTURES lists 90 or 90-real (the default without a GPU, "75-virtual;90", and
#     CI's every-architecture build), or is "native" on an sm_90 GPU: the program itself carries
#     it, and the test reads the program.
#   * anything else ("native" on a learner's sm_86, say): the chapter's source is compiled once more,
#     for sm_90 only, into an object library <name>_sm90 (built with the program, never linked)
#     with the program's own include folders, definitions and options, and the test reads that.
#   Either way the rules see the code nvcc makes for sm_90 from the same source and flags.
#
# cuobjdump comes with the CUDA toolkit. A toolkit installed from PyPI lacks it:
# `python3 -m pip install nvidia-cuda-cuobjdump` (the script also finds it there at test time).

find_program(WORKBOOK_CUOBJDUMP cuobjdump HINTS ${CUDAToolkit_BIN_DIR})
if(NOT WORKBOOK_CUOBJDUMP)
  set(WORKBOOK_CUOBJDUMP "")  # sass_check.py looks again when the test runs, and skips saying how to get it
endif()

set(WORKBOOK_SASS_FROM_PROGRAM OFF)
set(_wb_archs ${CMAKE_CUDA_ARCHITECTURES})
if("native" IN_LIST _wb_archs)  # "native" on an H100 or H200 is 90-real (CMake 3.24+ detects it)
  list(APPEND _wb_archs ${CMAKE_CUDA_ARCHITECTURES_NATIVE})
endif()
foreach(_arch IN LISTS _wb_archs)
  if(_arch MATCHES "^90(-real)?$")
    set(WORKBOOK_SASS_FROM_PROGRAM ON)
  endif()
endforeach()
if(NOT WORKBOOK_SASS_FROM_PROGRAM)
  message(STATUS "Workbook: the programs carry no sm_90 machine code; the sass tests read a separate sm_90 build of each chapter")
endif()

add_custom_target(update_sass_readmes)

function(workbook_sass_test name rules)
  set(arch 90)  # or 90a (workbook_chapter's SM90A): the third argument
  if(ARGC GREATER 2)
    set(arch ${ARGV2})
  endif()
  if(WORKBOOK_SASS_FROM_PROGRAM)
    set(binary $<TARGET_FILE:${name}>)
    set(built ${name})
  else()
    get_target_property(sources ${name} SOURCES)
    add_library(${name}_sm90 OBJECT ${sources})
    set_target_properties(${name}_sm90 PROPERTIES CUDA_ARCHITECTURES ${arch}-real)
    target_include_directories(${name}_sm90 PRIVATE $<TARGET_PROPERTY:${name},INCLUDE_DIRECTORIES>)
    target_compile_definitions(${name}_sm90 PRIVATE $<TARGET_PROPERTY:${name},COMPILE_DEFINITIONS>)
    target_compile_options(${name}_sm90 PRIVATE $<TARGET_PROPERTY:${name},COMPILE_OPTIONS>)
    target_link_libraries(${name}_sm90 PRIVATE $<TARGET_PROPERTY:${name},LINK_LIBRARIES>)
    set(binary $<TARGET_OBJECTS:${name}_sm90>)
    set(built ${name}_sm90)
  endif()

  get_filename_component(dir ${rules} DIRECTORY)
  set(args ${WORKBOOK_ROOT}/scripts/sass_check.py --binary ${binary} --rules ${rules} --arch sm_${arch}
           --nvcc-version ${CMAKE_CUDA_COMPILER_VERSION} --cuda-bin ${CUDAToolkit_BIN_DIR}
           "--cuobjdump=${WORKBOOK_CUOBJDUMP}")
  add_test(NAME ${name}.sass COMMAND ${Python3_EXECUTABLE} ${args} --readme ${dir}/README.md)
  set_tests_properties(${name}.sass PROPERTIES LABELS "sass;cpu" TIMEOUT 120)
  _workbook_skippable(${name}.sass)  # skips, with the remedy, without cuobjdump, nvdisasm or c++filt

  add_custom_target(${name}_sass_readme
    COMMAND ${Python3_EXECUTABLE} ${args} --update-readme ${dir}/README.md VERBATIM)
  add_dependencies(${name}_sass_readme ${built})
  add_dependencies(update_sass_readmes ${name}_sass_readme)
endfunction()
