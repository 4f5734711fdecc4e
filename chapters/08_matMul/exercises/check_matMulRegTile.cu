// Checker of exercise matMulRegTile (chapter 08): every element of C, exactly, with K not a
// multiple of TK. racecheck and the SASS rules (matMulRegTile.sass) are declared in CMakeLists.txt.
// Times the exercise against the chapter's shared-memory MatMulKernel (one element per thread).
#include "exercise.h"
[[maybe_unused]] constexpr int TK = 16;
#include WB_EXERCISE_FILE

// The chapter's kernel 2 (smem::MatMulKernel, fixed for any size) on plain pointers.
__global__ void MatMulKernelSmem(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[16][16];
  __shared__ float Bs[16][16];
  const int ty = threadIdx.y, tx = threadIdx.x;
  const int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float Cvalue = 0;
  for (int m = 0; m < (K + 15) / 16; ++m) {
    As[ty][tx] = row < M && m * 16 + tx < K ? A[row * K + m * 16 + tx] : 0.0f;
    Bs[ty][tx] = m * 16 + ty < K && col < N ? B[(m * 16 + ty) * N + col] : 0.0f;
    __syncthreads();
    for (int e = 0; e < 16; ++e) Cvalue += As[ty][e] * Bs[e][tx];
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = Cvalue;
}

#define EX_KERNEL matMulRegTile
#define EX_TILE 32
#define EX_REF MatMulKernelSmem
#define EX_REF_NAME "MatMulKernel with shared memory (chapter 08)"
#define EX_REF_TILE 16
#include "matmul_check.h"

int main(int argc, char** argv) { return run_checker(argc, argv); }
