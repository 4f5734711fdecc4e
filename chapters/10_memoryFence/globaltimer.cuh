// Chapter 10 — memoryFence: the GPU's global nanosecond clock, for bounded spins and for the
// kernels' own start/end stamps. Included by threeThreads.cuh and domains.cuh.
#pragma once

__device__ __forceinline__ unsigned long long globaltimer_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
constexpr unsigned long long kGpuSpinLimitNs = 10'000'000'000ull;  // 10 s
