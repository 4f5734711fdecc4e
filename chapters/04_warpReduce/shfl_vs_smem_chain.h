// The shape of shfl_vs_smem.cu's chains: shared by the kernels and by warpReduce_diagrams.cpp,
// which draws one step of each chain from these same constants.
#pragma once

#ifdef __CUDACC__
#define CHAIN_HD __host__ __device__
#else
#define CHAIN_HD
#endif

namespace chain {

constexpr int kUnroll = 32;   // steps per loop trip, fully unrolled
constexpr int kBuffers = 2;   // smemChain's buffers, used in turn: one __syncwarp per exchange

// Mask of step i of a trip: 1, 2, 4, 8, 16, 1, ... (a compile-time constant after unrolling).
CHAIN_HD constexpr int mask_of(int i) { return 1 << (i % 5); }

// The buffer smemChain's step i stores to and loads from: 0, 1, 0, ... (kUnroll is even, so the
// buffers alternate across trips too).
CHAIN_HD constexpr int buffer_of(int i) { return i % kBuffers; }
static_assert(kUnroll % kBuffers == 0, "the buffers alternate across trips too");

}  // namespace chain
