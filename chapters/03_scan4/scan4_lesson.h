// Chapter 03's output format, shared by scan4.cu and scan4_model.cpp: exactly the Programming
// Guide's lines, printed by the host in lane order (device printf order is not guaranteed).
#pragma once

#include <cstdio>

namespace scan4_lesson {

constexpr int kGroup = 8;  // the scan runs independently in each group of 8 lanes (width 8)

inline int seed(int lane) { return 31 - lane; }  // the guide's "inverse of lane ID"

inline void print(const int* value) {
  for (int t = 0; t < 32; ++t) std::printf("Thread %d final value = %d\n", t, value[t]);
}

}  // namespace scan4_lesson
