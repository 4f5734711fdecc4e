// common/lanes_svg.h — pictures of one warp's 32 lanes, drawn with common/svg.h:
//   * shuffle_panel(): which lane each lane reads in one __shfl*_sync call, computed by
//     common/warp_model.h (the rules the golden tests and the 792-case explorer prove on the GPU);
//   * values_panel(): one row of 32 values, and expected_vs_got(): a learner's result lane by lane
//     beside the right one, the wrong lanes marked (the exercise checkers draw it on a rejection).
// Chapters 01 to 04 draw with these; simpleShuffle --svg draws the learner's own shuffle, from the
// source lanes the GPU read (observed_reads) rather than from the model (model_reads).
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
constexpr double kLegendH = 20;   // shuffle_legend's row
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

// What each lane of one shuffle read: src[l] is the lane that lane l read from (-1: l is not in
// mask and does not call). kept[l]: l asked for another lane (lane - delta, lane + delta or
// lane ^ laneMask) and got its own value back, because that lane is out of its reach.
struct Reads {
  uint32_t mask = warp_model::kFullMask;
  int width = 32;
  int src[32];
  bool kept[32];
};

// The lane `lane` asks for before any range rule (up: lane - x, down: lane + x, xor: lane ^ x, idx:
// its sub-group's lane x % width); x is used modulo 32, as the hardware does.
inline int requested_lane(warp_model::Mode m, int lane, unsigned x, int width) {
  const int b = static_cast<int>(x & 31u);
  switch (m) {
    case warp_model::Mode::Idx: return (lane & ~(width - 1)) | (b & (width - 1));
    case warp_model::Mode::Up: return lane - b;
    case warp_model::Mode::Down: return lane + b;
    case warp_model::Mode::Xor: return lane ^ b;
  }
  return lane;
}

// Reads from observed source lanes (a GPU's result: src[l] = -1 for a lane outside mask).
inline Reads observed_reads(warp_model::Mode m, uint32_t mask, unsigned x, int width, const int* src) {
  Reads r;
  r.mask = mask;
  r.width = width;
  for (int l = 0; l < 32; ++l) {
    r.src[l] = (mask >> l & 1u) ? src[l] : -1;
    r.kept[l] = r.src[l] == l && requested_lane(m, l, x, width) != l;
  }
  return r;
}

// Reads as common/warp_model.h predicts them.
inline Reads model_reads(warp_model::Mode m, uint32_t mask, unsigned x, int width) {
  int src[32];
  for (int l = 0; l < 32; ++l) src[l] = warp_model::source_lane(m, l, x, width);
  return observed_reads(m, mask, x, width, src);
}

