// A plausible wrong answer to exercise stencilHalo: only the threads with an output (idx < N) load
// their element. In a partial last block in[N] belongs in the slot of a thread past N, and nobody
// loads it: the last min(RADIUS, N mod BDIM) outputs read whatever the shared memory held. (The
// first RADIUS threads' `in[idx + BDIM]` is loaded only when inside the input, so nothing reads out
// of bounds.)
__global__ void stencilHalo(const float* in, float* out, int N) {
  __shared__ float smem[BDIM + 2 * RADIUS];
  const int idx = blockIdx.x * BDIM + threadIdx.x;
  const int sidx = threadIdx.x + RADIUS;
  if (idx < N) smem[sidx] = in[idx];
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
