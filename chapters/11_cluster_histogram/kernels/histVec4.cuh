// Chapter 11, kernel 7: histVec4, the source's cluster kernel made fast where the bins fit in one
// block (cluster 1); in a cluster of 2 or more it is not (README, "When does distributed shared
// memory pay?"). Included by cluster_histogram.cu; launched by its Hist::ours().
#pragma once

#include "../histogram_lesson.h"
#include "cluster_support.cuh"

// 7. Ours. The histogram is bound by reading n*4 bytes if the atomics keep up. So: 16-byte loads,
// two of them in flight per thread per iteration; `copies` private copies of the block's bins
// (warp w counts into copy w % copies), which spreads hot bins over more addresses; and, when the
// cluster is a single block, plain shared-memory atomics instead of the generic address that
// map_shared_rank returns. bins_per_block is a power of two: shifts, not divisions.
using lesson::kOursThreads;  // 1024 (histogram_lesson.h), the block histPacked uses too
__global__ void __launch_bounds__(kOursThreads)
histVec4(int* bins, int nbins, int bpb_log2, int copies, const int* __restrict__ input, size_t n) {
#ifndef WB_NO_CLUSTERS
  extern __shared__ int smem[];
  cg::cluster_group cluster = cg::this_cluster();
  const int bpb = 1 << bpb_log2;
  const bool one_block = cluster.num_blocks() == 1;
  for (int i = threadIdx.x; i < copies * bpb; i += kOursThreads) smem[i] = 0;
  cluster.sync();

  const int copy_base = ((threadIdx.x / 32) % copies) << bpb_log2;
  auto count = [&](int v) {
    const int b = lesson::clamp_bin(v, nbins);
    if (one_block) {
      atomicAdd(&smem[copy_base + b], 1);
    } else {
      int* dst = cluster.map_shared_rank(smem, b >> bpb_log2);
      atomicAdd(dst + copy_base + (b & (bpb - 1)), 1);
    }
  };
  const int4* in4 = reinterpret_cast<const int4*>(input);  // cudaMalloc: 256-byte aligned
  const size_t n4 = n / 4, stride = size_t(gridDim.x) * kOursThreads;
  size_t i = blockIdx.x * size_t(kOursThreads) + threadIdx.x;
  for (; i + stride < n4; i += 2 * stride) {
    const int4 a = in4[i], b = in4[i + stride];
    count(a.x); count(a.y); count(a.z); count(a.w);
    count(b.x); count(b.y); count(b.z); count(b.w);
  }
  for (; i < n4; i += stride) {
    const int4 a = in4[i];
    count(a.x); count(a.y); count(a.z); count(a.w);
  }
  const size_t t = 4 * n4 + blockIdx.x * size_t(kOursThreads) + threadIdx.x;  // the last n % 4
  if (t < n) count(input[t]);
  cluster.sync();

  int* lbins = bins + (size_t(cluster.block_rank()) << bpb_log2);
  for (int j = threadIdx.x; j < bpb; j += kOursThreads) {
    int s = 0;
    for (int c = 0; c < copies; ++c) s += smem[(c << bpb_log2) + j];
    if (s) atomicAdd(&lbins[j], s);
  }
#endif
}
