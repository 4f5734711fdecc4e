// A plausible wrong answer to exercise histPacked16: the wrapped counter's 65536 goes to the global
// bin, but the carry that the wrap pushed into the high half of the word is left there. Each wrap of
// an even bin adds 1 to the odd bin after it (and when that one was 65535, it wraps unnoticed).
__global__ void histPacked16(unsigned* bins, int nbins, const int* input, size_t n) {
  extern __shared__ unsigned hist[];
  const int words = (nbins + 1) / 2;
  for (int w = threadIdx.x; w < words; w += blockDim.x) hist[w] = 0;
  __syncthreads();
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    const int b = input[i], shift = 16 * (b % 2);
    const unsigned old = atomicAdd(&hist[b / 2], 1u << shift);
    if (((old >> shift) & 0xFFFFu) == 0xFFFFu) {  // this add wrapped my field to 0
      atomicAdd(&bins[b], 0x10000u);
    }
  }
  __syncthreads();
  for (int b = threadIdx.x; b < nbins; b += blockDim.x) {
    const unsigned count = (hist[b / 2] >> (16 * (b % 2))) & 0xFFFFu;
    if (count) atomicAdd(&bins[b], count);
  }
}
