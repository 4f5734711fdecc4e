// Chapter 04's pictures, computed from the CPU warp model (common/warp_model.h, which agrees with
// the GPU on every case the golden tests compare) through butterfly_lanes.h, with the kernel's masks from
// warpReduce_lesson.h: `warpReduce_diagrams OUTDIR` writes OUTDIR/<name>.svg. shfl_vs_smem_chains
// draws shfl_vs_smem.cu's two chains from their shared constants (shfl_vs_smem_chain.h).
#include <map>
#include <string>
#include <vector>

#include "butterfly_lanes.h"
#include "shfl_vs_smem_chain.h"
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

// One instruction (or the warp sync) of a chain as a box: a bold name over its operand.
void op_box(svg::Doc& d, double x, double y, double w, const std::string& name, const std::string& operand,
            const char* fill) {
  d.rect(x, y, w, 40, fill, svg::kBlack, 1);
  d.text(x + w / 2, y + 16, name, 11, "middle", svg::kBlack, true);
  d.text(x + w / 2, y + 32, operand, 9.5);
}

// shfl_vs_smem.cu's two dependent chains, kSteps steps of each, from shfl_vs_smem_chain.h:
// shflChain's step i is v = __shfl_xor_sync(full, v, mask_of(i)); smemChain's is
// buf[p][lane] = v; __syncwarp(); v = buf[p][lane ^ mask_of(i)] with p = buffer_of(i).
svg::Doc chains_picture() {
  constexpr int kSteps = 3;
  constexpr double x0 = 122, stepW = 276, top = 46, yS = top + 34, yM = top + 118, yBuf = top + 196;
  constexpr double wSts = 72, wSync = 84, wLds = 90, gap = (stepW - wSts - wSync - wLds) / 3;
  const double width = x0 + kSteps * stepW + 26;
  svg::Doc d(width, yBuf + 2 * 30 + 86,
             "One exchange step of each latency chain in shfl_vs_smem.cu: shflChain's step is one SHFL.BFLY "
             "(lane ^ m); smemChain's is an STS to buffer p, a __syncwarp() and an LDS from buffer p, with p "
             "alternating 0, 1, 0 so that a lane rewrites a buffer only after the next warp sync");
  d.text(x0, 16, "The first " + std::to_string(kSteps) + " steps i of a trip: m = mask_of(i), p = buffer_of(i)", 12.5,
         "start", svg::kBlack, true);
  for (int i = 0; i < kSteps; ++i) {
    const double sx = x0 + i * stepW;
    const int m = chain::mask_of(i), p = chain::buffer_of(i);
    d.line(sx, top - 4, sx, yBuf + 2 * 30 + 6, svg::kGrey, 1, "3 3");
    d.text(sx + stepW / 2, top + 8, "step " + std::to_string(i) + ": m = " + std::to_string(m) + ", p = " +
                                        std::to_string(p), 11.5, "middle", svg::kBlack, true);
    // shflChain: one instruction per step, centred in the step.
    const double xs = sx + (stepW - wLds) / 2;
    op_box(d, xs, yS, wLds, "SHFL.BFLY", "v of lane ^ " + std::to_string(m), svg::kSky);
    d.arrow(sx - (i ? (stepW - wLds) / 2 : 14), yS + 20, xs - 2, yS + 20, svg::kBlue, 1.5);
    // smemChain: a store, the warp sync, a load from the same buffer.
    const double a = sx + gap, b = a + wSts + gap, c = b + wSync + gap;
    op_box(d, a, yM, wSts, "STS", "buf[" + std::to_string(p) + "][lane]", svg::kOrange);
    op_box(d, b, yM, wSync, "__syncwarp()", "", svg::kYellow);
    op_box(d, c, yM, wLds, "LDS", "buf[" + std::to_string(p) + "][lane ^ " + std::to_string(m) + "]", svg::kOrange);
    d.arrow(i ? sx - gap : sx - 14, yM + 20, a - 2, yM + 20, svg::kBlue, 1.5);
    d.arrow(a + wSts, yM + 20, b - 2, yM + 20, svg::kBlack, 1.2);
    d.arrow(b + wSync, yM + 20, c - 2, yM + 20, svg::kBlack, 1.2);
    // The buffer each access touches.
    const double by = yBuf + p * 30;
    d.arrow(a + wSts / 2, yM + 41, a + wSts / 2, by - 2, svg::kVermillion, 1.3);
    d.arrow(c + wLds / 2, by, c + wLds / 2, yM + 43, svg::kGreen, 1.3);
  }
  const double endx = x0 + kSteps * stepW;
  d.arrow(endx - (stepW - wLds) / 2, yS + 20, endx + 14, yS + 20, svg::kBlue, 1.5);
  d.arrow(endx - gap, yM + 20, endx + 14, yM + 20, svg::kBlue, 1.5);
  d.text(endx + 16, yS + 24, "v", 11, "start");
  d.text(endx + 16, yM + 24, "v", 11, "start");
  d.text(x0 - 12, yS + 16, "shflChain", 12, "end", svg::kBlack, true);
  d.text(x0 - 12, yS + 31, "1 instruction", 10.5, "end");
  d.text(x0 - 12, yM + 9, "smemChain", 12, "end", svg::kBlack, true);
  d.text(x0 - 12, yM + 24, "2 memory", 10.5, "end");
  d.text(x0 - 12, yM + 37, "instructions + sync", 10.5, "end");
  for (int p = 0; p < chain::kBuffers; ++p) {
    const double by = yBuf + p * 30;
    d.text(x0 - 12, by + 15, "shared buf[" + std::to_string(p) + "]", 11, "end");
    d.rect(x0, by, kSteps * stepW, 20, svg::kLight, svg::kBlack, 0.6);
  }
  const double ly = yBuf + chain::kBuffers * 30 + 22;
  double x = 12;
  d.rect(x, ly, 16, 12, svg::kSky, svg::kBlack, 1);
  d.text(x + 21, ly + 10, "shuffle: register to register", 11, "start");
  x += 186;
  d.rect(x, ly, 16, 12, svg::kOrange, svg::kBlack, 1);
  d.text(x + 21, ly + 10, "shared-memory store / load", 11, "start");
  x += 182;
  d.rect(x, ly, 16, 12, svg::kYellow, svg::kBlack, 1);
  d.text(x + 21, ly + 10, "warp sync: orders every lane's STS before any lane's LDS", 11, "start");
  x = 12;
  d.arrow(x, ly + 26, x + 24, ly + 26, svg::kVermillion, 1.3);
  d.text(x + 29, ly + 30, "writes buf[p]", 11, "start");
  x += 122;
  d.arrow(x, ly + 26, x + 24, ly + 26, svg::kGreen, 1.3);
  d.text(x + 29, ly + 30, "reads buf[p]", 11, "start");
  x += 120;
  d.arrow(x, ly + 26, x + 24, ly + 26, svg::kBlue, 1.5);
  d.text(x + 29, ly + 30, "v: each step needs the step before's result", 11, "start");
  d.text(12, ly + 52, "Step " + std::to_string(chain::kBuffers) + " writes buf[0] again only after step 1's "
                      "__syncwarp(), which every lane reaches after its step-0 LDS: one warp sync per step suffices.",
         11, "start");
  return d;
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
  out("shfl_vs_smem_chains", chains_picture());
  return out.rc;
}
