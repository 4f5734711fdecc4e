// Solution of exercise tile_swizzle_double (chapter 05): column col ^ (row % 16). A half-warp's
// column read (16 consecutive rows, one logical column c) finds its 16 doubles at in-row
// positions c ^ (row % 16), whose low four bits all differ; slot s lies on bank pair s % 16, so
// they take 16 distinct bank pairs. A row store's half-warp keeps its own 16 slots (row & 15
// leaves bit 4 of col alone): one aligned group of 16 doubles, 32 banks.
constexpr int kTileDoubles = 32 * 32;

__host__ __device__ inline int tile_index(int row, int col) { return row * 32 + (col ^ (row & 15)); }

// Given: one 32x32 block per tile. Warp y stores logical row y (lane x = column x) and loads
// logical column y (lane x = row x), so out holds each tile transposed.
__global__ void transposeTileDouble(const double* in, double* out) {
  __shared__ double tile[kTileDoubles];
  const size_t base = size_t(blockIdx.x) * 32 * 32;
  tile[tile_index(threadIdx.y, threadIdx.x)] = in[base + threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[base + threadIdx.y * 32 + threadIdx.x] = tile[tile_index(threadIdx.x, threadIdx.y)];
}
