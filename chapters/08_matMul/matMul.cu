// Chapter 08 — matMul: the CUDA Programming Guide's matrix multiply from source 004, without and
// with shared memory, then step by step to a fast FP32 SGEMM, with cuBLAS beside it.
//
// Build without CMake, in this folder:
//   nvcc -std=c++17 -O3 -arch=native -I../../common -o matMul matMul.cu -lcublas
// Run:    ./build/bin/matMul              (expected stdout: expected_outputs/matMul.txt)
//         ./build/bin/matMul --bench [--kernel NAME] [--reps 20] [--n N] [--csv-dir DIR]
//             times every kernel (or NAME, beside cuBLAS) on square FP32 matrices, n = 1024, 2048,
//             4096, 8192 (or only N), TFLOP/s = 2 n^3 / time; table to stderr, with --csv-dir
//             DIR/<gpu>/matMul.csv (matMul_NAME.csv)
//         ./build/bin/matMul --tune [--reps 20] [--n N] [--csv-dir DIR]
//             every tile shape of sgemmTuned in every block order at 2048 and 4096, the fastest
//             again at 8192, each checked; DIR/<gpu>/sgemm_tune.csv
//         ./build/bin/matMul --profile    one checked launch of each kernel at 4096^3 (for Nsight
//             Compute: chapters/08_matMul/matmul_traffic.py, sgemm_ncu.py)
//
// C (M x N) = A (M x K) * B (K x N), row-major floats. Kernels:
//   1. MatMulKernel (gmem::)  source 004 / the Programming Guide: one thread per element of C, the
//                             row of A and the column of B straight from global memory
//   2. MatMulKernel (smem::)  the same through 16 x 16 tiles of A and B in shared memory
//                             (GetSubMatrix, GetElement, SetElement, BLOCK_SIZE 16)
//   3. sgemmRegTile           ours: 128 x 128 tiles, 8 x 8 outputs per thread, held in registers
//   4. sgemmVec4              ours: 3. with 16-byte loads and stores, A's tile transposed and
//                             padded, fragments read with 16-byte shared loads, conflict-free
//   5. sgemmDoubleBuffer      ours: 4. with two shared stages (the next tile loaded while this one
//                             is used, one barrier per tile) and a 16-deep k-tile
//   6. sgemmWarpTile          ours: 5. with each warp's threads on one compact 32 x 64 tile of C
//   7. sgemmAsync             ours: 6. with cp.async copies into three shared stages (sm_80 and
//                             later; plain loads and stores below)
//   8. sgemmTuned             ours: 7. at the tile shape, stages and block order --tune chose
//   9. cublasSgemm            the library peer, CUBLAS_PEDANTIC_MATH: plain FP32 (no TF32, no
//                             tensor cores)
// Every kernel handles every size; the source's assume multiples of 16 (see README errata).
//
// Self-check (exit 1 on any mismatch): lesson cases use whole-number inputs, so C is exact and
// every element of every kernel must equal the CPU's. The benchmark uses random floats in
// [-1, 1): every element of every kernel (cuBLAS too) must lie within gamma_K * sum_k |a_ik b_kj|
// (gamma_K = K u / (1 - K u), u = 2^-24: the bound on rounding error of any summation order) of an
// FP64 reference computed on the GPU, which itself is checked against the CPU on three full rows.
#include <cublas_v2.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

#include "args.h"
#include "check.h"
#include "csv.h"
#include "cublas_check.h"
#include "matMul_lesson.h"
#include "report.h"
#include "timer.h"

#define BLOCK_SIZE 16  // the source's tile (and block) side

// ---------------------------------------------------------------------------------------------
// 1. Source 004's first listing. Each thread reads a row of A and a column of B: A is read
// B.width times and B A.height times. Fixed: the source's `A.elements[row * A.width + e *
// B.elements[...]` misses a bracket (it does not compile); the grid is rounded up and threads
// outside C do nothing, so any size works.
namespace gmem {
typedef struct {
  int width;
  int height;
  float* elements;
} Matrix;

__global__ void MatMulKernel(Matrix A, Matrix B, Matrix C) {
  float Cvalue = 0;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= C.height || col >= C.width) return;  // no barrier in this kernel: leaving is safe
  for (int e = 0; e < A.width; ++e) Cvalue += A.elements[row * A.width + e] * B.elements[e * B.width + col];
  C.elements[row * C.width + col] = Cvalue;
}

// As printed (bracket fixed), for the demonstration only: no bounds, so only for whole blocks.
__global__ void MatMulKernel_004(Matrix A, Matrix B, Matrix C) {
  float Cvalue = 0;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  for (int e = 0; e < A.width; ++e) Cvalue += A.elements[row * A.width + e] * B.elements[e * B.width + col];
  C.elements[row * C.width + col] = Cvalue;
}
}  // namespace gmem

// ---------------------------------------------------------------------------------------------
// 2. Source 004's second listing. A block computes a 16 x 16 sub-matrix Csub; it walks along A's
// block row and B's block column, one pair of 16 x 16 tiles at a time, each thread loading one
// element of each into shared memory. A is read B.width / BLOCK_SIZE times, B A.height /
// BLOCK_SIZE times. Fixed for any size: GetSubMatrix clips a sub-matrix at the matrix's right and
// bottom edges (its width and height are what is left there), GetElement returns 0 outside it (a
// zero adds nothing to the sum), SetElement ignores writes outside it, the tile loop rounds up,
// and the grid is rounded up. Every thread still reaches both barriers.
namespace smem {
typedef struct {
  int width;
  int height;
  int stride;
  float* elements;
} Matrix;

__device__ float GetElement(const Matrix A, int row, int col) {
  return row < A.height && col < A.width ? A.elements[row * A.stride + col] : 0.0f;
}

__device__ void SetElement(Matrix A, int row, int col, float value) {
  if (row < A.height && col < A.width) A.elements[row * A.stride + col] = value;
}

__device__ Matrix GetSubMatrix(Matrix A, int row, int col) {
  Matrix Asub;
  Asub.width = min(BLOCK_SIZE, A.width - BLOCK_SIZE * col);
  Asub.height = min(BLOCK_SIZE, A.height - BLOCK_SIZE * row);
  Asub.stride = A.stride;
  Asub.elements = &A.elements[A.stride * BLOCK_SIZE * row + BLOCK_SIZE * col];
  return Asub;
}

__global__ void MatMulKernel(Matrix A, Matrix B, Matrix C) {
  int blockRow = blockIdx.y;
  int blockCol = blockIdx.x;
  Matrix Csub = GetSubMatrix(C, blockRow, blockCol);
  float Cvalue = 0;
  int row = threadIdx.y;
  int col = threadIdx.x;
  for (int m = 0; m < (A.width + BLOCK_SIZE - 1) / BLOCK_SIZE; ++m) {
    Matrix Asub = GetSubMatrix(A, blockRow, m);
    Matrix Bsub = GetSubMatrix(B, m, blockCol);
    __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
    As[row][col] = GetElement(Asub, row, col);
    Bs[row][col] = GetElement(Bsub, row, col);
    __syncthreads();  // the tiles are complete before anyone reads them
    for (int e = 0; e < BLOCK_SIZE; ++e) Cvalue += As[row][e] * Bs[e][col];
    __syncthreads();  // everyone is done with them before the next pair overwrites them
  }
  SetElement(Csub, row, col, Cvalue);
}

// As printed: unclipped sub-matrices and A.width / BLOCK_SIZE tiles. Demonstration only.
__device__ Matrix GetSubMatrix_004(Matrix A, int row, int col) {
  Matrix Asub;
  Asub.width = BLOCK_SIZE;
  Asub.height = BLOCK_SIZE;
  Asub.stride = A.stride;
  Asub.elements = &A.elements[A.stride * BLOCK_SIZE * row + BLOCK_SIZE * col];
  return Asub;
}

__global__ void MatMulKernel_004(Matrix A, Matrix B, Matrix C) {
  int blockRow = blockIdx.y;
  int blockCol = blockIdx.x;
  Matrix Csub = GetSubMatrix_004(C, blockRow, blockCol);
  float Cvalue = 0;
  int row = threadIdx.y;
  int col = threadIdx.x;
  for (int m = 0; m < (A.width / BLOCK_SIZE); ++m) {
    Matrix Asub = GetSubMatrix_004(A, blockRow, m);
    Matrix Bsub = GetSubMatrix_004(B, m, blockCol);
    __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
    As[row][col] = GetElement(Asub, row, col);
    Bs[row][col] = GetElement(Bsub, row, col);
    __syncthreads();
    for (int e = 0; e < BLOCK_SIZE; ++e) Cvalue += As[row][e] * Bs[e][col];
    __syncthreads();
  }
  SetElement(Csub, row, col, Cvalue);
}
}  // namespace smem

