// Solution of exercise bcast8 (chapter 01): lane 3 of every 8-lane sub-group to the 7 others.
__global__ void bcast8(const int* in, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  // Lanes past n take part in the shuffle too, carrying 0: the safe way of the README's Exercises
  // section. An early return would leave no lane reading an exited one here (a sub-group of 8 lies
  // wholly below n or wholly past it), which the Guide's wording allows; NVIDIA's CUDA C++
  // guidelines (rule 2.1) advise against it.
  int value = i < n ? in[i] : 0;
  // width 8: srcLane 3 means lane 3 of the caller's own sub-group (lanes 3, 11, 19, 27).
  value = __shfl_sync(0xffffffffu, value, 3, 8);
  if (i < n) out[i] = value;
}
