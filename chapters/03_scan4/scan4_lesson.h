// Chapter 03's output format, shared by scan4.cu and scan4_model.cpp: exactly the Programming
// Guide's lines, printed by the host in lane order (device printf order is not guaranteed).
#pragma once

#include <cstdio>

namespace scan4_lesson {

constexpr int kGroup = 8;  // the scan runs independently in each group of 8 lanes (width 8)
constexpr int kSteps[] = {1, 2, 4};  // the kernel's loop `for (i = 1; i <= 4; i *= 2)`: log2(8) steps

// The kernel's guard `(laneId & 7) >= i`: lane has at least i predecessors in its group, so what
// __shfl_up_sync(..., i, 8) gave it is another lane's value, which it adds. A lane below i got its
// own value back.
inline bool adds(int lane, int i) { return (lane & (kGroup - 1)) >= i; }

inline int seed(int lane) { return 31 - lane; }  // the guide's "inverse of lane ID"

inline void print(const int* value) {
  for (int t = 0; t < 32; ++t) std::printf("Thread %d final value = %d\n", t, value[t]);
}

}  // namespace scan4_lesson
