// Chapter 07's pictures, computed from transpose_lesson.h: the block's tile, the thread-to-element
// map after the barrier (out_element) and the tile's word layout (tile_word), which the CPU model
// runs on every shape (its stdout, PASS lines and the boundary count, equals the GPU program's
// golden file), and chapter 05's bank model (wavefronts). `transposeSmemUnrollPad_diagrams OUTDIR` writes OUTDIR/<name>.svg.
#include <cstdio>
#include <string>
#include <vector>

#include "svg.h"
#include "transpose_lesson.h"

using namespace wb;
using lesson::BDIMX;
using lesson::BDIMY;

namespace {

std::string range(int a, int b) { return std::to_string(a) + "–" + std::to_string(b); }

// 1. Which input tile goes to which output tile, and one warp's row read and column write.
void remap(svg::Writer& out) {
  constexpr int kTilesX = 3, kTilesY = 3;                          // a 48 x 96 input: 3 x 3 blocks
  constexpr int rows = kTilesY * BDIMY, cols = kTilesX * BDIMX;    // output: cols x rows
  constexpr double u = 4;                                          // pixels per element
  constexpr double ix = 30, iy = 58, ox = 560, oy = 58;            // the two matrices' corners
  constexpr int hbx = 2, hby = 0, warp = 0;                        // the block and warp drawn
  const std::string in_rows = range(hby * BDIMY, hby * BDIMY + BDIMY - 1),
                    in_cols = range(hbx * BDIMX, hbx * BDIMX + BDIMX - 1);
  const std::string blk = "(" + std::to_string(hbx) + ", " + std::to_string(hby) + ")";
  svg::Doc d(800, oy + cols * u + 110,
             "Transpose through a " + std::to_string(BDIMY) + " x " + std::to_string(BDIMX) + " tile: block " + blk +
                 " reads input rows " + in_rows + ", columns " + in_cols + " and writes output rows " + in_cols +
                 ", columns " + in_rows + "; its warp 0 reads one input row (" + std::to_string(BDIMX) +
                 " floats) and writes two output rows of " + std::to_string(BDIMY) + " floats");
  d.text(ix, 18, "input: " + std::to_string(rows) + " x " + std::to_string(cols) + " floats, blocks of " +
                     std::to_string(BDIMX) + " x " + std::to_string(BDIMY) + " threads",
         12, "start", svg::kBlack, true);
  d.text(ix, 36, "thread (tx, ty) of block (bx, by) reads row by·16 + ty, column bx·32 + tx", 11, "start");
  d.text(ox, 18, "output: " + std::to_string(cols) + " x " + std::to_string(rows), 12, "start", svg::kBlack, true);
  d.text(ox, 36, "the same block's tile, 32 x 16", 11, "start");

  // Every element of the highlighted block, in both matrices, from the lesson's index arithmetic.
  std::vector<int> in_state(size_t(rows) * cols, 0), out_state(size_t(rows) * cols, 0);
  for (int ty = 0; ty < BDIMY; ++ty)
    for (int tx = 0; tx < BDIMX; ++tx) {
      const int bidx = ty * BDIMX + tx, w = bidx / 32;
      const int r = hby * BDIMY + ty, c = hbx * BDIMX + tx;
      in_state[size_t(r) * cols + c] = ty == warp ? 2 : 1;  // a warp is one ty: a tile row
      const lesson::TileElem e = lesson::out_element(bidx);
      const int orow = hbx * BDIMX + e.r, ocol = hby * BDIMY + e.c;
      out_state[size_t(orow) * rows + ocol] = w == warp ? 2 : 1;
    }
  auto draw = [&](double x0, double y0, int nr, int nc, const std::vector<int>& st, int tile_h, int tile_w,
                  bool input) {
    for (int r = 0; r < nr; ++r)
      for (int c = 0; c < nc; ++c) {
        const int s = st[size_t(r) * nc + c];
        if (s) d.rect(x0 + c * u, y0 + r * u, u, u, s == 2 ? svg::kOrange : svg::kSky);
      }
    for (int by = 0; by < nr / tile_h; ++by)
      for (int bx = 0; bx < nc / tile_w; ++bx) {
        d.rect(x0 + bx * tile_w * u, y0 + by * tile_h * u, tile_w * u, tile_h * u, svg::kNone, svg::kBlack, 1);
        // the block that owns this tile: input tile (bx, by) is output tile (by, bx)
        const int obx = input ? bx : by, oby = input ? by : bx;
        const bool hl = obx == hbx && oby == hby;
        d.text(x0 + (bx + 0.5) * tile_w * u, y0 + (by + 0.5) * tile_h * u + 4,
               "(" + std::to_string(obx) + ", " + std::to_string(oby) + ")", 10, "middle",
               hl ? svg::kBlack : svg::kGrey, hl);
      }
  };
  draw(ix, iy, rows, cols, in_state, BDIMY, BDIMX, true);
  draw(ox, oy, cols, rows, out_state, BDIMX, BDIMY, false);
  d.arrow(ix + (hbx + 1) * BDIMX * u + 6, iy + (hby + 0.5) * BDIMY * u, ox - 6, oy + (hbx + 0.5) * BDIMX * u,
          svg::kBlack, 1.5);
  const double ty = oy + cols * u + 24;
  d.text(ix, ty, "Labels: the block (bx, by) that owns the tile. Block " + blk + ": input rows " + in_rows +
                     ", columns " + in_cols + " → output rows " + in_cols + ", columns " + in_rows + ".",
         11, "start");
  d.text(ix, ty + 18,
         "Warp 0 (orange) reads one input row: " + std::to_string(BDIMX) + " consecutive floats. After the barrier "
         "its lanes 0–15 and 16–31 write output rows " + std::to_string(hbx * BDIMX) + " and " +
             std::to_string(hbx * BDIMX + 1) + ",",
         11, "start");
  d.text(ix, ty + 36,
         std::to_string(BDIMY) + " consecutive floats each, which they read from two columns of the shared tile "
         "(the next picture).",
         11, "start");
  d.legend(ix, ty + 50, {{svg::kOrange, "warp 0 of block " + blk}, {svg::kSky, "its other " +
                         std::to_string(BDIMX * BDIMY / 32 - 1) + " warps"}}, 11);
  out("transpose_remap", d);
}

// 2. The shared tile's words coloured by bank, unpadded and padded, with warp 0's column read.
void banks(svg::Writer& out) {
  constexpr double cw = 21, ch = 15, x0 = 70, panel_h = 24 + BDIMY * ch + 30;
  const int pads[] = {0, lesson::PAD};
  const int wf0 = lesson::wavefronts(lesson::column_read_words(0, 0));
  const int wfp = lesson::wavefronts(lesson::column_read_words(0, lesson::PAD));
  svg::Doc d(x0 + (BDIMX + lesson::PAD) * cw + 20, 2 * panel_h + 62,
             "Bank of every word of the " + std::to_string(BDIMY) + " x " + std::to_string(BDIMX) +
                 " shared tile, unpadded and padded by " + std::to_string(lesson::PAD) +
                 " words per row: warp 0's column read (outlined) takes " + std::to_string(wf0) +
                 " wavefronts without padding and " + std::to_string(wfp) + " with it");
  double y = 6;
  for (int pad : pads) {
    const int row = BDIMX + pad;
    const std::vector<int> words = lesson::column_read_words(0, pad);
    const int wf = lesson::wavefronts(words);
    d.text(8, y + 14,
           "float tile[" + std::to_string(BDIMY) + "][" + std::to_string(BDIMX) + (pad ? " + " + std::to_string(pad) : "") +
               "]: warp 0 reads tile[icol][irow], " + std::to_string(wf) + " wavefront" + (wf == 1 ? "" : "s") +
               (wf == 1 ? " (no conflict)" : " (" + std::to_string(wf) + "-way conflict)"),
           13, "start", svg::kBlack, true);
    y += 24;
    std::vector<int> lane_of(size_t(BDIMY) * row, -1);
    for (int l = 0; l < 32; ++l) lane_of[static_cast<size_t>(words[l])] = l;
    for (int r = 0; r < BDIMY; ++r) {
      d.text(x0 - 6, y + r * ch + ch - 4, "row " + std::to_string(r), 10, "end");
      for (int c = 0; c < row; ++c) {
        const int w = lesson::tile_word(r, c, pad), bank = w % lesson::kBanks;
        const double x = x0 + c * cw, yy = y + r * ch;
        if (c >= BDIMX) {
          d.rect(x, yy, cw, ch, svg::kWhite, svg::kGrey, 0.5);
          d.text(x + cw / 2, yy + ch - 4, "pad", 8, "middle", svg::kGrey);
          continue;
        }
        d.rect(x, yy, cw, ch, svg::cyclic(bank), svg::kWhite, 0.5);
        d.text(x + cw / 2, yy + ch - 4, std::to_string(bank), 9, "middle",
               (bank % 8 == 4 || bank % 8 == 5) ? svg::kWhite : svg::kBlack);
      }
    }
    for (int l = 0; l < 32; ++l) {  // warp 0's column read
      const int w = words[static_cast<size_t>(l)];
      d.rect(x0 + (w % row) * cw + 1, y + (w / row) * ch + 1, cw - 2, ch - 2, svg::kNone, svg::kBlack, 2);
    }
    y += BDIMY * ch + 6;
    d.text(x0, y + 12,
           "lanes 0–15 read column 0, lanes 16–31 column 1 (rows 0–15); a row is " + std::to_string(row) +
               " words, so row r starts in bank " + std::to_string(row % lesson::kBanks) + "·r mod 32",
           11, "start");
    y += panel_h - 24 - BDIMY * ch - 6;
  }
  const int pad1 = lesson::wavefronts(lesson::column_read_words(0, 1));
  d.text(8, y + 14,
         "Cells: the bank, word mod 32 (colours repeat every 8 banks). Padded by 1 word, the read takes " +
             std::to_string(pad1) + " wavefronts.",
         11, "start");
  d.legend(8, y + 26, {{svg::kWhite, "padding word, never read"}}, 11);
  out("tile_banks", d);
}

}  // namespace

int main(int argc, char** argv) {
  svg::Writer out;
  if (!svg::parse_outdir(argc, argv, out)) return 2;
  remap(out);
  banks(out);
  return out.rc;
}
