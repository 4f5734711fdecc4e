# cmake/Toolkit.cmake — the oldest CUDA toolkit the workbook builds with: CUDA 12.4 (Debian 13's
# nvidia-cuda-toolkit), which CI builds every program with and runs the CPU tests under, beside
# 13.0 and the newest 13.x (.ci/run). An older nvcc stops configure with one message: the version
# found and the version needed.
#
# The top-level CMakeLists.txt includes this before project(), so that the message comes before
# CMake's own compiler checks (which may fail on an old nvcc in other words), and calls
# workbook_check_toolkit_version() after it with the version CMake found.
# Script mode, for the test toolkit.floor: cmake -DWORKBOOK_NVCC=<nvcc> -P cmake/Toolkit.cmake

set(WORKBOOK_CUDA_FLOOR 12.4)

function(workbook_check_toolkit_version version where)
  if(version VERSION_LESS WORKBOOK_CUDA_FLOOR)
    message(FATAL_ERROR "CUDA ${version} found (${where}); the workbook needs CUDA ${WORKBOOK_CUDA_FLOOR} or newer. "
            "Install a newer toolkit and name its compiler: cmake --preset default -DCMAKE_CUDA_COMPILER=/path/to/nvcc")
  endif()
endfunction()

# The release of an nvcc, from `nvcc --version` ("Cuda compilation tools, release 12.4, V12.4.131"); empty
# when it cannot be run or read.
function(workbook_nvcc_release nvcc out)
  execute_process(COMMAND ${nvcc} --version OUTPUT_VARIABLE text ERROR_QUIET RESULT_VARIABLE rc)
  set(release "")
  if(rc EQUAL 0 AND text MATCHES "release ([0-9]+\\.[0-9]+)")
    set(release ${CMAKE_MATCH_1})
  endif()
  set(${out} ${release} PARENT_SCOPE)
endfunction()

# Before project(): the nvcc CMake will use, as CMake picks it (CMAKE_CUDA_COMPILER, else the CUDACXX
# environment variable, else nvcc on PATH or in /usr/local/cuda/bin).
function(workbook_check_toolkit_early)
  set(nvcc "")
  if(CMAKE_CUDA_COMPILER)
    set(nvcc ${CMAKE_CUDA_COMPILER})
  elseif(DEFINED ENV{CUDACXX})
    set(nvcc $ENV{CUDACXX})
  else()
    find_program(_wb_nvcc nvcc PATHS /usr/local/cuda/bin NO_CACHE)
    if(_wb_nvcc)
      set(nvcc ${_wb_nvcc})
    endif()
  endif()
  if(nvcc)
    workbook_nvcc_release(${nvcc} release)
    if(release)
      workbook_check_toolkit_version(${release} "nvcc at ${nvcc}")
    endif()
  endif()
endfunction()

if(CMAKE_SCRIPT_MODE_FILE AND DEFINED WORKBOOK_NVCC)
  workbook_nvcc_release(${WORKBOOK_NVCC} release)
  if(NOT release)
    message(FATAL_ERROR "could not read the release of ${WORKBOOK_NVCC}")
  endif()
  workbook_check_toolkit_version(${release} "nvcc at ${WORKBOOK_NVCC}")
  message(STATUS "CUDA ${release}: at or above the floor, ${WORKBOOK_CUDA_FLOOR}")
endif()
