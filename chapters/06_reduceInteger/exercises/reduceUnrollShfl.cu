// Exercise reduceUnrollShfl (chapter 06, demanding): unroll by 2, a shared tree down to 64
// values, then the last warp with shuffles.
//
// Task: block b owns the 2 * DIM elements g_idata[b * 2 * DIM .. b * 2 * DIM + 2 * DIM - 1] that
// exist (n is any size) and writes their sum to g_odata[b]. Launch: <<<ceil(n / (2 * DIM)), DIM>>>,
// DIM = 256 (defined by the checker). Each thread first adds its two elements, idx and idx + DIM
// (the chapter's "unrolling"); the shared tree runs while the stride is at least 64 (so smem[0..63]
// holds partial sums); then warp 0 reads smem[tid] + smem[tid + 32] once and finishes with
// __shfl_down_sync or __shfl_xor_sync: no shared memory and no barrier after that read.
//
// Hint: the two loads of a thread need two guards, not one: the first element can exist while
// the second does not (the book guards its four loads with one condition; see the errata).
//
// Judged: every block sum, exactly, on sizes that end inside a block's first or second half;
// racecheck; the SASS must show shuffles (SHFL) and no local-memory spill.
// Judge it: ctest --preset default -R exercise.reduceUnrollShfl
#define WB_NOT_ATTEMPTED  // delete this line when you start

__global__ void reduceUnrollShfl(const unsigned* g_idata, unsigned* g_odata, size_t n) {
  // TODO
}
