// A plausible wrong answer to exercise matMulTiled: the second barrier is missing. A warp
// that finishes its products first loads the next tiles into As and Bs while slower warps still
// read the current ones (a write-after-read hazard). The result can come out right anyway (when
// the warps of a block happen to keep pace); racecheck reports the hazard whatever the result.
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
    __syncthreads();
    for (int e = 0; e < BLOCK_SIZE; ++e) Cvalue += As[ty][e] * Bs[e][tx];
  }
  if (row < M && col < N) C[row * N + col] = Cvalue;
}
