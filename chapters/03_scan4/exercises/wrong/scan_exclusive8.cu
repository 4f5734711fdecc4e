// A wrong answer to exercise scan_exclusive8 (chapter 03): the guard `(lane & 7) >= d` is missing.
// A lane near the start of its group gets its own value back from __shfl_up_sync and adds it.
__global__ void scan_exclusive8(const int* in, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int own = i < n ? in[i] : 0;
  int value = own;
  for (int d = 1; d <= 4; d *= 2) value += __shfl_up_sync(0xffffffffu, value, d, 8);
  if (i < n) out[i] = value - own;
}
