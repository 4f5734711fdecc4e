// A wrong answer to exercise tile_swizzle_double (chapter 05): an 8-row swizzle, col ^ (row % 8),
// as for a tile whose swizzle pattern repeats every 8 rows. It is still a permutation of each row,
// so the output is right, but the pattern repeats every 8 rows: each half-warp of a column read
// (16 consecutive rows) puts rows r and r + 8 on one bank pair, 2 words where its one wavefront
// allows 1, so each column load takes 4 wavefronts instead of 2. Only the bank model and the
// counters can reject it.
constexpr int kTileDoubles = 32 * 32;

__host__ __device__ inline int tile_index(int row, int col) { return row * 32 + (col ^ (row % 8)); }

// Given: one 32x32 block per tile. Warp y stores logical row y (lane x = column x) and loads
// logical column y (lane x = row x), so out holds each tile transposed.
__global__ void transposeTileDouble(const double* in, double* out) {
  __shared__ double tile[kTileDoubles];
  const size_t base = size_t(blockIdx.x) * 32 * 32;
  tile[tile_index(threadIdx.y, threadIdx.x)] = in[base + threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[base + threadIdx.y * 32 + threadIdx.x] = tile[tile_index(threadIdx.x, threadIdx.y)];
}
