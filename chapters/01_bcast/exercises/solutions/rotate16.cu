// Solution of exercise rotate16 (chapter 01): rotation by k inside each group of 16, short last group.
__global__ void rotate16(const int* in, int* out, int n, int k) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = threadIdx.x & 15;         // lane within its 16-lane sub-group
  const int len = min(16, n - (i - j));   // elements of this group (<= 0 for a group past n)
  int value = i < n ? in[i] : 0;
  // A full group wraps at 16 by itself (srcLane modulo width); a short one must wrap at len.
  const int src = len > 0 ? (j + k) % len : j;
  value = __shfl_sync(0xffffffffu, value, src, 16);
  if (i < n) out[i] = value;
}
