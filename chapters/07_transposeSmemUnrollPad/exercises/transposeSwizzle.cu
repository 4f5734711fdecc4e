// Exercise transposeSwizzle (chapter 07, demanding): a conflict-free transpose tile without
// padding (an xor swizzle).
//
// Task: the transpose of exercise transposePad (32 x 32 tile, block 32 x 8, the same shapes and launch), but
// the tile is exactly kTileWords = 32 * 32 floats (defined by the checker): no padding word. The
// intended layout keeps each tile row in its own 32 words and permutes the columns within the row,
// differently for each row, so that the 32 elements of any column fall in 32 different banks. (The
// checker requires the 32 banks, not that each row stay in its own 32 words: see "Judged".) Write
//   tile_index(r, c)    where element (r, c) of the tile lives (host and device), in [0, 1024);
//   transposeSwizzle    the kernel, accessing the tile only as tile[tile_index(r, c)].
// Hint: for a fixed k, c -> c ^ k (xor) is one to one over c = 0..31: a permutation of a row.
// Which k for row r makes column c land in a different bank in each of the 32 rows? Check both
// directions: a fixed c over r = 0..31 (the column read) and a fixed r over c (the row store).
//
// Judged: every element of every shape, exactly; the kernel's static shared memory is exactly
// kTileWords floats (cudaFuncGetAttributes); the chapter's bank model on tile_index (no GPU
// needed: the 32 x 32 elements in distinct words of [0, 1024), and both the row store and the
// column load 1 wavefront); Nsight Compute's shared-memory bank conflicts of the kernel on the
// checker's three small --quick shapes, which must be 0 (at 4096^2 ncu counted conflicts in the
// chapter's padded kernels, conflict-free by the bank arithmetic: chapter README, "Shared-memory
// wavefronts per instruction"); racecheck.
// The SASS rules in transposeSwizzle.sass hold too (the instructions the lesson is about, no spill).
// Judge it: ctest --preset default -R exercise.transposeSwizzle
#define WB_NOT_ATTEMPTED  // delete this line when you start

__host__ __device__ inline int tile_index(int r, int c) {
  return r * 32 + c;  // TODO: swizzle
}

__global__ void transposeSwizzle(float* out, const float* in, int rows, int cols) {
  // TODO
}
