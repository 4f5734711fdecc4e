// A wrong answer to exercise shift_zero (chapter 02): __shfl_down_sync alone. The top `delta` lanes
// of every sub-group get their own value back instead of 0.
__global__ void shift_zero(const int* in, int* out, int n, int delta, int width) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int value = i < n ? in[i] : 0;
  value = __shfl_down_sync(0xffffffffu, value, static_cast<unsigned>(delta), width);
  if (i < n) out[i] = value;
}