// ---------------------------------------------------------------------------------------------
// Ours. All three compute a 128 x 128 tile of C per block of 256 threads, 8 x 8 elements per
// thread, walking K in steps of 8 (16 in 5.). Per step a thread reads 8 values of A and 8 of B from shared
// memory and does 64 FMAs with them (the source's tiled kernel: 2 reads per FMA), and the block
// reads its tiles of A and B from global memory once for 128 rows or columns, not 16.
// Indices are ints: the program's sizes stay below 2^15, so row * ld + col < 2^30.
constexpr int kBM = 128, kBN = 128, kBK = 8, kThreads = 256;

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
// B are two float4 each (LDS.128), and the 8 threads of a quarter warp that read B at the same
// time read 8 consecutive float4: 32 different banks, no conflict. In general (sgemmWarpTile) the
// thread's rows start at a0 and a0 + a_step, its columns at b0 and b0 + b_step.
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
  outer_product(acc, As_k, Bs_k, ty * 4, 64, tx * 4, 64);
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
  store_tile_at<kVec>(C, acc, bm + ty * 4, 64, bn + tx * 4, 64, M, N);
}

// The A tile is stored transposed, As[k][m], so that a thread's 8 values of A for one k are
// contiguous. The transposing stores write a column of As: without padding, the two threads that
// load the same row of A (k 0..3 and 4..7) would hit the same bank 512 words apart; 4 words of
// padding per row shift the second by 16 banks, and the rows stay 16-byte aligned.
constexpr int kPadA = 4;

// 4. 16-byte loads and stores, transposed A, conflict-free 16-byte fragment reads. Each thread
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

// 5. Double buffering, and twice the k-tile. Two shared stages: while the block computes on stage
// s, each thread has already issued the global loads of the next tile into registers, and stores
// them into stage s^1, which nobody reads during this step. One barrier per tile instead of two,
// and the global latency hides behind the FMAs. The k-tile is 16 deep (1024 FMAs per thread
// between barriers); each thread loads two float4 of each tile. With 4 threads per row of A's
// tile, the transposing stores are 2-way conflicts at worst (8 per 1024 FMAs: negligible).
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

// 6. Warp tiling: sgemmDoubleBuffer with the threads of each warp packed into one compact tile of
// C. Warp w (of 8) owns the 32 x 64 tile at rows (w / 2) * 32, columns (w % 2) * 64; lane (ty, tx)
// = (lane / 8, lane % 8) owns rows {ty*4 + i, 16 + ty*4 + i} and columns {tx*4 + j, 32 + tx*4 + j}
// of it. A fragment load of A then touches 4 distinct float4 (64 bytes, broadcast to 8 lanes
// each) and one of B 8 distinct float4 (128 bytes): one shared wavefront each. In sgemmDoubleBuffer
// a warp spans 2 rows of 16 threads, so each load of B touches 16 float4 (256 bytes): two
// wavefronts. Per k a warp needs 4 wavefronts instead of 6. Loads and stages as in 5.
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

// 7. and 8. Asynchronous copies into a ring of shared stages (sm_80 and later), one template for
// every tile shape the tune tries. Tiles<BM, BN, BK, WM, WN, RM, RN, STAGES, MINB>: a block
// computes a BM x BN tile of C with (BM / WM) x (BN / WN) warps of WM x WN; a thread computes
// RM x RN blocks of 4 x 4 (so 4 RM values of A and 4 RN of B per k: RM + RN LDS.128 per
// 16 RM RN FMAs). STAGES shared stages of a BK-deep tile; MINB blocks per SM for the register cap;
// PF 1: the fragments of k + 1 are loaded from shared memory before the FMAs of k (two register
// sets), so that their latency hides behind those FMAs.
template <int BM_, int BN_, int BK_, int WM_, int WN_, int RM_, int RN_, int STAGES_, int MINB_, int PF_ = 0>
struct Tiles {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, WM = WM_, WN = WN_, RM = RM_, RN = RN_, STAGES = STAGES_,
                       MINB = MINB_, PF = PF_;
  static constexpr int kThreads = (BM / WM) * (BN / WN) * 32;
  static constexpr int WTY = WM / (4 * RM), WTX = WN / (4 * RN);  // a warp's lanes: WTY x WTX
  static constexpr int kPadA = 4;  // As[k][BM + 4]: the transposing 4-byte copies are conflict-free
  static constexpr int kStageFloats = BK * (BM + kPadA) + BK * BN;
  static constexpr int kSmemBytes = STAGES * kStageFloats * int(sizeof(float));
  static constexpr int kALoads = BM * BK / kThreads;       // 4-byte copies of A per thread per tile
  static constexpr int kBLoads16 = BK * BN / 4 / kThreads;  // 16-byte copies of B (whole tiles)
  static constexpr int kBLoads4 = BK * BN / kThreads;       // 4-byte copies of B (edge tiles)
  static_assert(WTY * WTX == 32, "a warp's lanes must tile its warp tile");
  static_assert(BK % 8 == 0 && BM % 32 == 0 && BN % 4 == 0 && STAGES >= 2, "tile shape");
  static_assert(kALoads * kThreads == BM * BK && kBLoads16 * 4 * kThreads == BK * BN && kBLoads16 > 0,
                "every thread copies the same number of elements");
  static_assert(WTY <= 8 && WTX <= 8, "a fragment load of a warp fits one 128-byte wavefront");
};

// cp.async (LDGSTS): global to shared without registers, completed in groups. src_size 0 reads
// nothing and writes zeros (outside the matrices). Below sm_80 the same calls are plain loads and
// stores, so the kernel stays correct there (synchronous, no overlap): the barrier after
// cp_async_wait() then orders them like the asynchronous ones.
__device__ __forceinline__ void cp_async4(float* dst, const float* src, bool in) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(
                   static_cast<unsigned>(__cvta_generic_to_shared(dst))),
               "l"(src), "r"(in ? 4 : 0));
#else
  *dst = in ? *src : 0.0f;
