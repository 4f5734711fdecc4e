// Step 4: step 3 with 16-byte loads and stores, A's tile transposed and padded, and each thread's
// fragments read as 16-byte shared loads of contiguous float4.
#pragma once

#include "03_sgemmRegTile.cuh"  // kBM, kBN, kBK, kThreads, kVec4Step

// Elements (row, col .. col+3) of a row-major rows x cols matrix, zeros outside it. kVec: cols and
// col are multiples of 4, so the four are all inside or all outside, and 16-byte aligned: one
// 16-byte load (LDG.E.128). Otherwise four guarded single loads.
template <bool kVec>
__device__ __forceinline__ float4 load4(const float* __restrict__ m, int row, int col, int rows, int cols) {
  float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  if (row < rows) {
    const float* p = m + row * cols + col;
    if (kVec) {
      if (col < cols) v = *reinterpret_cast<const float4*>(p);
    } else {
      if (col < cols) v.x = p[0];
      if (col + 1 < cols) v.y = p[1];
      if (col + 2 < cols) v.z = p[2];
      if (col + 3 < cols) v.w = p[3];
    }
  }
  return v;
}

template <bool kVec>
__device__ __forceinline__ void store4(float* __restrict__ m, int row, int col, int rows, int cols, float4 v) {
  if (row >= rows) return;
  float* p = m + row * cols + col;
  if (kVec) {
    if (col < cols) *reinterpret_cast<float4*>(p) = v;
  } else {
    if (col < cols) p[0] = v.x;
    if (col + 1 < cols) p[1] = v.y;
    if (col + 2 < cols) p[2] = v.z;
    if (col + 3 < cols) p[3] = v.w;
  }
}

// The FMAs of one k: thread (ty, tx) owns rows {ty*4 + i, 64 + ty*4 + i} and columns
// {tx*4 + j, 64 + tx*4 + j}, i, j < 4 (four 4 x 4 blocks, 64 apart), so its 8 values of A and of
// B are two float4 each (LDS.128), and the 8 lanes of a quarter warp read 8 consecutive float4 of
// B, 32 different banks. A warp's LDS.128 of B still takes 4 wavefronts, one per quarter warp, and
// one of A 2 (the README's rule for LDS.128, which Nsight Compute's counts match). In general
// (sgemmWarpTile) the thread's rows start at a0 and a0 + a_step, its columns at b0 and b0 + b_step.
__device__ __forceinline__ void outer_product(float (&acc)[8][8], const float* As_k, const float* Bs_k, int a0,
                                              int a_step, int b0, int b_step) {
  const float4 a_lo = *reinterpret_cast<const float4*>(As_k + a0);
  const float4 a_hi = *reinterpret_cast<const float4*>(As_k + a0 + a_step);
  const float4 b_lo = *reinterpret_cast<const float4*>(Bs_k + b0);
  const float4 b_hi = *reinterpret_cast<const float4*>(Bs_k + b0 + b_step);
  const float a[8] = {a_lo.x, a_lo.y, a_lo.z, a_lo.w, a_hi.x, a_hi.y, a_hi.z, a_hi.w};
  const float b[8] = {b_lo.x, b_lo.y, b_lo.z, b_lo.w, b_hi.x, b_hi.y, b_hi.z, b_hi.w};
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
}
__device__ __forceinline__ void outer_product(float (&acc)[8][8], const float* As_k, const float* Bs_k, int ty,
                                              int tx) {
  outer_product(acc, As_k, Bs_k, ty * 4, kVec4Step, tx * 4, kVec4Step);
}

// C's rows r0 + i (+ r_step for i >= 4) and columns c0 + j (+ c_step for j >= 4) from acc.
template <bool kVec>
__device__ __forceinline__ void store_tile_at(float* __restrict__ C, const float (&acc)[8][8], int r0, int r_step,
                                           int c0, int c_step, int M, int N) {
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const int r = r0 + (i / 4) * r_step + i % 4;
#pragma unroll
    for (int h = 0; h < 2; ++h)
      store4<kVec>(C, r, c0 + h * c_step, M, N,
                   make_float4(acc[i][h * 4], acc[i][h * 4 + 1], acc[i][h * 4 + 2], acc[i][h * 4 + 3]));
  }
}
template <bool kVec>
__device__ __forceinline__ void store_tile(float* __restrict__ C, const float (&acc)[8][8], int bm, int bn, int ty,
                                           int tx, int M, int N) {
  store_tile_at<kVec>(C, acc, bm + ty * 4, kVec4Step, bn + tx * 4, kVec4Step, M, N);
}

// The A tile is stored transposed, As[k][m], so that a thread's 8 values of A for one k are
// contiguous. The transposing stores write a column of As: without padding, the two threads that
// load the same row of A (k 0..3 and 4..7) would hit the same bank 512 words apart; 4 words of
// padding per row shift the second by 16 banks, and the rows stay 16-byte aligned.
constexpr int kPadA = 4;

// 4. 16-byte loads and stores, transposed A, 16-byte fragment reads. Each thread
// loads one float4 of A's 128 x 8 tile (rows tid/2, k (tid%2)*4..) and one of B's 8 x 128 tile
// (row tid/32, columns (tid%32)*4..).
template <bool kVec>
__global__ void __launch_bounds__(kThreads, 2) sgemmVec4(const float* __restrict__ A, const float* __restrict__ B,
                                                      float* __restrict__ C, int M, int N, int K) {
  __shared__ __align__(16) float As[kBK][kBM + kPadA];
  __shared__ __align__(16) float Bs[kBK][kBN];
  const int tid = threadIdx.x, tx = tid % 16, ty = tid / 16;
  const int bm = blockIdx.y * kBM, bn = blockIdx.x * kBN;
  const int a_row = tid / 2, a_col = (tid % 2) * 4, b_row = tid / 32, b_col = (tid % 32) * 4;
  float acc[8][8] = {};
  for (int k0 = 0; k0 < K; k0 += kBK) {
    const float4 a = load4<kVec>(A, bm + a_row, k0 + a_col, M, K);
    const float4 b = load4<kVec>(B, k0 + b_row, bn + b_col, K, N);
    As[a_col + 0][a_row] = a.x;
    As[a_col + 1][a_row] = a.y;
    As[a_col + 2][a_row] = a.z;
    As[a_col + 3][a_row] = a.w;
    *reinterpret_cast<float4*>(&Bs[b_row][b_col]) = b;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kBK; ++k) outer_product(acc, As[k], Bs[k], ty, tx);
    __syncthreads();
  }
  store_tile<kVec>(C, acc, bm, bn, ty, tx, M, N);
}
