// Exercise stencilHalo (chapter 09, easy): a shared tile with its halo, one tile per block.
//
// Task: out[i] = sum over k = 1..RADIUS of coef[k] * (in[i + k] - in[i - k]) for 0 <= i < N, the
// chapter's stencil. As in the chapter, `in` is valid on [-RADIUS, N + RADIUS): RADIUS samples of
// halo on each side. RADIUS = 4, BDIM = 128 and `__constant__ float coef[RADIUS + 1]` are defined
// by the checker. Launch: <<<ceil(N / BDIM), BDIM>>>; N need not be a multiple of BDIM. Block b stages
// in[b * BDIM - RADIUS .. b * BDIM + BDIM + RADIUS) in __shared__ float smem[BDIM + 2 * RADIUS]
// (thread t's own element at smem[t + RADIUS], the first RADIUS threads also one halo element on
// each side), waits, and each thread whose i < N computes its output from the tile.
//
// Hint: in the last block, which elements of the tile exist, and which threads are there to load
// them? A thread with i >= N has no output, but it may still have an element to load.
//
// Judged: every output, exactly (integer samples and coefficients), for N = 1, 3, 5, 127, 128,
// 129, 1000, 65539 and 1000003;
// before each launch (not under --quick) a kernel writes NaN into shared memory, so a tile element
// nobody loads may read as NaN and fail the check (no document promises that it does); racecheck
// and synccheck.
// Not judged: reads past in[N + RADIUS) whose values reach no output. The checker's input is
// followed by 256 NaN floats in the same allocation and no sanitizer here looks for out-of-bounds
// reads, so nothing reports them; keep them out yourself (the chapter's bug 3).
// The SASS rules in stencilHalo.sass hold too (the instructions the lesson is about, no spill).
// Judge it: ctest --preset default -R exercise.stencilHalo
#define WB_NOT_ATTEMPTED  // delete this line when you start

__global__ void stencilHalo(const float* in, float* out, int N) {
  // TODO
}
