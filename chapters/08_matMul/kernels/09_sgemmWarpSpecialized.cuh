// Step 9: warp specialisation. Step 7's ring of shared stages, filled by producer warps that do
// nothing else, read by consumer warps that only compute; mbarriers instead of __syncthreads().
#pragma once

#include "07_sgemmAsync.cuh"  // Tiles<>, KTileCopy, load_fragments, fma_fragments, store_sums, block_tile

// In steps 7 and 8 every warp copies its share of the next k-tile and then computes, and one
// __syncthreads() per k-tile makes all of them wait for the slowest (Nsight Compute counts the
// warps waiting at it: the README's stall table). Here the two jobs go to different warps of the
// block:
// - NPROD producer warps (the last ones) copy k-tiles into a ring of T::STAGES stages with
//   cp.async and never compute;
// - T::kThreads consumer threads compute with step 7's code (load_fragments, fma_fragments on a
//   Tiles<>) at this step's own shape (kWarpSpecialized: 128 x 256 block tile, 64 x 64 warp tiles,
//   16 x 8 sums per thread), and never copy.
// Two mbarriers per stage (shared-memory objects with a phase that completes when an expected
// number of arrivals is reached; PTX ISA, "mbarrier") tell each side when it may go on:
// - full[s]: each producer thread arrives through cp.async.mbarrier.arrive.noinc, which the
//   hardware performs when all of that thread's earlier cp.async have landed. When all
//   32 NPROD have, the stage holds the k-tile and consumers waiting on full[s] go on.
// - empty[s]: each consumer thread arrives when it has read the stage; when all have, the
//   producers may refill it.
// A consumer waits only until the k-tile it needs has landed (all producers' copies of it), and a
// producer only until every consumer has left the stage it refills. An mbarrier's phase flips
// each time its expected arrivals are complete, so stage s's barriers flip once per use: k-tile
// kt is the (kt / STAGES)-th use of its stage, and its wait is for parity (kt / STAGES) & 1. The
// first STAGES k-tiles go into empty stages, so producers wait on empty[s] only from kt = STAGES
// on, for the use before (parity (kt / STAGES - 1) & 1).
// Compiled for an architecture below sm_80 (no mbarrier, no cp.async), the same protocol runs on
// named barriers: the producers store synchronously and `barrier.arrive` (not `bar.arrive`, which
// is `barrier.arrive.aligned`) on full[s]'s barrier, the consumers `barrier.sync` on it (and the
// reverse for empty[s]).

__device__ __forceinline__ unsigned smem_addr(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
__device__ __forceinline__ void mbar_init(unsigned long long* bar, unsigned count) {
  asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(count) : "memory");
}
// This thread's arrival, counted when all of its earlier cp.async have completed. .noinc: the
// arrival is one of the `count` that mbar_init expects (PTX ISA, cp.async.mbarrier.arrive).
__device__ __forceinline__ void mbar_arrive_after_copies(unsigned long long* bar) {
  asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];" ::"r"(smem_addr(bar)) : "memory");
}
__device__ __forceinline__ void mbar_arrive(unsigned long long* bar) {  // release: my reads of the stage are done
  asm volatile("{ .reg .b64 state; mbarrier.arrive.shared.b64 state, [%0]; }" ::"r"(smem_addr(bar)) : "memory");
}
// Wait until the phase with this parity has completed (acquire: the stage's data is visible).
// try_wait (sm_90) may suspend the thread for a while; test_wait (sm_80) only tests.
__device__ __forceinline__ void mbar_wait(unsigned long long* bar, unsigned parity) {
#if __CUDA_ARCH__ >= 900
  asm volatile("{ .reg .pred done; WAIT: mbarrier.try_wait.parity.shared.b64 done, [%0], %1; @!done bra WAIT; }" ::"r"(
                   smem_addr(bar)),
               "r"(parity)
               : "memory");
#else
  asm volatile("{ .reg .pred done; WAIT: mbarrier.test_wait.parity.shared.b64 done, [%0], %1; @!done bra WAIT; }" ::"r"(
                   smem_addr(bar)),
               "r"(parity)
               : "memory");
#endif
}
#else
// Named barriers 1 .. 2 STAGES (0 is __syncthreads()'s): barrier.arrive counts the caller in
// without waiting, barrier.sync counts it in and waits until `count` threads have. The forms
// without .aligned (sm_70 on), because producers and consumers reach them in different branches.
__device__ __forceinline__ void named_arrive(int id, int count) {
  asm volatile("barrier.arrive %0, %1;" ::"r"(id), "r"(count) : "memory");
}
__device__ __forceinline__ void named_sync(int id, int count) {
  asm volatile("barrier.sync %0, %1;" ::"r"(id), "r"(count) : "memory");
}
#endif

