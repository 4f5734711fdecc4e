// Chapter 08's test cases, inputs, kernel list and output format: shared by matMul.cu and
// matMul_model.cpp (the model computes every value itself; only the inputs and the printing are
// shared).
#pragma once

#include <cstdint>
#include <cstdio>
#include <vector>

#include "hash.h"

namespace lesson {

// C (M x N) = A (M x K) * B (K x N), all row-major.
struct Case {
  int M, K, N;
};

// Case 0 is printed in full. 100^3 is no multiple of 16; 3 x 4 x 5, 33 x 17 x 65 and
// 129 x 131 x 257 have a K or N that is no multiple of 4 (our kernels' scalar path); 256^3 is
// whole 128 x 128 tiles; 300 x 200 x 388 has several blocks and partial tiles on the float4 path.
constexpr Case kCases[] = {{3, 4, 5},    {16, 16, 16},   {100, 100, 100},  {33, 17, 65},
                           {256, 256, 256}, {300, 200, 388}, {129, 131, 257}};

// The shape of the demonstration of source 004's kernels as printed (see the README's errata).
constexpr Case kDemo = {100, 100, 100};

// Lesson inputs: whole numbers in [-4, 4]. A product is at most 16 in magnitude, so every partial
// sum of up to K = 2^20 products is a whole number at most 2^24 in magnitude, exact in float:
// every kernel, in any summation order, with or without FMA, must give exactly the CPU's C
// (tolerance 0).
constexpr int kMaxAbs = 4;
inline float a_value(int r, int c, int cols) { return float(int(wb::hash32(uint64_t(r) * cols + c, 1) % 9) - kMaxAbs); }
inline float b_value(int r, int c, int cols) { return float(int(wb::hash32(uint64_t(r) * cols + c, 2) % 9) - kMaxAbs); }

inline void fill(Case s, std::vector<float>& A, std::vector<float>& B) {
  A.resize(size_t(s.M) * s.K);
  B.resize(size_t(s.K) * s.N);
  for (int r = 0; r < s.M; ++r)
    for (int c = 0; c < s.K; ++c) A[size_t(r) * s.K + c] = a_value(r, c, s.K);
  for (int r = 0; r < s.K; ++r)
    for (int c = 0; c < s.N; ++c) B[size_t(r) * s.N + c] = b_value(r, c, s.N);
}

enum Kind { Gmem, Smem, RegTile, Vec4, DoubleBuffer, WarpTile, Async, Tuned, WarpSpecialized, SetMaxNReg, Cublas };

// The tile shapes of sgemmAsync and sgemmTuned (matMul.cu's Tiles<>): block tile bm x bn, k-tile
// bk, warp tile wm x wn, rm x rn blocks of 4 x 4 per thread, `stages` shared stages, at least
// `minb` blocks per SM (the register cap), blocks walked in groups of `group` tile rows (1: row
// by row); pf 1: the next k's fragments are loaded before this k's FMAs.
struct TileCfg {
  int bm, bn, bk, wm, wn, rm, rn, stages, minb, group, pf;
  constexpr int threads() const { return (bm / wm) * (bn / wn) * 32; }
};
constexpr TileCfg kAsync = {128, 128, 16, 32, 64, 2, 2, 3, 2, 1, 0};
// sgemmTuned: two shapes set by hand, one for the sizes below kTunedLargeFrom (M * N elements of C)
// and one from there on; where --tune ranks them (plots/data/<gpu>/sgemm_tune.csv): the README.
constexpr TileCfg kTunedSmall = {64, 128, 16, 32, 64, 2, 2, 4, 4, 1, 0};
constexpr TileCfg kTunedLarge = {64, 128, 16, 32, 64, 2, 2, 4, 4, 16, 0};
constexpr long long kTunedLargeFrom = 4096LL * 4096;
inline TileCfg tuned_cfg(int M, int N) { return (long long)M * N >= kTunedLargeFrom ? kTunedLarge : kTunedSmall; }
// sgemmWarpSpecialized: the consumers' tiling (128 x 256 tiles, 8 warps of 64 x 64, 16 x 8 sums per
// thread, 4 stages, blocks in groups of 16 tile rows) and kProducerWarps warps that copy. Where a
// GPU's shared memory per block cannot hold 4 stages, the same kernel runs with 2
// (kWarpSpecializedSmall).
constexpr TileCfg kWarpSpecialized = {128, 256, 16, 64, 64, 4, 2, 4, 1, 16, 0};
constexpr TileCfg kWarpSpecializedSmall = {128, 256, 16, 64, 64, 4, 2, 2, 1, 16, 0};
constexpr int kProducerWarps = 4;
// sgemmSetMaxNReg: step 9's tiling at two shapes set by hand, one for the sizes below
// kSetMaxNRegLargeFrom (M * N elements of C: 16-deep k-tiles, 6 stages, 148,992 bytes) and one from
// there on (32-deep k-tiles, 4 stages, 198,656 bytes). Where a GPU's shared memory per block cannot
// hold them, the same kernel runs at step 9's two shapes.
constexpr TileCfg kSetMaxNRegSmall = {128, 256, 16, 64, 64, 4, 2, 6, 1, 16, 0};
constexpr TileCfg kSetMaxNRegLarge = {128, 256, 32, 64, 64, 4, 2, 4, 1, 16, 0};
constexpr long long kSetMaxNRegLargeFrom = 4096LL * 4096;
// Its registers per thread after setmaxnreg: the consumer warpgroups' and the producer warpgroup's.
constexpr int kRegsConsumer = 232, kRegsProducer = 40;
inline TileCfg setmaxnreg_cfg(int M, int N) {
  return (long long)M * N >= kSetMaxNRegLargeFrom ? kSetMaxNRegLarge : kSetMaxNRegSmall;
}

struct KernelInfo {
  const char* name;
  Kind kind;
};

constexpr KernelInfo kKernels[] = {
    {"MatMulKernel_gmem", Gmem},          {"MatMulKernel_smem", Smem},
    {"sgemmRegTile", RegTile},            {"sgemmVec4", Vec4},
    {"sgemmDoubleBuffer", DoubleBuffer},  {"sgemmWarpTile", WarpTile},
    {"sgemmAsync", Async},                {"sgemmTuned", Tuned},
    {"sgemmWarpSpecialized", WarpSpecialized}, {"sgemmSetMaxNReg", SetMaxNReg},
    {"cublasSgemm", Cublas},
};

// Our kernels load 4 floats at once (float4) only when every row of A and B starts 16 bytes
// aligned: K and N multiples of 4.
inline bool vec_path(Case s) { return s.K % 4 == 0 && s.N % 4 == 0; }

inline void print_matrix(const char* title, const float* m, int rows, int cols) {
  std::printf("%s (%d x %d):\n", title, rows, cols);
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) std::printf(" %4.0f", double(m[size_t(r) * cols + c]) + 0.0);
    std::printf("\n");
  }
}

