// Solution of exercise shift_zero (chapter 02): __shfl_down_sync, then zero where it kept the
// caller's own value (the source lane left the sub-group).
__global__ void shift_zero(const int* in, int* out, int n, int delta, int width) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = threadIdx.x & (width - 1);  // lane within its sub-group (blocks hold whole warps)
  int value = i < n ? in[i] : 0;            // lanes past n carry the 0 the answer needs there
  int got = __shfl_down_sync(0xffffffffu, value, static_cast<unsigned>(delta), width);
  if (j + delta >= width) got = 0;
  if (i < n) out[i] = got;
}
