// Exercise shift_zero (chapter 02, demanding): shift down within sub-groups, zeros shifted in.
//
// Task: split each warp into sub-groups of `width` lanes (4, 8, 16 or 32). Lane j of a sub-group
// receives the element `delta` lanes above it in the same sub-group, and 0 when there is none:
//   out[i] = (j + delta < width && i + delta < n) ? in[i + delta] : 0,   j = lane % width,
// with 1 <= delta < width. One shuffle intrinsic per lane, no shared memory. n is any size (the
// checker tries 1, 31, 100, 1000, 4099, and (1 << 22) + 3 outside quick mode, with 128-thread
// blocks): the last warp is partial.
//
// Hint: __shfl_down_sync moves data the right way, but what does a lane receive when lane j + delta
// is outside its sub-group (chapter 01, rule 4; the chapter's `shfl down` line ends 14 15 14 15)?
// Lanes past n: keep them in the shuffle, with a value that makes the answer right. With the
// checker's 128-thread blocks (a multiple of 32, so every lane the full mask names is launched)
// that is safe under both the Programming Guide and NVIDIA's CUDA C++ Guidelines; an early return is not
// (chapter 01, the note under its exercises),
// and the checker may not catch one: a lane that reads a lane that returned gets an undefined value,
// which a GPU may happen to return as the 0 the answer needs there.
//
// Judge it: ctest --preset default -R exercise.shift_zero
#define WB_NOT_ATTEMPTED  // delete this line when you start

__global__ void shift_zero(const int* in, int* out, int n, int delta, int width) {
  // TODO
}
