// Solution of exercise matMulTiled: the chapter's fixed MatMulKernel on plain pointers.
__global__ void matMulTiled(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
  __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
  const int ty = threadIdx.y, tx = threadIdx.x;
  const int row = blockIdx.y * BLOCK_SIZE + ty, col = blockIdx.x * BLOCK_SIZE + tx;
  float Cvalue = 0;
  for (int m = 0; m < (K + BLOCK_SIZE - 1) / BLOCK_SIZE; ++m) {
    const int ka = m * BLOCK_SIZE + tx, kb = m * BLOCK_SIZE + ty;
    As[ty][tx] = row < M && ka < K ? A[row * K + ka] : 0.0f;
    Bs[ty][tx] = kb < K && col < N ? B[kb * N + col] : 0.0f;
    __syncthreads();  // the tiles are complete before anyone reads them
    for (int e = 0; e < BLOCK_SIZE; ++e) Cvalue += As[ty][e] * Bs[e][tx];
    __syncthreads();  // everyone is done with them before the next pair overwrites them
  }
  if (row < M && col < N) C[row * N + col] = Cvalue;
}
