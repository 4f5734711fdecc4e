// Step 1 of chapter 08's ladder (matMul.cu includes every step in order; `diff` two neighbouring
// steps to see what a step changes). No shared memory: every operand from global memory.
#pragma once

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
