// Chapter 05's pictures, computed from the kernels' index arithmetic and the bank model of
// setRowReadCol_lesson.h (the same functions setRowReadCol_model.cpp checks against the printed
// claims, and the GPU's counters against the same claims): `setRowReadCol_diagrams OUTDIR`.
#include <map>
#include <string>
#include <vector>

#include "setRowReadCol_lesson.h"
#include "svg.h"

using namespace wb;

namespace {

constexpr double kLeft = 236, kBox = 18, kRowH = 24;
constexpr double kWidth = kLeft + 32 * kBox + 70;

double lane_x(int l) { return kLeft + l * kBox; }

const char* ink(const char* fill) {
  const std::string f = fill;
  return (f == svg::kBlue || f == svg::kVermillion || f == svg::kGreen || f == svg::kPurple) ? svg::kWhite
                                                                                                : svg::kBlack;
}

// Colliding banks are coloured in order of bank, cycling through six colours (vermillion first):
// with more than six, one colour stands for several banks, told apart by the number in each box.
const char* conflict_colour(int i) {
  static const char* k[] = {svg::kVermillion, svg::kOrange, svg::kBlue, svg::kPurple, svg::kGreen, svg::kYellow};
  return k[i % 6];
}

// Warp 0's 32 word offsets for one access of one kernel (lane = linear thread id, as on the GPU).
std::vector<int> warp0(bool rect, lesson::Pattern p, bool load, int padding = -1) {
  std::vector<int> w;
  const int bx = lesson::block_x(rect);
  for (int lane = 0; lane < 32; ++lane) {
    const auto a = lesson::access(rect, p, lane % bx, lane / bx, padding);
    w.push_back(load ? a.ld : a.st);
  }
  return w;
}

// One access as a row of 32 lanes: each box is the bank of the lane's word. The banks that must
// deliver the most distinct words (when more than one) are coloured; on the right, the bank
// model's n-way count. Returns it.
int access_row(svg::Doc& d, double y, const std::string& label, const std::vector<int>& words) {
  d.text(kLeft - 8, y + 13, label, 10.5, "end");
  std::map<int, std::set<int>> by_bank;
  for (int w : words) by_bank[lesson::bank(w)].insert(w);
  const int n = lesson::n_way(words);
  std::map<int, int> colour_of;  // colliding bank -> colour index
  if (n > 1)
    for (const auto& [b, ws] : by_bank)
      if (static_cast<int>(ws.size()) == n) colour_of.emplace(b, static_cast<int>(colour_of.size()));
  for (int l = 0; l < 32; ++l) {
    const int b = lesson::bank(words[l]);
    const auto it = colour_of.find(b);
    const char* fill = it == colour_of.end() ? svg::kWhite : conflict_colour(it->second);
    d.rect(lane_x(l) + 1, y, kBox - 2, 18, fill, svg::kBlack, 0.5,
           "data-lane=\"" + std::to_string(l) + "\" data-word=\"" + std::to_string(words[l]) + "\"");
    d.text(lane_x(l) + kBox / 2, y + 13, std::to_string(b), 8.5, "middle", ink(fill));
  }
  d.text(lane_x(32) + 8, y + 13, std::to_string(n) + "-way", 12, "start", n > 1 ? svg::kVermillion : svg::kBlack,
         true);
  return n;
}

}  // namespace

int main(int argc, char** argv) {
  svg::Writer out;
  if (!svg::parse_outdir(argc, argv, out)) return 2;

  struct Layout {
    std::string caption;
    bool rect;
    lesson::Pattern p;
    int padding;  // -1: the kernel's own
  };
  const std::string sq = std::to_string(lesson::kSquare), rx = std::to_string(lesson::kRectX),
                    ry = std::to_string(lesson::kRectY);
  const std::vector<Layout> layouts = {
      {"int tile[" + sq + "][" + sq + "] (setRowReadCol)", false, lesson::RowCol, -1},
      {"int tile[" + sq + "][" + std::to_string(lesson::kSquare + lesson::kSquarePad) + "] (setRowReadColPad)", false,
       lesson::RowColPad, -1},
      {"int tile[" + ry + "][" + rx + "] (rect_setRowReadCol)", true, lesson::RowCol, -1},
      {"int tile[" + ry + "][" + std::to_string(lesson::kRectX + 1) + "] (1 word of padding)", true, lesson::RowColPad,
       1},
      {"int tile[" + ry + "][" + std::to_string(lesson::kRectX + lesson::kRectPad) + "] (rect_setRowReadColPad)", true,
       lesson::RowColPad, -1},
  };
  const double group_h = 22 + 2 * kRowH + 8;
  svg::Doc d(kWidth, 26 + layouts.size() * group_h + 72,
             "Warp 0's row write and column read in five shared-memory tiles: the bank each lane's word falls "
             "in, the banks that collide coloured, and the n-way count of the bank model (32-way in tile[32][32], "
             "1-way padded to 33; 16-way in the 16 x 32 rectangle, 2-way with 1 word of padding, 1-way with 2)");
  d.text(kLeft - 8, 14, "lane", 9, "end", svg::kGrey);
  for (int l = 0; l < 32; ++l) d.text(lane_x(l) + kBox / 2, 14, std::to_string(l), 7.5, "middle", svg::kGrey);
  d.text(lane_x(32) + 8, 14, "bank model", 9, "start", svg::kGrey);
  double y = 26;
  for (const auto& L : layouts) {
    d.text(12, y + 14, L.caption, 12, "start", svg::kBlack, true);
    access_row(d, y + 20, "row write tile[ty][tx]", warp0(L.rect, L.p, false, L.padding));
    access_row(d, y + 20 + kRowH, L.rect ? "column read tile[icol][irow]" : "column read tile[tx][ty]",
               warp0(L.rect, L.p, true, L.padding));
    y += group_h;
  }
  d.rect(12, y + 4, 14, 14, svg::kWhite, svg::kBlack, 0.5);
  d.text(32, y + 15, "the number is the bank (word % 32) of the lane's word", 11, "start");
  d.rect(12, y + 26, 14, 14, svg::kVermillion, svg::kBlack, 0.5);
  d.rect(28, y + 26, 14, 14, svg::kOrange, svg::kBlack, 0.5);
  d.text(48, y + 37, "the busiest banks: n distinct words in one bank take n wavefronts (n-way); white: no collision",
         11, "start");
  d.text(48, y + 53,
         "coloured in bank order with six colours that repeat: one colour can be several banks (the number tells them "
         "apart)",
         11, "start");
  out("banks_row_write_col_read", d);
  return out.rc;
}
