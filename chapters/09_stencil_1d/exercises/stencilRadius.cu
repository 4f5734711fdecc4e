// Exercise stencilRadius (chapter 09, demanding): any radius up to kMaxRadius (64), any block size.
//
// Task: the stencil of exercise stencilHalo, out[i] = sum over k = 1..R of coef[k] * (in[i + k] -
// in[i - k]), `in` valid on [-R, N + R), but R is a template parameter (the checker tries 1, 4, 16
// and 40) and the block size is blockDim.x (32 or 128): R can be larger than the block. The tile
// is dynamic shared memory, `extern __shared__ float tile[]`, of blockDim.x + 2 * R floats, sized
// by the checker at launch; `__constant__ float coef[kMaxRadius + 1]` is defined by the checker.
// Launch: <<<ceil(N / blockDim.x), blockDim.x, (blockDim.x + 2 * R) * 4>>>.
//
// Hint: the chapter's "the first RADIUS threads load one halo element on each side" needs
// RADIUS <= blockDim.x. Let the block's threads stride over the whole tile instead, loading every
// element that lies in [-R, N + R).
//
// Judged: every output, exactly, for each R and block size, on N = 1, 33, 1000 and 100003; before each launch (not under --quick) a kernel writes NaN into shared memory, which may (no document promises it) make a tile element nobody loads read as NaN; racecheck and synccheck.
// Not judged: reads past in[N + R) whose values reach no output. The checker's input is followed by
// 256 NaN floats in the same allocation and no sanitizer here looks for out-of-bounds reads, so
// nothing reports them; keep them out yourself (the chapter's bug 3).
// The SASS rules in stencilRadius.sass hold too (the instructions the lesson is about, no spill).
// Judge it: ctest --preset default -R exercise.stencilRadius
#define WB_NOT_ATTEMPTED  // delete this line when you start

template <int R>
__global__ void stencilRadius(const float* in, float* out, int N) {
  // TODO
}
