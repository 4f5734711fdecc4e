// Exercise transposePad (chapter 07, easy): a 32 x 32 tile whose column read is conflict-free,
// by padding.
//
// Task: out (cols x rows) = transpose of in (rows x cols), row-major floats, any shape the checker
// launches. A block of
// 32 x 8 threads moves one 32 x 32 tile: it reads 32 rows of 32 consecutive floats of `in` (each
// thread 4 of them, rows threadIdx.y, +8, +16, +24), stores them in the shared tile, waits, then
// writes 32 rows of 32 consecutive floats of `out`, each read from a column of the tile. Launch:
// grid (ceil(cols / 32), ceil(rows / 32)), block (32, 8). Write
//   kTileWords          the size of the tile in floats, padding included;
//   tile_index(r, c)    where element (r, c) of the tile lives in it (host and device);
//   transposePad        the kernel, accessing the tile only as tile[tile_index(r, c)].
// Hint: with 32 floats per tile row, column c of every row is in bank c: a column read is a 32-way
// conflict. How many words of padding per row move the 32 rows onto 32 different banks? (The
// chapter's PAD = 2 is right for its 16 x 32 tile; is it right here?)
//
// Judged: every element of every shape, exactly (shapes that are not multiples of 32, one row, one
// column); the kernel's static shared memory is exactly kTileWords floats; the chapter's bank model
// on tile_index (no GPU needed); Nsight Compute's shared-memory bank conflicts of the kernel on the
// checker's three small --quick shapes, which must be 0 (at 4096^2 ncu counted conflicts in the
// chapter's padded kernels, conflict-free by the bank arithmetic: chapter README, "Shared-memory
// wavefronts per instruction"); racecheck.
// The SASS rules in transposePad.sass hold too (the instructions the lesson is about, no spill).
// Judge it: ctest --preset default -R exercise.transposePad
#define WB_NOT_ATTEMPTED  // delete this line when you start

constexpr int kTileWords = 32 * 32;  // TODO: padding

__host__ __device__ inline int tile_index(int r, int c) {
  return r * 32 + c;  // TODO: padding
}

__global__ void transposePad(float* out, const float* in, int rows, int cols) {
  // TODO
}