// One shuffle at y (the panel's top, kPanelH tall): the 32 lanes' var, the 32 results, an arrow
// from each result to the lane it reads. value(l) is what lane l passes (the result row shows what
// it gets). Sub-groups of `width` lanes are separated by dashed lines and named above the lanes.
// A lane whose var another lane reads has a thick blue frame. Marks (see shuffle_legend):
//   blue arrow: reads that lane; green arrow: asked for a lane out of reach, keeps its own value;
//   dashed vermillion arrow and '?': reads a lane outside mask, undefined;
//   grey and '-': not in mask, does not call (a run of 4 or more such lanes is named once).
// launched: the lanes 0 .. launched-1 that run (a block of fewer than 32 threads); the lanes above
// are not drawn at all, and the caller says what stands in their place.
template <class ValueOf>
void shuffle_panel(svg::Doc& d, double y, const Reads& r, const std::string& caption, ValueOf value,
                   int launched = 32) {
  const double top = y + 31, bottom = y + 107, box = 20;
  const int width = r.width;
  d.text(kLeft, y + 13, caption, 13, "start", svg::kBlack, true);
  d.text(kLeft - 8, top + 14, "var (passed)", 11, "end");
  d.text(kLeft - 8, bottom + 14, "result (got)", 11, "end");
  bool read_by_other[32] = {};
  for (int l = 0; l < 32; ++l)
    if (r.src[l] >= 0 && r.src[l] < 32 && r.src[l] != l) read_by_other[r.src[l]] = true;
  // The sub-groups, named above the lanes where there is room.
  if (width == 32) {
    d.text(kLeft + 16 * kLaneW, y + 26, "width 32: the whole warp is one group", 9.5, "middle", svg::kBlack);
  } else if (width >= 4) {
    for (int g = 0; g < 32 / width && g * width < launched; ++g) {
      const double cx = lane_x(g * width) + width * kLaneW / 2;
      const std::string lanes = "lanes " + std::to_string(g * width) + "\u2013" + std::to_string(g * width + width - 1);
      d.text(cx, y + 26, width >= 8 ? "sub-group " + std::to_string(g) + ": " + lanes : "sub-group " + std::to_string(g),
             9.5, "middle", svg::kBlack);
    }
  } else {
    d.text(kLeft + 16 * kLaneW, y + 26, std::to_string(32 / width) + " sub-groups of " + std::to_string(width) +
           (width == 1 ? " lane" : " lanes"), 9.5, "middle", svg::kBlack);
  }
  for (int l = 0; l < launched; ++l) {
    const bool in = r.mask >> l & 1u;
    const double lx = lane_x(l);
    const bool framed = in && read_by_other[l];
    d.rect(lx + 1, top, kLaneW - 2, box, in ? svg::kSky : svg::kLight, framed ? svg::kBlue : svg::kBlack,
           framed ? 2.5 : 0.5);
    d.text(lx + kLaneW / 2, top + 14, std::to_string(value(l)), 9.5);
    if (!in) {
      d.rect(lx + 1, bottom, kLaneW - 2, box, svg::kLight, svg::kBlack, 0.5);
      d.text(lx + kLaneW / 2, bottom + 14, "-", 10);
      continue;
    }
    const int src = r.src[l];
    const bool known = src >= 0 && src < 32;
    const bool defined = known && (r.mask >> src & 1u);
    const std::string data = "data-lane=\"" + std::to_string(l) + "\" data-src=\"" + std::to_string(src) + "\"";
    if (known) {
      const char* colour = !defined ? svg::kVermillion : r.kept[l] ? svg::kGreen : svg::kBlue;
      d.arrow(lane_x(src) + kLaneW / 2, top + box + (framed || read_by_other[src] ? 2 : 1), lx + kLaneW / 2,
              bottom - 1, colour, defined ? 1.2 : 1.4, defined ? "" : "3 2", data);
    }
    d.rect(lx + 1, bottom, kLaneW - 2, box, defined ? svg::kWhite : svg::kYellow, svg::kBlack, 0.5);
    d.text(lx + kLaneW / 2, bottom + 14, defined ? std::to_string(value(src)) : "?", 9.5);
  }
  // Runs of lanes outside mask: named once, where their arrows would be.
  for (int l = 0; l < launched;) {
    if (r.mask >> l & 1u) {
      ++l;
      continue;
    }
    int e = l;
    while (e < launched && !(r.mask >> e & 1u)) ++e;
    if (e - l >= 4) {
      const double cx = lane_x(l) + (e - l) * kLaneW / 2;
      const double mid = (top + box + bottom) / 2;
      const std::string span = "lanes " + std::to_string(l) + "\u2013" + std::to_string(e - 1);
      if (e - l >= 12) {
        d.text(cx, mid - 2, span + ": not in mask,", 10.5, "middle", svg::kBlack);
        d.text(cx, mid + 12, "they do not call the shuffle", 10.5, "middle", svg::kBlack);
      } else {
        d.text(cx, mid - 2, span + ":", 10, "middle", svg::kBlack);
        d.text(cx, mid + 12, "not in mask", 10, "middle", svg::kBlack);
      }
    }
    l = e;
  }
  for (int g = width; g < launched; g += width)
    d.line(lane_x(g), top - 4, lane_x(g), bottom + box + 4, svg::kBlack, 1, "4 3");
  for (int l = 0; l < launched; l += 4)
    d.text(lane_x(l) + kLaneW / 2, bottom + box + 13, "lane " + std::to_string(l), 9, "middle", svg::kGrey);
}

// The same, from common/warp_model.h's rules.
template <class ValueOf>
void shuffle_panel(svg::Doc& d, double y, warp_model::Mode mode, uint32_t mask, unsigned x, int width,
                   const std::string& caption, ValueOf value) {
  shuffle_panel(d, y, model_reads(mode, mask, x, width), caption, value);
}