#endif
}
__device__ __forceinline__ void cp_async16(float* dst, const float* src) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  // .cg: through L2 only; each 16 bytes of B is used once per block, from shared memory
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(
                   static_cast<unsigned>(__cvta_generic_to_shared(dst))),
               "l"(src));
#else
  *reinterpret_cast<float4*>(dst) = *reinterpret_cast<const float4*>(src);
#endif
}
__device__ __forceinline__ void cp_async_commit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::);
#endif
}
template <int kPending>  // wait until at most kPending of this thread's groups are in flight
__device__ __forceinline__ void cp_async_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending));
#endif
}

// The order in which blocks walk C (8.): block b of a 1-D grid takes tile row/column (tm, tn).
// group <= 1: row by row. Otherwise groups of `group` tile rows are walked column by column, so
// that the blocks resident at one time share a few rows of A and a few columns of B in L2.
__device__ __forceinline__ void block_tile(int group, int tiles_m, int tiles_n, int& tm, int& tn) {
  const int b = blockIdx.x;
  if (group <= 1) {
    tm = b / tiles_n, tn = b % tiles_n;
    return;
  }
  const int per_group = group * tiles_n, first = (b / per_group) * group;
  const int rows = min(group, tiles_m - first), in = b % per_group;
  tm = first + in % rows, tn = in / rows;
}

// The body of 7. and 8. kFull: M, N, K are multiples of BM, BN, BK (no bounds tests; B in 16-byte
// copies). Otherwise every copy is 4 bytes with its own bounds test, and stores are single floats.
template <class T, bool kFull>
__device__ __forceinline__ void sgemm_async_body(const float* __restrict__ A, const float* __restrict__ B,
                                                 float* __restrict__ C, int M, int N, int K, int group) {
  extern __shared__ __align__(16) float smem[];
  constexpr int BM = T::BM, BN = T::BN, BK = T::BK, LDA = BM + T::kPadA, NT = T::kThreads;
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  int tm, tn;
  block_tile(group, (M + BM - 1) / BM, (N + BN - 1) / BN, tm, tn);
  const int bm = tm * BM, bn = tn * BN;
  // this thread's first row of A and column of B inside the block tile
  const int a0 = (warp / (BN / T::WN)) * T::WM + (lane / T::WTX) * 4;
  const int b0 = (warp % (BN / T::WN)) * T::WN + (lane % T::WTX) * 4;
  const int ktiles = (K + BK - 1) / BK;

  // Copy k-tile kt into stage s. A: element e = tid + NT j of the tile is (row (e / 8) % BM,
  // k (e / 8BM) * 8 + e % 8): a warp reads 4 rows x 8 consecutive k (4 whole 32-byte sectors) and
  // writes As[k][m] at banks 4k + m (all 32 different). B: 16-byte pieces of its rows.
  // Whole tiles: every copy of a thread is its first one plus a constant offset in shared memory
  // and a constant number of rows (of K or N floats) plus a constant k in global memory, so a
  // thread keeps one pointer into A and one into B (and no bounds tests).
  constexpr int RA = 8 * BM / NT;  // copies of A per 8-deep slice of the tile
  const float* a_src = A + (bm + tid / 8 % BM) * K + tid % 8;
  const float* b_src = B + (tid / (BN / 4)) * N + bn + (tid % (BN / 4)) * 4;
  const int a_dst = (tid % 8) * LDA + tid / 8 % BM, b_dst = BK * LDA + (tid / (BN / 4)) * BN + (tid % (BN / 4)) * 4;
  auto copy_tile = [&](int kt, int s) {
    float* stage = smem + s * T::kStageFloats;
    const int k0 = kt * BK;
    if (kFull) {
      static_assert(NT % 8 == 0 && (8 * BM) % NT == 0 && NT % (BN / 4) == 0, "copy layout");
#pragma unroll
      for (int j = 0; j < T::kALoads; ++j)  // element e = tid + NT j: row tid / 8 + (NT / 8)(j % RA), k tid % 8 + 8 (j / RA)
        cp_async4(stage + a_dst + 8 * (j / RA) * LDA + (NT / 8) * (j % RA),
                  a_src + (NT / 8) * (j % RA) * K + k0 + 8 * (j / RA), true);
#pragma unroll
      for (int j = 0; j < T::kBLoads16; ++j)  // piece f = tid + NT j: row f / (BN / 4) = tid / (BN / 4) + j NT / (BN / 4)
        cp_async16(stage + b_dst + j * (NT / (BN / 4)) * BN, b_src + (k0 + j * (NT / (BN / 4))) * N);
    } else {
      float* as = stage;
      float* bs = stage + BK * LDA;
      // Edge tiles are rare (at most the last tile row, column and k-tile): loops, not unrolled,
      // so that their addresses and tests do not take the registers of the sums.
#pragma unroll 1
      for (int j = 0; j < T::kALoads; ++j) {
        const int e = tid + NT * j, m = (e / 8) % BM, k = (e / (8 * BM)) * 8 + e % 8;
        const bool in = bm + m < M && k0 + k < K;
        cp_async4(as + k * LDA + m, in ? A + (bm + m) * K + k0 + k : A, in);
      }
#pragma unroll 1
      for (int j = 0; j < T::kBLoads4; ++j) {
        const int e = tid + NT * j, k = e / BN, n = e % BN;
        const bool in = k0 + k < K && bn + n < N;
        cp_async4(bs + k * BN + n, in ? B + (k0 + k) * N + bn + n : B, in);
      }
    }
  };

  float acc[4 * T::RM][4 * T::RN] = {};
  // Prologue: the first STAGES - 1 tiles in flight, one commit group each (empty ones too, so
  // that group number = tile number).
#pragma unroll
  for (int s = 0; s < T::STAGES - 1; ++s) {
    if (s < ktiles) copy_tile(s, s);
    cp_async_commit();
  }
  for (int kt = 0; kt < ktiles; ++kt) {
    cp_async_wait<T::STAGES - 2>();  // this thread's copies of tile kt have landed
    __syncthreads();  // everyone's have; and everyone is done with tile kt - 1, whose stage is refilled now
    if (kt + T::STAGES - 1 < ktiles) copy_tile(kt + T::STAGES - 1, (kt + T::STAGES - 1) % T::STAGES);
    cp_async_commit();
    const float* as = smem + (kt % T::STAGES) * T::kStageFloats;
    const float* bs = as + BK * LDA;
    // One k: RM float4 of A and RN of B (LDS.128), 16 RM RN FMAs.
    auto fragments = [&](int k, float(&a)[4 * T::RM], float(&b)[4 * T::RN]) {
#pragma unroll
      for (int r = 0; r < T::RM; ++r) {
        const float4 v = *reinterpret_cast<const float4*>(as + k * LDA + a0 + r * (T::WM / T::RM));
        a[4 * r] = v.x, a[4 * r + 1] = v.y, a[4 * r + 2] = v.z, a[4 * r + 3] = v.w;
      }
#pragma unroll
      for (int r = 0; r < T::RN; ++r) {
        const float4 v = *reinterpret_cast<const float4*>(bs + k * BN + b0 + r * (T::WN / T::RN));
        b[4 * r] = v.x, b[4 * r + 1] = v.y, b[4 * r + 2] = v.z, b[4 * r + 3] = v.w;
      }
    };
    auto fmas = [&](const float(&a)[4 * T::RM], const float(&b)[4 * T::RN]) {
#pragma unroll
      for (int i = 0; i < 4 * T::RM; ++i)
#pragma unroll
        for (int j = 0; j < 4 * T::RN; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    };
    if (T::PF) {
      float a[2][4 * T::RM], b[2][4 * T::RN];
      fragments(0, a[0], b[0]);
#pragma unroll
      for (int k = 0; k < BK; ++k) {
        if (k + 1 < BK) fragments(k + 1, a[(k + 1) % 2], b[(k + 1) % 2]);
        fmas(a[k % 2], b[k % 2]);
      }
    } else {
#pragma unroll
      for (int k = 0; k < BK; ++k) {
        float a[4 * T::RM], b[4 * T::RN];
        fragments(k, a, b);
        fmas(a, b);
      }
    }
  }
  cp_async_wait<0>();  // nothing may be left in flight when the block exits (the groups are empty)
#pragma unroll
  for (int i = 0; i < 4 * T::RM; ++i) {
    const int r = bm + a0 + (i / 4) * (T::WM / T::RM) + i % 4;
#pragma unroll
    for (int h = 0; h < T::RN; ++h)
      store4<kFull>(C, r, bn + b0 + h * (T::WN / T::RN), M, N,
                    make_float4(acc[i][4 * h], acc[i][4 * h + 1], acc[i][4 * h + 2], acc[i][4 * h + 3]));
  }
}

// 7. The asynchronous copies on sgemmWarpTile's shape: 128 x 128 x 16, 32 x 64 warp tiles,
// three stages, blocks in row order.
using AsyncTiles = Tiles<lesson::kAsync.bm, lesson::kAsync.bn, lesson::kAsync.bk, lesson::kAsync.wm,
                         lesson::kAsync.wn, lesson::kAsync.rm, lesson::kAsync.rn, lesson::kAsync.stages,
                         lesson::kAsync.minb>;
template <class T, bool kFull>
__global__ void __launch_bounds__(T::kThreads, T::MINB) sgemmAsync(const float* __restrict__ A,
                                                                   const float* __restrict__ B, float* __restrict__ C,
                                                                   int M, int N, int K, int group) {
  sgemm_async_body<T, kFull>(A, B, C, M, N, K, group);
}

// 8. The same body at the shape, register tile, stage count and block order that --tune chose on
// the H100 and the H200 (plots/data/<gpu>/sgemm_tune.csv).
template <class T, bool kFull>
__global__ void __launch_bounds__(T::kThreads, T::MINB) sgemmTuned(const float* __restrict__ A,
                                                                   const float* __restrict__ B, float* __restrict__ C,
                                                                   int M, int N, int K, int group) {
  sgemm_async_body<T, kFull>(A, B, C, M, N, K, group);
}

// ---------------------------------------------------------------------------------------------
// Checking (not lesson kernels). ref = sum_k a_ik b_kj in FP64 (a product of two floats is exact
// in double), tol = 1.01 * gamma_K * sum_k |a_ik b_kj|.
__global__ void referenceFP64(const float* __restrict__ A, const float* __restrict__ B, double* __restrict__ ref,
                              float* __restrict__ tol, int M, int N, int K, double gamma) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N) return;
  double s = 0, sa = 0;
  for (int k = 0; k < K; ++k) {
    const double p = double(A[row * K + k]) * double(B[k * N + col]);
    s += p;
    sa += fabs(p);
  }
  ref[row * N + col] = s;
  tol[row * N + col] = float(1.01 * gamma * sa);
}

