// A wrong answer to exercise warp_argmax (chapter 04): lanes past n carry the value 0, as a sum would.
// In a partial warp whose elements are all negative, a lane past n wins with 0.
__global__ void warp_argmax(const int* in, int* out_value, int* out_index, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int value = i < n ? in[i] : 0;
  int index = i;
  for (int mask = 16; mask >= 1; mask /= 2) {
    const int other_value = __shfl_xor_sync(0xffffffffu, value, mask);
    const int other_index = __shfl_xor_sync(0xffffffffu, index, mask);
    if (other_value > value || (other_value == value && other_index < index)) {
      value = other_value;
      index = other_index;
    }
  }
  if ((threadIdx.x & 31) == 0 && i < n) {
    out_value[i / 32] = value;
    out_index[i / 32] = index;
  }
}
