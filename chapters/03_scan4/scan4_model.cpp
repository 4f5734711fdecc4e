// CPU model of chapter 03: runs the guide's scan4 loop on common/warp_model.h.
#include "scan4_lesson.h"
#include "warp_model.h"

int main() {
  using namespace warp_model;
  Warp<int> value{};
  for (int l = 0; l < kWarpSize; ++l) value[l] = scan4_lesson::seed(l);
  for (int i = 1; i <= 4; i *= 2) {
    Warp<int> n = values(shfl_up_sync(kFullMask, value, static_cast<unsigned>(i), 8));
    for (int l = 0; l < kWarpSize; ++l)
      if ((l & 7) >= i) value[l] += n[l];
  }
  scan4_lesson::print(value.data());
  return 0;
}
