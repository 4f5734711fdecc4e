// Exercise segmented_scan (chapter 03, demanding): an inclusive scan over a warp that restarts at
// every segment head.
//
// Task: head[i] != 0 marks element i as the first of a segment; the first element of every warp
// (i % 32 == 0) starts a segment too. out[i] = the sum of in[h..i], h the last head at or before i
// within i's warp. Use __shfl_up_sync (width 32), no shared memory. n is any size (the checker
// tries 1, 31, 33, 1000, 4099, and (1 << 22) + 1 outside quick mode, with 128-thread blocks, and
// head patterns: none, every lane, random, every 5th).
//
// Hint: scan4's loop run over the whole warp (width 32, d = 1, 2, 4, 8, 16) still works if every
// lane also carries a flag "my partial sum already starts at a head": a lane whose flag is set stops
// adding, and a lane that adds the partial sum from d lanes below also inherits that lane's flag.
// Shuffle the flag as well as the value. scan4's guard on lanes with fewer than d predecessors may
// stay but changes nothing: lane 0's flag is always set, so at the step with d every lane below d
// already has its flag set and does not add.
//
// Judge it: ctest --preset default -R exercise.segmented_scan
#define WB_NOT_ATTEMPTED  // delete this line when you start

__global__ void segmented_scan(const int* in, const int* head, int* out, int n) {
  // TODO
}
