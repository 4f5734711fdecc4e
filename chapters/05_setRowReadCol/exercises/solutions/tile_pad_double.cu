// Solution of exercise tile_pad_double (chapter 05): one double of padding per row. A row is then 33
// doubles = 66 words, so row r starts at bank (66 r) % 32 = 2r % 32: the 16 lanes of a half-warp
// reading a column start on banks 0, 2, ..., 30 (plus the column's offset), 16 distinct bank pairs.
constexpr int kPadDoubles = 1;
constexpr int kTileDoubles = 32 * (32 + kPadDoubles);

__host__ __device__ inline int tile_index(int row, int col) { return row * (32 + kPadDoubles) + col; }

// Given: one 32x32 block per tile. Warp y stores logical row y (lane x = column x) and loads
// logical column y (lane x = row x), so out holds each tile transposed.
__global__ void transposeTileDouble(const double* in, double* out) {
  __shared__ double tile[kTileDoubles];
  const size_t base = size_t(blockIdx.x) * 32 * 32;
  tile[tile_index(threadIdx.y, threadIdx.x)] = in[base + threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[base + threadIdx.y * 32 + threadIdx.x] = tile[tile_index(threadIdx.x, threadIdx.y)];
}
