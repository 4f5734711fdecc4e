// 003 §5.6.1 lists `int __shfl_xnor(int var, int lanemask, int width=warpSize);` as the butterfly shuffle.
// CUDA has no such function, with or without _sync: this file must not compile (the test
// simpleShuffle.erratum.no_shfl_xnor). Built with -DCONTROL it uses the real butterfly,
// __shfl_xor_sync, and must compile: the failure is the name, nothing else.
__global__ void butterfly(int* v) {
#ifdef CONTROL
  v[threadIdx.x] = __shfl_xor_sync(0xffffffffu, v[threadIdx.x], 1, 16);
#else
  v[threadIdx.x] = __shfl_xnor(v[threadIdx.x], 1, 16);
  v[threadIdx.x] += __shfl_xnor_sync(0xffffffffu, v[threadIdx.x], 1, 16);
#endif
}