// Counts the elements of C outside the tolerance (NaN, the poison of an unwritten element, counts)
// and finds the largest |C - ref| / tol (a non-negative float, so its bits order like unsigned ints).
__global__ void countOutside(const float* __restrict__ C, const double* __restrict__ ref,
                             const float* __restrict__ tol, size_t n, unsigned long long* bad,
                             unsigned int* worst_bits) {
  unsigned long long mine = 0;
  float worst = 0.0f;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    const double err = fabs(double(C[i]) - ref[i]);
    mine += !(err <= double(tol[i]));
    if (tol[i] > 0.0f) worst = fmaxf(worst, float(err / tol[i]));  // fmaxf drops a NaN
  }
  if (mine) atomicAdd(bad, mine);
  atomicMax(worst_bits, __float_as_uint(worst));
}

// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// Launching the Tiles<> kernels: one instantiation for whole tiles and one for edges (none for the
// tune's shapes, which run only on whole tiles).
using SgemmFn = void (*)(const float*, const float*, float*, int, int, int, int);
struct TiledKernel {
  lesson::TileCfg cfg;
  SgemmFn full, edge;
  int smem_bytes;
};
template <class T>
constexpr lesson::TileCfg cfg_of(int group) {
  return {T::BM, T::BN, T::BK, T::WM, T::WN, T::RM, T::RN, T::STAGES, T::MINB, group, T::PF};
}
#define WB_TILES(c) Tiles<c.bm, c.bn, c.bk, c.wm, c.wn, c.rm, c.rn, c.stages, c.minb, c.pf>
using TunedSmallTiles = WB_TILES(lesson::kTunedSmall);
using TunedLargeTiles = WB_TILES(lesson::kTunedLarge);

static const TiledKernel kAsyncKernel = {lesson::kAsync, sgemmAsync<AsyncTiles, true>, sgemmAsync<AsyncTiles, false>,
                                         AsyncTiles::kSmemBytes};
static const TiledKernel kTunedSmallKernel = {lesson::kTunedSmall, sgemmTuned<TunedSmallTiles, true>,
                                              sgemmTuned<TunedSmallTiles, false>, TunedSmallTiles::kSmemBytes};
static const TiledKernel kTunedLargeKernel = {lesson::kTunedLarge, sgemmTuned<TunedLargeTiles, true>,
                                              sgemmTuned<TunedLargeTiles, false>, TunedLargeTiles::kSmemBytes};

// The tune's candidates (whole tiles only); each is timed in every block order of kTuneGroups.
template <int BM, int BN, int BK, int WM, int WN, int RM, int RN, int ST, int MINB, int PF = 0>
constexpr TiledKernel tune_entry() {
  using T = Tiles<BM, BN, BK, WM, WN, RM, RN, ST, MINB, PF>;
  return {cfg_of<T>(1), sgemmTuned<T, true>, nullptr, T::kSmemBytes};
}
static const TiledKernel kTuneKernels[] = {
    // 8 x 8 per thread (RM = RN = 2), 32 x 64 or 64 x 32 warp tiles
    tune_entry<128, 128, 16, 32, 64, 2, 2, 2, 2>(),
    tune_entry<128, 128, 16, 32, 64, 2, 2, 3, 2>(),
    tune_entry<128, 128, 16, 32, 64, 2, 2, 4, 2>(),
    tune_entry<128, 128, 8, 32, 64, 2, 2, 4, 2>(),
    tune_entry<128, 128, 16, 64, 32, 2, 2, 3, 2>(),
    tune_entry<64, 256, 16, 32, 64, 2, 2, 3, 2>(),
    // 4 warps per block, 4 blocks per SM
    tune_entry<64, 128, 8, 32, 64, 2, 2, 4, 4>(),
    tune_entry<64, 128, 16, 32, 64, 2, 2, 3, 4>(),
    tune_entry<64, 128, 16, 32, 64, 2, 2, 4, 4>(),
    tune_entry<64, 128, 32, 32, 64, 2, 2, 2, 4>(),
    tune_entry<64, 128, 32, 32, 64, 2, 2, 3, 3>(),
    tune_entry<64, 128, 16, 32, 64, 2, 2, 4, 3, 1>(),
    tune_entry<64, 128, 16, 32, 64, 2, 2, 4, 4, 1>(),
    tune_entry<64, 128, 8, 32, 64, 2, 2, 4, 4, 1>(),
    // 8 x 16 or 16 x 8 per thread: more FMAs per shared load, fewer warps
    tune_entry<128, 128, 16, 64, 64, 2, 4, 3, 2>(),
    tune_entry<128, 128, 16, 64, 64, 2, 4, 3, 2, 1>(),
    tune_entry<128, 128, 16, 64, 64, 4, 2, 4, 2>(),
    tune_entry<128, 256, 16, 64, 64, 2, 4, 3, 1>(),
    tune_entry<128, 256, 16, 64, 64, 2, 4, 3, 1, 1>(),
    tune_entry<128, 256, 8, 64, 64, 2, 4, 3, 1, 1>(),
    tune_entry<128, 256, 8, 64, 64, 2, 4, 4, 1, 1>(),
    tune_entry<128, 256, 8, 64, 64, 4, 2, 3, 1, 1>(),
    tune_entry<128, 256, 16, 64, 64, 4, 2, 3, 1>(),
};
constexpr int kTuneGroups[] = {1, 8, 16};

