// Chapter 06: ours, the same ideas taken as far as the memory allows. Included by reduceInteger.cu.
#pragma once

// ---------------------------------------------------------------------------------------------
// Ours: the same ideas taken as far as the memory allows
// ---------------------------------------------------------------------------------------------
// A sum is bound by reading n * 4 bytes; the kernel's job is to keep enough bytes in flight. The
// book's unrolling does this with 4 loads per thread, but 4-byte ones, then spends a whole block on
// every 512 elements. Here each thread issues its kUnroll 16-byte loads before it adds any of them;
// a block takes one tile of kUnroll x kVecThreads vectors at a time (16 KB: kUnroll slices of
// kVecThreads vectors, one 16-byte load per thread each; the book's "4 blocks of data" are 2 KB),
// then jumps by the grid; the grid fills the GPU exactly once; the block sum is shuffles
// (reduceShfl's pattern, common/block_reduce.cuh). One partial per block; reduceFinal adds them.
constexpr int kVecThreads = 256;
constexpr int kUnroll = 4;

__global__ void __launch_bounds__(kVecThreads)
reduceUnrollShflVec(const unsigned* __restrict__ in, size_t n, unsigned* __restrict__ partials) {
  const uint4* in4 = reinterpret_cast<const uint4*>(in);  // cudaMalloc memory is 256-byte aligned
  const size_t n4 = n / 4;
  constexpr size_t kTile = size_t(kVecThreads) * kUnroll;
  unsigned sum = 0;
  size_t base = blockIdx.x * kTile;
  for (; base + kTile <= n4; base += gridDim.x * kTile) {
    uint4 v[kUnroll];
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) v[k] = in4[base + k * kVecThreads + threadIdx.x];
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) sum += (v[k].x + v[k].y) + (v[k].z + v[k].w);
  }
  // At most one block stops at a partial tile: its vectors one by one; then the last n % 4 words.
  for (size_t i = base + threadIdx.x; i < n4; i += kVecThreads) {
    const uint4 v = in4[i];
    sum += (v.x + v.y) + (v.z + v.w);
  }
  if (blockIdx.x == 0 && threadIdx.x < n - n4 * 4) sum += in[n4 * 4 + threadIdx.x];
  sum = wb::block_sum<kVecThreads>(sum);
  if (threadIdx.x == 0) partials[blockIdx.x] = sum;
}

// The second pass: one block adds `count` partials (a few thousand at most) into *out.
__global__ void __launch_bounds__(kVecThreads) reduceFinal(const unsigned* partials, size_t count, unsigned* out) {
  unsigned s = 0;
  for (size_t i = threadIdx.x; i < count; i += kVecThreads) s += partials[i];
  s = wb::block_sum<kVecThreads>(s);
  if (threadIdx.x == 0) *out = s;
}
