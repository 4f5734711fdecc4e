// A wrong answer to exercise tile_pad_double (chapter 05): "a double takes two banks, so pad two".
// A row is then 34 doubles = 68 words, row r starts at bank 4r % 32, and rows r and r + 8 of a
// half-warp's column read land on the same banks: still a 2-way conflict.
constexpr int kPadDoubles = 2;
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
