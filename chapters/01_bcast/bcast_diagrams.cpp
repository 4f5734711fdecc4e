// Chapter 01's pictures, computed from the CPU warp model (common/warp_model.h), which the golden
// test proves equal to the GPU: `bcast_diagrams OUTDIR` writes OUTDIR/<name>.svg.
#include "bcast_lesson.h"
#include "lanes_svg.h"

using namespace wb;

int main(int argc, char** argv) {
  svg::Writer out;
  if (!svg::parse_outdir(argc, argv, out)) return 2;

  // srcLane 5 with width 32 and with width 16: one broadcast, or one per sub-group of 16.
  {
    const auto& a = bcast_lesson::kCases[0];
    const auto& b = bcast_lesson::kCases[1];
    svg::Doc d(lanes_svg::kWidth, 2 * lanes_svg::kPanelH + 24,
               "__shfl_sync(full, lane, 5, width): with width 32 every lane reads lane 5; with width 16 "
               "each sub-group of 16 reads its own lane 5 (lanes 5 and 21)");
    auto id = [](int l) { return l; };
    lanes_svg::shuffle_panel(d, 0, a.mode, warp_model::kFullMask, a.x, a.width, a.label, id);
    lanes_svg::shuffle_panel(d, lanes_svg::kPanelH, b.mode, warp_model::kFullMask, b.x, b.width, b.label, id);
    lanes_svg::shuffle_legend(d, 2 * lanes_svg::kPanelH + 4);
    out("srclane5_width32_16", d);
  }
  return out.rc;
}
