// Solution of exercise stencilRadius: the block strides over its tile of blockDim.x + 2R elements,
// tile[j] = in[g], g = base - R + j: whatever R is, every tile element with g in [-R, N + R) is
// loaded by exactly one thread; those past N + R (last block only) by none: no output reads them.
template <int R>
__global__ void stencilRadius(const float* in, float* out, int N) {
  extern __shared__ float tile[];
  const int base = blockIdx.x * blockDim.x;
  const int width = blockDim.x + 2 * R;
  for (int j = threadIdx.x; j < width; j += blockDim.x) {
    const int g = base - R + j;  // >= -R always; past N + R only in the last block
    if (g < N + R) tile[j] = in[g];
  }
  __syncthreads();
  const int i = base + threadIdx.x;
  if (i < N) {
    const int s = threadIdx.x + R;
    float tmp = 0.0f;
    for (int k = 1; k <= R; ++k) tmp += coef[k] * (tile[s + k] - tile[s - k]);
    out[i] = tmp;
  }
}
