// Solution of exercise warp_sum64 (chapter 04): widen first, then five butterflies on 64 bits.
__global__ void warp_sum64(const unsigned* in, unsigned long long* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long sum = i < n ? in[i] : 0u;  // lanes past n add nothing
  for (int mask = 16; mask >= 1; mask /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, mask);
  if ((threadIdx.x & 31) == 0 && i < n) out[i / 32] = sum;  // lane 0's i is the warp's first element
}
