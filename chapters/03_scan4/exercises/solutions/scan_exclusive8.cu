// Solution of exercise scan_exclusive8 (chapter 03): scan4's inclusive scan, minus the own element.
__global__ void scan_exclusive8(const int* in, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = threadIdx.x & 7;       // lane within its group of 8
  const int own = i < n ? in[i] : 0;   // lanes past n add nothing to anyone
  int value = own;
  for (int d = 1; d <= 4; d *= 2) {
    const int up = __shfl_up_sync(0xffffffffu, value, d, 8);
    if (j >= d) value += up;           // fewer than d predecessors: `up` is our own value
  }
  if (i < n) out[i] = value - own;
}
