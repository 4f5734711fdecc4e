// Exercise tile_pad_double (chapter 05, easy): a padded 32x32 tile of doubles whose columns read
// without bank conflicts.
//
// Task: the kernel below (given) transposes 32x32 tiles of doubles through shared memory: each warp
// stores a row of the tile and later loads a column. Choose the padding kPadDoubles (doubles added
// to each row) and write tile_index(row, col), the position of logical element (row, col) in the
// padded tile, so that both the row stores and the column loads are free of bank conflicts.
// The checker verifies the output, runs the chapter's bank model on tile_index (no GPU needed:
// `ex_tile_pad_double --bank-model`) and, where Nsight Compute is present, reads the hardware's
// conflict counters.
//
// Hint: a double is 8 bytes, two banks. The bank model serves a warp's 64-bit access a half-warp
// (16 lanes, 128 bytes) at a time (the workbook's model: the Guide states no such rule from
// compute capability 5.x on; Nsight Compute's conflict counters give the same verdicts on the
// solution and the wrong answer, as counting the whole warp at once would), so ask which banks
// lanes 0-15 of a column read touch: 16 rows, which need 16 different bank pairs, and there are
// only 16 pairs. Padding each row by p doubles moves each row 2p banks on; try p = 1 and p = 2 on
// rows 0 to 15 before you choose.
//
// Judge it: ctest --preset default -R exercise.tile_pad_double
#define WB_NOT_ATTEMPTED  // delete this line when you start

constexpr int kPadDoubles = 0;  // TODO: doubles of padding per row
constexpr int kTileDoubles = 32 * (32 + kPadDoubles);

// Logical element (row, col) of the 32x32 tile -> its index in tile[kTileDoubles].
__host__ __device__ inline int tile_index(int row, int col) {
  // TODO
  return row * 32 + col;
}

// Given: one 32x32 block per tile. Warp y stores logical row y (lane x = column x) and loads
// logical column y (lane x = row x), so out holds each tile transposed.
__global__ void transposeTileDouble(const double* in, double* out) {
  __shared__ double tile[kTileDoubles];
  const size_t base = size_t(blockIdx.x) * 32 * 32;
  tile[tile_index(threadIdx.y, threadIdx.x)] = in[base + threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[base + threadIdx.y * 32 + threadIdx.x] = tile[tile_index(threadIdx.x, threadIdx.y)];
}
