// A plausible wrong answer to exercise transposePad: the chapter's PAD = 2 copied to a
// 32 x 32 tile. Element (r, c) is in bank (34 r + c) % 32 = (2 r + c) % 32: rows r and r + 16 of a
// column share a bank, a 2-way conflict. The output is right; the bank model and ncu reject it.
constexpr int kTileWords = 32 * 34;

__host__ __device__ inline int tile_index(int r, int c) { return r * 34 + c; }

__global__ void transposePad(float* out, const float* in, int rows, int cols) {
  __shared__ float tile[kTileWords];
  const int x = blockIdx.x * 32 + threadIdx.x;  // input column
  for (int j = threadIdx.y; j < 32; j += 8) {
    const int y = blockIdx.y * 32 + j;  // input row
    if (y < rows && x < cols) tile[tile_index(j, threadIdx.x)] = in[(size_t)y * cols + x];
  }
  __syncthreads();  // every thread reaches it: the tests guard the accesses, not the barrier
  const int ox = blockIdx.y * 32 + threadIdx.x;  // output column = input row
  for (int j = threadIdx.y; j < 32; j += 8) {
    const int oy = blockIdx.x * 32 + j;  // output row = input column
    if (oy < cols && ox < rows) out[(size_t)oy * rows + ox] = tile[tile_index(threadIdx.x, j)];
  }
}
