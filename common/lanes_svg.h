// common/lanes_svg.h — pictures of one warp's 32 lanes, drawn with common/svg.h:
//   * shuffle_panel(): which lane each lane reads in one __shfl*_sync call, computed by
//     common/warp_model.h (the rules the golden tests and the 792-case explorer prove on the GPU);
//   * values_panel(): one row of 32 values, and expected_vs_got(): a learner's result lane by lane
//     beside the right one, the wrong lanes marked (the exercise checkers draw it on a rejection).
// Chapters 01 to 04 draw with these; simpleShuffle --svg draws the learner's own shuffle.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "svg.h"
#include "warp_model.h"

namespace wb::lanes_svg {

constexpr double kLaneW = 25;     // one lane's box
constexpr double kLeft = 118;     // room for the row labels
constexpr double kPanelH = 150;   // one shuffle panel, caption to legend-free bottom
constexpr double kWidth = kLeft + 32 * kLaneW + 12;

inline double lane_x(int lane) { return kLeft + lane * kLaneW; }

inline const char* mode_name(warp_model::Mode m) {
  switch (m) {
    case warp_model::Mode::Idx: return "__shfl_sync";
    case warp_model::Mode::Up: return "__shfl_up_sync";
    case warp_model::Mode::Down: return "__shfl_down_sync";
    case warp_model::Mode::Xor: return "__shfl_xor_sync";
  }
  return "?";
}

inline std::string hex_mask(uint32_t mask) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%08x", mask);
  return b;
}

// The call as a learner writes it, e.g. "__shfl_down_sync(0x00ffffff, var, 4, 16)".
inline std::string call_text(warp_model::Mode m, uint32_t mask, unsigned x, int width) {
  return std::string(mode_name(m)) + "(" + (mask == warp_model::kFullMask ? std::string("0xffffffff") : hex_mask(mask)) +
         ", var, " + std::to_string(x) + ", " + std::to_string(width) + ")";
}

// One shuffle at y (the panel's top): the 32 source lanes, the 32 results, an arrow from each
// result to the lane it reads. value(l) is what lane l passes (the result row shows what it gets).
// Sub-groups of `width` lanes are separated by dashed lines. Lanes outside mask are grey and get
// no arrow ('-'); a read of a lane outside mask is a dashed vermillion arrow and '?' (undefined).
template <class ValueOf>
void shuffle_panel(svg::Doc& d, double y, warp_model::Mode mode, uint32_t mask, unsigned x, int width,
                   const std::string& caption, ValueOf value) {
  const double top = y + 24, bottom = y + 104, box = 20;
  d.text(kLeft, y + 14, caption, 13, "start", svg::kBlack, true);
  d.text(kLeft - 8, top + 14, "var (passed)", 11, "end");
  d.text(kLeft - 8, bottom + 14, "result (got)", 11, "end");
  for (int l = 0; l < 32; ++l) {
    const bool in = mask >> l & 1u;
    const double lx = lane_x(l);
    d.rect(lx + 1, top, kLaneW - 2, box, in ? svg::kSky : svg::kLight, svg::kBlack, 0.5);
    d.text(lx + kLaneW / 2, top + 14, std::to_string(value(l)), 9.5);
    if (!in) {
      d.rect(lx + 1, bottom, kLaneW - 2, box, svg::kLight, svg::kBlack, 0.5);
      d.text(lx + kLaneW / 2, bottom + 14, "-", 10);
      continue;
    }
    const int src = warp_model::source_lane(mode, l, x, width);
    const bool defined = mask >> src & 1u;
    const std::string data = "data-lane=\"" + std::to_string(l) + "\" data-src=\"" + std::to_string(src) + "\"";
    d.arrow(lane_x(src) + kLaneW / 2, top + box + 1, lx + kLaneW / 2, bottom - 1,
            defined ? svg::kBlue : svg::kVermillion, defined ? 1.2 : 1.4, defined ? "" : "3 2", data);
    d.rect(lx + 1, bottom, kLaneW - 2, box, defined ? svg::kWhite : svg::kYellow, svg::kBlack, 0.5);
    d.text(lx + kLaneW / 2, bottom + 14, defined ? std::to_string(value(src)) : "?", 9.5);
  }
  for (int g = width; g < 32; g += width)
    d.line(lane_x(g), top - 4, lane_x(g), bottom + box + 4, svg::kBlack, 1, "4 3");
  for (int l = 0; l < 32; l += 4)
    d.text(lane_x(l) + kLaneW / 2, bottom + box + 14, "lane " + std::to_string(l), 9, "middle", svg::kGrey);
}

// The legend of shuffle_panel's marks, one row at y.
inline void shuffle_legend(svg::Doc& d, double y) {
  double x = kLeft;
  d.arrow(x, y + 6, x + 26, y + 6, svg::kBlue, 1.2);
  d.text(x + 32, y + 10, "reads that lane's var", 11, "start");
  x += 180;
  d.arrow(x, y + 6, x + 26, y + 6, svg::kVermillion, 1.4, "3 2");
  d.text(x + 32, y + 10, "reads a lane outside mask: undefined (?)", 11, "start");
  x += 290;
  d.rect(x, y, 12, 12, svg::kLight, svg::kBlack, 0.5);
  d.text(x + 18, y + 10, "not in mask: does not call (-)", 11, "start");
}

// One row of 32 values at y, with a label; bad[l] marks lane l (vermillion frame and fill).
inline void values_panel(svg::Doc& d, double y, const std::string& label, const std::vector<long long>& v,
                         const std::vector<bool>& bad = {}, const char* fill = svg::kWhite) {
  d.text(kLeft - 8, y + 14, label, 11, "end");
  for (int l = 0; l < 32 && l < static_cast<int>(v.size()); ++l) {
    const bool wrong = l < static_cast<int>(bad.size()) && bad[l];
    d.rect(lane_x(l) + 1, y, kLaneW - 2, 20, wrong ? svg::kVermillion : fill, svg::kBlack, wrong ? 1.5 : 0.5,
           "data-lane=\"" + std::to_string(l) + "\"");
    d.text(lane_x(l) + kLaneW / 2, y + 14, std::to_string(v[l]), v[l] > 999 || v[l] < -99 ? 7.5 : 9.5, "middle",
           wrong ? svg::kWhite : svg::kBlack);
  }
}

// A learner's 32 results beside the expected ones, the lanes that differ marked: what an exercise
// checker writes when it rejects an answer.
inline svg::Doc expected_vs_got(const std::string& title, const std::vector<long long>& expected,
                                const std::vector<long long>& got) {
  std::vector<bool> bad(32, false);
  int n_bad = 0;
  for (int l = 0; l < 32; ++l) n_bad += bad[l] = expected.at(l) != got.at(l);
  svg::Doc d(kWidth, 128, title);
  d.text(kLeft, 16, title, 13, "start", svg::kBlack, true);
  for (int l = 0; l < 32; l += 4) d.text(lane_x(l) + kLaneW / 2, 36, "lane " + std::to_string(l), 9, "middle", svg::kGrey);
  values_panel(d, 42, "expected", expected, {}, svg::kSky);
  values_panel(d, 68, "your kernel", got, bad);
  d.rect(kLeft, 102, 12, 12, svg::kVermillion, svg::kBlack, 1.5);
  d.text(kLeft + 18, 112, std::to_string(n_bad) + " of 32 lanes differ from the expected value", 11, "start");
  return d;
}

}  // namespace wb::lanes_svg
