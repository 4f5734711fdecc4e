// Solution of exercise reduceUnrollShfl.
__global__ void reduceUnrollShfl(const unsigned* g_idata, unsigned* g_odata, size_t n) {
  __shared__ unsigned smem[DIM];
  const unsigned tid = threadIdx.x;
  const size_t idx = blockIdx.x * size_t(DIM) * 2 + tid;
  unsigned a = 0, b = 0;
  if (idx < n) a = g_idata[idx];  // one guard per load: the first may exist without the second
  if (idx + DIM < n) b = g_idata[idx + DIM];
  smem[tid] = a + b;
  __syncthreads();
  for (unsigned s = DIM / 2; s >= 64; s /= 2) {
    if (tid < s) smem[tid] += smem[tid + s];
    __syncthreads();
  }
  if (tid < 32) {  // warp 0, all 32 lanes present: the full mask is right
    unsigned v = smem[tid] + smem[tid + 32];
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
    if (tid == 0) g_odata[blockIdx.x] = v;
  }
}
