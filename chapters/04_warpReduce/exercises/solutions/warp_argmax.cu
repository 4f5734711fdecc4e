// Solution of exercise warp_argmax (chapter 04): a butterfly over (value, index) pairs. Lanes past n
// carry (INT_MIN, INT_MAX): they lose to every element, even an INT_MIN, on the index.
#include <climits>

__global__ void warp_argmax(const int* in, int* out_value, int* out_index, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int value = i < n ? in[i] : INT_MIN;
  int index = i < n ? i : INT_MAX;
  for (int mask = 16; mask >= 1; mask /= 2) {
    const int other_value = __shfl_xor_sync(0xffffffffu, value, mask);
    const int other_index = __shfl_xor_sync(0xffffffffu, index, mask);
    // The same total order on both sides of the pair, so both lanes keep the same winner.
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
