// Step 10: step 9 with three changes. Hopper's register reallocation: the producer warps hand most
// of their registers to the consumer warps (PTX setmaxnreg, sm_90a). The tile shape: 32-deep k-tiles
// from 4096^2 outputs, 6 stages of 16-deep below (matMul_lesson.h). And each consumer warp, not each
// thread, tells the producers that it has left a stage.
#pragma once

#include "09_sgemmWarpSpecialized.cuh"  // mbar_*, named_*, KTileCopy, load_fragments, fma_fragments, store_sums

// Registers. At launch every thread of a kernel gets the same number of registers, and ptxas (the
// assembler from PTX to SASS) caps step 9's block of 12 warps (8 consumers, 4 producers) at 168,
// with 128 sums per consumer thread. 65,536 / 384 alone would allow 168 too, but ptxas (nvcc 13.0,
// -Xptxas -v) also gives __launch_bounds__(288, 1), 9 warps, 168 where 65,536 / 288 would allow
// 224; our reading: the SM's four sub-partitions have 16,384 registers each, and one of them holds
// 3 of the block's warps, 3 x 32 x 168 <= 16,384. PTX setmaxnreg (sm_90a) moves registers between the warpgroups of a block
// (PTX ISA: "a set of four contiguous warps such that the warp-rank of the first warp is a multiple
// of 4") through a per-block pool ("A pool of available registers is maintained per-CTA"): the
// producer warpgroup gives back 168 - 40 per thread (.dec to kRegsProducer), 128 x 128 = 16,384
// registers, and the two consumer warpgroups take them (.inc to kRegsConsumer: 256 x 64 = 16,384;
// "setmaxnreg.inc ... blocks the execution until enough registers are available in the CTA's
// register pool", so the consumers can take only what the pool holds; here they take exactly what
// the producers free). After the .inc ptxas may give the consumers' code up to 232 registers. The
// PTX ISA: the same setmaxnreg "must be executed by all warps in a warpgroup", the count is "a
// multiple of 8" in 24 to 256, and the kernel needs a register cap at launch (here __launch_bounds__
// with 1 block per SM), "Otherwise, the setmaxnreg instruction may have no effect". This program
// uses it only in sm_90a code (WB_SETMAXNREG below; NVIDIA's CCCL page "PTX ISA: setmaxnreg" also
// lists later "a" and "f" targets such as sm_100a and sm_120a, which the chapter does not build; its
// CMakeLists builds 90a wherever the architecture list names 90). Compiled for any other target the
// kernel runs without it: from sm_80 on as step 9 with one arrival per warp (below), below sm_80 on
// step 9's named barriers, where every consumer thread arrives; matMul reports no timing for it
// there.
//
// Arrivals. Step 9's consumers arrive on empty[s] one thread at a time (256 arrivals per stage);
// here lane 0 of each consumer warp arrives once all 32 lanes have read the stage (__syncwarp, PTX
// bar.warp.sync -1), so empty[s] expects 8 arrivals. The Programming Guide: the call to
// __syncwarp(mask) "strongly happens before" any lane named in mask is unblocked; that lane 0's
// arrival (mbarrier.arrive: .release, .cta by default) then orders lanes 1-31's reads before the
// refill is our reading. In sm_90a SASS (nvcc 13.0) the __syncwarp() is only a NOP before the
// predicated SYNCS.ARRIVE. compute-sanitizer's racecheck does not follow it: it reports hazards between the
// producers' cp.async writes and the consumers' reads of a stage (logs/matMul_racecheck_step10.log
// under plots/data/h100/; the log names no lanes). kLaneRelease = true (matMul --lane-release) is the
// same kernel with step 9's arrivals, one per consumer thread, for the test
// matMul.racecheck_sgemmSetMaxNReg; no test race-checks the timed per-warp form (gpu_extras.sh runs
// racecheck on it only to keep the record above).
using lesson::kRegsConsumer;  // 232 and 40 (matMul_lesson.h)
using lesson::kRegsProducer;

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define WB_SETMAXNREG 1
#else
#define WB_SETMAXNREG 0
#endif

// Whether this build's code for the running GPU has setmaxnreg (1) or not (0): matMul times the
// step only where it has.
__global__ void setmaxnreg_probe(int* has) { *has = WB_SETMAXNREG; }

// 10. T: the consumers' tiling (step 7's Tiles<>), NPROD producer warps (one warpgroup: 4);
// kLaneRelease: every consumer thread arrives on empty[s] (for racecheck), not lane 0 of each warp.
template <class T, int NPROD, bool kFull, bool kLaneRelease = false>
__global__ void __launch_bounds__(T::kThreads + 32 * NPROD, 1)
    sgemmSetMaxNReg(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N,
                    int K, int group) {
  static_assert(NPROD == 4 && T::kThreads % 128 == 0, "setmaxnreg acts on whole warpgroups");
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
    for (int s = 0; s < S; ++s) mbar_init(&full[s], NP), mbar_init(&empty[s], kLaneRelease ? NC : NC / 32);
  __syncthreads();
  auto wait_full = [&](int kt) { mbar_wait(&full[kt % S], (kt / S) & 1); };
  auto release = [&](int kt) {
    if constexpr (kLaneRelease) {
      mbar_arrive(&empty[kt % S]);
    } else {
      __syncwarp();  // every lane of this warp has read the stage
      if (lane == 0) mbar_arrive(&empty[kt % S]);
    }
  };
  auto wait_empty = [&](int kt) { mbar_wait(&empty[kt % S], ((kt / S) - 1) & 1); };
  auto filled = [&](int kt) { mbar_arrive_after_copies(&full[kt % S]); };
#else
  static_assert(2 * S < 16, "named barriers 1 .. 2 STAGES");
  auto wait_full = [&](int kt) { named_sync(1 + kt % S, NC + NP); };
  auto release = [&](int kt) {
    if (kt + S < ktiles) named_arrive(1 + S + kt % S, NC + NP);
  };
  auto wait_empty = [&](int kt) { named_sync(1 + S + kt % S, NC + NP); };
  auto filled = [&](int kt) { named_arrive(1 + kt % S, NC + NP); };
#endif

  if (warp >= NC / 32) {
#if WB_SETMAXNREG
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(kRegsProducer));
#endif
    const KTileCopy<T, NP> copy(tid - NC, A, B, bm, bn, N, K);
    for (int kt = 0; kt < ktiles; ++kt) {
      if (kt >= S) wait_empty(kt);
      copy.template operator()<kFull>(smem + (kt % S) * T::kStageFloats, kt * BK, A, B, bm, bn, M, N, K);
#if !(defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800)
      __threadfence_block();
#endif
      filled(kt);
    }
    cp_async_commit();
    cp_async_wait<0>();
    return;
  }
#if WB_SETMAXNREG
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(kRegsConsumer));
#endif
  const int a0 = (warp / (BN / T::WN)) * T::WM + (lane / T::WTX) * 4;
  const int b0 = (warp % (BN / T::WN)) * T::WN + (lane % T::WTX) * 4;
  consume_ktiles<T, kFull>(smem, ktiles, a0, b0, wait_full, release, C, bm, bn, M, N);
}
