// 003 §5.6 and the book's simpleShuffle.cu call the pre-CUDA-9 shuffles, which take no mask.
// CUDA's sm_30_intrinsics.h declares them only for __CUDA_ARCH__ < 700, and CUDA 13's oldest
// target is sm_75: this file must not compile (the test simpleShuffle.erratum.legacy_shfl).
// Built with -DCONTROL it uses the _sync forms and must compile.
#define BDIMX 16
__global__ void legacy(int* d, int srcLane, unsigned delta, int laneMask) {
  int v = d[threadIdx.x];
#ifdef CONTROL
  const unsigned lanes = 0xffffu;  // the 16 lanes that run
  v = __shfl_sync(lanes, v, srcLane, BDIMX) + __shfl_up_sync(lanes, v, delta, BDIMX) +
      __shfl_down_sync(lanes, v, delta, BDIMX) + __shfl_xor_sync(lanes, v, laneMask, BDIMX);
#else
  v = __shfl(v, srcLane, BDIMX) + __shfl_up(v, delta, BDIMX) + __shfl_down(v, delta, BDIMX) +
      __shfl_xor(v, laneMask, BDIMX);
#endif
  d[threadIdx.x] = v;
}
