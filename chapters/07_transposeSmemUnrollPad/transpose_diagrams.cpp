// Chapter 07's pictures, computed from transpose_lesson.h: the block's tile, the thread-to-element
// map after the barrier (out_element) and the tile's word layout (tile_word), which the CPU model
// runs on every shape (its stdout, PASS lines and the boundary count, equals the GPU program's
// golden file), chapter 05's bank model (wavefronts), and transposeTiled's tile (TILED_TILE) with
// its two block numberings. `transposeSmemUnrollPad_diagrams OUTDIR` writes OUTDIR/<name>.svg.
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
               " words, " +
               (row % lesson::kBanks == 0 ? std::string("so every row starts in bank 0")
                                          : "so row r starts in bank " + std::to_string(row % lesson::kBanks) + "·r mod 32"),
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

// 3. The two block numberings of transposeTiled's body: which tile each block number reads and
// writes. The block of blockIdx (bx, by) has number bx + by * gridDim.x; transposeTiled's grid is
// (tile rows, tile columns) and its block reads input tile (row bx, column by) (the kernel's
// y0 = blockIdx.x * TILE, x0 = blockIdx.y * TILE; transpose_model.cpp's `down`);
// transposeTiled_colsFirst's grid is (tile columns, tile rows) and reads input tile (by, bx).
// Either writes output tile (column, row) of the tile it read. lesson::tiled_input_tile holds the
// mapping, which the CPU model runs too.
using lesson::TilePos;
struct Numbering {
  const char* kernel;
  bool down;  // blockIdx.x walks the input's tile rows
};
TilePos input_tile(const Numbering& k, int n, int tiles_r, int tiles_c) {
  const int gx = k.down ? tiles_r : tiles_c;
  return lesson::tiled_input_tile(k.down, n % gx, n / gx);
}
// "stacked down tile column 0" or "side by side along tile row 0" for the tiles of blocks 0..n-1.
std::string strip(const std::vector<TilePos>& t) {
  bool same_r = true, same_c = true;
  for (const TilePos& p : t) same_r = same_r && p.r == t[0].r, same_c = same_c && p.c == t[0].c;
  if (same_c) return "stacked down tile column " + std::to_string(t[0].c);
  if (same_r) return "side by side along tile row " + std::to_string(t[0].r);
  return "scattered";
}
// "neighbouring pieces of the same input rows (0–63)" or "pieces of different input rows (0–63,
// 64–127)": the matrix rows that tiles t (of side T) cover.
std::string rows_of(const std::vector<TilePos>& t, int T, const std::string& matrix) {
  std::vector<int> bands;
  for (const TilePos& p : t)
    if (bands.empty() || bands.back() != p.r) bands.push_back(p.r);
  if (bands.size() == 1)
    return "neighbouring pieces of the same " + matrix + " rows (" + range(bands[0] * T, bands[0] * T + T - 1) + ")";
  std::string s = "pieces of different " + matrix + " rows (";
  for (size_t i = 0; i < bands.size(); ++i) s += (i ? ", " : "") + range(bands[i] * T, bands[i] * T + T - 1);
  return s + ")";
}

