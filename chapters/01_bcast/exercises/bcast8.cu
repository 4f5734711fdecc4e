// Exercise bcast8 (chapter 01, easy): every sub-group of 8 lanes takes its own lane 3's value.
//
// Task: out[i] = in[(i / 8) * 8 + 3] for every i < n: lane 3 of each group of 8 consecutive lanes
// hands its element to the 7 others of its group, with one __shfl_sync, no shared memory, no
// __syncthreads() (the shuffle needs no barrier; the SASS rules in bcast8.sass reject BAR, not a
// __syncwarp(): nvcc 13.0's sm_90 code has a NOP for one, or WARPSYNC inside a branch), and every
// value in registers (the rules reject local memory and a stack frame; a device printf with
// arguments can bring both, as bcast's "Thread %d failed." does).
// n is a multiple of 8 but not always of 32 or of the block (the checker tries n = 8, 40, 1000,
// 4104, and 1 << 20 except in its --quick runs under the sanitizers, with 128-thread blocks), so
// the last warp may hold fewer than 32 elements.
//
// Hint: `width` splits the warp into sub-groups and srcLane counts inside the caller's own
// sub-group (rules 2 and 3 of the chapter README). For the lanes past n, the README's Exercises
// section says what the full mask requires and which way is safe under both of NVIDIA's documents:
// load only where i < n, but shuffle everywhere.
//
// Judge it: ctest --preset default -R exercise.bcast8
#define WB_NOT_ATTEMPTED  // delete this line when you start

__global__ void bcast8(const int* in, int* out, int n) {
  // TODO
}
