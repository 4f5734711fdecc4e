// A plausible wrong answer to exercise stencilRadius: the chapter's halo load with R in place of
// RADIUS. The first R threads load one halo element on each side; when R > blockDim.x (R = 40 with
// 32 threads) there are not R threads, and the halo elements past the block's size are never loaded.
template <int R>
__global__ void stencilRadius(const float* in, float* out, int N) {
  extern __shared__ float tile[];
  const int idx = blockIdx.x * blockDim.x + threadIdx.x;
  const int s = threadIdx.x + R;
  if (idx < N + R) tile[s] = in[idx];
  if (threadIdx.x < R) {
    tile[s - R] = in[idx - R];
    if (idx + (int)blockDim.x < N + R) tile[s + blockDim.x] = in[idx + blockDim.x];
  }
  __syncthreads();
  if (idx < N) {
    float tmp = 0.0f;
    for (int k = 1; k <= R; ++k) tmp += coef[k] * (tile[s + k] - tile[s - k]);
    out[idx] = tmp;
  }
}
