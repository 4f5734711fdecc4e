// The cases chapter 01 runs, and how it prints them: shared by bcast.cu and bcast_model.cpp.
#pragma once

#include <cstdio>

#include "report.h"
#include "warp_model.h"

namespace bcast_lesson {

constexpr int kArg = 1234;  // the Programming Guide's bcast<<<1, 32>>>(1234)

struct Case {
  warp_model::Mode mode;
  int x;  // srcLane, delta or laneMask
  int width;
  const char* label;
};

// 002's width experiments, in its order, then the xor rule with width < 32.
constexpr Case kCases[] = {
    {warp_model::Mode::Idx, 5, 32, "__shfl_sync(full, lane, 5, 32)"},
    {warp_model::Mode::Idx, 5, 16, "__shfl_sync(full, lane, 5, 16)"},
    {warp_model::Mode::Idx, 17, 16, "__shfl_sync(full, lane, 17, 16)"},
    {warp_model::Mode::Up, 2, 16, "__shfl_up_sync(full, lane, 2, 16)"},
    {warp_model::Mode::Xor, 16, 32, "__shfl_xor_sync(full, lane, 16, 32)"},
    {warp_model::Mode::Xor, 8, 8, "__shfl_xor_sync(full, lane, 8, 8)"},
};

inline void print_bcast(const int* received) {
  int ok = 0;
  for (int l = 0; l < 32; ++l) ok += received[l] == kArg;
  std::printf("== 1. bcast (source 000, section 3.1): lane 0 broadcasts arg to its warp ==\n");
  std::printf("bcast<<<1, 32>>>(%d): %d of 32 lanes received %d\n", kArg, ok, kArg);
}

inline void print_header() {
  std::printf("\n== 2. width experiments (source 002): every lane passes its lane id ==\n");
  std::printf("'|' separates sub-groups of `width` lanes; each sub-group numbers its lanes from 0\n");
  int lanes[32];
  for (int l = 0; l < 32; ++l) lanes[l] = l;
  wb::print_lanes("lane id (the value passed)", lanes);
}

inline void print_case(const Case& c, const int* got) { wb::print_lanes(c.label, got, c.width); }

}  // namespace bcast_lesson
