// Exercise reverse_warp (chapter 02, easy): reverse every warp's 32 elements with one shuffle.
//
// Task: for each aligned group of 32 elements, out[w * 32 + l] = in[w * 32 + 31 - l]. One shuffle
// intrinsic per lane, no shared memory. n is a multiple of 32. The checker launches 128-thread
// blocks for n = 32, 160, 4128 (and 1 << 22 outside quick mode); for the first three only the
// first warp of the last block lies inside n.
//
// Hint: which lane must lane l read? Write 31 - l in binary next to l. Two of the four shuffle
// intrinsics can do it in one call; one of them needs no arithmetic on the lane id at all.
//
// Judge it: ctest --preset default -R exercise.reverse_warp
#define WB_NOT_ATTEMPTED  // delete this line when you start

__global__ void reverse_warp(const int* in, int* out, int n) {
  // TODO
}
