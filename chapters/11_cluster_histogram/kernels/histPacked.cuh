// Chapter 11, kernel 8: histPacked and histPackedSum, ours, for any bin count: block-private
// packed counters (kernels/packed_counter.cuh), as many passes over the input as the bins need.
// Included by cluster_histogram.cu; launched by its Hist::packed().
#pragma once

#include "../histogram_lesson.h"
#include "packed_counter.cuh"

using lesson::kOursThreads;  // 1024 (histogram_lesson.h), the block histVec4 uses too

// 8. Ours, for every bin count. Three ideas:
//  - Packed counters. A 32-bit shared word holds 32/kBits counters of kBits bits (bin b is field
//    b % per_word of word b / per_word), and counting is one atomicAdd of 1 << (field * kBits).
//    Halving the width doubles the bins one block holds, and when the bins do not fit, fewer bins
//    per block means more passes over the whole input: on sm_90 (227 KB), 262,144 bins take 5
//    passes with 32-bit counters, 3 with 16-bit and 2 with 8-bit.
//  - Passes sized from the GPU, split evenly: pass_bins = ceil(nbins / passes) rounded up to whole
//    16-byte vectors (a multiple of 4 * 32/kBits bins: packed_plan in cluster_histogram.cu), the
//    fewest passes the opt-in shared memory allows; a persistent grid, one 1024-thread block per SM (nvcc 13.0
//    gives it 64 registers a thread, all that __launch_bounds__(1024, 1) allows, and 1,024 threads
//    of 64 fill the register file: the README's SASS section shows the count); each block
//    writes its packed counters to `partial` (plain, coalesced stores: no global atomics per bin)
//    and histPackedSum adds the blocks up.
//  - Values outside [0, nbins) are counted in registers during the first pass and added to the
//    first and last bin once per block: the `source` input (ours, clamped) puts 3.0 to 3.8% of its
//    values there, which would otherwise make those two the hottest shared counters. The end bins'
//    in-range values are counted in shared memory like any other, and can wrap.
// Overflow is exact: see carry_out (packed_counter.cuh). `wraps` (may be null) counts the wraps, for the lesson.

// Calls f(v) on every value of input[0, n) that this thread owns in a grid-stride walk: kUnroll
// 16-byte loads in flight per thread (4 is a choice; no committed measurement compares 2 or 8),
// then the n % 4 tail.
template <int kUnroll, class F>
__device__ __forceinline__ void for_each_value(const int* __restrict__ input, size_t n, F&& f) {
  const int4* in4 = reinterpret_cast<const int4*>(input);  // cudaMalloc: 256-byte aligned
  const size_t n4 = n / 4, stride = size_t(gridDim.x) * blockDim.x;
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  for (; i + (kUnroll - 1) * stride < n4; i += kUnroll * stride) {
    int4 v[kUnroll];
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) v[k] = in4[i + k * stride];
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) {
      f(v[k].x); f(v[k].y); f(v[k].z); f(v[k].w);
    }
  }
  for (; i < n4; i += stride) {
    const int4 v = in4[i];
    f(v.x); f(v.y); f(v.z); f(v.w);
  }
  const size_t t = 4 * n4 + blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (t < n) f(input[t]);
}

template <int kBits, int kUnroll = 4>
__global__ void __launch_bounds__(kOursThreads, 1)
histPacked(unsigned* bins, int nbins, int pass_bins, const int* __restrict__ input, size_t n,
           unsigned* __restrict__ partial, unsigned* wraps) {
  constexpr int kPer = 32 / kBits;
  constexpr unsigned kMax = kBits == 32 ? ~0u : (1u << kBits) - 1;
  extern __shared__ uint4 hist4[];  // packed_words(pass_bins, kBits) words, at least 4
  unsigned* hist = reinterpret_cast<unsigned*>(hist4);
  uint4* mine = reinterpret_cast<uint4*>(partial + size_t(blockIdx.x) * packed_words(nbins, kBits));
  unsigned below = 0, above = 0;  // this thread's values < 0 and >= nbins

  for (int lo = 0; lo < nbins; lo += pass_bins) {
    const int range = min(pass_bins, nbins - lo);
    const int vecs = packed_words(range, kBits) / 4;
    for (int w = threadIdx.x; w < vecs; w += kOursThreads) hist4[w] = make_uint4(0, 0, 0, 0);
    __syncthreads();
    auto add = [&](int v) {
      const unsigned b = unsigned(v) - unsigned(lo);  // < range: this pass's bin; else skipped
      if (b < unsigned(range)) {
        if constexpr (kBits == 32) {
          atomicAdd(&hist[b], 1u);  // counts < 2^31: a 32-bit counter cannot wrap
        } else {
          const int field = b % kPer, shift = field * kBits;
          const unsigned old = atomicAdd(&hist[b / kPer], 1u << shift);
          if (((old >> shift) & kMax) == kMax) carry_out<kBits>(bins, lo + int(b) - field, lo + range, field, old, wraps);
        }
      }
    };
    if (lo == 0) {
      for_each_value<kUnroll>(input, n, [&](int v) {
        below += v < 0;
        above += v >= nbins;
        add(v);
      });
    } else {
      for_each_value<kUnroll>(input, n, add);
    }
    __syncthreads();  // every count of this pass is in
    for (int w = threadIdx.x; w < vecs; w += kOursThreads) mine[lo / kPer / 4 + w] = hist4[w];
    __syncthreads();  // read out before the next pass zeroes it
  }

  // The clamped values: a block total each through two shared words, then one global atomic each.
  for (int o = 16; o > 0; o /= 2) {
    below += __shfl_xor_sync(0xffffffffu, below, o);
    above += __shfl_xor_sync(0xffffffffu, above, o);
  }
  if (threadIdx.x == 0) hist[0] = hist[1] = 0;
  __syncthreads();
  if (threadIdx.x % 32 == 0) {
    if (below) atomicAdd(&hist[0], below);
    if (above) atomicAdd(&hist[1], above);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    if (hist[0]) atomicAdd(&bins[0], hist[0]);
    if (hist[1]) atomicAdd(&bins[nbins - 1], hist[1]);
  }
}

// bins[b] += the field of bin b summed over the `blocks` packed partial histograms. One thread per
// word; its loads across blocks are independent, eight in flight. The fields of one block are below
// 2^kBits, so the sums cannot carry from field to field: each field is summed on its own.
template <int kBits>
__global__ void histPackedSum(unsigned* bins, int nbins, const unsigned* __restrict__ partial, int blocks) {
  constexpr int kPer = 32 / kBits;
  constexpr unsigned kMask = kBits == 32 ? ~0u : (1u << kBits) - 1;
  const int words = (nbins + kPer - 1) / kPer, stride = packed_words(nbins, kBits);
  for (int w = blockIdx.x * blockDim.x + threadIdx.x; w < words; w += gridDim.x * blockDim.x) {
    unsigned s[kPer] = {};
    auto add = [&](unsigned x) {
#pragma unroll
      for (int f = 0; f < kPer; ++f) s[f] += (x >> (f * kBits % 32)) & kMask;
    };
    int b = 0;
    for (; b + 8 <= blocks; b += 8) {
      unsigned x[8];
#pragma unroll
      for (int k = 0; k < 8; ++k) x[k] = partial[size_t(b + k) * stride + w];
#pragma unroll
      for (int k = 0; k < 8; ++k) add(x[k]);
    }
    for (; b < blocks; ++b) add(partial[size_t(b) * stride + w]);
#pragma unroll
    for (int f = 0; f < kPer; ++f)
      if (w * kPer + f < nbins) bins[w * kPer + f] += s[f];
  }
}
