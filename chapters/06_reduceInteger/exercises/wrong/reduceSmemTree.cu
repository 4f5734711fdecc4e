// A plausible wrong answer to exercise reduceSmemTree: one barrier after the copy, none
// between the steps of the tree. A thread may read smem[tid + s] before thread tid + s (of another
// warp while s >= 32) has finished adding into it in the previous step. The sum can come out
// right anyway (when the threads happen to run in step); racecheck looks for the read-after-write
// hazard, not at the sum.
__global__ void reduceSmemTree(const unsigned* g_idata, unsigned* g_odata, size_t n) {
  __shared__ unsigned smem[DIM];
  const unsigned tid = threadIdx.x;
  const size_t idx = blockIdx.x * size_t(DIM) + tid;
  smem[tid] = idx < n ? g_idata[idx] : 0u;
  __syncthreads();
  for (unsigned s = DIM / 2; s > 0; s /= 2) {
    if (tid < s) smem[tid] += smem[tid + s];
  }
  if (tid == 0) g_odata[blockIdx.x] = smem[0];
}
