// Step 3: step 2's tiles grown to 128 x 128, and 8 x 8 outputs per thread held in registers.
#pragma once

// Ours. Steps 3 to 6 compute a 128 x 128 tile of C per block of 256 threads, 64 elements per
// thread, walking K in steps of 8 (16 in 5. and 6.). Per k a thread reads 8 values of A and 8 of
// B from shared memory and does 64 FMAs with them (the source's tiled kernel: 2 operands per FMA,
// which the compiler loads as 20 shared loads per 16 FMAs), and the block reads its tiles of A and
// B from global memory once for 128 rows or columns, not 16.
// Indices are ints: the program's sizes are at most 2^15, so row * ld + col < 2^30.
#include "../matMul_tiles.h"  // kBM = kBN = 128, kBK = 8, kThreads = 256

// 3. Larger tiles, several outputs per thread. Thread (ty, tx) of a 16 x 16 grid owns the 8 x 8
// block of C at rows ty*8.., columns tx*8..; its 64 sums stay in registers for the whole K loop.
// Loads are single floats, guarded: zeros outside the matrices.
__global__ void __launch_bounds__(kThreads, 2) sgemmRegTile(const float* __restrict__ A, const float* __restrict__ B,
                                                         float* __restrict__ C, int M, int N, int K) {
  __shared__ float As[kBM][kBK];
  __shared__ float Bs[kBK][kBN];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int bm = blockIdx.y * kBM, bn = blockIdx.x * kBN;
  float acc[8][8] = {};
  for (int k0 = 0; k0 < K; k0 += kBK) {
#pragma unroll
    for (int s = 0; s < kBM * kBK / kThreads; ++s) {  // 4 elements of A's tile, 4 of B's, per thread
      const int i = threadIdx.x + s * kThreads;
      const int ar = i / kBK, ac = i % kBK;  // a warp reads 4 rows x 8 floats of A
      As[ar][ac] = bm + ar < M && k0 + ac < K ? A[(bm + ar) * K + k0 + ac] : 0.0f;
      const int br = i / kBN, bc = i % kBN;  // and 32 consecutive floats of a row of B
      Bs[br][bc] = k0 + br < K && bn + bc < N ? B[(k0 + br) * N + bn + bc] : 0.0f;
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kBK; ++k) {
      float a[8], b[8];
#pragma unroll
      for (int i = 0; i < 8; ++i) a[i] = As[ty * 8 + i][k];
#pragma unroll
      for (int j = 0; j < 8; ++j) b[j] = Bs[k][tx * 8 + j];
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] += a[i] * b[j];
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      const int r = bm + ty * 8 + i, c = bn + tx * 8 + j;
      if (r < M && c < N) C[r * N + c] = acc[i][j];
    }
}
