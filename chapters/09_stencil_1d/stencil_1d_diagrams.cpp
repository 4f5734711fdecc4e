// Chapter 09's pictures: `stencil_1d_diagrams OUTDIR` writes OUTDIR/<name>.svg.
//  * tile_halo: one block's shared tile, from the kernel's own RADIUS and BDIM (stencil_lesson.h),
//    and which thread loads each element (stencil_body's rule: every thread its own element, the
//    first RADIUS threads one halo element on each side).
//  * constant_divergence: the divergence cases of constant_divergence.cu (constant_divergence_cases.h):
//    the word each lane reads, and how many constant-cache reads that makes.
#include <string>

#include "constant_divergence_cases.h"
#include "stencil_lesson.h"
#include "svg.h"

using namespace wb;
using lesson::BDIM;
using lesson::RADIUS;

int main(int argc, char** argv) {
  svg::Writer out;
  if (!svg::parse_outdir(argc, argv, out)) return 2;

  // One block's tile: smem[j] holds in[base - RADIUS + j], j = 0 .. BDIM + 2 * RADIUS - 1.
  {
    constexpr int kTile = BDIM + 2 * RADIUS;
    const double cw = 20, x0 = 40, y_in = 58, y_sm = 150, ch = 22;
    svg::Doc d(x0 * 2 + cw * kTile, 262,
               "One block's shared tile in stencil_1d: " + std::to_string(BDIM) + " elements plus a halo of RADIUS " +
                   std::to_string(RADIUS) + " on each side; thread t loads smem[t + " + std::to_string(RADIUS) +
                   "], and threads 0 to " + std::to_string(RADIUS - 1) + " also load one halo element on each side");
    d.text(x0, 20, "in[] (global memory, padded by RADIUS on both ends)", 13, "start", svg::kBlack, true);
    d.text(x0 - 6, y_in + 15, "in", 11, "end");
    d.text(x0 - 6, y_sm + 15, "smem", 11, "end");
    for (int j = 0; j < kTile; ++j) {
      const bool halo = j < RADIUS || j >= RADIUS + BDIM;
      // stencil_body: thread t stores smem[t + RADIUS]; thread t < RADIUS also stores smem[t] and
      // smem[t + RADIUS + BDIM].
      const int thread = j < RADIUS ? j : (j < RADIUS + BDIM ? j - RADIUS : j - RADIUS - BDIM);
      const char* colour = halo ? svg::kOrange : svg::kSky;
      const double x = x0 + j * cw;
      d.rect(x, y_in, cw - 2, ch, svg::kLight, svg::kBlack, 0.5);
      const int offset = j - RADIUS;  // in[base + offset]
      if (j % 4 == 0 || j == kTile - 1)
        d.text(x + cw / 2 - 1, y_in - 4, offset == 0 ? "base" : (offset > 0 ? "+" : "") + std::to_string(offset), 9);
      d.arrow(x + cw / 2 - 1, y_in + ch + 1, x + cw / 2 - 1, y_sm - 2, halo ? svg::kVermillion : svg::kBlue, 1.2);
      d.rect(x, y_sm, cw - 2, ch, colour, svg::kBlack, 0.5);
      d.text(x + cw / 2 - 1, y_sm + 15, std::to_string(thread), 9);
    }
    d.text(x0 + cw * kTile / 2, y_sm + ch + 16, "the number in each smem cell: the thread (threadIdx.x) that loads it", 11);
    const double xl = x0, xr = x0 + (RADIUS + BDIM) * cw;
    d.line(xl, y_sm + ch + 26, xl + RADIUS * cw - 2, y_sm + ch + 26, svg::kBlack, 1);
    d.text(xl + RADIUS * cw / 2, y_sm + ch + 40, "left halo", 11);
    d.line(xr, y_sm + ch + 26, xr + RADIUS * cw - 2, y_sm + ch + 26, svg::kBlack, 1);
    d.text(xr + RADIUS * cw / 2, y_sm + ch + 40, "right halo", 11);
    d.legend(x0, 232, {{svg::kSky, "the block's own " + std::to_string(BDIM) + " elements: one per thread"},
                       {svg::kOrange, "halo: threads 0-" + std::to_string(RADIUS - 1) + " load 3 elements each"}});
    out("tile_halo", d);
  }

  // constant_divergence: lane l reads word start_word(l, k, 4); one row per case k.
  {
    constexpr int kRows = sizeof(cd_cases::kDistinct) / sizeof(cd_cases::kDistinct[0]);
    const double cw = 18, x0 = 70, row_h = 40, y0 = 50, slot = 5, xs = x0 + cd_cases::kLanes * cw + 24;
    svg::Doc d(xs + slot * 32 + 150, y0 + kRows * row_h + 50,
               "constant memory: a warp read whose 32 lanes ask for one word is one constant-cache read, broadcast; "
               "with k distinct words it is k reads, one after another (the cases of constant_divergence)");
    d.text(x0, 18, "word each lane reads (lane 0 left, lane 31 right)", 13, "start", svg::kBlack, true);
    d.text(xs, 18, "constant-cache reads", 13, "start", svg::kBlack, true);
    d.text(xs, 34, "(one after another)", 11, "start");
    for (int r = 0; r < kRows; ++r) {
      const int k = cd_cases::kDistinct[r];
      const double y = y0 + r * row_h;
      d.text(x0 - 8, y + 15, "k = " + std::to_string(k), 12, "end");
      for (int l = 0; l < cd_cases::kLanes; ++l) {
        const unsigned w = cd_cases::start_word(l, k, 4);
        const std::string fill = k == 1 ? svg::kSky : svg::cyclic(static_cast<int>(w));
        d.rect(x0 + l * cw, y, cw - 2, 22, fill, svg::kBlack, 0.5);
        const bool dark = fill == svg::kBlue || fill == svg::kVermillion;  // white digits stay legible there
        d.text(x0 + l * cw + cw / 2 - 1, y + 15, std::to_string(w), 9, "middle", dark ? svg::kWhite : svg::kBlack);
      }
      for (int i = 0; i < k; ++i) d.rect(xs + i * slot, y + 3, slot - 1, 16, svg::kGrey, svg::kNone);
      d.text(xs + k * slot + 6, y + 15, k == 1 ? "1 read, broadcast" : std::to_string(k) + " reads", 11, "start");
    }
    d.text(x0, y0 + kRows * row_h + 14,
           "Each cell: the word index, word = lane mod k (the 4-bytes-apart case; the 256-bytes-apart case multiplies it by 64).",
           11, "start");
    d.text(x0, y0 + kRows * row_h + 32, "Colours only separate neighbouring words; the number is the word.", 11, "start");
    out("constant_divergence", d);
  }
  return out.rc;
}