void block_numbering(svg::Writer& out) {
  constexpr int R = 3, C = 4, kHl = 3;                     // input: R x C tiles; blocks 0..kHl-1 highlighted
  constexpr int T = lesson::TILED_TILE;
  constexpr double cw = 58, ch = 40, ix = 86, ox = 440;    // tile size in pixels, the grids' left edges
  constexpr double top = 66, panel_h = 334;
  const Numbering ks[] = {{"transposeTiled", true}, {"transposeTiled_colsFirst", false}};
  std::string facts[2][2], rows[2][2];  // [kernel][read, write]
  for (int k = 0; k < 2; ++k) {
    std::vector<TilePos> in, outp;
    for (int n = 0; n < kHl; ++n) {
      const TilePos p = input_tile(ks[k], n, R, C);
      in.push_back(p);
      outp.push_back({p.c, p.r});
    }
    facts[k][0] = "input tiles " + strip(in);
    facts[k][1] = "output tiles " + strip(outp);
    rows[k][0] = rows_of(in, T, "input");
    rows[k][1] = rows_of(outp, T, "output");
  }
  const std::string tile = std::to_string(T) + " x " + std::to_string(T);
  svg::Doc d(800, top + 2 * panel_h + 36,
             "Block numbers of transposeTiled and transposeTiled_colsFirst on an input of " + std::to_string(R) +
                 " x " + std::to_string(C) + " tiles of " + tile + ": with transposeTiled, blocks 0, 1, 2 read " +
                 facts[0][0] + " and write " + facts[0][1] + "; with transposeTiled_colsFirst they read " +
                 facts[1][0] + " and write " + facts[1][1]);
  d.text(12, 18,
         "Input " + std::to_string(R * T) + " x " + std::to_string(C * T) + " floats: " + std::to_string(R) + " x " +
             std::to_string(C) + " tiles of " + tile + ". Each block moves one tile: input tile (row r, column c) → "
             "output tile (row c, column r).",
         11, "start");
  d.text(12, 34,
         "In each tile: the number of the block that reads it (input) or writes it (output), blockIdx.x + "
         "blockIdx.y · gridDim.x,",
         11, "start");
  d.text(12, 50, "and below it, small, that block's (blockIdx.x, blockIdx.y).", 11, "start");

  for (int k = 0; k < 2; ++k) {
    const Numbering& K = ks[k];
    const int gx = K.down ? R : C, gy = K.down ? C : R;
    const double py = top + k * panel_h;
    d.line(12, py + 2, 788, py + 2, svg::kGrey, 0.75);
    d.text(12, py + 22,
           std::string(K.kernel) + (K.down ? ": blockIdx.x walks down the input (tile rows), blockIdx.y across"
                                           : " (bench only): blockIdx.x walks across the input (tile columns)"),
           13, "start", svg::kBlack, true);
    d.text(12, py + 40,
           std::string("grid (") + std::to_string(gx) + ", " + std::to_string(gy) + "): " +
               (K.down ? "input tile (row, column) = (blockIdx.x, blockIdx.y)"
                       : "input tile (row, column) = (blockIdx.y, blockIdx.x), the numbering of kernels 1 to 6"),
           11, "start");
    // Block number of every input tile, then of every output tile.
    std::vector<int> in_n(size_t(R) * C);
    for (int n = 0; n < R * C; ++n) {
      const TilePos p = input_tile(K, n, R, C);
      in_n[size_t(p.r) * C + p.c] = n;
    }
    const double gy0 = py + 88;
    auto grid = [&](double x0, int nr, int nc, bool input, const std::string& name) {
      d.text(x0 + nc * cw / 2, gy0 - 24, name + " tile column", 11, "middle", svg::kBlack, true);
      for (int c = 0; c < nc; ++c) d.text(x0 + (c + 0.5) * cw, gy0 - 7, std::to_string(c), 11);
      const double mid = gy0 + nr * ch / 2;
      d.text(x0 - 30, mid, name + " tile row", 11, "middle", svg::kBlack, true,
             "transform=\"rotate(-90 " + svg::num(x0 - 30) + " " + svg::num(mid) + ")\"");
      for (int r = 0; r < nr; ++r) d.text(x0 - 8, gy0 + (r + 0.5) * ch + 4, std::to_string(r), 11, "end");
      for (int r = 0; r < nr; ++r)
        for (int c = 0; c < nc; ++c) {
          const int n = input ? in_n[size_t(r) * C + c] : in_n[size_t(c) * C + r];  // output (r, c) is input (c, r)
          const bool hl = n < kHl;
          const double x = x0 + c * cw, y = gy0 + r * ch;
          d.rect(x, y, cw, ch, hl ? svg::kOrange : svg::kWhite, svg::kBlack, 1);
          d.text(x + cw / 2, y + 18, std::to_string(n), 14, "middle", svg::kBlack, hl);
          d.text(x + cw / 2, y + 32, "(" + std::to_string(n % gx) + ", " + std::to_string(n / gx) + ")", 9, "middle",
                 hl ? svg::kBlack : svg::kGrey);
        }
    };
    grid(ix, R, C, true, "input");
    grid(ox, C, R, false, "output");
    d.arrow(ix + C * cw + 14, gy0 + ch, ox - 44, gy0 + ch, svg::kBlack, 1.5);
    d.text((ix + C * cw + ox - 30) / 2, gy0 + ch - 8, "transpose", 11);
    const double ny = gy0 + R * ch + 20;
    d.text(ix - 44, ny, "blocks 0, 1, 2 read", 11, "start", svg::kBlack, true);
    d.text(ix - 44, ny + 16, facts[k][0] + ":", 11, "start");
    d.text(ix - 44, ny + 32, rows[k][0], 11, "start");
    const double my = gy0 + C * ch + 20;
    d.text(ox - 44, my, "and write", 11, "start", svg::kBlack, true);
    d.text(ox - 44, my + 16, facts[k][1] + ":", 11, "start");
    d.text(ox - 44, my + 32, rows[k][1], 11, "start");
  }
  d.legend(12, top + 2 * panel_h + 4,
           {{svg::kOrange, "blocks 0, 1, 2: neighbouring block numbers"}, {svg::kWhite, "the other blocks"}}, 11);
  d.text(788, top + 2 * panel_h + 14, "blocks may run in any order, in parallel or in series", 11, "end", svg::kGrey);
  out("block_numbering", d);
}

}  // namespace

int main(int argc, char** argv) {
  svg::Writer out;
  if (!svg::parse_outdir(argc, argv, out)) return 2;
  remap(out);
  banks(out);
  block_numbering(out);
  return out.rc;
}
