// Solution of exercise histWarpAgg: a warp-uniform loop (each warp starts at its lane 0's index),
// so all 32 lanes reach __match_any_sync with the full mask; lanes past n vote with bin -1, which
// no element has, and do not add.
__global__ void histWarpAgg(unsigned* bins, int nbins, const int* input, size_t n) {
  extern __shared__ unsigned hist[];
  for (int i = threadIdx.x; i < nbins; i += blockDim.x) hist[i] = 0;
  __syncthreads();
  const unsigned lane = threadIdx.x % 32;
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  for (size_t base = blockIdx.x * size_t(blockDim.x) + threadIdx.x - lane; base < n; base += stride) {
    const size_t i = base + lane;
    const int bin = i < n ? input[i] : -1;
    const unsigned peers = __match_any_sync(0xffffffffu, bin);  // lanes with my bin, me included
    if (bin >= 0 && lane == __ffs(peers) - 1) atomicAdd(&hist[bin], __popc(peers));
  }
  __syncthreads();
  for (int i = threadIdx.x; i < nbins; i += blockDim.x)
    if (hist[i]) atomicAdd(&bins[i], hist[i]);
}
