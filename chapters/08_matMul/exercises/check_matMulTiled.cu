// Checker of exercise matMulTiled (chapter 08): every element of C, exactly, on shapes that are
// not multiples of 16. racecheck and synccheck (CMakeLists.txt) judge the barriers: without the
// second one the result can come out right. Times the exercise against the chapter's first
// MatMulKernel (no shared memory). See matmul_check.h.
#include "exercise.h"
#define BLOCK_SIZE 16
#include WB_EXERCISE_FILE

// The chapter's kernel 1 (gmem::MatMulKernel) on plain pointers: the reference for the time.
__global__ void MatMulKernelGmem(const float* A, const float* B, float* C, int M, int N, int K) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N) return;
  float Cvalue = 0;
  for (int e = 0; e < K; ++e) Cvalue += A[row * K + e] * B[e * N + col];
  C[row * N + col] = Cvalue;
}

#define EX_KERNEL matMulTiled
#define EX_TILE 16
#define EX_REF MatMulKernelGmem
#define EX_REF_NAME "MatMulKernel without shared memory (chapter 08)"
#define EX_REF_TILE 16
#include "matmul_check.h"

int main(int argc, char** argv) { return run_checker(argc, argv); }
