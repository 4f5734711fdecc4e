// common/cublas_check.h — CUBLAS_CHECK: every cuBLAS call checked like CUDA_CHECK (exit 1 with the
// status's name, file and line).
#pragma once

#include <cublas_v2.h>

#include <cstdio>
#include <cstdlib>

#include "check.h"

#define CUBLAS_CHECK(call)                                                                          \
  do {                                                                                              \
    const cublasStatus_t wb_st_ = (call);                                                           \
    if (wb_st_ != CUBLAS_STATUS_SUCCESS) {                                                          \
      std::fprintf(stderr, "%s:%d: cuBLAS error %s (%d) in %s\n", __FILE__, __LINE__,               \
                   cublasGetStatusName(wb_st_), int(wb_st_), #call);                                \
      std::exit(wb::kFail);                                                                         \
    }                                                                                               \
  } while (0)