inline void print_header() {
  std::printf("== C = A * B: every kernel on every case ==\n");
  std::printf("inputs: whole numbers in [-%d, %d], so C is exact in float and must equal the CPU's C\n", kMaxAbs,
              kMaxAbs);
  std::printf("element by element (tolerance 0); every C is poisoned with NaN before each kernel\n");
}

// A few elements of C: the corners and the middle.
inline void print_case(Case s, const float* C) {
  auto at = [&](int r, int c) { return double(C[size_t(r) * s.N + c]) + 0.0; };  // + 0.0: never "-0"
  std::printf("\n%d x %d x %d (M x K x N)%s%s\n", s.M, s.K, s.N,
              s.M % 16 || s.K % 16 || s.N % 16 ? ", not a multiple of 16" : "",
              vec_path(s) ? ", ours on the float4 path" : ", ours on the scalar path (K or N not a multiple of 4)");
  std::printf("  C[0][0] = %.0f  C[0][%d] = %.0f  C[%d][0] = %.0f  C[%d][%d] = %.0f  C[%d][%d] = %.0f\n", at(0, 0),
              s.N - 1, at(0, s.N - 1), s.M - 1, at(s.M - 1, 0), s.M / 2, s.N / 2, at(s.M / 2, s.N / 2), s.M - 1,
              s.N - 1, at(s.M - 1, s.N - 1));
}

inline void print_result(const char* kernel, long long checksum, bool pass) {
  std::printf("  %-20s sum of C = %8lld  %s\n", kernel, checksum, pass ? "PASS" : "FAIL");
}

inline void print_demo_header() {
  std::printf("\n== source 004's kernels as printed (the bracket fixed), launched as its host code does ==\n");
  std::printf("grid (B.width / %d) x (A.height / %d) on %d x %d x %d: the integer divisions drop the last %d rows "
              "and columns\n",
              16, 16, kDemo.M, kDemo.K, kDemo.N, kDemo.N % 16);
}

inline void print_demo(const char* kernel, long long unwritten, long long wrong, long long total) {
  std::printf("%-20s %lld of %lld outputs never written, %lld written ones wrong\n", kernel, unwritten, total,
              wrong);
}

inline void print_demo_footer() {
  std::printf("(the shared-memory kernel's loop runs A.width / BLOCK_SIZE = %d tiles and drops the last %d terms "
              "of every sum)\n",
              kDemo.K / 16, kDemo.K % 16);
}

}  // namespace lesson
