// Solution of exercise transposeSwizzle: column c of row r at position c ^ r. For a fixed
// column c, r -> c ^ r is a permutation of 0..31, so the 32 rows of the column sit in 32 banks;
// for a fixed row it is one too, so the row store stays conflict-free. No word is wasted.
__host__ __device__ inline int tile_index(int r, int c) { return r * 32 + (c ^ r); }

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
