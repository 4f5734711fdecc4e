// Exercise tile_swizzle_double (chapter 05, demanding): the same conflict-free 32x32 tile of
// doubles, without a single double of padding.
//
// Task: as in tile_pad_double, the kernel below (given) stores rows and loads columns of a 32x32
// tile of doubles. This time the tile is exactly 32 * 32 doubles (kTileDoubles must stay 1024):
// write tile_index(row, col) as an XOR swizzle, which permutes the columns within each row
// differently from row to row, so that row stores and column loads are both conflict-free and
// every element keeps its own slot. Judged like tile_pad_double: output, bank model
// (`ex_tile_swizzle_double --bank-model`), and Nsight Compute's counters where present.
//
// Hint: keep the row, move the column: row * 32 + (col ^ f(row)), with 0 <= f(row) < 32 (outside
// that range col ^ f(row) leaves the row, which is not the swizzle asked for). Row stores: a half-warp's columns
// 0-15 (or 16-31) of a row stay together, on columns 0-15 or on 16-31 (bit 4 of col ^ f(row) is
// the same for all 16), one aligned group of 16 doubles, so any such f keeps them conflict-free.
// (In the bank model, permuting the row is not enough by itself: swapping columns 1 and 16 puts
// slots 0 and 16, one bank pair, in the same half-warp.) For the column
// loads, list the 16 rows of a half-warp (the bank model serves a 64-bit access 16 lanes at a time:
// the workbook's model; the Guide states no such rule from compute capability 5.x on) and ask which
// bank pair each lands on. A row is 32 doubles = 64 words, twice round the 32 banks, so row r's
// slot c sits on bank pair c % 16: 16 different values of f are not enough (f(r) = 2r % 32 has
// them and still doubles up), the low four bits of f (f % 16) must differ across those rows.
//
// Judge it: ctest --preset default -R exercise.tile_swizzle_double
#define WB_NOT_ATTEMPTED  // delete this line when you start

constexpr int kTileDoubles = 32 * 32;  // no padding

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