static std::string cfg_name(const lesson::TileCfg& c) {
  char b[96];
  std::snprintf(b, sizeof b, "%dx%dx%d_w%dx%d_t%dx%d_s%d_b%d_g%d%s", c.bm, c.bn, c.bk, c.wm, c.wn, 4 * c.rm,
                4 * c.rn, c.stages, c.minb, c.group, c.pf ? "_pf" : "");
  return b;
}

// Launches a Tiles<> kernel; false (nothing launched) when this GPU's shared memory per block is
// too small for it or the sizes need the edge kernel it lacks.
static bool launch_tiled(const TiledKernel& k, int group, int smem_optin, const float* A, const float* B, float* C,
                         int M, int N, int K) {
  const lesson::TileCfg& c = k.cfg;
  const bool full = M % c.bm == 0 && N % c.bn == 0 && K % c.bk == 0;
  const SgemmFn f = full ? k.full : k.edge;
  if (!f || k.smem_bytes > smem_optin) return false;
  static std::vector<SgemmFn> ready;  // attributes set once per kernel, outside the timed runs
  if (std::find(ready.begin(), ready.end(), f) == ready.end()) {
    CUDA_CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(f), cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    k.smem_bytes));
    // A hint: as much shared memory as the carveout allows, so that MINB blocks fit beside each other.
    CUDA_CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(f),
                                    cudaFuncAttributePreferredSharedMemoryCarveout, cudaSharedmemCarveoutMaxShared));
    ready.push_back(f);
  }
  const int tiles = ((M + c.bm - 1) / c.bm) * ((N + c.bn - 1) / c.bn);
  f<<<tiles, c.threads(), k.smem_bytes>>>(A, B, C, M, N, K, group);
  return true;
}

struct Runner {
  cublasHandle_t cublas;
  int smem_optin = 48 << 10;  // cudaDeviceProp::sharedMemPerBlockOptin

  void launch(lesson::Kind k, const float* A, const float* B, float* C, int M, int N, int K) {
    const dim3 block16(BLOCK_SIZE, BLOCK_SIZE);
    const dim3 grid16((N + BLOCK_SIZE - 1) / BLOCK_SIZE, (M + BLOCK_SIZE - 1) / BLOCK_SIZE);
    const dim3 grid128((N + kBN - 1) / kBN, (M + kBM - 1) / kBM);
    const bool vec = K % 4 == 0 && N % 4 == 0;
    switch (k) {
      case lesson::Gmem:
        gmem::MatMulKernel<<<grid16, block16>>>({K, M, const_cast<float*>(A)}, {N, K, const_cast<float*>(B)},
                                                {N, M, C});
        break;
      case lesson::Smem:  // the source omits this host code; stride = width for whole matrices
        smem::MatMulKernel<<<grid16, block16>>>({K, M, K, const_cast<float*>(A)}, {N, K, N, const_cast<float*>(B)},
                                                {N, M, N, C});
        break;
      case lesson::RegTile: sgemmRegTile<<<grid128, kThreads>>>(A, B, C, M, N, K); break;
      case lesson::Vec4:
        if (vec) sgemmVec4<true><<<grid128, kThreads>>>(A, B, C, M, N, K);
        else sgemmVec4<false><<<grid128, kThreads>>>(A, B, C, M, N, K);
        break;
      case lesson::DoubleBuffer:
        if (vec) sgemmDoubleBuffer<true><<<grid128, kThreads>>>(A, B, C, M, N, K);
        else sgemmDoubleBuffer<false><<<grid128, kThreads>>>(A, B, C, M, N, K);
        break;
      case lesson::WarpTile:
        if (vec) sgemmWarpTile<true><<<grid128, kThreads>>>(A, B, C, M, N, K);
        else sgemmWarpTile<false><<<grid128, kThreads>>>(A, B, C, M, N, K);
        break;
      case lesson::Async:  // 49,920 bytes of shared memory: fits every GPU from sm_75 on
        if (!launch_tiled(kAsyncKernel, kAsyncKernel.cfg.group, smem_optin, A, B, C, M, N, K)) {
          std::fprintf(stderr, "sgemmAsync: %d bytes of shared memory per block do not fit this GPU\n",
                       kAsyncKernel.smem_bytes);
          std::exit(wb::kFail);
        }
        break;
      case lesson::Tuned: {  // the tuned shape for this size; where this GPU cannot hold it, sgemmAsync's
        const TiledKernel& t = (long long)M * N >= lesson::kTunedLargeFrom ? kTunedLargeKernel : kTunedSmallKernel;
        if (!launch_tiled(t, t.cfg.group, smem_optin, A, B, C, M, N, K))
          launch(lesson::Async, A, B, C, M, N, K);
        break;
      }
      case lesson::Cublas: {
        // cuBLAS is column-major. Row-major C (M x N) is column-major C^T (N x M), and
        // C^T = B^T A^T, where row-major B and A are column-major B^T (N x K, ld N) and A^T
        // (K x M, ld K): so ask for the column-major product B^T A^T, of shape N x M.
        const float alpha = 1.0f, beta = 0.0f;
        CUBLAS_CHECK(cublasSgemm(cublas, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, B, N, A, K, &beta, C, N));
        break;
      }
    }
    CUDA_CHECK_LAUNCH();
  }
};

static int g_failures = 0;

// Runs kernel k on the case's A and B (already on the device) into a poisoned C.
static void run_into(Runner& run, lesson::Kind k, lesson::Case s, const float* dA, const float* dB, float* dC,
                     std::vector<float>& h_C) {
  const size_t nc = size_t(s.M) * s.N;
  CUDA_CHECK(cudaMemset(dC, 0xff, nc * sizeof(float)));  // NaN: an unwritten element fails
  run.launch(k, dA, dB, dC, s.M, s.N, s.K);
  h_C.resize(nc);
  CUDA_CHECK(cudaMemcpy(h_C.data(), dC, nc * sizeof(float), cudaMemcpyDeviceToHost));
}

