// Step 6: step 5 with each warp's 32 threads on one compact 32 x 64 tile of C.
#pragma once

#include "05_sgemmDoubleBuffer.cuh"  // kBK2; load4, store_tile_at, outer_product

// 6. Warp tiling: sgemmDoubleBuffer with the threads of each warp packed into one compact tile of
// C. Warp w (of 8) owns the 32 x 64 tile at rows (w / 2) * 32, columns (w % 2) * 64; lane (ty, tx)
// = (lane / 8, lane % 8) owns rows {ty*4 + i, 16 + ty*4 + i} and columns {tx*4 + j, 32 + tx*4 + j}
// of it. A fragment load of A then touches 4 distinct float4 (64 bytes, broadcast to 8 lanes
// each) and one of B 8 distinct float4 (128 bytes), where in sgemmDoubleBuffer a warp spans 2 rows
// of 16 threads and a load of B touches 16 float4 (256 bytes). Fewer distinct bytes per load do
// not make fewer wavefronts here: by the README's reading of LDS.128 (one wavefront per quarter
// warp, per half warp when lane n has lane n ^ 1's address) a load of B costs 4 in both kernels (a
// quarter warp reads 8 consecutive float4) and a load of A 2 in both (lane n shares lane n ^ 1's
// float4); Nsight Compute counts 3.0 per shared load for both (README). Loads and stages as in 5.
template <bool kVec>
__global__ void __launch_bounds__(kThreads, 2) sgemmWarpTile(const float* __restrict__ A, const float* __restrict__ B,
                                                          float* __restrict__ C, int M, int N, int K) {
  __shared__ __align__(16) float As[2][kBK2][kBM + kPadA];
  __shared__ __align__(16) float Bs[2][kBK2][kBN];
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int bm = blockIdx.y * kBM, bn = blockIdx.x * kBN;
  const int a0 = (warp / 2) * 32 + (lane / 8) * 4, b0 = (warp % 2) * 64 + (lane % 8) * 4;
  constexpr int kLoads = kBK2 * kBM / 4 / kThreads;
  float acc[8][8] = {};
  float4 a[kLoads], b[kLoads];
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
    const bool next = k0 + kBK2 < K;  // uniform over the block
    if (next) load_tile(k0 + kBK2);
#pragma unroll
    for (int k = 0; k < kBK2; ++k) outer_product(acc, As[s][k], Bs[s][k], a0, 16, b0, 32);
    if (next) {
      store_tile_smem(s ^ 1);
      __syncthreads();
      s ^= 1;
    }
  }
  store_tile_at<kVec>(C, acc, bm + a0, 16, bn + b0, 32, M, N);
}
