// Chapter 08 — matMul: the CUDA Programming Guide's matrix multiply from source 004, without and
// with shared memory, then step by step to a fast FP32 SGEMM, with cuBLAS beside it.
//
// Run:    ./build/bin/matMul              (expected stdout: expected_outputs/matMul.txt)
//         ./build/bin/matMul --bench [--reps 20] [--n N] [--csv-dir DIR]
//             times every kernel on square FP32 matrices, n = 1024, 2048, 4096, 8192 (or only N),
//             TFLOP/s = 2 n^3 / time; table to stderr, with --csv-dir DIR/<gpu>/matMul.csv
//         ./build/bin/matMul --profile    one checked launch of each kernel at 4096^3 (for Nsight
//             Compute: chapters/08_matMul/matmul_traffic.py)
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
//   6. cublasSgemm            the library peer, CUBLAS_PEDANTIC_MATH: plain FP32 (no TF32, no
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
#include "hash.h"
#include "matMul_lesson.h"
#include "timer.h"

#define CUBLAS_CHECK(call)                                                                         \
  do {                                                                                             \
    cublasStatus_t st_ = (call);                                                                   \
    if (st_ != CUBLAS_STATUS_SUCCESS) {                                                            \
      std::fprintf(stderr, "%s:%d: cuBLAS error %d in %s\n", __FILE__, __LINE__, int(st_), #call); \
      std::exit(wb::kFail);                                                                        \
    }                                                                                              \
  } while (0)

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
// time read 8 consecutive float4: 32 different banks, no conflict.
__device__ __forceinline__ void outer_product(float (&acc)[8][8], const float* As_k, const float* Bs_k, int ty,
                                              int tx) {
  const float4 a0 = *reinterpret_cast<const float4*>(As_k + ty * 4);
  const float4 a1 = *reinterpret_cast<const float4*>(As_k + 64 + ty * 4);
  const float4 b0 = *reinterpret_cast<const float4*>(Bs_k + tx * 4);
  const float4 b1 = *reinterpret_cast<const float4*>(Bs_k + 64 + tx * 4);
  const float a[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
  const float b[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
}

template <bool kVec>
__device__ __forceinline__ void store_tile(float* __restrict__ C, const float (&acc)[8][8], int bm, int bn, int ty,
                                           int tx, int M, int N) {
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const int r = bm + (i / 4) * 64 + ty * 4 + i % 4;
#pragma unroll
    for (int h = 0; h < 2; ++h)
      store4<kVec>(C, r, bn + h * 64 + tx * 4, M, N,
                   make_float4(acc[i][h * 4], acc[i][h * 4 + 1], acc[i][h * 4 + 2], acc[i][h * 4 + 3]));
  }
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

struct Runner {
  cublasHandle_t cublas;

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

static void check_all(Runner& run, Square& sq) {
  std::fprintf(stderr, "n = %d, largest |C - ref| / tolerance:", sq.n);
  for (const auto& k : lesson::kKernels) {
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

static void run_bench(Runner& run, const cudaDeviceProp& prop, int reps, const std::vector<int>& sizes,
                      const std::string& csv_dir) {
  wb::CsvTable table({"kernel", "n", "time_ms", "tflops", "pct_of_cublas"});
  const int warmup = std::min(3, reps);
  for (int n : sizes) {
    Square sq(n);
    check_all(run, sq);
    std::vector<std::pair<const char*, double>> times;
    double cublas_ms = 0;
    for (const auto& k : lesson::kKernels) {
      const wb::Timing t = wb::time_cuda([&] { run.launch(k.kind, sq.A, sq.B, sq.C, n, n, n); }, warmup, reps);
      times.push_back({k.name, t.median_ms});
      if (k.kind == lesson::Cublas) cublas_ms = t.median_ms;
    }
    const double flop = 2.0 * n * double(n) * n;
    for (auto& [name, ms] : times)
      table.add({name, std::to_string(n), wb::fmt(ms, 4), wb::fmt(flop / (ms * 1e-3) / 1e12, 2),
                 wb::fmt(100.0 * cublas_ms / ms, 1)});
  }
  std::fprintf(stderr, "\nmatMul on %s (FP32; cublasSgemm with CUBLAS_PEDANTIC_MATH: no TF32, no tensor cores; "
               "median of %d runs; TFLOP/s = 2 n^3 / time)\n", prop.name, reps);
  table.print(stderr);
  if (!csv_dir.empty()) table.write(csv_dir + "/" + wb::gpu_slug(prop) + "/matMul.csv");
}

int main(int argc, char** argv) {
  wb::Args args(argc, argv,
                "usage: matMul [--bench [--reps R] [--n N] [--csv-dir DIR]] [--profile]\n"
                "  (no options)  every kernel on every lesson case, checked (the golden output)\n"
                "  --bench       also time every kernel at n = 1024, 2048, 4096, 8192 (n x n x n, FP32)\n"
                "  --reps R      timed runs per kernel and size, median reported (default 20)\n"
                "  --n N         time only n = N (1 .. 32768)\n"
                "  --csv-dir DIR write DIR/<gpu>/matMul.csv\n"
                "  --profile     instead, one checked launch of each kernel at 4096^3 (for ncu)");
  const bool bench = args.flag("--bench");
  const bool profile = args.flag("--profile");
  const int reps = static_cast<int>(args.count("--reps", 20, 1, 100000));
  const int n_only = static_cast<int>(args.count("--n", 0, 1, 32768));
  args.only_with("--bench", {"--reps", "--n", "--csv-dir"});
  const std::string csv_dir = args.out_dir("--csv-dir");
  args.finish();
  if (bench && profile) wb::bad_input("--bench and --profile are separate runs: choose one");
  std::vector<int> sizes = n_only ? std::vector<int>{n_only} : std::vector<int>{1024, 2048, 4096, 8192};
  const int profile_n = 4096;

  const cudaDeviceProp prop = wb::require_device();
  if (bench) wb::require_device_memory(bytes_for(*std::max_element(sizes.begin(), sizes.end())), "--bench");
  if (profile) wb::require_device_memory(bytes_for(profile_n), "--profile");
  Runner run;
  CUBLAS_CHECK(cublasCreate(&run.cublas));
  // Plain FP32: the prescribed compute type only (no TF32, no tensor cores), like our kernels.
  CUBLAS_CHECK(cublasSetMathMode(run.cublas, CUBLAS_PEDANTIC_MATH));
  if (profile) {
    std::printf("profile n %d\n", profile_n);  // read by matmul_traffic.py
    Square sq(profile_n);
    check_all(run, sq);
  } else {
    run_lesson(run);
    if (bench) run_bench(run, prop, reps, sizes, csv_dir);
  }
  CUBLAS_CHECK(cublasDestroy(run.cublas));

  if (g_failures) {
    std::printf("FAIL: %d checks against the CPU failed\n", g_failures);
    return wb::kFail;
  }
  return wb::kPass;
}
