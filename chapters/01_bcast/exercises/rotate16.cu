// Exercise rotate16 (chapter 01, demanding): rotate within groups of 16 lanes, the last group short.
//
// Task: split the array into groups of 16 consecutive elements (the last group holds n % 16 of
// them when n is not a multiple of 16). Within each group of len elements, element j (0 <= j < len)
// receives element (j + k) % len:  out[g + j] = in[g + (j + k) % len],  0 <= k < 16.
// Use one __shfl_sync per lane, no shared memory, no __syncthreads() (the shuffle needs no barrier;
// the SASS rules in rotate16.sass reject BAR, not a __syncwarp(): nvcc 13.0's sm_90 code has a NOP
// for one, or WARPSYNC inside a branch), and keep every value in registers (the rules reject local
// memory and a stack frame; a device printf with arguments can bring both). The checker tries
// n = 1, 5, 16, 17, 100, 1000, 4099, and (1 << 20) + 7 (not in its --quick runs under the
// sanitizers), and k = 0, 1, 5, 15 with 128-thread blocks.
//
// Hint: with width 16, srcLane is taken modulo 16 (rule 3), which rotates a full group for free,
// but a short group must wrap at len, not at 16: compute the source lane yourself. Lanes past n
// carry no data: the chapter README's Exercises section says what the full mask requires of them
// (a lane that returns early must not be read by one that stays) and which way is safe under both
// of NVIDIA's documents (keeping them in the shuffle).
//
// Judge it: ctest --preset default -R exercise.rotate16
#define WB_NOT_ATTEMPTED  // delete this line when you start

__global__ void rotate16(const int* in, int* out, int n, int k) {
  // TODO
}
