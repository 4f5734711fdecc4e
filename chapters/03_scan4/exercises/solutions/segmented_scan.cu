// Solution of exercise segmented_scan (chapter 03): a Hillis-Steele scan of (flag, value) pairs.
// Combining the pair d lanes below with our own: the value adds only while our flag is clear, and
// the flag becomes "either was already at a head".
__global__ void segmented_scan(const int* in, const int* head, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;
  int value = i < n ? in[i] : 0;
  int flag = (i < n && head[i] != 0) || lane == 0;
  for (int d = 1; d < 32; d *= 2) {
    const int up_value = __shfl_up_sync(0xffffffffu, value, d);
    const int up_flag = __shfl_up_sync(0xffffffffu, flag, d);
    if (lane >= d && !flag) {  // a set flag means the segment's head is already summed in
      value += up_value;
      flag = up_flag;
    }
  }
  if (i < n) out[i] = value;
}
