// Chapter 04's pictures, computed from the CPU warp model (common/warp_model.h, which agrees with
// the GPU on every case the golden tests compare) through butterfly_lanes.h, with the kernel's masks from
// warpReduce_lesson.h: `warpReduce_diagrams OUTDIR` writes OUTDIR/<name>.svg.
#include <map>
#include <string>
#include <vector>

#include "butterfly_lanes.h"
#include "svg.h"

using namespace wb;

namespace {

constexpr double kLeft = 150, kBox = 22, kRowH = 22;
constexpr double kWidth = kLeft + 32 * kBox + 12;
constexpr double kPanelH = 18 + 16 + 5 * kRowH + 14;

double lane_x(int l) { return kLeft + l * kBox; }

// Text that stays readable on the fill.
const char* ink(const char* fill) {
  const std::string f = fill;
  return (f == svg::kBlue || f == svg::kVermillion || f == svg::kGreen) ? svg::kWhite : svg::kBlack;
}

// One step as a row of 32 boxes. owner[j]: the lowest lane of the set that holds lane j's value;
// holds[j]: whether lane j itself holds that set (solid) or its value is already in another slot
// (open box). Colours cycle over the sets in order of their first lane; the number names the set.
void step_row(svg::Doc& d, double y, const std::string& label, const std::vector<int>& owner,
              const std::vector<bool>& holds, int outlined_lane) {
  d.text(kLeft - 8, y + 15, label, 11, "end");
  std::map<int, int> rank;
  for (int j = 0; j < 32; ++j) rank.emplace(owner[j], static_cast<int>(rank.size()));
  for (int j = 0; j < 32; ++j) {
    const char* c = svg::cyclic(rank[owner[j]]);
    const bool outlined = owner[j] == owner[outlined_lane];
    const std::string data = "data-lane=\"" + std::to_string(j) + "\" data-set=\"" + std::to_string(owner[j]) + "\"";
    if (holds[j]) {
      d.rect(lane_x(j) + 1, y + 1, kBox - 2, kRowH - 4, c, svg::kBlack, outlined ? 2.2 : 0.5, data);
      d.text(lane_x(j) + kBox / 2, y + 14, std::to_string(owner[j]), 9.5, "middle", ink(c));
    } else {
      d.rect(lane_x(j) + 3, y + 3, kBox - 6, kRowH - 8, svg::kWhite, c, 2, data);
      d.text(lane_x(j) + kBox / 2, y + 14, std::to_string(owner[j]), 8, "middle", svg::kGrey);
    }
  }
}

void lane_numbers(svg::Doc& d, double y) {
  d.text(kLeft - 8, y, "lane", 9, "end", svg::kGrey);
  for (int l = 0; l < 32; ++l) d.text(lane_x(l) + kBox / 2, y, std::to_string(l), 8, "middle", svg::kGrey);
}

void butterfly_panel(svg::Doc& d, double y, bool down, const std::string& caption) {
  d.text(kLeft, y + 13, caption, 12.5, "start", svg::kBlack, true);
  lane_numbers(d, y + 30);
  const auto ms = butterfly::masks(down);
  const auto steps = butterfly::butterfly(ms);
  for (size_t i = 0; i < ms.size(); ++i) {
    std::vector<int> owner(32);
    for (int j = 0; j < 32; ++j) owner[j] = butterfly::lowest(steps[i][j]);
    step_row(d, y + 34 + static_cast<double>(i) * kRowH,
             "after xor " + std::to_string(ms[i]) + ": sums of " + std::to_string(butterfly::count(steps[i][0])),
             owner, std::vector<bool>(32, true), 5);
  }
}

void tree_panel(svg::Doc& d, double y, const std::string& caption) {
  d.text(kLeft, y + 13, caption, 12.5, "start", svg::kBlack, true);
  lane_numbers(d, y + 30);
  const auto ms = butterfly::masks(true);
  const butterfly::Tree t = butterfly::tree();
  for (size_t i = 0; i < ms.size(); ++i) {
    std::vector<int> owner(32, -1);
    std::vector<bool> holds(32);
    for (int l = 0; l < 32; ++l) {
      holds[l] = t.live[i][l];
      if (!holds[l]) continue;
      for (int j = 0; j < 32; ++j)
        if (t.held[i][l] >> j & 1u) owner[j] = l;
    }
    step_row(d, y + 34 + static_cast<double>(i) * kRowH,
             "stride " + std::to_string(ms[i]) + ", barrier", owner, holds, 5);
  }
}

}  // namespace

int main(int argc, char** argv) {
  svg::Writer out;
  if (!svg::parse_outdir(argc, argv, out)) return 2;

  {
    svg::Doc d(kWidth, 3 * kPanelH + 48,
               "What each lane has summed after each step: the butterfly with xor 16, 8, 4, 2, 1 (the kernel's "
               "order) leaves every lane with a strided set, with xor 1, 2, 4, 8, 16 an aligned group; the "
               "shared-memory tree with strides 16, 8, 4, 2, 1 builds the same sets as the first, but only in "
               "slots below the stride");
    butterfly_panel(d, 0, true, "warpReduce's butterfly: __shfl_xor_sync with 16, 8, 4, 2, 1");
    butterfly_panel(d, kPanelH, false, "the other order: __shfl_xor_sync with 1, 2, 4, 8, 16");
    tree_panel(d, 2 * kPanelH, "a tree in shared memory: if (l < s) smem[l] += smem[l + s]; __syncthreads();");
    const double ly = 3 * kPanelH + 4;
    double x = kLeft;
    d.rect(x, ly, 18, 16, svg::kSky, svg::kBlack, 0.5);
    d.text(x + 9, ly + 12, "n", 9.5);
    d.text(x + 24, ly + 12, "the lane holds the sum of every lane marked n (n: its lowest lane)", 11, "start");
    d.rect(x, ly + 22, 18, 16, svg::kSky, svg::kBlack, 2.2);
    d.text(x + 9, ly + 34, "5", 9.5);
    d.text(x + 24, ly + 34, "the lanes that hold lane 5's value", 11, "start");
    x += 250;
    d.rect(x + 2, ly + 24, 14, 12, svg::kWhite, svg::kSky, 2);
    d.text(x + 9, ly + 34, "n", 8, "middle", svg::kGrey);
    d.text(x + 24, ly + 34, "already added into slot n; not read again", 11, "start");
    out("butterfly_vs_tree", d);
  }
  return out.rc;
}
