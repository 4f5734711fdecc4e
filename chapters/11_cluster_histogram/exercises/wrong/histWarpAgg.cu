// A plausible wrong answer to exercise histWarpAgg: the leader test forgets that __ffs counts from 1
// (lane == __ffs(peers)). The lane after a group's lowest lane adds the group's count only if that
// lane is in the group too: a group whose two lowest lanes are not neighbours (a lone lane, say) is
// never counted. (A lane that adds always adds its own bin and its own group's size, so nothing is
// counted in the wrong bin: the error is only undercounting.)
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
    if (bin >= 0 && lane == __ffs(peers)) atomicAdd(&hist[bin], __popc(peers));
  }
  __syncthreads();
  for (int i = threadIdx.x; i < nbins; i += blockDim.x)
    if (hist[i]) atomicAdd(&bins[i], hist[i]);
}
