// CPU model of chapter 01: predicts bcast's stdout from common/warp_model.h, without a GPU.
#include "bcast_lesson.h"

int main() {
  using namespace warp_model;
  // bcast: lane 0 holds arg, the others a poison value; __shfl_sync(full, value, 0).
  Warp<int> value{};
  value.fill(-1);
  value[0] = bcast_lesson::kArg;
  bcast_lesson::print_bcast(values(shfl_sync(kFullMask, value, 0)).data());

  bcast_lesson::print_header();
  for (const auto& c : bcast_lesson::kCases) {
    auto r = values(shfl(c.mode, kFullMask, lane_ids<int>(), static_cast<unsigned>(c.x), c.width));
    bcast_lesson::print_case(c, r.data());
  }
  std::printf("\nPASS: every lane matches the CPU reference\n");
  return 0;
}
