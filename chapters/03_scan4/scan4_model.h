// Chapter 03's scan on the CPU warp model (common/warp_model.h): one step of the guide's loop,
// generic in what a lane carries, so that the model (scan4_model.cpp, whose output for the seed
// 31 - laneId the tests compare with the golden file the GPU prints) and the pictures
// (scan4_diagrams.cpp) run the same code.
#pragma once

#include "scan4_lesson.h"
#include "warp_model.h"

namespace scan4_model {

// One iteration of `for (i = 1; i <= 4; i *= 2)`: every lane passes its value to
// __shfl_up_sync(0xffffffff, value, i, 8) (all 32 lanes execute it), and a lane with at least i
// predecessors in its group, `(laneId & 7) >= i`, combines what it got with its own:
// value = add(value, got). The others got their own value back and keep it.
template <class T, class Add>
warp_model::Warp<T> step(const warp_model::Warp<T>& value, int i, Add add) {
  using namespace warp_model;
  const Warp<T> got = values(shfl_up_sync(kFullMask, value, static_cast<unsigned>(i), scan4_lesson::kGroup));
  Warp<T> out = value;
  for (int l = 0; l < kWarpSize; ++l)
    if (scan4_lesson::adds(l, i)) out[l] = add(value[l], got[l]);
  return out;
}

}  // namespace scan4_model
