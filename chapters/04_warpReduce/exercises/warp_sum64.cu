// Exercise warp_sum64 (chapter 04, easy): each warp's sum, in 64 bits, with a butterfly.
//
// Task: warp w of the grid covers elements 32w .. 32w + 31 (those below n). Write their sum to
// out[w] as an unsigned long long, for every warp that covers at least one element (a warp whose
// first element is at or past n writes nothing). The elements are unsigned ints up to 2^32 - 1,
// so a warp's sum needs more than 32 bits. Use __shfl_xor_sync, no shared memory, no atomics.
// The checker tries n = 1, 33, 1000, 4099 and 2^24 + 3 (partial last warps) with 128-thread blocks.
//
// Hint: after the steps with lane masks 16, 8, 4, 2, 1 every lane holds the total. The shuffle
// intrinsics are overloaded for 64-bit types: widen before the first addition, not after the last.
//
// Judge it: ctest --preset default -R exercise.warp_sum64
#define WB_NOT_ATTEMPTED  // delete this line when you start

__global__ void warp_sum64(const unsigned* in, unsigned long long* out, int n) {
  // TODO
}
