// butterfly_lanes.cpp — which lanes has each lane summed after each step of a butterfly?
//
// Runs the butterfly of warpReduce (and of common/block_reduce.cuh's warp_sum) on the CPU warp
// model with sets instead of numbers (butterfly_lanes.h, shared with the chapter's pictures).
// Prints, after each step, the set lane 0 and lane 5 hold, and checks the invariant for every lane:
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

#include "butterfly_lanes.h"

namespace {

int run(const char* title, bool down, uint32_t (*expected)(int, int)) {
  std::printf("%s\n", title);
  const std::vector<int> ms = butterfly::masks(down);
  const auto steps = butterfly::butterfly(ms);
  int bad = 0;
  for (size_t i = 0; i < ms.size(); ++i) {
    const int mask = ms[i];
    const auto& held = steps[i];
    for (int l = 0; l < 32; ++l) {
      if (held[l] != expected(l, mask)) {
        std::printf("  MISMATCH after mask %d: lane %d holds %s, the invariant says %s\n", mask, l,
                    butterfly::lanes(held[l]).c_str(), butterfly::lanes(expected(l, mask)).c_str());
        ++bad;
      }
    }
    std::printf("  after mask %2d: lane 0 holds %s, lane 5 holds %s\n", mask, butterfly::lanes(held[0]).c_str(),
                butterfly::lanes(held[5]).c_str());
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
  int bad = run("masks 16, 8, 4, 2, 1: lane l holds the lanes whose low log2(mask) bits equal l's", true,
                swap ? butterfly::expected_up : butterfly::expected_down);
  bad += run("masks 1, 2, 4, 8, 16: lane l holds its aligned group of 2*mask lanes", false,
             swap ? butterfly::expected_down : butterfly::expected_up);
  std::printf("%s\n", bad ? "invariant FAILED" : "both invariants hold for all 32 lanes after every step");
  return bad ? 1 : 0;
}
