// butterfly_lanes.h — which lanes has each lane summed after each step of a reduction over one warp?
// Sets instead of numbers: lane l starts with the set {l} (bit l of a 32-bit word) and every
// addition becomes a union. Shared by butterfly_lanes.cpp (which checks the invariants below on
// every lane) and warpReduce_diagrams.cpp (which draws them).
//   * butterfly(): each step is one __shfl_xor_sync on the CPU warp model (common/warp_model.h),
//     the masks of warpReduce_lesson.h in the kernel's order (16, 8, 4, 2, 1) or reversed
//     (1, 2, 4, 8, 16);
//   * tree(): a shared-memory tree over the same 32 values with the textbook step: for stride s,
//     `if (l < s) smem[l] += smem[l + s];` then a barrier. Slots l >= s are not read again.
//     (Chapter 06's smemTree takes this step for strides 64 and up; for 32 down to 1 its
//     lastWarpSmem has every lane of warp 0 add, with __syncwarp(), which leaves the same sets in
//     slots l < s.)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "warpReduce_lesson.h"
#include "warp_model.h"

namespace butterfly {

using warp_model::Warp;

// The masks of the kernel's order (down) or the reverse (up), from the lesson header.
inline std::vector<int> masks(bool down) {
  std::vector<int> m;
  for (int s = 0; s < lesson::kButterflySteps; ++s)
    m.push_back(lesson::butterfly_mask(down ? s : lesson::kButterflySteps - 1 - s));
  return m;
}

// What each lane holds after each step of the butterfly with these masks (one Warp per step).
inline std::vector<Warp<uint32_t>> butterfly(const std::vector<int>& ms) {
  Warp<uint32_t> held{};
  for (int l = 0; l < 32; ++l) held[l] = 1u << l;
  std::vector<Warp<uint32_t>> steps;
  for (int mask : ms) {
    // One step: every lane reads the set of lane ^ mask (full warp, width 32) and adds it.
    const Warp<uint32_t> read = warp_model::values(warp_model::shfl_xor_sync(warp_model::kFullMask, held, mask));
    for (int l = 0; l < 32; ++l) held[l] |= read[l];
    steps.push_back(held);
  }
  return steps;
}

// The shared-memory tree with the strides of the kernel's order: after each step, what each slot
// holds; live[step][l] says whether slot l is still read (l < stride).
struct Tree {
  std::vector<Warp<uint32_t>> held;
  std::vector<std::vector<bool>> live;
};
inline Tree tree() {
  Tree t;
  Warp<uint32_t> smem{};
  for (int l = 0; l < 32; ++l) smem[l] = 1u << l;
  for (int s : masks(true)) {
    const Warp<uint32_t> before = smem;  // every thread reads before the barrier ends the step
    for (int l = 0; l < s; ++l) smem[l] = before[l] | before[l + s];
    t.held.push_back(smem);
    std::vector<bool> live(32);
    for (int l = 0; l < 32; ++l) live[l] = l < s;
    t.live.push_back(live);
  }
  return t;
}

// The invariants. Masks 16, 8, 4, 2, 1: after the step with mask i, lane l holds the 32/i lanes
// whose low log2(i) bits equal l's. Masks 1, 2, 4, 8, 16: lane l holds its aligned group of 2i.
inline uint32_t expected_down(int lane, int mask) {
  uint32_t set = 0;
  for (int j = 0; j < 32; ++j)
    if ((j & (mask - 1)) == (lane & (mask - 1))) set |= 1u << j;
  return set;
}
inline uint32_t expected_up(int lane, int mask) {
  const int start = lane & ~(2 * mask - 1);
  uint32_t set = 0;
  for (int j = start; j < start + 2 * mask; ++j) set |= 1u << j;
  return set;
}

inline int count(uint32_t set) {
  int n = 0;
  for (; set; set &= set - 1) ++n;
  return n;
}
inline int lowest(uint32_t set) {
  for (int j = 0; j < 32; ++j)
    if (set >> j & 1u) return j;
  return -1;
}

inline std::string lanes(uint32_t set) {
  if (set == 0xffffffffu) return "{all 32}";
  std::string s;
  for (int j = 0; j < 32; ++j)
    if (set >> j & 1u) s += (s.empty() ? "" : " ") + std::to_string(j);
  return "{" + s + "}";
}

}  // namespace butterfly