static long long checksum(const std::vector<float>& C) {
  long long sum = 0;
  for (float v : C) sum += std::isfinite(v) ? static_cast<long long>(v) : 0;
  return sum;
}

static void run_lesson(Runner& run) {
  size_t max_a = 0, max_b = 0, max_c = 0;
  for (auto s : lesson::kCases) {
    max_a = std::max(max_a, size_t(s.M) * s.K);
    max_b = std::max(max_b, size_t(s.K) * s.N);
    max_c = std::max(max_c, size_t(s.M) * s.N);
  }
  float *dA, *dB, *dC;
  CUDA_CHECK(cudaMalloc(&dA, max_a * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dB, max_b * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dC, max_c * sizeof(float)));
  std::vector<float> A, B, C;

  lesson::print_header();
  for (size_t c = 0; c < std::size(lesson::kCases); ++c) {
    const lesson::Case s = lesson::kCases[c];
    lesson::fill(s, A, B);
    CUDA_CHECK(cudaMemcpy(dA, A.data(), A.size() * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dB, B.data(), B.size() * sizeof(float), cudaMemcpyHostToDevice));
    // The CPU reference, in double; exact (see matMul_lesson.h).
    std::vector<double> ref(size_t(s.M) * s.N, 0.0);
    for (int i = 0; i < s.M; ++i)
      for (int k = 0; k < s.K; ++k)
        for (int j = 0; j < s.N; ++j) ref[size_t(i) * s.N + j] += double(A[size_t(i) * s.K + k]) * B[size_t(k) * s.N + j];

    bool printed = false;
    for (const auto& kern : lesson::kKernels) {
      run_into(run, kern.kind, s, dA, dB, dC, C);
      size_t bad = 0;
      for (size_t i = 0; i < C.size(); ++i) bad += !(double(C[i]) == ref[i]);  // NaN fails
      if (bad) std::fprintf(stderr, "MISMATCH: %s on %d x %d x %d: %zu wrong elements\n", kern.name, s.M, s.K, s.N, bad);
      g_failures += bad != 0;
      if (!printed) {  // the example values come from the source's first kernel on the GPU
        if (c == 0) {
          std::printf("\n");
          lesson::print_matrix("A", A.data(), s.M, s.K);
          lesson::print_matrix("B", B.data(), s.K, s.N);
          lesson::print_matrix("C = MatMulKernel(A, B)", C.data(), s.M, s.N);
        }
        lesson::print_case(s, C.data());
        printed = true;
      }
      lesson::print_result(kern.name, checksum(C), bad == 0);
    }
  }

  // Source 004's kernels as printed, with its host code's grid: B.width / 16 x A.height / 16.
  lesson::print_demo_header();
  const lesson::Case s = lesson::kDemo;
  lesson::fill(s, A, B);
  CUDA_CHECK(cudaMemcpy(dA, A.data(), A.size() * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dB, B.data(), B.size() * sizeof(float), cudaMemcpyHostToDevice));
  std::vector<double> ref(size_t(s.M) * s.N, 0.0);
  for (int i = 0; i < s.M; ++i)
    for (int k = 0; k < s.K; ++k)
      for (int j = 0; j < s.N; ++j) ref[size_t(i) * s.N + j] += double(A[size_t(i) * s.K + k]) * B[size_t(k) * s.N + j];
  const dim3 block(BLOCK_SIZE, BLOCK_SIZE), grid(s.N / BLOCK_SIZE, s.M / BLOCK_SIZE);
  for (int which = 0; which < 2; ++which) {
    CUDA_CHECK(cudaMemset(dC, 0xff, size_t(s.M) * s.N * sizeof(float)));
    if (which == 0)
      gmem::MatMulKernel_004<<<grid, block>>>({s.K, s.M, dA}, {s.N, s.K, dB}, {s.N, s.M, dC});
    else
      smem::MatMulKernel_004<<<grid, block>>>({s.K, s.M, s.K, dA}, {s.N, s.K, s.N, dB}, {s.N, s.M, s.N, dC});
    CUDA_CHECK_LAUNCH();
    C.resize(size_t(s.M) * s.N);
    CUDA_CHECK(cudaMemcpy(C.data(), dC, C.size() * sizeof(float), cudaMemcpyDeviceToHost));
    long long unwritten = 0, wrong = 0;
    for (size_t i = 0; i < C.size(); ++i) {
      if (std::isnan(C[i])) ++unwritten;
      else wrong += double(C[i]) != ref[i];
    }
    lesson::print_demo(which == 0 ? "MatMulKernel_gmem" : "MatMulKernel_smem", unwritten, wrong,
                       static_cast<long long>(C.size()));
  }
  lesson::print_demo_footer();
  CUDA_CHECK(cudaFree(dA));
  CUDA_CHECK(cudaFree(dB));
  CUDA_CHECK(cudaFree(dC));
}

// ---------------------------------------------------------------------------------------------
// Benchmark and profile: square n x n x n, random floats in [-1, 1) (24-bit values, exact in
// float), the same A and B for every kernel.

struct Square {
  int n;
  float *A = nullptr, *B = nullptr, *C = nullptr, *tol = nullptr;
  double* ref = nullptr;
  unsigned long long* bad = nullptr;
  unsigned int* worst = nullptr;

