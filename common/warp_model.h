// common/warp_model.h — a host C++ model of the four warp shuffles, over 32 lanes, as the CUDA
// Programming Guide ("Warp Shuffle Functions") and the PTX ISA (shfl.sync) define them.
// The chapters' CPU models are built on it; tests/warp_model_test.cpp checks it.
//
// The rules, for T __shfl*_sync(mask, var, x, width):
//   * width is a power of two in [1, 32]; the warp splits into sub-groups of `width` lanes,
//     each numbered from 0 ("logical lane"). Any other width is undefined.
//   * x (srcLane, delta or laneMask) is used modulo 32 (its low 5 bits), as PTX's shfl.sync pseudo-code
//     does (bval[4:0] = b[4:0]); the GPU comparison with this model (chapter 02's --explore-all) covers
//     x from 0 to 32 only; chapter 02's part 2 also runs srcLane 18..49 and -2..29 at width 16 on the
//     GPU, against its own CPU loops.
//   * __shfl_sync:      source = start of my sub-group + srcLane % width.
//   * __shfl_up_sync:   source = lane - delta; if that falls before my sub-group, I keep my value.
//   * __shfl_down_sync: source = lane + delta; if that falls past my sub-group, I keep my value.
//   * __shfl_xor_sync:  source = lane ^ laneMask; if that is past the end of my sub-group I keep
//     my value, so with width < 32 a lane can read from its own or an EARLIER sub-group, never a
//     later one.
//   * mask names the participating lanes. A lane outside mask does not execute the call; a lane
//     that reads from a lane outside mask gets an undefined value. Both are "no value" here.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>

namespace warp_model {

constexpr int kWarpSize = 32;
constexpr uint32_t kFullMask = 0xffffffffu;

enum class Mode { Idx, Up, Down, Xor };

template <class T>
using Warp = std::array<T, kWarpSize>;

template <class T>
using Result = std::array<std::optional<T>, kWarpSize>;

inline bool valid_width(int width) {
  return width >= 1 && width <= kWarpSize && (width & (width - 1)) == 0;
}

// The lane that `lane` reads from (the PTX shfl.sync pseudo-code with c = ((32-width)<<8)|clamp).
inline int source_lane(Mode mode, int lane, unsigned x, int width) {
  if (!valid_width(width)) throw std::invalid_argument("width must be a power of two in [1, 32]");
  const int b = static_cast<int>(x & 31u);
  const int seg_start = lane & ~(width - 1);
  const int seg_end = seg_start + width - 1;
  int j = lane;
  bool in_range = true;
  switch (mode) {
    case Mode::Idx: j = seg_start | (b & (width - 1)); break;
    case Mode::Up: j = lane - b; in_range = j >= seg_start; break;
    case Mode::Down: j = lane + b; in_range = j <= seg_end; break;
    case Mode::Xor: j = lane ^ b; in_range = j <= seg_end; break;
  }
  return in_range ? j : lane;
}

template <class T>
Result<T> shfl(Mode mode, uint32_t mask, const Warp<T>& var, unsigned x, int width = kWarpSize) {
  Result<T> out{};
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (!(mask >> lane & 1u)) continue;  // not participating: does not execute the call
    const int src = source_lane(mode, lane, x, width);
    if (mask >> src & 1u) out[lane] = var[src];  // else: reads a non-participating lane: undefined
  }
  return out;
}

template <class T>
Result<T> shfl_sync(uint32_t mask, const Warp<T>& v, int src, int width = kWarpSize) {
  return shfl(Mode::Idx, mask, v, static_cast<unsigned>(src), width);
}
template <class T>
Result<T> shfl_up_sync(uint32_t mask, const Warp<T>& v, unsigned delta, int width = kWarpSize) {
  return shfl(Mode::Up, mask, v, delta, width);
}
template <class T>
Result<T> shfl_down_sync(uint32_t mask, const Warp<T>& v, unsigned delta, int width = kWarpSize) {
  return shfl(Mode::Down, mask, v, delta, width);
}
template <class T>
Result<T> shfl_xor_sync(uint32_t mask, const Warp<T>& v, int lane_mask, int width = kWarpSize) {
  return shfl(Mode::Xor, mask, v, static_cast<unsigned>(lane_mask), width);
}

// For full-mask calls, where every lane has a defined value.
template <class T>
Warp<T> values(const Result<T>& r) {
  Warp<T> w{};
  for (int i = 0; i < kWarpSize; ++i) {
    if (!r[i]) throw std::logic_error("undefined shuffle result");
    w[i] = *r[i];
  }
  return w;
}

template <class T>
Warp<T> lane_ids() {
  Warp<T> w{};
  for (int i = 0; i < kWarpSize; ++i) w[i] = static_cast<T>(i);
  return w;
}

}  // namespace warp_model
