// Solution of exercise reverse_warp (chapter 02): 31 - l == l ^ 31 for a 5-bit lane id, so the
// reversal is one butterfly with laneMask 31.
__global__ void reverse_warp(const int* in, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int value = i < n ? in[i] : 0;
  value = __shfl_xor_sync(0xffffffffu, value, 31);
  if (i < n) out[i] = value;
}
