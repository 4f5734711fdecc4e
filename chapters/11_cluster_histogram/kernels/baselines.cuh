// Chapter 11, kernels 2 and 3: the two classic histograms every method is compared with. Included
// by cluster_histogram.cu; launched by its Hist::global() and Hist::private_smem().
#pragma once

#include "../histogram_lesson.h"

// 2. The baseline every histogram is compared with: one global atomic per element.
__global__ void global_atomics(int* bins, int nbins, const int* __restrict__ input, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += blockDim.x * size_t(gridDim.x))
    atomicAdd(&bins[lesson::clamp_bin(input[i], nbins)], 1);
}

// 3. The classic: each block counts into its own shared histogram, then adds it to global.
__global__ void smem_private(int* bins, int nbins, const int* __restrict__ input, size_t n) {
  extern __shared__ int smem[];
  for (int i = threadIdx.x; i < nbins; i += blockDim.x) smem[i] = 0;
  __syncthreads();
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += blockDim.x * size_t(gridDim.x))
    atomicAdd(&smem[lesson::clamp_bin(input[i], nbins)], 1);
  __syncthreads();
  for (int i = threadIdx.x; i < nbins; i += blockDim.x)
    if (smem[i]) atomicAdd(&bins[i], smem[i]);
}
