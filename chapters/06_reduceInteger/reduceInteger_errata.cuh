// Chapter 06: the source's errors, run as written. Included by reduceInteger.cu (one translation
// unit: the machine code is the same as with the kernels inline).
#pragma once

// ---------------------------------------------------------------------------------------------
// The source's errors, run as written
// ---------------------------------------------------------------------------------------------

// 7. The book's reduceSmemUnroll guard: `if (idx + 4 * blockDim.x <= n)`. The last element a thread
// reads is idx + 3 * blockDim.x, so the bound that keeps the reads in range is
// `idx + 3 * blockDim.x < n` (the book's reduceSmemUnrollDyn); neither keeps every element for every n: a
// guard on each load does (or, as in reduceUnrollShflVec, one test per whole tile and a tail loop). In the last block
// (idx = n - 4 * DIM + tid when n is a multiple of 4 * DIM) only thread 0 passes: 127 threads
// contribute 0. The book's program checks only its last kernel's sum, so its output does not flag
// this one.
__global__ void reduceSmemUnrollBookGuard(const unsigned* g_idata, unsigned* g_odata, size_t n) {
  __shared__ unsigned smem[DIM];
  const unsigned tid = threadIdx.x;
  const size_t idx = blockIdx.x * size_t(DIM) * 4 + tid;
  unsigned tmpSum = 0;
  if (idx + 4 * DIM <= n)
    tmpSum = g_idata[idx] + g_idata[idx + DIM] + g_idata[idx + 2 * DIM] + g_idata[idx + 3 * DIM];
  smem[tid] = tmpSum;
  const unsigned sum = smemTree(smem, tid);
  if (tid == 0) g_odata[blockIdx.x] = sum;
}

// 8. reduceShfl with 003's block step exactly as printed: it reads the warp sums into mySum, then
// reduces and writes localSum. 003 never assigns localSum; here it holds what the book's file keeps
// in it at that point (`int localSum = warpReduce(g_idata[idx])`): the thread's warp sum. Thread 0
// then writes 32 x warp 0's sum, and the other warps' sums are lost.
__global__ void reduceShfl003(const unsigned* g_idata, unsigned* g_odata, size_t n) {
  __shared__ unsigned smem[SMEMDIM];
  const size_t idx = blockIdx.x * size_t(DIM) + threadIdx.x;
  const unsigned laneIdx = threadIdx.x % 32, warpIdx = threadIdx.x / 32;
  unsigned mySum = idx < n ? g_idata[idx] : 0u;
  mySum = warpReduce(mySum);
  unsigned localSum = mySum;
  if (laneIdx == 0) smem[warpIdx] = mySum;
  __syncthreads();
  mySum = (threadIdx.x < SMEMDIM) ? smem[laneIdx] : 0u;  // 003's line: the warp sums, never used
  if (warpIdx == 0) localSum = warpReduce(localSum);      // 003's line
  if (threadIdx.x == 0) g_odata[blockIdx.x] = localSum;   // 003's line
  (void)mySum;
}
