// Solution of exercise stencilHalo: in the last block the threads past N load the right halo
// (in[] is valid up to N + RADIUS), and every thread reaches the barrier.
__global__ void stencilHalo(const float* in, float* out, int N) {
  __shared__ float smem[BDIM + 2 * RADIUS];
  const int idx = blockIdx.x * BDIM + threadIdx.x;
  const int sidx = threadIdx.x + RADIUS;
  if (idx < N + RADIUS) smem[sidx] = in[idx];
  if (threadIdx.x < RADIUS) {
    smem[sidx - RADIUS] = in[idx - RADIUS];
    if (idx + BDIM < N + RADIUS) smem[sidx + BDIM] = in[idx + BDIM];
  }
  __syncthreads();
  if (idx < N) {
    float tmp = 0.0f;
    for (int k = 1; k <= RADIUS; ++k) tmp += coef[k] * (smem[sidx + k] - smem[sidx - k]);
    out[idx] = tmp;
  }
}
