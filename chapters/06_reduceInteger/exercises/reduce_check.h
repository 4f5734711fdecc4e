// reduce_check.h — the body of both chapter 06 exercise checkers. The including file defines
// EX_KERNEL (the exercise's kernel) and EX_PER_BLOCK (the elements one block of DIM threads sums),
// then includes this. Every block sum is compared exactly with the CPU's, on sizes around the
// block (the values are full 32-bit unsigned ints, so the sums wrap, as in the chapter).
#pragma once

#include <string>
#include <vector>

#include "exercise.h"

// The reference for the time: a tree in shared memory like the chapter's reduceSmem (one element
// per thread), but with the exercise's DIM and a __syncthreads() at every step down to 1.
__global__ void reduceSmemRef(const unsigned* g_idata, unsigned* g_odata, size_t n) {
  __shared__ unsigned smem[DIM];
  const unsigned tid = threadIdx.x;
  const size_t idx = blockIdx.x * size_t(DIM) + tid;
  smem[tid] = idx < n ? g_idata[idx] : 0u;
  __syncthreads();
  for (unsigned s = DIM / 2; s > 0; s /= 2) {
    if (tid < s) smem[tid] += smem[tid + s];
    __syncthreads();
  }
  if (tid == 0) g_odata[blockIdx.x] = smem[0];
}

inline int run_checker(wb::ex::Checker& ck, std::initializer_list<size_t> sizes) {
  ck.require_device();
  for (size_t n : sizes) {
    if (ck.quick() && n > 100000) continue;  // the sanitizer runs: small sizes, the same edges
    std::vector<unsigned> in(n);
    unsigned x = 2463534242u ^ static_cast<unsigned>(n);
    for (auto& v : in) {  // xorshift: full 32-bit values
      x ^= x << 13, x ^= x >> 17, x ^= x << 5;
      v = x;
    }
    const size_t blocks = (n + EX_PER_BLOCK - 1) / EX_PER_BLOCK;
    std::vector<unsigned> want(blocks, 0u);
    for (size_t i = 0; i < n; ++i) want[i / EX_PER_BLOCK] += in[i];
    wb::ex::DeviceArray<unsigned> d_in(in), d_out(blocks);
    EX_KERNEL<<<static_cast<unsigned>(blocks), DIM>>>(d_in.ptr, d_out.ptr, n);
    ck.launched();
    ck.expect("n = " + std::to_string(n) + ", the sum of block b in out[b]", d_out.download(), want);
    if (n == (1u << 22) + 5) {
      wb::ex::DeviceArray<unsigned> d_ref((n + DIM - 1) / DIM);
      ck.time([&] { EX_KERNEL<<<static_cast<unsigned>(blocks), DIM>>>(d_in.ptr, d_out.ptr, n); },
              "reduceSmemRef (chapter 06's reduceSmem tree, DIM = 256, one element per thread)",
              [&] { reduceSmemRef<<<static_cast<unsigned>((n + DIM - 1) / DIM), DIM>>>(d_in.ptr, d_ref.ptr, n); });
    }
  }
  return ck.finish();
}
