// A plausible wrong answer to exercise stencilHalo: only the threads with an output (idx < N) load
// their element. In the last, partial block the right halo in[N .. N + RADIUS) then sits where
// threads past N should have put it, and nobody does: the last RADIUS outputs read whatever the
// shared memory held. (The first RADIUS threads' `in[idx + BDIM]` is loaded only when inside the
// input, so nothing reads out of bounds.)
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
