// A wrong answer to exercise rotate16 (chapter 01): it lets width 16 do the wrap, which is right for
// full groups only. In a short last group, lanes read past n (the 0 that lanes past n carry).
__global__ void rotate16(const int* in, int* out, int n, int k) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int value = i < n ? in[i] : 0;
  value = __shfl_sync(0xffffffffu, value, (threadIdx.x & 15) + k, 16);
  if (i < n) out[i] = value;
}
