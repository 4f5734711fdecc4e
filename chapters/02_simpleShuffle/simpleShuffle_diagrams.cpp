// Chapter 02's pictures: `simpleShuffle_diagrams OUTDIR` writes OUTDIR/<name>.svg.
// The source's seven patterns are drawn from simpleShuffle_lesson.h: its constants (BDIMX, srcLane,
// delta, offset, laneMask, SEGM, the swapped indices), the mask the host passes (lanes_that_run)
// and the CPU references of source_lines(), which the golden test proves equal to the GPU. Each
// one-register panel is computed by common/warp_model.h and must equal that reference, or this
// program fails. The explorer's picture is the one `simpleShuffle_model --svg` draws.
#include <cstdio>
#include <string>
#include <vector>

#include "lanes_svg.h"
#include "simpleShuffle_lesson.h"

using namespace wb;
using namespace simple_shuffle;

namespace {

int g_rc = 0;

// One panel of a one-register kernel on BDIMX threads; `src` the lane each lane reads.
// Checks the panel's result against the source line's CPU reference. Returns the marks the panel
// draws (lanes BDIMX-31 are drawn as not launched, not as "not in mask").
unsigned source_panel(svg::Doc& d, double y, Mode mode, unsigned x, const int* src, const std::string& caption,
                      const SourceLine& line, const std::vector<int>& in) {
  const uint32_t mask = lanes_that_run(BDIMX);
  const auto reads = lanes_svg::observed_reads(mode, mask, x, BDIMX, src);
  for (int l = 0; l < BDIMX; ++l)
    if (in[reads.src[l]] != line.want[l]) {
      std::fprintf(stderr, "%s: lane %d reads lane %d (%d), the reference says %d\n", line.label, l, reads.src[l],
                   in[reads.src[l]], line.want[l]);
      g_rc = 1;
    }
  lanes_svg::shuffle_panel(d, y, reads, caption, [&](int l) { return in[l]; }, BDIMX);
  // The block has BDIMX threads: lanes BDIMX-31 of its warp are never launched. They hold no var
  // and pass nothing: shuffle_panel draws only the launched lanes, and this box stands for the rest.
  const double x0 = lanes_svg::lane_x(BDIMX) + 1, w = (32 - BDIMX) * lanes_svg::kLaneW + 2;
  d.rect(x0, y + 17, w, 127, svg::kWhite, svg::kGrey, 1);
  const double cx = x0 + w / 2;
  d.text(cx, y + 70, "lanes " + std::to_string(BDIMX) + "\u2013" + std::to_string(31) + ": not launched", 12, "middle",
         svg::kBlack, true);
  d.text(cx, y + 88, "the block has " + std::to_string(BDIMX) + " threads: these lanes are inactive,", 10.5);
  d.text(cx, y + 103, "hold no var and pass nothing", 10.5);
  return lanes_svg::marks_of(reads) & ~static_cast<unsigned>(lanes_svg::kNotInMask);
}

// The legend of these panels: the marks they draw (`marks`, from source_panel), and the absent lanes.
void source_legend(svg::Doc& d, double y, unsigned marks) {
  lanes_svg::shuffle_legend(d, y, marks | lanes_svg::kNotLaunched);
}

std::string mask_hex(uint32_t m) { return lanes_svg::hex_mask(m); }

// One-register patterns: kernel k of source_lines (0 bcast, 1 up, 2 down, 3 wrap, 4 xor).
svg::Doc one_register(const std::string& title, std::initializer_list<int> which) {
  const auto in = initial_data();
  const auto lines = source_lines(in);
  const int n = static_cast<int>(which.size());
  svg::Doc d(lanes_svg::kWidth, n * lanes_svg::kPanelH + lanes_svg::kLegendH + 6, title);
  const std::string m = mask_hex(lanes_that_run(BDIMX)), w = std::to_string(BDIMX);
  int row = 0;
  unsigned marks = 0;
  for (int k : which) {
    int src[32];
    Mode mode = Mode::Idx;
    unsigned x = 0;
    std::string call;
    switch (k) {
      case 0: mode = Mode::Idx; x = kSrcLane; call = "test_shfl_broadcast: __shfl_sync(" + m + ", v, " + std::to_string(kSrcLane) + ", " + w + ")"; break;
      case 1: mode = Mode::Up; x = kDelta; call = "test_shfl_up: __shfl_up_sync(" + m + ", v, " + std::to_string(kDelta) + ", " + w + ")"; break;
      case 2: mode = Mode::Down; x = kDelta; call = "test_shfl_down: __shfl_down_sync(" + m + ", v, " + std::to_string(kDelta) + ", " + w + ")"; break;
      case 3: mode = Mode::Idx; x = 0; call = "test_shfl_wrap: __shfl_sync(" + m + ", v, threadIdx.x + " + std::to_string(kOffset) + ", " + w + ")"; break;
      case 4: mode = Mode::Xor; x = kXorMask; call = "test_shfl_xor: __shfl_xor_sync(" + m + ", v, " + std::to_string(kXorMask) + ", " + w + ")"; break;
    }
    for (int l = 0; l < 32; ++l)
      src[l] = k == 3 ? warp_model::source_lane(Mode::Idx, l, static_cast<unsigned>(l + kOffset), BDIMX)
                      : warp_model::source_lane(mode, l, x, BDIMX);
    marks |= source_panel(d, row++ * lanes_svg::kPanelH, mode, x, src,
                          "\u201c" + std::string(lines[k].label) + "\u201d  " + call, lines[k], in);
  }
  source_legend(d, n * lanes_svg::kPanelH + 4, marks);
  return d;
}

// The register-array kernels: BDIMX / SEGM threads own SEGM ints each (element t*SEGM + k is
// thread t's value[k]); an arrow from each element that moves to where it lands. The input holds
// 0..15, so an output value names the element it came from.
svg::Doc arrays() {
  const auto in = initial_data();
  const auto lines = source_lines(in);
  const int threads = BDIMX / SEGM;
  const double bw = 40, gap = 28, left = 118, panel = 150;
  auto ex = [&](int e) { return left + e * bw + (e / SEGM) * gap; };
  svg::Doc d(left + BDIMX * bw + (threads - 1) * gap + 12, 2 * panel + 24,
             "The register-array kernels on 4 threads of 4 ints: test_shfl_xor_array swaps whole arrays "
             "between threads 0-1 and 2-3 (one __shfl_xor_sync per element); test_shfl_xor_array_swap moves "
             "only value[0] of thread 0 and value[3] of thread 1 (and of threads 2, 3), with one shuffle");
  const std::string m = mask_hex(lanes_that_run(threads));
  const std::string captions[2] = {
      "\u201cshfl array\u201d  test_shfl_xor_array: " + std::to_string(SEGM) + " \u00d7 __shfl_xor_sync(" + m +
          ", value[i], " + std::to_string(kXorMask) + ", " + std::to_string(BDIMX) + ")",
      "\u201cshfl array swap\u201d  test_shfl_xor_array_swap: swap, __shfl_xor_sync(" + m + ", value[" +
          std::to_string(kSecondIdx) + "], " + std::to_string(kXorMask) + ", " + std::to_string(BDIMX) + "), swap"};
  for (int p = 0; p < 2; ++p) {
    const auto& out = lines[5 + p].want;
    const double y = p * panel, top = y + 31, bottom = y + 107, box = 22;
    d.text(12, y + 13, captions[p], 13, "start", svg::kBlack, true);
    for (int t = 0; t < threads; ++t)
      d.text(ex(t * SEGM) + SEGM * bw / 2, y + 26, "thread " + std::to_string(t) + ": value[0..3]", 9.5);
    d.text(left - 8, top + 15, "before", 11, "end");
    d.text(left - 8, bottom + 15, "after", 11, "end");
    std::vector<bool> moved_from(BDIMX, false);
    for (int e = 0; e < BDIMX; ++e)
      if (out[e] != in[e]) moved_from[out[e]] = true;
    for (int e = 0; e < BDIMX; ++e) {
      const bool moved = out[e] != in[e];
      d.rect(ex(e) + 1, top, bw - 2, box, svg::kSky, moved_from[e] ? svg::kBlue : svg::kBlack,
             moved_from[e] ? 2.5 : 0.5);
      d.text(ex(e) + bw / 2, top + 15, std::to_string(in[e]), 10);
      d.rect(ex(e) + 1, bottom, bw - 2, box, moved ? svg::kWhite : svg::kLight, svg::kBlack, 0.5);
      d.text(ex(e) + bw / 2, bottom + 15, std::to_string(out[e]), 10);
      if (moved) d.arrow(ex(out[e]) + bw / 2, top + box + 2, ex(e) + bw / 2, bottom - 1, svg::kBlue, 1.2);
      d.text(ex(e) + bw / 2, bottom + box + 13, "[" + std::to_string(e % SEGM) + "]", 9, "middle", svg::kGrey);
    }
  }
  double lx = 12;
  d.arrow(lx, 2 * panel + 10, lx + 24, 2 * panel + 10, svg::kBlue, 1.2);
  d.text(lx + 29, 2 * panel + 14, "an element moves to another thread", 11, "start");
  lx += 250;
  d.rect(lx, 2 * panel + 4, 16, 12, svg::kLight, svg::kBlack, 0.5);
  d.text(lx + 21, 2 * panel + 14, "stays where it was", 11, "start");
  return d;
}

}  // namespace

int main(int argc, char** argv) {
  svg::Writer out;
  if (!svg::parse_outdir(argc, argv, out)) return 2;

  out("source_bcast_up_down",
      one_register("003's simpleShuffle on 16 threads (mask 0x0000ffff, width 16): broadcast of lane 2; up by 2, "
                   "where lanes 0 and 1 keep their own value; down by 2, where lanes 14 and 15 keep theirs",
                   {0, 1, 2}));
  out("source_wrap_xor",
      one_register("003's simpleShuffle on 16 threads: the wrap-around shift, srcLane threadIdx.x + 2 taken "
                   "modulo the width 16 (lanes 14 and 15 read lanes 0 and 1); the butterfly xor 1, "
                   "where neighbours swap",
                   {3, 4}));
  out("source_arrays", arrays());

  LaneResult r[32];
  predict(kExample, r);
  out("explorer_down4_width16_mask00ffffff", explorer_svg(kExample, r));
  return out.rc ? out.rc : g_rc;
}
