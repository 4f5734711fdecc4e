// A plausible wrong answer to exercise matMulRegTile: only the tile elements inside the
// matrices are loaded; the others are left as they are. In the last step along K, the columns of
// As and rows of Bs past K still hold the previous step's values, and their products are added
// into C: C comes out wrong when K is not a multiple of TK (and TK < K), unless those stale
// products happen to sum to 0 in every element.
__global__ void matMulRegTile(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[32][TK];
  __shared__ float Bs[TK][32];
  const int ty = threadIdx.y, tx = threadIdx.x;
  const int bm = blockIdx.y * 32, bn = blockIdx.x * 32;
  float acc[2][2] = {};
  for (int k0 = 0; k0 < K; k0 += TK) {
    for (int h = 0; h < 2; ++h) {
      const int ar = bm + ty + 16 * h, ak = k0 + tx;  // As[ty + 16h][tx]
      if (ar < M && ak < K) As[ty + 16 * h][tx] = A[ar * K + ak];
      const int bk = k0 + ty, bc = bn + tx + 16 * h;  // Bs[ty][tx + 16h]
      if (bk < K && bc < N) Bs[ty][tx + 16 * h] = B[bk * N + bc];
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TK; ++k) {
      const float a0 = As[ty][k], a1 = As[ty + 16][k];
      const float b0 = Bs[k][tx], b1 = Bs[k][tx + 16];
      acc[0][0] += a0 * b0;
      acc[0][1] += a0 * b1;
      acc[1][0] += a1 * b0;
      acc[1][1] += a1 * b1;
    }
    __syncthreads();
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      const int r = bm + ty + 16 * i, c = bn + tx + 16 * j;
      if (r < M && c < N) C[r * N + c] = acc[i][j];
    }
}
