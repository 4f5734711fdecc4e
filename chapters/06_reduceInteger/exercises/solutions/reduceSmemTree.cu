// Solution of exercise reduceSmemTree: a barrier after the copy and after every step.
__global__ void reduceSmemTree(const unsigned* g_idata, unsigned* g_odata, size_t n) {
  __shared__ unsigned smem[DIM];
  const unsigned tid = threadIdx.x;
  const size_t idx = blockIdx.x * size_t(DIM) + tid;
  smem[tid] = idx < n ? g_idata[idx] : 0u;
  __syncthreads();  // every element is in before anyone adds
  for (unsigned s = DIM / 2; s > 0; s /= 2) {
    if (tid < s) smem[tid] += smem[tid + s];
    __syncthreads();  // this step's sums are in before the next step reads them
  }
  if (tid == 0) g_odata[blockIdx.x] = smem[0];
}
