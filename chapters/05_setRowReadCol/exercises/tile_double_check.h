// What the checkers of tile_pad_double and tile_swizzle_double share: the output check of the
// given transposeTileDouble kernel and the bank model of its two accesses. Include it after
// WB_EXERCISE_FILE (it uses tile_index, kTileDoubles and transposeTileDouble from there).
#pragma once

#include <string>
#include <vector>

#include "exercise.h"

namespace tile_double {

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
  int stores = 0, loads = 0, worst_load = 0, worst_warp = 0;
  for (int y = 0; y < 32; ++y) {
    std::vector<long long> st(32), ld(32);
    for (int x = 0; x < 32; ++x) {
      st[x] = 8LL * tile_index(y, x);
      ld[x] = 8LL * tile_index(x, y);
    }
    stores += wb::ex::wavefronts(st, 8);
    const int l = wb::ex::wavefronts(ld, 8);
    if (l > worst_load) worst_load = l, worst_warp = y;
    loads += l;
  }
  const int ideal = 32 * wb::ex::ideal_wavefronts(32, 8);
  std::printf("bank model: row stores %d wavefronts, column loads %d (conflict-free: %d each); "
              "worst column load: column %d, %d wavefronts\n", stores, loads, ideal, worst_warp, worst_load);
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
