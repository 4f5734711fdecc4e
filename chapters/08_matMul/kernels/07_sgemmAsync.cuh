// Step 7: step 6's shape with cp.async copies into a ring of three shared stages (sm_80 and later),
// written once as a template over the tile shape (Tiles<>, in matMul_tiles.h) so that step 8 can tune it.
#pragma once

#include "../matMul_tiles.h"  // Tiles<>: the shape parameters, shared with the diagram program
#include "04_sgemmVec4.cuh"   // store4

// cp.async (LDGSTS): global to shared without registers, completed in groups. src_size 0 reads
// nothing and writes zeros (outside the matrices). Below sm_80 the same calls are plain loads and
// stores, so the kernel stays correct there (synchronous, no overlap): the barrier after
// cp_async_wait() then orders them like the asynchronous ones.
__device__ __forceinline__ void cp_async4(float* dst, const float* src, bool in) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(
                   static_cast<unsigned>(__cvta_generic_to_shared(dst))),
               "l"(src), "r"(in ? 4 : 0));
#else
  *dst = in ? *src : 0.0f;
#endif
}
__device__ __forceinline__ void cp_async16(float* dst, const float* src) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  // .cg: through L2 only; each 16 bytes of B is used once per block, from shared memory
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(
                   static_cast<unsigned>(__cvta_generic_to_shared(dst))),
               "l"(src));
#else
  *reinterpret_cast<float4*>(dst) = *reinterpret_cast<const float4*>(src);
#endif
}
__device__ __forceinline__ void cp_async_commit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::);
#endif
}
template <int kPending>  // wait until at most kPending of this thread's groups are in flight
__device__ __forceinline__ void cp_async_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending));
#endif
}

// The order in which blocks walk C (8.): block b of a 1-D grid takes tile row/column (tm, tn).
// group <= 1: row by row. Otherwise groups of `group` tile rows are walked column by column, so
// that the blocks resident at one time share a few rows of A and a few columns of B in L2.
__device__ __forceinline__ void block_tile(int group, int tiles_m, int tiles_n, int& tm, int& tn) {
  const int b = blockIdx.x;
  if (group <= 1) {
    tm = b / tiles_n, tn = b % tiles_n;
    return;
  }
  const int per_group = group * tiles_n, first = (b / per_group) * group;
  const int rows = min(group, tiles_m - first), in = b % per_group;
  tm = first + in % rows, tn = in / rows;
}

// The copies of one k-tile into a stage by NCOPY threads, copier c of them (7. and 8.: every thread
// of the block; 9.: its producer warps). A: element e = c + NCOPY j of the tile is (row (e / 8) %
// BM, k (e / 8BM) * 8 + e % 8): a warp reads 4 rows x 8 consecutive k (4 whole 32-byte sectors) and
// writes As[k][m] at banks 4k + m (all 32 different by that arithmetic; Nsight Compute still
// counts more bank conflicts for 7. than for 5., not attributed to an instruction here). B:
// 16-byte pieces of its rows.
// kFull (M, N and K multiples of the tile): every copy of a thread is its first one plus a
// constant offset in shared memory and a constant number of rows (of K or N floats) plus a
// constant k in global memory, so a thread keeps one pointer into A and one into B (and no bounds
// tests). Any other size: every copy is 4 bytes with its own bounds test, zeros outside the
// matrices.
template <class T, int NCOPY>
struct KTileCopy {
  static constexpr int BM = T::BM, BN = T::BN, BK = T::BK, LDA = BM + T::kPadA;
  static constexpr int RA = 8 * BM / NCOPY;       // copies of A per 8-deep slice of the tile
  static constexpr int kA = BM * BK / NCOPY;      // 4-byte copies of A per thread
  static constexpr int kB = BK * BN / 4 / NCOPY;  // 16-byte copies of B per thread (whole tiles)
  static constexpr bool kWide = NCOPY >= BN / 4;  // one copy instruction covers whole rows of B
  static constexpr int kPerRow = kWide ? 1 : BN / 4 / NCOPY;  // else: copies per row of B
  static_assert(NCOPY % 8 == 0 && kA * NCOPY == BM * BK && kB * NCOPY * 4 == BK * BN && (8 * BM) % NCOPY == 0 &&
                    (kWide ? NCOPY % (BN / 4) == 0 : (BN / 4) % NCOPY == 0),
                "every copying thread copies the same number of elements");
  const float* a_src;  // the copier's first element of A and of B (whole tiles)
  const float* b_src;
  int a_dst, b_dst, c;  // their places in a stage; the copier

