// Solution of exercise histPacked16: the chapter's carry_out for two 16-bit fields. Every correction
// goes to the global bins; the shared word is only ever incremented, and read once at the end.
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
      if (shift == 0 && b + 1 < nbins) {  // the carry went into the high field
        const bool high_full = (old >> 16) == 0xFFFFu;  // then it wrapped too (its carry left the word)
        atomicAdd(&bins[b + 1], high_full ? 0xFFFFu : ~0u);  // +65535, or -1
      }
    }
  }
  __syncthreads();
  for (int b = threadIdx.x; b < nbins; b += blockDim.x) {
    const unsigned count = (hist[b / 2] >> (16 * (b % 2))) & 0xFFFFu;
    if (count) atomicAdd(&bins[b], count);
  }
}
