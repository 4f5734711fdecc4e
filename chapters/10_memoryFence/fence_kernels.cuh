// Chapter 10 — memoryFence, idea 3: what a fence costs. A store and a fence in a loop, one kernel
// per fence (timed by memoryFence_bench.cuh: bench_fence_cost and bench_domains). Included by
// memoryFence.cu.
#pragma once

#include <cuda/atomic>

#include "globaltimer.cuh"

// ---------------------------------------------------------------------------------------------
// 3. What a fence costs: a store, then a fence, in a loop
// ---------------------------------------------------------------------------------------------

enum class Fence { None, Block, Device, System, AcqRelDevice, AcqRelSystem };

template <Fence F>
__device__ __forceinline__ void fence() {
  if constexpr (F == Fence::None) asm volatile("" ::: "memory");  // keeps every store, orders nothing
  if constexpr (F == Fence::Block) __threadfence_block();
  if constexpr (F == Fence::Device) __threadfence();
  if constexpr (F == Fence::System) __threadfence_system();
  if constexpr (F == Fence::AcqRelDevice) cuda::atomic_thread_fence(cuda::memory_order_acq_rel, cuda::thread_scope_device);
  if constexpr (F == Fence::AcqRelSystem) cuda::atomic_thread_fence(cuda::memory_order_acq_rel, cuda::thread_scope_system);
}

// Each thread stores to its own word and fences, iters times: the fence has a store to wait for.
// out == nullptr: fences alone, with no store of their own to wait for.
// window (may be null): thread 0 records the kernel's start and end on the GPU's global timer.
template <Fence F>
__device__ void fence_loop(unsigned* out, int iters, unsigned long long* window) {
  if (window && threadIdx.x == 0 && blockIdx.x == 0) window[0] = globaltimer_ns();
  unsigned* p = out ? out + blockIdx.x * size_t(blockDim.x) + threadIdx.x : nullptr;
  unsigned v = threadIdx.x;
  for (int i = 0; i < iters; ++i) {
    if (p) *p = v;
    fence<F>();
    v = v * 1664525u + 1013904223u;
  }
  if (window && threadIdx.x == 0 && blockIdx.x == 0) window[1] = globaltimer_ns();
}

using LoopKernel = void (*)(unsigned*, int, unsigned long long*);
__global__ void loopNoFence(unsigned* o, int n, unsigned long long* w) { fence_loop<Fence::None>(o, n, w); }
__global__ void loopThreadfenceBlock(unsigned* o, int n, unsigned long long* w) { fence_loop<Fence::Block>(o, n, w); }
__global__ void loopThreadfence(unsigned* o, int n, unsigned long long* w) { fence_loop<Fence::Device>(o, n, w); }
__global__ void loopThreadfenceSystem(unsigned* o, int n, unsigned long long* w) { fence_loop<Fence::System>(o, n, w); }
__global__ void loopFenceAcqRelDevice(unsigned* o, int n, unsigned long long* w) { fence_loop<Fence::AcqRelDevice>(o, n, w); }
__global__ void loopFenceAcqRelSystem(unsigned* o, int n, unsigned long long* w) { fence_loop<Fence::AcqRelSystem>(o, n, w); }
