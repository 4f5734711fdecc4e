// Step 5: step 4 with two shared stages (the next tile loaded while this one is used, one barrier
// per tile) and a 16-deep k-tile.
#pragma once

#include "04_sgemmVec4.cuh"  // load4, store_tile, outer_product, kPadA

// 5. Double buffering, and twice the k-tile. Two shared stages: while the block computes on stage
// s, each thread has already issued the global loads of the next tile into registers, and stores
// them into stage s^1, which nobody reads during this step. One barrier per tile instead of two,
// and the global latency hides behind the FMAs. The k-tile is 16 deep (1024 FMAs per thread
// between barriers); each thread loads two float4 of each tile. With 4 threads per row of A's
// tile, each transposing store is a 2-way bank conflict (two lanes of a row write k 8 apart:
// 8 x 132 words, a multiple of 32): 8 stores per 1024 FMAs, one extra wavefront each, about all
// the bank conflicts that the README's stall table counts for this kernel.
constexpr int kBK2 = 16;
template <bool kVec>
__global__ void __launch_bounds__(kThreads, 2) sgemmDoubleBuffer(const float* __restrict__ A,
                                                                 const float* __restrict__ B, float* __restrict__ C,
                                                                 int M, int N, int K) {
  __shared__ __align__(16) float As[2][kBK2][kBM + kPadA];
  __shared__ __align__(16) float Bs[2][kBK2][kBN];
  const int tid = threadIdx.x, tx = tid % 16, ty = tid / 16;
  const int bm = blockIdx.y * kBM, bn = blockIdx.x * kBN;
  constexpr int kLoads = kBK2 * kBM / 4 / kThreads;  // float4 per thread per tile, of A and of B: 2
  float acc[8][8] = {};
  float4 a[kLoads], b[kLoads];
  // Load j of a thread is float4 f = tid + 256 j: A's (row f / 4, k (f % 4) * 4 ..), B's
  // (k f / 32, column (f % 32) * 4 ..).
  auto load_tile = [&](int k0) {
#pragma unroll
    for (int j = 0; j < kLoads; ++j) {
      const int f = tid + j * kThreads;
      a[j] = load4<kVec>(A, bm + f / 4, k0 + (f % 4) * 4, M, K);
      b[j] = load4<kVec>(B, k0 + f / 32, bn + (f % 32) * 4, K, N);
    }
  };
  auto store_tile_smem = [&](int s) {
#pragma unroll
    for (int j = 0; j < kLoads; ++j) {
      const int f = tid + j * kThreads, row = f / 4, k = (f % 4) * 4;
      As[s][k + 0][row] = a[j].x;
      As[s][k + 1][row] = a[j].y;
      As[s][k + 2][row] = a[j].z;
      As[s][k + 3][row] = a[j].w;
      *reinterpret_cast<float4*>(&Bs[s][f / 32][(f % 32) * 4]) = b[j];
    }
  };
  load_tile(0);
  store_tile_smem(0);
  __syncthreads();
  int s = 0;
  for (int k0 = 0; k0 < K; k0 += kBK2) {
    const bool next = k0 + kBK2 < K;  // the same for the whole block: the barrier below is uniform
    if (next) load_tile(k0 + kBK2);   // in flight during the FMAs below
#pragma unroll
    for (int k = 0; k < kBK2; ++k) outer_product(acc, As[s][k], Bs[s][k], ty, tx);
    if (next) {
      store_tile_smem(s ^ 1);  // stage s^1 was last read in the previous step, before its barrier
      __syncthreads();
      s ^= 1;
    }
  }
  store_tile<kVec>(C, acc, bm, bn, ty, tx, M, N);
}
