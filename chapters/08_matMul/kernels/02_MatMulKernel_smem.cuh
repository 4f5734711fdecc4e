// Step 2: step 1 through 16 x 16 tiles of A and B in shared memory.
#pragma once

#include "../matMul_tiles.h"  // BLOCK_SIZE 16: the source's tile (and block) side

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
