// A wrong answer to exercise warp_sum64 (chapter 04): the butterfly adds in 32 bits and widens only
// the result, so a sum of large elements has already wrapped modulo 2^32.
__global__ void warp_sum64(const unsigned* in, unsigned long long* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned sum = i < n ? in[i] : 0u;
  for (int mask = 16; mask >= 1; mask /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, mask);
  if ((threadIdx.x & 31) == 0 && i < n) out[i / 32] = static_cast<unsigned long long>(sum);
}
