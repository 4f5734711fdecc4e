// Erratum (source 001): its subgroup_min template chooses between the _sync and the legacy shuffle
// with `#if CUDA_VERSION >= 9000`. CUDA_VERSION is defined by cuda.h (the driver API header), which
// nvcc does not include by itself (it includes cuda_runtime.h, whose cuda_runtime_api.h defines
// CUDART_VERSION). Compiled as 001 wrote it, CUDA_VERSION is an unknown identifier, `#if` reads it
// as 0, and the legacy branch is compiled: on CUDA 13, `identifier "__shfl_xor" is undefined`. With
// -DCONTROL the file includes cuda.h first and compiles. The test
// warpReduce.erratum.cuda_version_guard checks both.
#ifdef CONTROL
#include <cuda.h>
#endif
#include <cstdint>

template <typename T, unsigned int GROUP_SIZE, unsigned int STEP>
struct subgroup_min_impl {
  static __device__ T call(T x, uint32_t mask) {
#if CUDA_VERSION >= 9000
    x = min(x, __shfl_xor_sync(mask, x, STEP / 2, GROUP_SIZE));
#else
    x = min(x, __shfl_xor(x, STEP / 2, GROUP_SIZE));
#endif
    return subgroup_min_impl<T, GROUP_SIZE, STEP / 2>::call(x, mask);
  }
};
template <typename T, unsigned int GROUP_SIZE>
struct subgroup_min_impl<T, GROUP_SIZE, 1u> {
  static __device__ T call(T x, uint32_t) { return x; }
};
template <unsigned int GROUP_SIZE, typename T>
__device__ inline T subgroup_min(T x, uint32_t mask) {
  return subgroup_min_impl<T, GROUP_SIZE, GROUP_SIZE>::call(x, mask);
}
__global__ void test__shfl_xor(int A[], int B[]) {
  int tid = threadIdx.x;
  int best = B[tid];
  best = subgroup_min<32>(best, 0xffffffffu);
  A[tid] = best;
}
