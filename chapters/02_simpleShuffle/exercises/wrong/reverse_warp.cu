// A wrong answer to exercise reverse_warp (chapter 02): the source lane is off by one. Lane l reads
// lane 32 - l, so lane 0 reads lane 32 % 32 = 0 (itself) and every other lane its neighbour's mirror.
__global__ void reverse_warp(const int* in, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;
  int value = i < n ? in[i] : 0;
  value = __shfl_sync(0xffffffffu, value, 32 - lane);
  if (i < n) out[i] = value;
}
