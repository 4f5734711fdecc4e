// What the checkers of tile_pad_double and tile_swizzle_double share: the output check of the
// given transposeTileDouble kernel and the bank model of its two accesses. Include it after
// WB_EXERCISE_FILE (it uses tile_index, kTileDoubles and transposeTileDouble from there).
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "exercise.h"
#include "svg.h"

// Where --bank-model draws the colliding lanes when it finds bank conflicts (an answer whose slots
// collide or leave the tile is rejected before any drawing): set per exercise by the chapter's
// CMakeLists.txt (build/exercises/<name>_banks.svg).
#ifndef WB_BANK_SVG
#define WB_BANK_SVG WB_EXERCISE_NAME "_banks.svg"
#endif

namespace tile_double {

// The lanes of one 8-byte warp access that collide: per half-warp (the group wb::ex::wavefronts
// serves together: the workbook's model of 64-bit accesses, stated by no Guide section from
// compute capability 5.x on; Nsight Compute's conflict counters give the same verdicts on the
// solutions and wrong answers, which do not separate it from a whole-warp rule),
// the banks that must deliver the most distinct 4-byte words, when more than one.
// Returns, per lane, the index of its colliding bank in that half-warp (-1: none), and the
// wavefronts of each half-warp.
struct Collisions {
  std::vector<int> colour;
  std::vector<int> half_wavefronts;
};
inline Collisions collisions(const std::vector<long long>& bytes) {
  Collisions c{std::vector<int>(32, -1), {}};
  for (int g = 0; g < 32; g += 16) {
    std::map<long long, std::set<long long>> words;  // bank -> distinct words
    for (int lane = g; lane < g + 16; ++lane)
      for (long long w = bytes[lane] / 4; w <= (bytes[lane] + 7) / 4; ++w) words[w % 32].insert(w);
    size_t worst = 0;
    for (const auto& b : words) worst = b.second.size() > worst ? b.second.size() : worst;
    c.half_wavefronts.push_back(static_cast<int>(worst));
    if (worst < 2) continue;
    // Each lane's first word in a busiest bank; lanes that share that bank share a colour.
    std::map<long long, int> rank;
    for (int lane = g; lane < g + 16; ++lane)
      for (long long w = bytes[lane] / 4; w <= (bytes[lane] + 7) / 4; ++w)
        if (words[w % 32].size() == worst) {
          c.colour[lane] = rank.emplace(w % 32, static_cast<int>(rank.size())).first->second;
          break;
        }
  }
  return c;
}

// A picture of the worst row store and the worst column load: each lane's box names the pair of
// banks its double covers; the lanes in the busiest banks of their half-warp are coloured.
inline bool draw_banks(const std::string& path, int store_row, const std::vector<long long>& st, int load_col,
                       const std::vector<long long>& ld) {
  using namespace wb::svg;
  const double left = 190, box = 22, w = left + 32 * box + 150;
  Doc d(w, 150, std::string(WB_EXERCISE_NAME) + ": the lanes whose doubles collide in a bank (tile_index from " +
                    WB_EXERCISE_LEARNER_FILE + ", the chapter's bank model)");
  d.text(12, 16, std::string(WB_EXERCISE_NAME) + ": where your tile_index puts each lane's double", 13, "start",
         kBlack, true);
  for (int l = 0; l < 32; l += 2) d.text(left + l * box + box / 2, 36, std::to_string(l), 8, "middle", kGrey);
  d.text(left - 8, 36, "lane", 9, "end", kGrey);
  auto row = [&](double y, const std::string& label, const std::vector<long long>& bytes) {
    d.text(left - 8, y + 14, label, 11, "end");
    const Collisions c = collisions(bytes);
    for (int l = 0; l < 32; ++l) {
      const long long bank = (bytes[l] / 4) % 32;
      const char* fill = c.colour[l] < 0 ? kWhite : cyclic(c.colour[l]);
      const std::string f = fill;
      d.rect(left + l * box + 1, y, box - 2, 20, fill, kBlack, 0.5, "data-lane=\"" + std::to_string(l) + "\"");
      d.text(left + l * box + box / 2, y + 10, std::to_string(bank), 7.5, "middle",
             f == kVermillion || f == kBlue || f == kGreen ? kWhite : kBlack);
      d.text(left + l * box + box / 2, y + 18, std::to_string((bank + 1) % 32), 7.5, "middle",
             f == kVermillion || f == kBlue || f == kGreen ? kWhite : kBlack);
    }
    const int total = c.half_wavefronts[0] + c.half_wavefronts[1];
    d.text(left + 32 * box + 8, y + 14,
           std::to_string(total) + " wavefronts" + (total > 2 ? " (2 ideal)" : ""), 11, "start",
           total > 2 ? kVermillion : kBlack, total > 2);
  };
  row(44, "row store, warp " + std::to_string(store_row), st);
  row(72, "column load, warp " + std::to_string(load_col), ld);
  d.line(left + 16 * box, 40, left + 16 * box, 96, kBlack, 1, "4 3");
  d.text(left + 8 * box, 108, "half-warp: lanes 0-15", 9, "middle", kGrey);
  d.text(left + 24 * box, 108, "half-warp: lanes 16-31", 9, "middle", kGrey);
  d.rect(12, 120, 12, 12, kWhite, kBlack, 0.5);
  d.text(30, 130, "the two banks (4 bytes each) of the lane's double", 11, "start");
  d.rect(330, 120, 12, 12, cyclic(0), kBlack, 0.5);
  d.rect(344, 120, 12, 12, cyclic(1), kBlack, 0.5);
  d.text(362, 130, "lanes in the busiest bank of their half-warp, one colour per bank", 11, "start");
  return d.write(path);
}

// --bank-model: every (row, col) to its own slot in range, then the wavefronts of the 32 warps'
// row stores (warp y: row y) and column loads (warp y: column y), 8-byte accesses.
inline int bank_model(wb::ex::Checker& ck) {
  std::vector<int> owner(kTileDoubles, -1);
  for (int r = 0; r < 32; ++r) {
    for (int c = 0; c < 32; ++c) {
      const int idx = tile_index(r, c);
      if (idx < 0 || idx >= kTileDoubles || owner[idx] >= 0) {
        std::printf("FAIL: tile_index(%d, %d) = %d is %s\n", r, c, idx,
                    idx < 0 || idx >= kTileDoubles ? "outside the tile"
                                                   : ("also the slot of element " + std::to_string(owner[idx] / 32) +
                                                      ", " + std::to_string(owner[idx] % 32)).c_str());
        return wb::kFail;
      }
      owner[idx] = r * 32 + c;
    }
  }
  int stores = 0, loads = 0, worst_load = 0, worst_warp = 0, worst_store = 0, worst_store_warp = 0;
  for (int y = 0; y < 32; ++y) {
    std::vector<long long> st(32), ld(32);
    for (int x = 0; x < 32; ++x) {
      st[x] = 8LL * tile_index(y, x);
      ld[x] = 8LL * tile_index(x, y);
    }
    const int s = wb::ex::wavefronts(st, 8);
    if (s > worst_store) worst_store = s, worst_store_warp = y;
    stores += s;
    const int l = wb::ex::wavefronts(ld, 8);
    if (l > worst_load) worst_load = l, worst_warp = y;
    loads += l;
  }
  const int ideal = 32 * wb::ex::ideal_wavefronts(32, 8);
  std::printf("bank model: row stores %d wavefronts, column loads %d (conflict-free: %d each); "
              "worst column load: column %d, %d wavefronts\n", stores, loads, ideal, worst_warp, worst_load);
  if (stores + loads != 2 * ideal) {  // rejected: draw the worst store and load, and name the file
    std::vector<long long> st(32), ld(32);
    for (int x = 0; x < 32; ++x) {
      st[x] = 8LL * tile_index(worst_store_warp, x);
      ld[x] = 8LL * tile_index(x, worst_warp);
    }
    const bool drawn = draw_banks(WB_BANK_SVG, worst_store_warp, st, worst_warp, ld);
    std::printf("bank model row stores + column loads: %d extra wavefronts; %s %s\n", stores + loads - 2 * ideal,
                drawn ? "the lanes that collide are drawn in" : "could not draw the colliding lanes in",
                WB_BANK_SVG);
  }
  return ck.finish_bank("row stores + column loads", stores + loads, 2 * ideal);
}

// The GPU: tiles of distinct doubles, each must come back transposed.
inline void check_output(wb::ex::Checker& ck) {
  for (int tiles : {1, 7, 100, 1 << 14}) {
    if (ck.quick() && tiles > 100) break;
    const size_t n = size_t(tiles) * 1024;
    std::vector<double> in(n), want(n);
    for (size_t i = 0; i < n; ++i) in[i] = 0.5 * static_cast<double>(i) + 1.0 / 3.0;
    for (size_t t = 0; t < n; t += 1024)
      for (int r = 0; r < 32; ++r)
        for (int c = 0; c < 32; ++c) want[t + r * 32 + c] = in[t + c * 32 + r];
    wb::ex::DeviceArray<double> d_in(in), d_out(n);
    const dim3 block(32, 32);
    transposeTileDouble<<<tiles, block>>>(d_in.ptr, d_out.ptr);
    ck.launched();
    ck.expect(std::to_string(tiles) + " tiles", d_out.download(), want);
    if (tiles == 1 << 14)
      ck.time([&] { transposeTileDouble<<<tiles, block>>>(d_in.ptr, d_out.ptr); },
              "the chapter's unpadded tile (setRowReadCol, doubles)",
              [&] { transposeTileDoubleUnpadded<<<tiles, block>>>(d_in.ptr, d_out.ptr); });
  }
}

}  // namespace tile_double
