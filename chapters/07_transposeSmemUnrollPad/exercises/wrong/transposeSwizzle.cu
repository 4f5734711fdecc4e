// A plausible wrong answer to exercise transposeSwizzle: the swizzle uses the row within the
// block's 8 rows (threadIdx.y, r & 7) instead of the tile row. Rows r, r + 8, r + 16, r + 24 of a
// column land in one bank: a 4-way conflict. The output is right; the bank model and ncu reject it.
__host__ __device__ inline int tile_index(int r, int c) { return r * 32 + (c ^ (r & 7)); }

__global__ void transposeSwizzle(float* out, const float* in, int rows, int cols) {
  __shared__ float tile[kTileWords];
  const int x = blockIdx.x * 32 + threadIdx.x;
  for (int j = threadIdx.y; j < 32; j += 8) {
    const int y = blockIdx.y * 32 + j;
    if (y < rows && x < cols) tile[tile_index(j, threadIdx.x)] = in[(size_t)y * cols + x];
  }
  __syncthreads();
  const int ox = blockIdx.y * 32 + threadIdx.x;
  for (int j = threadIdx.y; j < 32; j += 8) {
    const int oy = blockIdx.x * 32 + j;
    if (oy < cols && ox < rows) out[(size_t)oy * rows + ox] = tile[tile_index(threadIdx.x, j)];
  }
}
