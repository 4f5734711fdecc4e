// Chapter 04's inputs, the source's published results, and the output format: shared by
// warpReduce.cu and warpReduce_model.cpp, so the two differ only in how they compute.
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>

#include "report.h"

#ifdef __CUDACC__
#define LESSON_HD __host__ __device__
#else
#define LESSON_HD
#endif

namespace lesson {

// The butterfly's lane masks in the order the warpReduce kernel uses them: step 0..4 xors with
// 16, 8, 4, 2, 1. The kernel, butterfly_lanes and the picture butterfly_vs_tree.svg take them from here.
constexpr int kButterflySteps = 5;
LESSON_HD constexpr int butterfly_mask(int step) { return 16 >> step; }

using Lanes = std::array<int, 32>;

// Source 001's 32 inputs: MSVC's rand() from its default seed 1, then `% 101`, reproduces all 32
// values 001 printed (001 names no compiler and calls no srand; that it used MSVC is our inference
// from that match). MSVC's generator: x = x * 214013 + 2531011; rand() = (x >> 16) & 0x7fff.
inline Lanes msvc_rand_mod101() {
  Lanes v{};
  uint32_t x = 1;
  for (int& e : v) {
    x = x * 214013u + 2531011u;
    e = static_cast<int>((x >> 16) & 0x7fff) % 101;
  }
  return v;
}

// What 001 printed, each under the call its text says produced it.
struct Published {
  const char* call;
  Lanes values;
};
inline const Published k001[] = {
    {"__shfl_xor(best, 8)", {66, 24, 80, 83, 71, 60, 64, 52, 90, 60, 49, 31, 23, 99, 94, 11,
                             41, 85, 72, 38, 80, 69, 65, 68, 96, 22, 49, 67, 51, 61, 63, 87}},
    {"__shfl(best, 3)", {38, 38, 38, 38, 38, 38, 38, 38, 38, 38, 38, 38, 38, 38, 38, 38,
                         38, 38, 38, 38, 38, 38, 38, 38, 38, 38, 38, 38, 38, 38, 38, 38}},
    {"__shfl_up(best, 3)", {41, 85, 72, 41, 85, 72, 38, 80, 69, 65, 68, 96, 22, 49, 67, 51,
                            61, 63, 87, 66, 24, 80, 83, 71, 60, 64, 52, 90, 60, 49, 31, 23}},
    {"__shfl_down(best, 3)", {38, 80, 69, 65, 68, 96, 22, 49, 67, 51, 61, 63, 87, 66, 24, 80,
                              83, 71, 60, 64, 52, 90, 60, 49, 31, 23, 99, 94, 11, 99, 94, 11}},
    {"subgroup_min<32>(best)", {11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11,
                                11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11}},
};

// What this chapter computes from 001's input, in the order printed.
struct Results001 {
  Lanes xor8, xor16, shfl3, up3, down3, min32;
};

// 002's all-reduce: n ints, element i = i % 100, summed by warp shuffles and one atomicAdd per warp.
constexpr int kAllReduceN = 1 << 20;
inline int all_reduce_input(int i) { return i % 100; }

inline void print_butterfly(const int* value) {
  std::printf("== 1. warpReduce (source 000, section 3.3): butterfly sum of 31 - laneId ==\n");
  for (int t = 0; t < 32; ++t) std::printf("Thread %d final value = %d\n", t, value[t]);
}

inline void print_001(const Lanes& input, const Results001& r) {
  std::printf("\n== 2. source 001's shuffles, modernised to _sync, on its 32 values ==\n");
  std::printf("input: MSVC rand() %% 101 from seed 1 (001's data)\n");
  wb::print_lanes("B[tid]", input.data());
  wb::print_lanes("__shfl_xor_sync(full, best, 8)", r.xor8.data());
  wb::print_lanes("__shfl_xor_sync(full, best, 16)", r.xor16.data());
  wb::print_lanes("__shfl_sync(full, best, 3)", r.shfl3.data());
  wb::print_lanes("__shfl_up_sync(full, best, 3)", r.up3.data());
  wb::print_lanes("__shfl_down_sync(full, best, 3)", r.down3.data());
  wb::print_lanes("subgroup_min<32>(best, full)", r.min32.data());
  std::printf("\nwhat 001 printed, compared with the lines above:\n");
  const Lanes* ours[] = {&r.xor8, &r.shfl3, &r.up3, &r.down3, &r.min32};
  for (size_t i = 0; i < sizeof ours / sizeof ours[0]; ++i) {
    bool same = *ours[i] == k001[i].values;
    std::printf("  001's line for %-24s %s", k001[i].call, same ? "matches" : "does NOT match");
    if (i == 0) std::printf("; it matches laneMask 16: %s", k001[0].values == r.xor16 ? "yes" : "no");
    std::printf("\n");
  }
}

inline void print_all_reduce(int n, long long result, long long expected) {
  std::printf("\n== 3. source 002: warp_reduce_sum + atomicAdd over %d ints (i %% 100) ==\n", n);
  std::printf("CUDA Result: %lld\n", result);
  std::printf("Expected:    %lld\n", expected);
  std::printf("Correct: %s\n", result == expected ? "Yes" : "No");
}

}  // namespace lesson
