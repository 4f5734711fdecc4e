// Exercise reduceSmemTree (chapter 06, easy): one block's sum through a tree in shared memory.
//
// Task: block b sums g_idata[b * DIM .. b * DIM + DIM - 1] (the elements that exist: n need not be
// a multiple of DIM) and writes the sum to g_odata[b]. Launch: <<<ceil(n / DIM), DIM>>>, with
// DIM = 256 (a power of two, defined by the checker). Sums are unsigned and wrap, as in the
// chapter. Copy one element per thread into a shared array (0 for a missing one), then halve:
// at stride s, thread tid < s adds smem[tid + s] into smem[tid], for s = DIM / 2, ..., 1.
//
// Hint: at stride s, thread tid reads smem[tid + s], which thread tid + s wrote in the step before
// (the copy, or the stride-2s step): another thread, of another warp while s >= 32. What must
// every thread of the block have passed between the two steps?
//
// Judged: every block sum, exactly (n = 1, 37, 255, 256, 257, 1000003 and more), and
// compute-sanitizer racecheck and synccheck (a hazard fails even when the sum comes out right);
// the SASS (reduceSmemTree.sass): shared stores and loads, a barrier, no spill.
// Judge it: ctest --preset default -R exercise.reduceSmemTree
#define WB_NOT_ATTEMPTED  // delete this line when you start

__global__ void reduceSmemTree(const unsigned* g_idata, unsigned* g_odata, size_t n) {
  // TODO
}
