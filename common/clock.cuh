// common/clock.cuh — in-kernel clocks for the measurement programs that time inside a kernel
// (chapter 04's shfl_vs_smem, chapter 09's constant_divergence): the SM cycle counter, the global
// nanosecond timer, and the SM clock they ran at, measured on the GPU (cycles over nanoseconds).
#pragma once

#include <cstdio>
#include <cstdlib>

#include "check.h"

namespace wb {

// %clock64: this SM's cycle counter. asm volatile with a memory clobber keeps the compiler from
// moving the reads across the timed instructions.
__device__ __forceinline__ long long clock_now() {
  long long t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
  return t;
}
// %globaltimer: nanoseconds, the same on every SM.
__device__ __forceinline__ unsigned long long globaltimer_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
  return t;
}

// The SM clock during the run: cycles and nanoseconds over a spin of `spin` cycles.
__global__ void smClock(long long* out, long long spin) {
  const long long c0 = clock_now();
  const unsigned long long g0 = globaltimer_ns();
  long long c1 = c0;
  while (c1 - c0 < spin) c1 = clock_now();
  const unsigned long long g1 = globaltimer_ns();
  out[0] = c1 - c0;
  out[1] = static_cast<long long>(g1 - g0);
}

// MHz of one SM, from smClock over 2e7 cycles (about 10 ms at 2 GHz); d_clk holds 2 long longs.
inline double sm_mhz(long long* d_clk) {
  CUDA_CHECK(cudaMemset(d_clk, 0xff, 2 * sizeof(long long)));
  smClock<<<1, 1>>>(d_clk, 20000000);
  CUDA_CHECK_LAUNCH();
  long long h[2];
  CUDA_CHECK(cudaMemcpy(h, d_clk, sizeof h, cudaMemcpyDeviceToHost));
  if (h[0] <= 0 || h[1] <= 0) {
    std::fprintf(stderr, "FAILED: smClock returned %lld cycles in %lld ns\n", h[0], h[1]);
    std::exit(kFail);
  }
  return 1e3 * static_cast<double>(h[0]) / static_cast<double>(h[1]);
}

}  // namespace wb
