// CPU model of chapter 05: runs each kernel's stores and loads on a plain array, and works out
// from the bank of every address how many wavefronts each warp access needs. It fails (exit 1)
// if that bank arithmetic disagrees with the n-way claims the chapter prints.
#include <algorithm>

#include "setRowReadCol_lesson.h"

using lesson::n_way;  // the bank model (common/bank_model.h through the lesson header)

int main() {
  int bad_claims = 0;
  for (int i = 0; i < lesson::kNumKernels; ++i) {
    const auto& k = lesson::kKernels[i];
    if (i == 0 || k.rect != lesson::kKernels[i - 1].rect) lesson::print_section(k.rect);
    const int bx = lesson::block_x(k.rect), by = lesson::block_y(k.rect);
    std::vector<int> tile(lesson::tile_words(k.rect, k.pattern), -1), out(bx * by, -1);
    for (int y = 0; y < by; ++y)  // every thread stores, then (after the barrier) every thread loads
      for (int x = 0; x < bx; ++x) tile.at(lesson::access(k.rect, k.pattern, x, y).st) = y * bx + x;
    for (int y = 0; y < by; ++y)
      for (int x = 0; x < bx; ++x) out[y * bx + x] = tile.at(lesson::access(k.rect, k.pattern, x, y).ld);
    bool pass = true;
    for (int idx = 0; idx < bx * by; ++idx) pass &= out[idx] == lesson::expected(k.rect, k.pattern, idx);

    int ld_way = 0, st_way = 0;
    for (int warp = 0; warp < bx * by / 32; ++warp) {  // lanes are consecutive linear thread ids
      std::vector<int> st, ld;
      for (int lane = 0; lane < 32; ++lane) {
        const int t = warp * 32 + lane;
        const auto a = lesson::access(k.rect, k.pattern, t % bx, t / bx);
        st.push_back(a.st);
        ld.push_back(a.ld);
      }
      ld_way = std::max(ld_way, n_way(ld));
      st_way = std::max(st_way, n_way(st));
    }
    if (ld_way != k.ld_way || st_way != k.st_way) {
      std::fprintf(stderr, "%s: banks give ld %d-way, st %d-way; the lesson claims %d and %d\n",
                   k.name, ld_way, st_way, k.ld_way, k.st_way);
      ++bad_claims;
    }
    lesson::print_kernel(k, out, pass);
  }
  return bad_claims ? 1 : 0;
}
