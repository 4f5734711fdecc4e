// Chapter 11, kernel 1: the source's clusterHist_kernel (004 "分布式共享内存"). The bins are split
// across the blocks of a thread-block cluster; each element is counted with an atomicAdd into the
// owning block's shared memory, reached with cluster.map_shared_rank (distributed shared memory).
// Read it first. Included by cluster_histogram.cu; launched (512 threads a block,
// lesson::kSourceThreads) by its Hist::source(). diagrams/cluster_bins.svg draws one printed case.
#pragma once

#include "../histogram_lesson.h"
#include "cluster_support.cuh"

// 1. The source's kernel. Changes: the thread index and the loop variable are size_t (004's int
// tid and int i overflow past 2^31 elements), computed from blockIdx/threadIdx; bins are clamped as
// it describes. Unchanged: the epilogue adds every bin, zeros included.
__global__ void clusterHist_kernel(int* bins, const int nbins, const int bins_per_block,
                                   const int* __restrict__ input, size_t array_size) {
#ifndef WB_NO_CLUSTERS
  extern __shared__ int smem[];
  const size_t tid = blockIdx.x * size_t(blockDim.x) + threadIdx.x;

  cg::cluster_group cluster = cg::this_cluster();

  for (int i = threadIdx.x; i < bins_per_block; i += blockDim.x) smem[i] = 0;

  // Every block's bins are zero, and every block of the cluster is running, before anyone
  // writes into anyone else's shared memory.
  cluster.sync();

  for (size_t i = tid; i < array_size; i += blockDim.x * size_t(gridDim.x)) {
    const int binid = lesson::clamp_bin(input[i], nbins);
    // The block that owns this bin, and the bin's place in that block's shared memory.
    const int dst_block_rank = binid / bins_per_block;
    const int dst_offset = binid % bins_per_block;
    int* dst_smem = cluster.map_shared_rank(smem, dst_block_rank);
    atomicAdd(dst_smem + dst_offset, 1);
  }

  // All distributed-shared-memory updates are done, and no block exits (freeing its shared
  // memory) while another may still be adding into it.
  cluster.sync();

  int* lbins = bins + cluster.block_rank() * bins_per_block;
  for (int i = threadIdx.x; i < bins_per_block; i += blockDim.x) atomicAdd(&lbins[i], smem[i]);
#endif
}
