// Chapter 01's pictures, computed from the CPU warp model (common/warp_model.h), which the golden
// test proves equal to the GPU, for the cases the program runs (bcast_lesson.h's kCases):
// `bcast_diagrams OUTDIR` writes OUTDIR/<name>.svg.
#include <string>

#include "bcast_lesson.h"
#include "lanes_svg.h"

using namespace wb;

namespace {


// One picture of some of kCases, one panel each, every lane passing its lane id.
svg::Doc cases(const std::string& title, std::initializer_list<int> which) {
  const int n = static_cast<int>(which.size());
  svg::Doc d(lanes_svg::kWidth, n * lanes_svg::kPanelH + lanes_svg::kLegendH + 6, title);
  auto id = [](int l) { return l; };
  int k = 0;
  unsigned marks = 0;
  for (int i : which) {
    const auto& c = bcast_lesson::kCases[i];
    const auto reads = lanes_svg::model_reads(c.mode, warp_model::kFullMask, static_cast<unsigned>(c.x), c.width);
    marks |= lanes_svg::marks_of(reads);
    lanes_svg::shuffle_panel(d, k++ * lanes_svg::kPanelH, reads, c.label, id);
  }
  // The legend names only the marks these panels draw.
  lanes_svg::shuffle_legend(d, n * lanes_svg::kPanelH + 4, marks);
  return d;
}

}  // namespace

int main(int argc, char** argv) {
  svg::Writer out;
  if (!svg::parse_outdir(argc, argv, out)) return 2;

  // Rule 2: srcLane 5 with width 32 and with width 16: one broadcast, or one per sub-group of 16.
  out("srclane5_width32_16",
      cases("__shfl_sync(full, lane, 5, width): with width 32 every lane reads lane 5; with width 16 "
            "each sub-group of 16 reads its own lane 5 (lanes 5 and 21)",
            {0, 1}));
  // Rule 3: srcLane keeps its low log2(width) bits (srcLane mod width for srcLane >= 0), inside the
  // caller's sub-group.
  out("srclane17_width16",
      cases("__shfl_sync(full, lane, 17, 16): srcLane 17 % 16 = 1, so each sub-group of 16 reads its "
            "own lane 1 (lanes 1 and 17); lanes 0-15 do not read lane 17",
            {2}));
  // Rule 4: up keeps the caller's value at the bottom of a sub-group; xor reads an earlier
  // sub-group, never a later one.
  out("keep_own_up2_xor8_width8",
      cases("Out of reach, a lane keeps its own value: __shfl_up_sync(full, lane, 2, 16) leaves lanes 0, 1, "
            "16, 17 unchanged; __shfl_xor_sync(full, lane, 8, 8) lets lanes 8-15 read lanes 0-7 of an "
            "earlier sub-group while lanes 0-7 keep their own",
            {3, 5}));
  return out.rc;
}