  __device__ __forceinline__ KTileCopy(int copier, const float* A, const float* B, int bm, int bn, int N, int K)
      : a_src(A + (bm + copier / 8 % BM) * K + copier % 8),
        b_src(kWide ? B + (copier / (BN / 4)) * N + bn + (copier % (BN / 4)) * 4 : B + bn + 4 * copier),
        a_dst((copier % 8) * LDA + copier / 8 % BM),
        b_dst(BK * LDA + (kWide ? (copier / (BN / 4)) * BN + (copier % (BN / 4)) * 4 : 4 * copier)),
        c(copier) {}

  // The k-tile whose first k is k0, into `stage` (As[BK][LDA], then Bs[BK][BN]).
  template <bool kFull>
  __device__ __forceinline__ void operator()(float* stage, int k0, const float* A, const float* B, int bm, int bn,
                                             int M, int N, int K) const {
    if (kFull) {
#pragma unroll
      for (int j = 0; j < kA; ++j)  // element e = c + NCOPY j: row c / 8 + (NCOPY / 8)(j % RA), k c % 8 + 8 (j / RA)
        cp_async4(stage + a_dst + 8 * (j / RA) * LDA + (NCOPY / 8) * (j % RA),
                  a_src + (NCOPY / 8) * (j % RA) * K + k0 + 8 * (j / RA), true);
#pragma unroll
      for (int j = 0; j < kB; ++j) {  // piece f = c + NCOPY j of B's rows
        const int row = kWide ? j * (NCOPY / (BN / 4)) : j / kPerRow, col = kWide ? 0 : NCOPY * 4 * (j % kPerRow);
        cp_async16(stage + b_dst + row * BN + col, b_src + (k0 + row) * N + col);
      }
    } else {
      // The variant for any size (kFull false) copies every tile this way, not only those at the
      // edges: the launch picks it whenever M, N or K is not a multiple of the tile. Loops, not
      // unrolled, so that their addresses and tests do not take the registers of the sums.
#pragma unroll 1
      for (int j = 0; j < kA; ++j) {
        const int e = c + NCOPY * j, m = (e / 8) % BM, k = (e / (8 * BM)) * 8 + e % 8;
        const bool in = bm + m < M && k0 + k < K;
        cp_async4(stage + k * LDA + m, in ? A + (bm + m) * K + k0 + k : A, in);
      }
#pragma unroll 1
      for (int j = 0; j < 4 * kB; ++j) {
        const int e = c + NCOPY * j, k = e / BN, n = e % BN;
        const bool in = k0 + k < K && bn + n < N;
        cp_async4(stage + BK * LDA + k * BN + n, in ? B + (k0 + k) * N + bn + n : B, in);
      }
    }
  }
};