  explicit Square(int n_) : n(n_) {
    const size_t e = size_t(n) * n;
    CUDA_CHECK(cudaMalloc(&A, e * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&B, e * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&C, e * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&tol, e * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&ref, e * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&bad, sizeof(unsigned long long)));
    CUDA_CHECK(cudaMalloc(&worst, sizeof(unsigned int)));
    std::vector<float> hA(e), hB(e);
    for (size_t i = 0; i < e; ++i) hA[i] = random_value(i, 11);
    for (size_t i = 0; i < e; ++i) hB[i] = random_value(i, 12);
    CUDA_CHECK(cudaMemcpy(A, hA.data(), e * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(B, hB.data(), e * sizeof(float), cudaMemcpyHostToDevice));

    // The FP64 reference on the GPU, and three of its rows (first, middle, last) against the CPU.
    const double u = std::ldexp(1.0, -24), gamma = n * u / (1 - n * u);
    const dim3 block(16, 16), grid((n + 15) / 16, (n + 15) / 16);
    referenceFP64<<<grid, block>>>(A, B, ref, tol, n, n, n, gamma);
    CUDA_CHECK_LAUNCH();
    std::vector<double> row_ref(n);
    std::vector<float> row_tol(n);
    long long off = 0;
    for (int r : {0, n / 2, n - 1}) {
      CUDA_CHECK(cudaMemcpy(row_ref.data(), ref + size_t(r) * n, n * sizeof(double), cudaMemcpyDeviceToHost));
      CUDA_CHECK(cudaMemcpy(row_tol.data(), tol + size_t(r) * n, n * sizeof(float), cudaMemcpyDeviceToHost));
      std::vector<double> s(n, 0.0), sa(n, 0.0);
      for (int k = 0; k < n; ++k) {
        const double a = hA[size_t(r) * n + k];
        const float* brow = hB.data() + size_t(k) * n;
        for (int j = 0; j < n; ++j) {
          const double p = a * brow[j];
          s[j] += p;
          sa[j] += std::fabs(p);
        }
      }
      // FP64 sums in two orders differ by at most about n * 2^-53 * sum |p|.
      for (int j = 0; j < n; ++j) {
        const double eps = n * std::ldexp(1.0, -52) * sa[j];
        off += !(std::fabs(row_ref[j] - s[j]) <= eps) ||
               !(std::fabs(row_tol[j] - 1.01 * gamma * sa[j]) <= 1e-6 * 1.01 * gamma * sa[j] + 1e-30);
      }
    }
    if (off) {
      std::fprintf(stderr, "MISMATCH: the FP64 reference at n = %d differs from the CPU on %lld elements\n", n, off);
      ++g_failures;
    }
  }
  ~Square() {
    CUDA_CHECK(cudaFree(A));
    CUDA_CHECK(cudaFree(B));
    CUDA_CHECK(cudaFree(C));
    CUDA_CHECK(cudaFree(tol));
    CUDA_CHECK(cudaFree(ref));
    CUDA_CHECK(cudaFree(bad));
    CUDA_CHECK(cudaFree(worst));
  }
  static float random_value(size_t i, uint32_t seed) {  // [-1, 1) in steps of 2^-23
    return static_cast<float>(static_cast<int>(wb::hash32(i, seed) >> 8) - (1 << 23)) * 0x1p-23f;
  }

  // Runs kernel k once into a poisoned C; counts the elements outside the tolerance and returns
  // the largest error as a fraction of its element's tolerance in *worst_ratio.
  unsigned long long check(Runner& run, lesson::Kind k, float* worst_ratio) {
    const size_t e = size_t(n) * n;
    CUDA_CHECK(cudaMemset(C, 0xff, e * sizeof(float)));
    run.launch(k, A, B, C, n, n, n);
    return count_outside(worst_ratio);
  }
  // Counts the elements of C outside the tolerance, and the largest error as a fraction of its
  // element's tolerance in *worst_ratio.
  unsigned long long count_outside(float* worst_ratio) {
    const size_t e = size_t(n) * n;
    CUDA_CHECK(cudaMemset(bad, 0, sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemset(worst, 0, sizeof(unsigned int)));
    countOutside<<<1024, 256>>>(C, ref, tol, e, bad, worst);
    CUDA_CHECK_LAUNCH();
    unsigned long long h = 0;
    unsigned int w = 0;
    CUDA_CHECK(cudaMemcpy(&h, bad, sizeof h, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&w, worst, sizeof w, cudaMemcpyDeviceToHost));
    std::memcpy(worst_ratio, &w, sizeof w);
    return h;
  }
};

static size_t bytes_for(int n) {  // A, B, C, tol (float), ref (double); cuBLAS's workspace beside
  return size_t(n) * n * (4 * sizeof(float) + sizeof(double)) + (size_t(64) << 20);
}

// Every kernel (or only `only`, and cuBLAS) once at the square's size, against the FP64 bound.
static void check_all(Runner& run, Square& sq, const char* only = nullptr) {
  std::fprintf(stderr, "n = %d, largest |C - ref| / tolerance:", sq.n);
  for (const auto& k : lesson::kKernels) {
    if (only && k.kind != lesson::Cublas && std::strcmp(k.name, only) != 0) continue;
    float worst = 0;
    const unsigned long long bad = sq.check(run, k.kind, &worst);
    std::fprintf(stderr, " %s %.4f", k.name, worst);
    if (bad) {
      std::fprintf(stderr, "\nMISMATCH: %s at n = %d: %llu elements outside the tolerance\n", k.name, sq.n, bad);
      ++g_failures;
    }
  }
  std::fprintf(stderr, "\n");
}

// `only`: one kernel's name (cuBLAS is timed beside it), or nullptr for all.
static void run_bench(Runner& run, const cudaDeviceProp& prop, int reps, const std::vector<int>& sizes,
                      const std::string& csv_dir, const char* only) {
  std::vector<std::string> cols{"kernel", "n", "time_ms", "tflops", "pct_of_cublas"};
  for (const auto& c : wb::timing_columns()) cols.push_back(c);
  wb::CsvTable table(cols);
  const int warmup = std::min(3, reps);
  for (int n : sizes) {
    Square sq(n);
    check_all(run, sq, only);
    std::vector<std::pair<const char*, wb::Timing>> times;
    double cublas_ms = 0;
    for (const auto& k : lesson::kKernels) {
      if (only && k.kind != lesson::Cublas && std::strcmp(k.name, only) != 0) continue;
      const wb::Timing t = wb::time_cuda([&] { run.launch(k.kind, sq.A, sq.B, sq.C, n, n, n); }, warmup, reps);
      times.push_back({k.name, t});
      if (k.kind == lesson::Cublas) cublas_ms = t.median_ms;
    }
    const double flop = 2.0 * n * double(n) * n;
    const double bytes = 3.0 * n * double(n) * sizeof(float);  // A and B read, C written, once each
    for (auto& [name, t] : times) {
      std::vector<std::string> cells{name, std::to_string(n), wb::fmt(t.median_ms, 4),
                                     wb::fmt(flop / (t.median_ms * 1e-3) / 1e12, 2),
                                     wb::fmt(100.0 * cublas_ms / t.median_ms, 1)};
      for (const auto& c : wb::timing_cells(t, bytes, prop)) cells.push_back(c);
      table.add(cells);
    }
  }
  std::fprintf(stderr, "\nmatMul on %s (FP32; cublasSgemm with CUBLAS_PEDANTIC_MATH: no TF32, no tensor cores; "
               "median of %d runs; TFLOP/s = 2 n^3 / time)\n", prop.name, reps);
  table.print(stderr);
  if (!csv_dir.empty())
    table.write(wb::csv_path(csv_dir, prop, only ? std::string("matMul_") + only : "matMul"));
}

// --tune: every shape of kTuneKernels in every block order of kTuneGroups, checked against the
// FP64 reference and timed beside cuBLAS, at each size; then the 4 fastest at the largest size
// (and at each size's best) again at `final_n` (0: none). Table: DIR/<gpu>/sgemm_tune.csv.
static void run_tune(Runner& run, const cudaDeviceProp& prop, int reps, const std::vector<int>& sizes, int final_n,
                     const std::string& csv_dir) {
  wb::CsvTable table({"config", "bm", "bn", "bk", "wm", "wn", "tm", "tn", "stages", "minb", "group", "pf", "threads",
                      "regs", "smem_bytes", "n", "time_ms", "tflops", "pct_of_cublas", "min_ms", "max_ms"});
  const int warmup = std::min(3, reps);
  struct Result {
    size_t kernel;
    int group;
    double ms;
  };
  std::vector<Result> finalists;
  auto one_size = [&](int n, const std::vector<Result>* subset) {
    Square sq(n);
    const double flop = 2.0 * n * double(n) * n;
    const wb::Timing tc = wb::time_cuda([&] { run.launch(lesson::Cublas, sq.A, sq.B, sq.C, n, n, n); }, warmup, reps);
    table.add({"cublasSgemm", "", "", "", "", "", "", "", "", "", "", "", "", "", "", std::to_string(n),
               wb::fmt(tc.median_ms, 4), wb::fmt(flop / (tc.median_ms * 1e-3) / 1e12, 2), "100.0",
               wb::fmt(tc.min_ms, 4), wb::fmt(tc.max_ms, 4)});
    std::vector<Result> results;
    for (size_t i = 0; i < std::size(kTuneKernels); ++i)
      for (int g : kTuneGroups) {
        if (subset && std::none_of(subset->begin(), subset->end(),
                                   [&](const Result& r) { return r.kernel == i && r.group == g; }))
          continue;
        const TiledKernel& k = kTuneKernels[i];
        lesson::TileCfg c = k.cfg;
        c.group = g;
        cudaFuncAttributes attr{};
        CUDA_CHECK(cudaFuncGetAttributes(&attr, reinterpret_cast<const void*>(k.full)));
        auto go = [&] { return launch_tiled(k, g, run.smem_optin, sq.A, sq.B, sq.C, n, n, n); };
        // checked first: a shape that computes a wrong C fails the run
        CUDA_CHECK(cudaMemset(sq.C, 0xff, size_t(n) * n * sizeof(float)));
        if (!go()) {
          std::fprintf(stderr, "SKIP %s: %d bytes of shared memory per block do not fit this GPU\n",
                       cfg_name(c).c_str(), k.smem_bytes);
          continue;
        }
        CUDA_CHECK_LAUNCH();
        float worst = 0;
        const unsigned long long bad = sq.count_outside(&worst);
        if (bad) {
          std::fprintf(stderr, "MISMATCH: %s at n = %d: %llu elements outside the tolerance\n", cfg_name(c).c_str(),
                       n, bad);
          ++g_failures;
          continue;
        }
        const wb::Timing t = wb::time_cuda([&] { go(); }, warmup, reps);
        results.push_back({i, g, t.median_ms});
        table.add({cfg_name(c), std::to_string(c.bm), std::to_string(c.bn), std::to_string(c.bk),
                   std::to_string(c.wm), std::to_string(c.wn), std::to_string(4 * c.rm), std::to_string(4 * c.rn),
                   std::to_string(c.stages), std::to_string(c.minb), std::to_string(g), std::to_string(c.pf),
                   std::to_string(c.threads()),
                   std::to_string(attr.numRegs), std::to_string(k.smem_bytes), std::to_string(n),
                   wb::fmt(t.median_ms, 4), wb::fmt(flop / (t.median_ms * 1e-3) / 1e12, 2),
                   wb::fmt(100.0 * tc.median_ms / t.median_ms, 1), wb::fmt(t.min_ms, 4), wb::fmt(t.max_ms, 4)});
        std::fprintf(stderr, "tune n %d %-40s %3d regs %6.2f TFLOP/s %5.1f%% of cuBLAS\n", n, cfg_name(c).c_str(),
                     attr.numRegs, flop / (t.median_ms * 1e-3) / 1e12, 100.0 * tc.median_ms / t.median_ms);
      }
    std::sort(results.begin(), results.end(), [](const Result& a, const Result& b) { return a.ms < b.ms; });
    return results;
  };
  for (int n : sizes) {
    std::vector<Result> r = one_size(n, nullptr);
    const size_t keep = n == sizes.back() ? 4 : 1;
    for (size_t i = 0; i < std::min(keep, r.size()); ++i)
      if (std::none_of(finalists.begin(), finalists.end(),
                       [&](const Result& f) { return f.kernel == r[i].kernel && f.group == r[i].group; }))
        finalists.push_back(r[i]);
  }
  if (final_n && !finalists.empty()) one_size(final_n, &finalists);
  std::fprintf(stderr, "\nsgemm tune on %s (FP32, median of %d runs)\n", prop.name, reps);
  table.print(stderr);
  if (!csv_dir.empty()) table.write(wb::csv_path(csv_dir, prop, "sgemm_tune"));
}

int main(int argc, char** argv) {
  wb::Args args(argc, argv,
                "usage: matMul [--bench [--kernel NAME] [--reps R] [--n N] [--csv-dir DIR]] [--profile]\n"
                "              [--tune [--reps R] [--n N] [--csv-dir DIR]]\n"
                "  (no options)  every kernel on every lesson case, checked (the golden output)\n"
                "  --bench       also time every kernel at n = 1024, 2048, 4096, 8192 (n x n x n, FP32)\n"
                "  --kernel NAME time only that kernel, and cublasSgemm beside it\n"
                "  --reps R      timed runs per kernel and size, median reported (default 20)\n"
                "  --n N         time only n = N (1 .. 32768; with --tune a multiple of 256)\n"
                "  --csv-dir DIR write DIR/<gpu>/matMul.csv (matMul_NAME.csv with --kernel; sgemm_tune.csv)\n"
                "  --profile     instead, one checked launch of each kernel at 4096^3 (for ncu)\n"
                "  --tune        instead, time every tile shape of sgemmTuned in every block order at\n"
                "                n = 2048 and 4096, then the fastest again at 8192 (or only at --n)");
  const bool bench = args.flag("--bench");
  const bool profile = args.flag("--profile");
  const bool tune = args.flag("--tune");
  const int reps = static_cast<int>(args.count("--reps", 20, 1, 100000));
  const int n_only = static_cast<int>(args.count("--n", 0, 1, 32768));
  const std::string kernel = args.text("--kernel", "");
  if (!tune) args.only_with("--bench", {"--reps", "--n", "--csv-dir", "--kernel"});
  else args.only_with("--bench", {"--kernel"});
  const std::string csv_dir = args.out_dir("--csv-dir");
  args.finish();
  if (bench && profile) wb::bad_input("--bench and --profile are separate runs: choose one");
  if (tune && (bench || profile)) wb::bad_input("--tune is a run of its own: not with --bench or --profile");
  if (!kernel.empty() && std::none_of(std::begin(lesson::kKernels), std::end(lesson::kKernels),
                                      [&](const lesson::KernelInfo& k) { return kernel == k.name; })) {
    std::string names;
    for (const auto& k : lesson::kKernels) names += std::string(" ") + k.name;
    wb::bad_input("--kernel " + kernel + ": no such kernel; one of:" + names);
  }
  if (tune && n_only % 256 != 0) wb::bad_input("--tune --n " + std::to_string(n_only) + ": must be a multiple of 256");
  std::vector<int> sizes = n_only ? std::vector<int>{n_only} : std::vector<int>{1024, 2048, 4096, 8192};
  if (tune && !n_only) sizes = {2048, 4096};
  const int tune_final_n = tune && !n_only ? 8192 : 0;
  const int profile_n = 4096;

  const cudaDeviceProp prop = wb::require_device();
  if (bench || tune)
    wb::require_device_memory(bytes_for(std::max(tune_final_n, *std::max_element(sizes.begin(), sizes.end()))),
                              tune ? "--tune" : "--bench");
  if (profile) wb::require_device_memory(bytes_for(profile_n), "--profile");
  Runner run;
  run.smem_optin = int(prop.sharedMemPerBlockOptin);
  CUBLAS_CHECK(cublasCreate(&run.cublas));
  // Plain FP32: the prescribed compute type only (no TF32, no tensor cores), like our kernels.
  CUBLAS_CHECK(cublasSetMathMode(run.cublas, CUBLAS_PEDANTIC_MATH));
  if (profile) {
    std::printf("profile n %d\n", profile_n);  // read by matmul_traffic.py
    Square sq(profile_n);
    check_all(run, sq);
  } else if (tune) {
    run_tune(run, prop, reps, sizes, tune_final_n, csv_dir);
  } else {
    run_lesson(run);
    if (bench) run_bench(run, prop, reps, sizes, csv_dir, kernel.empty() ? nullptr : kernel.c_str());
  }
  CUBLAS_CHECK(cublasDestroy(run.cublas));

  return wb::finish(g_failures, "checks against the CPU failed");
}
