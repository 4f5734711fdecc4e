// Chapter 10 — memoryFence, idea 4: the domain experiment's other kernels: a store-heavy neighbour
// and a one-store kernel whose end is the fence (timed by memoryFence_bench.cuh: bench_domains).
// Included by memoryFence.cu.
#pragma once

#include "globaltimer.cuh"

// The store-heavy neighbour: 16-byte stores over n words, `passes` times. Block 0's thread 0
// records start and end. Every block is resident at once, but nothing makes them end together:
// the window is block 0's, so `writer_left_ms` and `overlap_pct` are block 0's view of the writer.
__global__ void streamWrite(uint4* out, size_t n4, int passes, unsigned long long* window) {
  if (threadIdx.x == 0 && blockIdx.x == 0) window[0] = globaltimer_ns();
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  for (int p = 0; p < passes; ++p)
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n4; i += stride)
      out[i] = make_uint4(p, unsigned(i), 0u, 0u);
  if (threadIdx.x == 0 && blockIdx.x == 0) window[1] = globaltimer_ns();
}

// One store, and the kernel ends. A kernel boundary orders too: the completion of a kernel
// synchronizes with the start of the next one in the stream or graph (PTX ISA, "API
// synchronization"), so what it wrote is visible there. Launched many times in a row (a CUDA
// graph), its time per launch is launch, dispatch, completion and that synchronization together;
// nothing here separates them. stamp: the time it ran.
__global__ void tinyStore(unsigned* out, unsigned long long* stamp) {
  *out = 1u;
  *stamp = globaltimer_ns();
}
