// CPU model of chapter 04: the same three lessons on common/warp_model.h, no GPU.
#include <algorithm>

#include "warpReduce_lesson.h"
#include "warp_model.h"

using namespace warp_model;

int main() {
  // 1. The guide's butterfly: value += __shfl_xor_sync(full, value, i, 32) for i = 16 .. 1.
  Warp<int> value{};
  for (int l = 0; l < kWarpSize; ++l) value[l] = 31 - l;
  for (int i = 16; i >= 1; i /= 2) {
    Warp<int> other = values(shfl_xor_sync(kFullMask, value, i, 32));
    for (int l = 0; l < kWarpSize; ++l) value[l] += other[l];
  }
  lesson::print_butterfly(value.data());

  // 2. 001's calls on its data; subgroup_min<32> is min with xor 16, 8, 4, 2, 1.
  const Warp<int> in = lesson::msvc_rand_mod101();
  lesson::Results001 r;
  r.xor8 = values(shfl_xor_sync(kFullMask, in, 8));
  r.xor16 = values(shfl_xor_sync(kFullMask, in, 16));
  r.shfl3 = values(shfl_sync(kFullMask, in, 3));
  r.up3 = values(shfl_up_sync(kFullMask, in, 3));
  r.down3 = values(shfl_down_sync(kFullMask, in, 3));
  r.min32 = in;
  for (int step = 16; step >= 1; step /= 2) {
    Warp<int> other = values(shfl_xor_sync(kFullMask, r.min32, step, 32));
    for (int l = 0; l < kWarpSize; ++l) r.min32[l] = std::min(r.min32[l], other[l]);
  }
  lesson::print_001(in, r);

  // 3. 002's all-reduce: each warp's butterfly sum, then lane 0 adds it to the result.
  const int n = lesson::kAllReduceN;
  long long result = 0, expected = 0;
  for (int base = 0; base < n; base += kWarpSize) {
    Warp<int> v{};
    for (int l = 0; l < kWarpSize; ++l) v[l] = base + l < n ? lesson::all_reduce_input(base + l) : 0;
    for (int mask = 16; mask > 0; mask >>= 1) {
      Warp<int> other = values(shfl_xor_sync(kFullMask, v, mask, 32));
      for (int l = 0; l < kWarpSize; ++l) v[l] += other[l];
    }
    result += v[0];
  }
  for (int i = 0; i < n; ++i) expected += lesson::all_reduce_input(i);
  lesson::print_all_reduce(n, result, expected);
  return 0;
}
