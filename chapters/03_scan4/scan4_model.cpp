// CPU model of chapter 03: runs the guide's scan4 loop (scan4_model.h) on common/warp_model.h.
#include "scan4_model.h"

int main() {
  using namespace warp_model;
  Warp<int> value{};
  for (int l = 0; l < kWarpSize; ++l) value[l] = scan4_lesson::seed(l);
  for (int i : scan4_lesson::kSteps) value = scan4_model::step(value, i, [](int mine, int got) { return mine + got; });
  scan4_lesson::print(value.data());
  return 0;
}
