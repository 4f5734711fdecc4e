// A plausible wrong answer to exercise reduceUnrollShfl: one guard for both loads, the two-load
// form of the book's reduceSmemUnrollDyn guard (idx + 3 * blockDim.x < n). In the last block, a thread whose second element lies past n
// also drops its first: the last block's sum leaves out elements whenever n is not a multiple of
// 2 * DIM.
__global__ void reduceUnrollShfl(const unsigned* g_idata, unsigned* g_odata, size_t n) {
  __shared__ unsigned smem[DIM];
  const unsigned tid = threadIdx.x;
  const size_t idx = blockIdx.x * size_t(DIM) * 2 + tid;
  unsigned sum = 0;
  if (idx + DIM < n) sum = g_idata[idx] + g_idata[idx + DIM];
  smem[tid] = sum;
  __syncthreads();
  for (unsigned s = DIM / 2; s >= 64; s /= 2) {
    if (tid < s) smem[tid] += smem[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    unsigned v = smem[tid] + smem[tid + 32];
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
    if (tid == 0) g_odata[blockIdx.x] = v;
  }
}