// The marks of shuffle_panel, for a legend that names only those a picture shows.
enum Mark : unsigned {
  kReads = 1, kReadBy = 2, kKeepsOwn = 4, kUndefined = 8, kNotInMask = 16, kNotLaunched = 32,
  kFullMaskMarks = kReads | kReadBy | kKeepsOwn,
  kAllMaskMarks = kFullMaskMarks | kUndefined | kNotInMask,
};

// The marks a panel of `r` draws (for a legend that names only those, OR several panels' marks).
inline unsigned marks_of(const Reads& r) {
  unsigned m = 0;
  for (int l = 0; l < 32; ++l) {
    if (!(r.mask >> l & 1u)) {
      m |= kNotInMask;
      continue;
    }
    if (r.kept[l]) m |= kKeepsOwn;
    else if (!(r.mask >> r.src[l] & 1u)) m |= kUndefined;
    else m |= kReads | (r.src[l] != l ? kReadBy : 0u);
  }
  return m;
}

// The legend of shuffle_panel's marks, one row at y (18 px tall), each mark of `marks` in this order.
inline void shuffle_legend(svg::Doc& d, double y, unsigned marks = kAllMaskMarks) {
  double x = 12;
  if (marks & kReads) {
    d.arrow(x, y + 6, x + 24, y + 6, svg::kBlue, 1.2);
    d.text(x + 29, y + 10, "reads that lane", 11, "start");
    x += 127;
  }
  if (marks & kReadBy) {
    d.rect(x, y, 16, 12, svg::kSky, svg::kBlue, 2.5);
    d.text(x + 21, y + 10, "read by another lane", 11, "start");
    x += 145;
  }
  if (marks & kKeepsOwn) {
    d.arrow(x, y + 6, x + 24, y + 6, svg::kGreen, 1.2);
    d.text(x + 29, y + 10, "asked out of reach: keeps own", 11, "start");
    x += 207;
  }
  if (marks & kUndefined) {
    d.arrow(x, y + 6, x + 24, y + 6, svg::kVermillion, 1.4, "3 2");
    d.text(x + 29, y + 10, "reads outside mask: undefined (?)", 11, "start");
    x += 228;
  }
  if (marks & kNotInMask) {
    d.rect(x, y, 16, 12, svg::kLight, svg::kBlack, 0.5);
    d.text(x + 21, y + 10, "not in mask (-)", 11, "start");
    x += 120;
  }
  if (marks & kNotLaunched) {
    d.rect(x, y, 16, 12, svg::kWhite, svg::kGrey, 1);
    d.text(x + 21, y + 10, "not launched (holds no var)", 11, "start");
  }
}

// One row of 32 values at y, with a label; bad[l] marks lane l (vermillion frame and fill).
// A value short enough for a lane's box: up to 5 characters as they are; a longer one with three
// significant digits and its power of ten ("1.3e11", "-1.4e9"); the checker's message gives the
// exact values.
inline std::string compact(long long v) {
  std::string s = std::to_string(v);
  if (s.size() <= 5) return s;
  char b[32];
  std::snprintf(b, sizeof b, "%.1e", static_cast<double>(v));
  std::string m(b), out;
  const size_t e = m.find('e');
  out = m.substr(0, e) + "e";
  std::string ex = m.substr(e + 1);
  if (ex[0] == '+') ex.erase(0, 1);
  while (ex.size() > 1 && (ex[0] == '0' || (ex[0] == '-' && ex[1] == '0'))) ex.erase(ex[0] == '-' ? 1 : 0, 1);
  return out + ex;
}

inline void values_panel(svg::Doc& d, double y, const std::string& label, const std::vector<long long>& v,
                         const std::vector<bool>& bad = {}, const char* fill = svg::kWhite) {
  d.text(kLeft - 8, y + 14, label, 11, "end");
  for (int l = 0; l < 32 && l < static_cast<int>(v.size()); ++l) {
    const bool wrong = l < static_cast<int>(bad.size()) && bad[l];
    d.rect(lane_x(l) + 1, y, kLaneW - 2, 20, wrong ? svg::kVermillion : fill, svg::kBlack, wrong ? 1.5 : 0.5,
           "data-lane=\"" + std::to_string(l) + "\"");
    const std::string t = compact(v[l]);
    d.text(lane_x(l) + kLaneW / 2, y + 14, t, t.size() <= 3 ? 9.5 : t.size() <= 4 ? 8 : 6.5, "middle",
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
