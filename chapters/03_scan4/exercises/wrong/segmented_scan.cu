// A wrong answer to exercise segmented_scan (chapter 03): only a head itself stops adding. A lane
// after a head keeps adding partial sums from before it, because the "head reached" flag is not
// carried along with the value.
__global__ void segmented_scan(const int* in, const int* head, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;
  int value = i < n ? in[i] : 0;
  const bool is_head = (i < n && head[i] != 0) || lane == 0;
  for (int d = 1; d < 32; d *= 2) {
    const int up_value = __shfl_up_sync(0xffffffffu, value, d);
    if (lane >= d && !is_head) value += up_value;
  }
  if (i < n) out[i] = value;
}
