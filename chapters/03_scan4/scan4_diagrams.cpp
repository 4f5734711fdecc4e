// Chapter 03's picture, computed from the CPU model (scan4_model.h on common/warp_model.h; the model's
// output for the seed 31 - laneId equals the golden file the GPU prints): `scan4_diagrams OUTDIR` writes
// OUTDIR/<name>.svg.
//
// scan4_steps: the three steps of the scan. Each step is one __shfl_up_sync(full, value, i, 8)
// panel (what every lane passes, what it gets, an arrow from the lane it reads), then a row that says
// which lanes each lane's value sums after the step. The ranges are not typed in: the model carries a
// range [lo..hi] per lane through the same step function as the values, and the picture checks that
// every added range joins on to the lane's own (a gap or an overlap exits 1).
#include <string>
#include <utility>
#include <vector>

#include "lanes_svg.h"
#include "scan4_model.h"

using namespace wb;
using Range = std::pair<int, int>;  // the lanes lo..hi whose seeds a lane's value sums

int main(int argc, char** argv) {
  svg::Writer out;
  if (!svg::parse_outdir(argc, argv, out)) return 2;
  namespace ls = lanes_svg;
  using warp_model::Warp;

  Warp<int> value{};
  Warp<Range> range{};
  for (int l = 0; l < warp_model::kWarpSize; ++l) {
    value[l] = scan4_lesson::seed(l);
    range[l] = {l, l};
  }
  bool joined = true;
  auto join = [&](Range mine, Range got) {
    joined = joined && got.second + 1 == mine.first;  // the lanes just below mine, no gap, no overlap
    return Range{got.first, mine.second};
  };

  constexpr double kStepH = ls::kPanelH + 44;  // a shuffle panel and its "sums lanes" row
  const int steps = static_cast<int>(sizeof scan4_lesson::kSteps / sizeof scan4_lesson::kSteps[0]);
  svg::Doc d(ls::kWidth, 28 + steps * kStepH + 90,
             "scan4: __shfl_up_sync(0xffffffff, value, i, 8) for i = 1, 2, 4. After the steps, every lane "
             "sums the lanes from the start of its group of 8 to itself; a lane below i in its group gets "
             "its own value back and does not add it");
  d.text(ls::kLeft, 16, "Seeds 31 - laneId; groups of 8 lanes; one warp, no shared memory, no barrier", 12, "start",
         svg::kGrey);
  double y = 28;
  int n = 0;
  for (int i : scan4_lesson::kSteps) {
    ++n;
    const Warp<int> before = value;
    ls::shuffle_panel(d, y, warp_model::Mode::Up, warp_model::kFullMask, static_cast<unsigned>(i),
                      scan4_lesson::kGroup,
                      "step " + std::to_string(n) + " (i = " + std::to_string(i) +
                          "): n = __shfl_up_sync(0xffffffff, value, " + std::to_string(i) + ", 8); if ((laneId & 7) >= " +
                          std::to_string(i) + ") value += n;",
                      [&](int l) { return before[l]; });
    value = scan4_model::step(value, i, [](int mine, int got) { return mine + got; });
    range = scan4_model::step(range, i, join);
    const double ry = y + ls::kPanelH - 6;  // two lines per lane: "lo-" over "hi" (just "l" when lo = hi)
    d.text(ls::kLeft - 8, ry + 12, "value sums", 11, "end");
    d.text(ls::kLeft - 8, ry + 25, "lanes lo-hi", 11, "end");
    for (int l = 0; l < warp_model::kWarpSize; ++l) {
      const bool added = scan4_lesson::adds(l, i);
      const double cx = ls::lane_x(l) + ls::kLaneW / 2;
      // Orange, not green: green is the shuffle panel's arrow for a lane that got its own value back.
      const char* ink = svg::kBlack;
      d.rect(ls::lane_x(l) + 1, ry, ls::kLaneW - 2, 30, added ? svg::kOrange : svg::kLight, svg::kBlack, 0.5,
             "data-lane=\"" + std::to_string(l) + "\" data-lo=\"" + std::to_string(range[l].first) + "\"");
      if (range[l].first == range[l].second) {
        d.text(cx, ry + 19, std::to_string(l), 9.5, "middle", ink);
      } else {
        d.text(cx, ry + 13, std::to_string(range[l].first) + "-", 9.5, "middle", ink);
        d.text(cx, ry + 26, std::to_string(range[l].second), 9.5, "middle", ink);
      }
    }
    y += kStepH;
  }
  std::vector<long long> final_value(value.begin(), value.end());
  ls::values_panel(d, y, "final value", final_value, {}, svg::kSky);
  for (int l = 0; l < warp_model::kWarpSize; l += 4)
    d.text(ls::lane_x(l) + ls::kLaneW / 2, y + 34, "lane " + std::to_string(l), 9, "middle", svg::kGrey);
  const double ly = y + 46;
  double x = ls::kLeft;
  d.arrow(x, ly + 6, x + 26, ly + 6, svg::kBlue, 1.2);
  d.text(x + 32, ly + 10, "reads that lane's value", 11, "start");
  x += 190;
  d.arrow(x, ly + 6, x + 26, ly + 6, svg::kGreen, 1.2);
  d.text(x + 32, ly + 10, "no lane i lanes below it in its group: own value back", 11, "start");
  x = ls::kLeft + 560;  // the shuffle panel's thick blue frame
  d.rect(x, ly, 16, 12, svg::kSky, svg::kBlue, 2.5);
  d.text(x + 21, ly + 10, "read by another lane", 11, "start");
  x = ls::kLeft;  // the two fills of the "value sums lanes" rows
  const double fy = ly + 18;
  d.rect(x, fy, 12, 12, svg::kOrange, svg::kBlack, 0.5);
  d.text(x + 18, fy + 10, "(laneId & 7) >= i: adds what it got", 11, "start");
  x += 240;
  d.rect(x, fy, 12, 12, svg::kLight, svg::kBlack, 0.5);
  d.text(x + 18, fy + 10, "(laneId & 7) < i: got its own value back, keeps it", 11, "start");
  if (!joined) {
    std::fprintf(stderr, "scan4_diagrams: a step added a range that does not join on to the lane's own\n");
    return 1;
  }
  out("scan4_steps", d);
  return out.rc;
}
