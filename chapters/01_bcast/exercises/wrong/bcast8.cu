// A wrong answer to exercise bcast8 (chapter 01): the width is left out. Without it, srcLane 3
// names lane 3 of the whole warp, so lanes 8-31 all receive lane 3's value.
__global__ void bcast8(const int* in, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int value = i < n ? in[i] : 0;
  value = __shfl_sync(0xffffffffu, value, 3);
  if (i < n) out[i] = value;
}
