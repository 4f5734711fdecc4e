// bank_model.h — the CPU bank model of the chapter 07 exercises: what the index function
// tile_index(row, col) of a 32 x 32 float tile costs in shared-memory wavefronts, without a GPU.
// A warp access takes as many wavefronts as the largest number of distinct 4-byte words that fall
// in one of the 32 banks (chapter 05's rule: the same word read by several lanes is a broadcast).
#pragma once

#include <algorithm>
#include <cstdio>
#include <set>
#include <vector>

namespace bank {

template <class Index>
int wavefronts(Index word_of_lane) {
  std::vector<std::set<int>> by_bank(32);
  for (int lane = 0; lane < 32; ++lane) {
    const int w = word_of_lane(lane);
    by_bank[((w % 32) + 32) % 32].insert(w);
  }
  size_t worst = 0;
  for (const auto& b : by_bank) worst = std::max(worst, b.size());
  return static_cast<int>(worst);
}

// The transpose's two shared-memory accesses: a warp stores a tile row (lane = column) and loads a
// tile column (lane = row). Also checks that tile_index maps the 32 x 32 elements to distinct words
// of the tile's `words`. Prints the verdict; returns 0 (conflict-free), 1 (conflicts or a bad map).
template <class Index>
int judge(const char* name, Index tile_index, int words) {
  std::vector<int> seen(static_cast<size_t>(words), -1);
  for (int r = 0; r < 32; ++r)
    for (int c = 0; c < 32; ++c) {
      const int w = tile_index(r, c);
      if (w < 0 || w >= words) {
        std::printf("WRONG: %s(%d, %d) = %d is outside the tile's %d words\n", name, r, c, w, words);
        return 1;
      }
      if (seen[w] >= 0) {
        std::printf("WRONG: %s(%d, %d) = %s(%d, %d) = %d: two elements share a word\n", name, r, c, name,
                    seen[w] / 32, seen[w] % 32, w);
        return 1;
      }
      seen[w] = r * 32 + c;
    }
  int st = 1, ld = 1, st_at = 0, ld_at = 0;
  for (int i = 0; i < 32; ++i) {
    const int s = wavefronts([&](int lane) { return tile_index(i, lane); });
    const int l = wavefronts([&](int lane) { return tile_index(lane, i); });
    if (s > st) st = s, st_at = i;
    if (l > ld) ld = l, ld_at = i;
  }
  std::printf("bank model: %s: row store (lane = column) %d-way, column load (lane = row) %d-way\n", name, st, ld);
  if (st > 1)
    std::printf("WRONG: bank conflict: storing tile row %d is a %d-way conflict (%d wavefronts, 1 without conflict)\n",
                st_at, st, st);
  if (ld > 1)
    std::printf("WRONG: bank conflict: loading tile column %d is a %d-way conflict (%d wavefronts, 1 without conflict)\n",
                ld_at, ld, ld);
  return st > 1 || ld > 1 ? 1 : 0;
}

}  // namespace bank
