// Chapter 10 — memoryFence, idea 2: a fence that matters. One-pass sums: each block publishes its
// partial, takes a ticket, and the block that draws the last ticket adds the partials (the
// Programming Guide's one-pass sum, isLastBlockDone; CUDA's sample threadFenceReduction). Included
// by memoryFence.cu.
#pragma once

#include <cuda/atomic>

#include "block_reduce.cuh"
#include "memoryFence_lesson.h"

// ---------------------------------------------------------------------------------------------
// 2. One-pass sums: publish a partial, take a ticket, the last block finishes
// ---------------------------------------------------------------------------------------------

constexpr int kThreads = 256;

__global__ void fill_input(int* a_in, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    a_in[i] = lesson::input(i);
}

// This thread's share of the sum: 16-byte loads, four in flight, over a grid-stride loop. The four
// ints of one load sum in int: inputs are in [-512, 511], so 16 of them stay far from overflow.
__device__ long long thread_sum(const int* __restrict__ in, size_t n) {
  const int4* in4 = reinterpret_cast<const int4*>(in);  // cudaMalloc memory is 256-byte aligned
  const size_t n4 = n / 4, stride = size_t(gridDim.x) * kThreads;
  size_t i = blockIdx.x * size_t(kThreads) + threadIdx.x;
  long long s = 0;
  for (; i + 3 * stride < n4; i += 4 * stride) {
    const int4 p = in4[i], q = in4[i + stride], r = in4[i + 2 * stride], t = in4[i + 3 * stride];
    s += (p.x + p.y + p.z + p.w) + (q.x + q.y + q.z + q.w) + (r.x + r.y + r.z + r.w) + (t.x + t.y + t.z + t.w);
  }
  for (; i < n4; i += stride) {
    const int4 p = in4[i];
    s += p.x + p.y + p.z + p.w;
  }
  const size_t tail = n4 * 4 + blockIdx.x * size_t(kThreads) + threadIdx.x;  // the last n % 4
  if (tail < n) s += in[tail];
  return s;
}

// Sums over the block (valid in thread 0) are common/block_reduce.cuh's: shuffles within warps, one
// shared word per warp; exact in long long.
using wb::block_sum;

enum class Publish { Threadfence, ReleaseAcquire, None };

// Without a release before the ticket and an acquire after it, the memory model promises nothing:
// the last block may add a stale partial. (The Programming Guide's version of this sum names one
// way, "the counter may increment before the partial sum is stored", and stores its partials with
// volatile to bypass the L1 cache; a stale cached copy of a partial in the last block's SM is
// another picture.) Each variant differs only in how thread 0 orders "my partial is stored" before
// "I took a ticket", and "every ticket before mine" before "I read the partials".
template <Publish P>
__device__ void one_pass_sum(const int* __restrict__ in, size_t n, long long* partials, unsigned* ticket,
                             long long* out) {
  const long long s = block_sum<kThreads>(thread_sum(in, n));
  __shared__ bool is_last;
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = s;
    if constexpr (P == Publish::Threadfence) {
      __threadfence();                                  // release side: partial before ticket
      is_last = atomicAdd(ticket, 1u) == gridDim.x - 1;  // a relaxed read-modify-write
      if (is_last) __threadfence();                     // acquire side: tickets before the reads
    } else if constexpr (P == Publish::ReleaseAcquire) {
      // Both sides in one instruction. The chain of read-modify-writes on the ticket carries every
      // earlier block's release to the last block's acquire.
      cuda::atomic_ref<unsigned, cuda::thread_scope_device> t(*ticket);
      is_last = t.fetch_add(1u, cuda::memory_order_acq_rel) == gridDim.x - 1;
    } else {
      is_last = atomicAdd(ticket, 1u) == gridDim.x - 1;  // no ordering at all: a data race
    }
  }
  __syncthreads();  // is_last, and thread 0's acquire, reach every thread of the block
  if (!is_last) return;  // uniform across the block: no barrier below is skipped by some threads
  long long total = 0;
  for (unsigned blk = threadIdx.x; blk < gridDim.x; blk += kThreads) total += partials[blk];
  total = block_sum<kThreads>(total);
  if (threadIdx.x == 0) {
    *out = total;
    *ticket = 0;  // every block has taken its ticket: the next launch starts from 0
  }
}

__global__ void __launch_bounds__(kThreads)
sumThreadfence(const int* __restrict__ in, size_t n, long long* partials, unsigned* ticket, long long* out) {
  one_pass_sum<Publish::Threadfence>(in, n, partials, ticket, out);
}
__global__ void __launch_bounds__(kThreads)
sumReleaseAcquire(const int* __restrict__ in, size_t n, long long* partials, unsigned* ticket, long long* out) {
  one_pass_sum<Publish::ReleaseAcquire>(in, n, partials, ticket, out);
}
__global__ void __launch_bounds__(kThreads)
sumNoFence(const int* __restrict__ in, size_t n, long long* partials, unsigned* ticket, long long* out) {
  one_pass_sum<Publish::None>(in, n, partials, ticket, out);
}

// Two launches, no fence: the completion of a kernel synchronizes with the start of the next one in
// the stream (PTX ISA, "API synchronization"), so everything sumPartials wrote is visible to sumFinal.
__global__ void __launch_bounds__(kThreads) sumPartials(const int* __restrict__ in, size_t n, long long* partials) {
  const long long s = block_sum<kThreads>(thread_sum(in, n));
  if (threadIdx.x == 0) partials[blockIdx.x] = s;
}
__global__ void __launch_bounds__(kThreads) sumFinal(const long long* partials, unsigned count, long long* out) {
  long long total = 0;
  for (unsigned blk = threadIdx.x; blk < count; blk += kThreads) total += partials[blk];
  total = block_sum<kThreads>(total);
  if (threadIdx.x == 0) *out = total;
}
