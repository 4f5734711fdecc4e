// Exercise matMulTiled (chapter 08, easy): the Programming Guide's shared-memory matrix multiply,
// any size.
//
// Task: C (M x N) = A (M x K) * B (K x N), row-major floats. A block of BLOCK_SIZE x BLOCK_SIZE
// threads (BLOCK_SIZE = 16, defined by the checker) computes one BLOCK_SIZE x BLOCK_SIZE sub-matrix
// Csub; thread (threadIdx.y, threadIdx.x) owns element (row, col) of it. Walk along A's block row
// and B's block column one pair of tiles at a time: each thread loads one element of A's tile into
// As and one of B's into Bs (0 outside the matrices: a zero adds nothing), the block waits, each
// thread adds its BLOCK_SIZE products As[ty][e] * Bs[e][tx] into Cvalue, and so on to the last
// tile (round up). Launch: grid (ceil(N / 16), ceil(M / 16)), block (16, 16).
//
// Hint: two barriers per tile. The first is obvious. What can go wrong at the top of the next
// iteration, when a fast warp starts overwriting As and Bs?
//
// Judged: every element of C, exactly (the inputs are small integers, so every sum is exact),
// for sizes that are not multiples of 16; compute-sanitizer racecheck and synccheck; the SASS
// (matMulTiled.sass): shared stores and loads, two barriers, no spill.
// Judge it: ctest --preset default -R exercise.matMulTiled
#define WB_NOT_ATTEMPTED  // delete this line when you start

__global__ void matMulTiled(const float* A, const float* B, float* C, int M, int N, int K) {
  // TODO
}
