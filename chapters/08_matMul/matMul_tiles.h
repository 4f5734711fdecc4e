// Chapter 08's tile shapes: BLOCK_SIZE and the constants of steps 3 to 6, and as types Tiles<> carries the parameters of sgemmAsync and sgemmTuned
// (kernels/07_sgemmAsync.cuh, kernels/08_sgemmTuned.cuh) and what follows from them. Plain
// constexpr C++: matMul.cu instantiates the kernels with these types, and the host program
// matMul_diagrams.cpp draws the tuned kernel's tiling from the same ones.
#pragma once

#include "matMul_lesson.h"

// 2. MatMulKernel (smem::, kernels/02_MatMulKernel_smem.cuh): the source's tile and block side.
#define BLOCK_SIZE 16

// 3. to 6. (kernels/03_sgemmRegTile.cuh ..): a 128 x 128 tile of C per block of 256 threads, K
// walked in steps of 8 (16 in 5. and 6.). In 3. thread (ty, tx) of a 16 x 16 grid owns one 8 x 8
// block of C; in 4. and 5. four 4 x 4 blocks, kVec4Step rows and columns apart.
constexpr int kBM = 128, kBN = 128, kBK = 8, kThreads = 256;
constexpr int kVec4Step = 64;
static_assert(2 * kVec4Step == kBM && 2 * kVec4Step == kBN, "a thread's four 4 x 4 blocks span the tile");

// 7. and 8. Asynchronous copies into a ring of shared stages (sm_80 and later), one template for
// every tile shape the tune tries. Tiles<BM, BN, BK, WM, WN, RM, RN, STAGES, MINB>: a block
// computes a BM x BN tile of C with (BM / WM) x (BN / WN) warps of WM x WN; a thread computes
// RM x RN blocks of 4 x 4 (so 4 RM values of A and 4 RN of B per k: RM + RN LDS.128 per
// 16 RM RN FMAs). STAGES shared stages of a BK-deep tile; MINB blocks per SM for the register cap;
// PF 1: the fragments of k + 1 are loaded from shared memory before the FMAs of k (two register
// sets), so that their latency hides behind those FMAs.
template <int BM_, int BN_, int BK_, int WM_, int WN_, int RM_, int RN_, int STAGES_, int MINB_, int PF_ = 0>
struct Tiles {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, WM = WM_, WN = WN_, RM = RM_, RN = RN_, STAGES = STAGES_,
                       MINB = MINB_, PF = PF_;
  static constexpr int kThreads = (BM / WM) * (BN / WN) * 32;
  static constexpr int WTY = WM / (4 * RM), WTX = WN / (4 * RN);  // a warp's lanes: WTY x WTX
  static constexpr int kPadA = 4;  // As[k][BM + 4]: a warp's transposing 4-byte copies hit 32 different banks
  static constexpr int kStageFloats = BK * (BM + kPadA) + BK * BN;
  static constexpr int kSmemBytes = STAGES * kStageFloats * int(sizeof(float));
  static constexpr int kALoads = BM * BK / kThreads;       // 4-byte copies of A per thread per tile
  static constexpr int kBLoads16 = BK * BN / 4 / kThreads;  // 16-byte copies of B (whole tiles)
  static constexpr int kBLoads4 = BK * BN / kThreads;       // 4-byte copies of B (any size)
  static_assert(WTY * WTX == 32, "a warp's lanes must tile its warp tile");
  static_assert(BK % 8 == 0 && BM % 32 == 0 && BN % 4 == 0 && STAGES >= 2, "tile shape");
  static_assert(kALoads * kThreads == BM * BK && kBLoads16 * 4 * kThreads == BK * BN && kBLoads16 > 0,
                "every thread copies the same number of elements");
  static_assert(WTY <= 8 && WTX <= 8, "a fragment load of a warp reads at most 8 distinct float4 of A and of B");
};

// The types of lesson::kTunedSmall and lesson::kTunedLarge (matMul_lesson.h): sgemmTuned's shapes.
#define WB_TILES(c) Tiles<c.bm, c.bn, c.bk, c.wm, c.wn, c.rm, c.rn, c.stages, c.minb, c.pf>
using TunedSmallTiles = WB_TILES(lesson::kTunedSmall);
using TunedLargeTiles = WB_TILES(lesson::kTunedLarge);
