// Exercise warp_argmax (chapter 04, demanding): each warp's largest element and where it is.
//
// Task: warp w covers elements 32w .. 32w + 31 (those below n). Write the largest of them to
// out_value[w] and its index i to out_index[w]; on a tie, the smallest index wins. A warp whose
// first element is at or past n writes nothing. The elements are any ints, negative ones and
// INT_MIN included. Use __shfl_xor_sync butterflies, no shared memory. The checker tries n = 1, 33,
// 1000, 4099 and 2^22 + 9 with 128-thread blocks, with many ties and with warps of only negative
// elements.
//
// Hint: carry a (value, index) pair through the butterfly and decide with one comparison that
// every lane evaluates the same way, so that after the last step all lanes agree. A lane past n
// must never win: what value and index can it carry that lose to every real element?
//
// Judge it: ctest --preset default -R exercise.warp_argmax
#define WB_NOT_ATTEMPTED  // delete this line when you start

__global__ void warp_argmax(const int* in, int* out_value, int* out_index, int n) {
  // TODO
}
