// butterfly_lanes.cpp — which lanes has each lane summed after each step of a butterfly?
//
// Runs the butterfly of warpReduce (and of common/block_reduce.cuh's warp_sum) on the CPU warp
// model with sets instead of numbers: lane l starts with the set {l} (bit l of a 32-bit word) and
// each step ORs in the set of the lane it reads with __shfl_xor_sync. Prints, after each step,
// the set lane 0 and lane 5 hold, and checks the invariant for every lane:
//   masks 16, 8, 4, 2, 1 (the order the chapter uses): after the step with mask i, lane l holds
//     the 32/i lanes whose low log2(i) bits equal l's (after 16: l and l^16; after 1: all 32);
//   masks 1, 2, 4, 8, 16 (the other order): after the step with mask i, lane l holds its aligned
//     group of 2i lanes.
// Exit 0 when both invariants hold for all 32 lanes after every step, 1 otherwise (label cpu).
// --swap checks each order against the other order's invariant (the claim "after the step with
// mask i, a lane holds its aligned group of 2i lanes", made for 16, 8, 4, 2, 1): it must exit 1.
//   build/bin/butterfly_lanes [--swap]
#include <cstdint>
#include <cstdio>
#include <string>

#include "warp_model.h"

namespace {

using warp_model::Warp;

std::string lanes(uint32_t set) {
  if (set == 0xffffffffu) return "{all 32}";
  std::string s;
  for (int j = 0; j < 32; ++j)
    if (set >> j & 1u) s += (s.empty() ? "" : " ") + std::to_string(j);
  return "{" + s + "}";
}

// The lanes `lane` must hold after the step with `mask`, for each order.
uint32_t expected_down(int lane, int mask) {  // 16, 8, 4, 2, 1: same low log2(mask) bits
  uint32_t set = 0;
  for (int j = 0; j < 32; ++j)
    if ((j & (mask - 1)) == (lane & (mask - 1))) set |= 1u << j;
  return set;
}
uint32_t expected_up(int lane, int mask) {  // 1, 2, 4, 8, 16: the aligned group of 2*mask lanes
  const int start = lane & ~(2 * mask - 1);
  uint32_t set = 0;
  for (int j = start; j < start + 2 * mask; ++j) set |= 1u << j;
  return set;
}

int run(const char* title, const int (&masks)[5], uint32_t (*expected)(int, int)) {
  std::printf("%s\n", title);
  Warp<uint32_t> held{};
  for (int l = 0; l < 32; ++l) held[l] = 1u << l;
  int bad = 0;
  for (int mask : masks) {
    // One step: every lane reads the set of lane ^ mask (full warp, width 32) and adds it.
    const Warp<uint32_t> read = warp_model::values(warp_model::shfl_xor_sync(warp_model::kFullMask, held, mask));
    for (int l = 0; l < 32; ++l) held[l] |= read[l];
    for (int l = 0; l < 32; ++l) {
      if (held[l] != expected(l, mask)) {
        std::printf("  MISMATCH after mask %d: lane %d holds %s, the invariant says %s\n", mask, l,
                    lanes(held[l]).c_str(), lanes(expected(l, mask)).c_str());
        ++bad;
      }
    }
    std::printf("  after mask %2d: lane 0 holds %s, lane 5 holds %s\n", mask, lanes(held[0]).c_str(),
                lanes(held[5]).c_str());
  }
  return bad;
}

}  // namespace

int main(int argc, char** argv) {
  const bool swap = argc == 2 && std::string(argv[1]) == "--swap";
  if (argc > 1 && !swap) {
    std::fprintf(stderr, "usage: butterfly_lanes [--swap]\n");
    return 2;
  }
  int bad = run("masks 16, 8, 4, 2, 1: lane l holds the lanes whose low log2(mask) bits equal l's",
                {16, 8, 4, 2, 1}, swap ? expected_up : expected_down);
  bad += run("masks 1, 2, 4, 8, 16: lane l holds its aligned group of 2*mask lanes", {1, 2, 4, 8, 16},
             swap ? expected_down : expected_up);
  std::printf("%s\n", bad ? "invariant FAILED" : "both invariants hold for all 32 lanes after every step");
  return bad ? 1 : 0;
}