// One k of a computing thread: RM float4 of A and RN of B (LDS.128) from a stage (as: its A,
// bs: its B), starting at the thread's first row a0 and column b0.
template <class T>
__device__ __forceinline__ void load_fragments(const float* as, const float* bs, int k, int a0, int b0,
                                               float (&a)[4 * T::RM], float (&b)[4 * T::RN]) {
#pragma unroll
  for (int r = 0; r < T::RM; ++r) {
    const float4 v = *reinterpret_cast<const float4*>(as + k * (T::BM + T::kPadA) + a0 + r * (T::WM / T::RM));
    a[4 * r] = v.x, a[4 * r + 1] = v.y, a[4 * r + 2] = v.z, a[4 * r + 3] = v.w;
  }
#pragma unroll
  for (int r = 0; r < T::RN; ++r) {
    const float4 v = *reinterpret_cast<const float4*>(bs + k * T::BN + b0 + r * (T::WN / T::RN));
    b[4 * r] = v.x, b[4 * r + 1] = v.y, b[4 * r + 2] = v.z, b[4 * r + 3] = v.w;
  }
}
// ... and its 16 RM RN FMAs.
template <class T>
__device__ __forceinline__ void fma_fragments(float (&acc)[4 * T::RM][4 * T::RN], const float (&a)[4 * T::RM],
                                              const float (&b)[4 * T::RN]) {
#pragma unroll
  for (int i = 0; i < 4 * T::RM; ++i)
#pragma unroll
    for (int j = 0; j < 4 * T::RN; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
}
// A computing thread's sums into C: row bm + a0 + ..., columns bn + b0 + ..., 4 at a time.
template <class T, bool kFull>
__device__ __forceinline__ void store_sums(float* __restrict__ C, const float (&acc)[4 * T::RM][4 * T::RN], int bm,
                                           int bn, int a0, int b0, int M, int N) {
#pragma unroll
  for (int i = 0; i < 4 * T::RM; ++i) {
    const int r = bm + a0 + (i / 4) * (T::WM / T::RM) + i % 4;
#pragma unroll
    for (int h = 0; h < T::RN; ++h)
      store4<kFull>(C, r, bn + b0 + h * (T::WN / T::RN), M, N,
                    make_float4(acc[i][4 * h], acc[i][4 * h + 1], acc[i][4 * h + 2], acc[i][4 * h + 3]));
  }
}

// The body of 7. and 8. kFull: M, N, K are multiples of BM, BN, BK (no bounds tests; B in 16-byte
// copies). Otherwise every copy is 4 bytes with its own bounds test, and stores are single floats.
template <class T, bool kFull>
__device__ __forceinline__ void sgemm_async_body(const float* __restrict__ A, const float* __restrict__ B,
                                                 float* __restrict__ C, int M, int N, int K, int group) {
  extern __shared__ __align__(16) float smem[];
  constexpr int BM = T::BM, BN = T::BN, BK = T::BK, LDA = BM + T::kPadA;
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  int tm, tn;
  block_tile(group, (M + BM - 1) / BM, (N + BN - 1) / BN, tm, tn);
  const int bm = tm * BM, bn = tn * BN;
  // this thread's first row of A and column of B inside the block tile
  const int a0 = (warp / (BN / T::WN)) * T::WM + (lane / T::WTX) * 4;
  const int b0 = (warp % (BN / T::WN)) * T::WN + (lane % T::WTX) * 4;
  const int ktiles = (K + BK - 1) / BK;
  const KTileCopy<T, T::kThreads> copy(tid, A, B, bm, bn, N, K);  // every thread copies its share
  auto copy_tile = [&](int kt, int s) {
    copy.template operator()<kFull>(smem + s * T::kStageFloats, kt * BK, A, B, bm, bn, M, N, K);
  };

  float acc[4 * T::RM][4 * T::RN] = {};
  // Prologue: the first STAGES - 1 tiles in flight, one commit group each (empty ones too, so
  // that group number = tile number).
#pragma unroll
  for (int s = 0; s < T::STAGES - 1; ++s) {
    if (s < ktiles) copy_tile(s, s);
    cp_async_commit();
  }
  for (int kt = 0; kt < ktiles; ++kt) {
    cp_async_wait<T::STAGES - 2>();  // this thread's copies of tile kt have landed
    __syncthreads();  // everyone's have; and everyone is done with tile kt - 1, whose stage is refilled now
    if (kt + T::STAGES - 1 < ktiles) copy_tile(kt + T::STAGES - 1, (kt + T::STAGES - 1) % T::STAGES);
    cp_async_commit();
    const float* as = smem + (kt % T::STAGES) * T::kStageFloats;
    const float* bs = as + BK * LDA;
    // One k: RM float4 of A and RN of B (LDS.128), 16 RM RN FMAs.
    if (T::PF) {
      float a[2][4 * T::RM], b[2][4 * T::RN];
      load_fragments<T>(as, bs, 0, a0, b0, a[0], b[0]);
#pragma unroll
      for (int k = 0; k < BK; ++k) {
        if (k + 1 < BK) load_fragments<T>(as, bs, k + 1, a0, b0, a[(k + 1) % 2], b[(k + 1) % 2]);
        fma_fragments<T>(acc, a[k % 2], b[k % 2]);
      }
    } else {
#pragma unroll
      for (int k = 0; k < BK; ++k) {
        float a[4 * T::RM], b[4 * T::RN];
        load_fragments<T>(as, bs, k, a0, b0, a, b);
        fma_fragments<T>(acc, a, b);
      }
    }
  }
  cp_async_wait<0>();  // nothing may be left in flight when the block exits (the groups are empty)
  store_sums<T, kFull>(C, acc, bm, bn, a0, b0, M, N);
}

// 7. The asynchronous copies on sgemmWarpTile's shape: 128 x 128 x 16, 32 x 64 warp tiles,
// three stages, blocks in row order.
using AsyncTiles = Tiles<lesson::kAsync.bm, lesson::kAsync.bn, lesson::kAsync.bk, lesson::kAsync.wm,
                         lesson::kAsync.wn, lesson::kAsync.rm, lesson::kAsync.rn, lesson::kAsync.stages,
                         lesson::kAsync.minb>;
template <class T, bool kFull>
__global__ void __launch_bounds__(T::kThreads, T::MINB) sgemmAsync(const float* __restrict__ A,
                                                                   const float* __restrict__ B, float* __restrict__ C,
                                                                   int M, int N, int K, int group) {
  sgemm_async_body<T, kFull>(A, B, C, M, N, K, group);
}
