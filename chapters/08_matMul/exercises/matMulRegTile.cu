// Exercise matMulRegTile (chapter 08, demanding): a 2 x 2 register tile per thread.
//
// Task: the same C = A * B (any M, N, K), but a block of 16 x 16 threads computes a 32 x 32
// sub-matrix of C, each thread 2 x 2 of its elements, kept in registers for the whole K loop:
// thread (ty, tx) owns rows ty and ty + 16, columns tx and tx + 16 of the block's sub-matrix.
// Walk K in steps of TK = 16 (defined by the checker): per step the block loads a 32 x TK tile of A
// and a TK x 32 tile of B into shared memory (each thread two elements of each, zeros outside the
// matrices), waits, and each thread does its 4 x TK multiply-adds: for each k, 2 values of A and 2
// of B from shared memory feed 4 products (the chapter's sgemmRegTile, at its smallest: 1 shared
// read per multiply-add instead of 2). Unroll the k loop (#pragma unroll): the SASS rule counts
// the 4 x TK = 64 multiply-adds of a step. Launch: grid (ceil(N / 32), ceil(M / 32)), block (16, 16).
//
// Hint: K is not a multiple of TK. What does the last tile hold in its columns past K, if you only
// load the elements that exist?
//
// Judged: every element of C, exactly (small-integer inputs), with K not a multiple of TK;
// racecheck; in the SASS, no local-memory spill (the 4 sums live in registers) and at least 64
// FFMA.
// Judge it: ctest --preset default -R exercise.matMulRegTile
#define WB_NOT_ATTEMPTED  // delete this line when you start

__global__ void matMulRegTile(const float* A, const float* B, float* C, int M, int N, int K) {
  // TODO
}
