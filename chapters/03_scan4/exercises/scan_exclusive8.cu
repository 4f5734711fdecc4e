// Exercise scan_exclusive8 (chapter 03, easy): the chapter's scan made exclusive, over an array.
//
// Task: cut the array into groups of 8 consecutive elements starting at multiples of 8 (elements
// 8k to 8k + 7, the 8 lanes of a scan4 group). With g = 8k the first element of a group, element
// g + j receives the sum of the elements before it in its group: out[g + j] = in[g] + ... +
// in[g + j - 1], and out[g] = 0.
// Use __shfl_up_sync with width 8, no shared memory. n is any size (the checker tries 1, 7, 9, 100,
// 1000, 4099, and (1 << 22) + 5 outside quick mode, with 128-thread blocks), so the last group and the last warp may be short.
//
// Hint: scan4's two details both matter here: every lane that has not returned executes every
// shuffle, and a lane with fewer than i predecessors in its group gets its own value back and must
// not add it. An exclusive scan is the inclusive one minus the lane's own element. Lanes past n
// may stay in the shuffles carrying 0 (the safe way of chapter 01's rule 1).
//
// Judge it: ctest --preset default -R exercise.scan_exclusive8
#define WB_NOT_ATTEMPTED  // delete this line when you start

__global__ void scan_exclusive8(const int* in, int* out, int n) {
  // TODO
}
