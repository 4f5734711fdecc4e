// common/block_reduce.cuh — the block-wide sum that the reduction kernels of ours use (chapter 04's
// reduceVec4, chapter 06's reduceUnrollShflVec and reduceFinal, chapter 10's one-pass sums). It is the pattern of the book's
// reduceShfl (source 003, section 5.6.3): each warp sums its 32 values with a butterfly of
// __shfl_xor_sync, lane 0 of each warp leaves the warp's sum in shared memory, and warp 0 sums those.
// No shared-memory tree, one barrier.
#pragma once

namespace wb {

// The butterfly: after the step with mask m, lane l holds the sum over the 32/m lanes whose low
// log2(m) bits equal l's (after 16: l and l^16), so after 16, 8, 4, 2, 1 every lane holds the warp's
// sum (chapter 04's butterfly_lanes prints the sets). All 32 lanes must call it.
// T is unsigned (sums modulo 2^32) or long long (chapter 10's exact sums of signed ints).
template <class T>
__device__ __forceinline__ T warp_sum(T v) {
#pragma unroll
  for (int mask = 16; mask > 0; mask >>= 1) v += __shfl_xor_sync(0xffffffffu, v, mask);
  return v;
}

// Sum over a block of kThreads threads (whole warps); the result is valid in thread 0. Every thread
// of the block must call it (it holds a barrier). Unsigned sums wrap modulo 2^32, which is defined
// and independent of the order of the additions; long long sums are exact while they fit.
template <int kThreads, class T>
__device__ T block_sum(T v) {
  static_assert(kThreads % 32 == 0 && kThreads <= 1024, "whole warps, at most 1024 threads");
  __shared__ T warp_sums[kThreads / 32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  v = warp_sum(v);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  v = threadIdx.x < kThreads / 32 ? warp_sums[threadIdx.x] : T(0);
  if (warp == 0) v = warp_sum(v);
  return v;
}

}  // namespace wb