// The consumers' K loop (steps 9 and 10): per k-tile, wait until it has landed (wait_full), its BK
// k's of fragments and FMAs as in step 7, then free its stage (release); at the end the sums into C.
template <class T, bool kFull, class WaitFull, class Release>
__device__ __forceinline__ void consume_ktiles(const float* smem, int ktiles, int a0, int b0, WaitFull wait_full,
                                               Release release, float* __restrict__ C, int bm, int bn, int M, int N) {
  float acc[4 * T::RM][4 * T::RN] = {};
  for (int kt = 0; kt < ktiles; ++kt) {
    wait_full(kt);
    const float* as = smem + (kt % T::STAGES) * T::kStageFloats;
    const float* bs = as + T::BK * (T::BM + T::kPadA);
#pragma unroll
    for (int k = 0; k < T::BK; ++k) {
      float a[4 * T::RM], b[4 * T::RN];
      load_fragments<T>(as, bs, k, a0, b0, a, b);
      fma_fragments<T>(acc, a, b);
    }
    release(kt);
  }
  store_sums<T, kFull>(C, acc, bm, bn, a0, b0, M, N);
}

// 9. T: the consumers' tiling (a Tiles<> as in step 7, at kWarpSpecialized's shape); NPROD producer
// warps after the T::kThreads consumers.
template <class T, int NPROD, bool kFull>
__global__ void __launch_bounds__(T::kThreads + 32 * NPROD, T::MINB)
    sgemmWarpSpecialized(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M,
                         int N, int K, int group) {
  extern __shared__ __align__(16) float smem[];
  constexpr int BM = T::BM, BN = T::BN, BK = T::BK, LDA = BM + T::kPadA, NC = T::kThreads, S = T::STAGES;
  constexpr int NP = 32 * NPROD;  // producer threads
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  int tm, tn;
  block_tile(group, (M + BM - 1) / BM, (N + BN - 1) / BN, tm, tn);
  const int bm = tm * BM, bn = tn * BN;
  const int ktiles = (K + BK - 1) / BK;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  __shared__ unsigned long long full[S], empty[S];
  if (tid == 0)
    for (int s = 0; s < S; ++s) mbar_init(&full[s], NP), mbar_init(&empty[s], NC);
  __syncthreads();  // the barriers are initialised before anyone uses them (the only block-wide wait)
  auto wait_full = [&](int kt) { mbar_wait(&full[kt % S], (kt / S) & 1); };
  auto release = [&](int kt) { mbar_arrive(&empty[kt % S]); };
  auto wait_empty = [&](int kt) { mbar_wait(&empty[kt % S], ((kt / S) - 1) & 1); };  // kt - S has been read
  auto filled = [&](int kt) { mbar_arrive_after_copies(&full[kt % S]); };
#else
  static_assert(2 * S < 16, "named barriers 1 .. 2 STAGES");
  auto wait_full = [&](int kt) { named_sync(1 + kt % S, NC + NP); };
  auto release = [&](int kt) {
    if (kt + S < ktiles) named_arrive(1 + S + kt % S, NC + NP);  // only where a producer will wait for it
  };
  auto wait_empty = [&](int kt) { named_sync(1 + S + kt % S, NC + NP); };
  auto filled = [&](int kt) { named_arrive(1 + kt % S, NC + NP); };
#endif

  if (warp >= NC / 32) {
    // Producers: the copies of step 7 (KTileCopy), by the NP producer threads alone.
    const KTileCopy<T, NP> copy(tid - NC, A, B, bm, bn, N, K);
    for (int kt = 0; kt < ktiles; ++kt) {
      if (kt >= S) wait_empty(kt);
      copy.template operator()<kFull>(smem + (kt % S) * T::kStageFloats, kt * BK, A, B, bm, bn, M, N, K);
#if !(defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800)
      __threadfence_block();  // orders the plain stores above before the arrival, explicitly
#endif
      filled(kt);
    }
    cp_async_commit();
    cp_async_wait<0>();  // nothing in flight when the warp exits
    return;
  }

  // Consumers: step 7's fragments and FMAs, one k-tile per wait.
  const int a0 = (warp / (BN / T::WN)) * T::WM + (lane / T::WTX) * 4;
  const int b0 = (warp % (BN / T::WN)) * T::WN + (lane % T::WTX) * 4;
  consume_ktiles<T, kFull>(smem, ktiles, a0, b0, wait_full, release, C, bm, bn, M, N);
}
