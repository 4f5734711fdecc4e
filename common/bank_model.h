// common/bank_model.h — the shared-memory bank arithmetic of chapters 05 and 07: how many
// wavefronts one warp access takes. Chapter 05's CPU model, the exercise checkers of chapters 05
// and 07 (through common/exercise.h) and the browser explorer's proof (explorer/bank_model_cli.cpp)
// all count with it. Host C++ only.
//
// 32 banks of 4 bytes: byte b lies in word b / 4, and word w in bank w % 32. The warp is served
// `128 / size` lanes at a time (all 32 for 4-byte accesses, half-warps for 8-byte ones); each group
// takes as many wavefronts as the most distinct 4-byte words that one bank must deliver (lanes
// reading the same word share it).
#pragma once

#include <cstddef>
#include <vector>

namespace wb {
namespace bank {

constexpr int kBanks = 32;
constexpr int kBankBytes = 4;

// `bytes[i]` is lane i's byte offset into shared memory (negative: the lane does not access).
// Returns the wavefronts of the access; `worst_group`, if given, receives the largest count of one
// group (the access's "n-way": for 4-byte accesses the same number as the wavefronts).
inline int wavefronts(const std::vector<long long>& bytes, int size, int* worst_group = nullptr) {
  const int group = size >= 4 ? 128 / size : 32;
  int total = 0, worst_of_groups = 0;
  for (int g = 0; g < 32; g += group) {
    std::vector<std::vector<long long>> words(kBanks);
    for (int lane = g; lane < g + group && lane < static_cast<int>(bytes.size()); ++lane) {
      if (bytes[lane] < 0) continue;
      for (long long w = bytes[lane] / kBankBytes; w <= (bytes[lane] + size - 1) / kBankBytes; ++w) {
        auto& b = words[static_cast<size_t>(w % kBanks)];
        bool seen = false;
        for (long long x : b) seen = seen || x == w;
        if (!seen) b.push_back(w);
      }
    }
    size_t worst = 0;
    for (const auto& b : words) worst = b.size() > worst ? b.size() : worst;
    total += static_cast<int>(worst);
    worst_of_groups = static_cast<int>(worst) > worst_of_groups ? static_cast<int>(worst) : worst_of_groups;
  }
  if (worst_group) *worst_group = worst_of_groups;
  return total;
}

// The same for a warp of 4-byte accesses given as word offsets (lane i reads or writes word
// words[i]): the most distinct words that one bank must deliver.
inline int word_wavefronts(const std::vector<int>& words) {
  std::vector<long long> bytes;
  for (int w : words) bytes.push_back(static_cast<long long>(kBankBytes) * w);
  return wavefronts(bytes, kBankBytes);
}

// The fewest wavefronts that `lanes` lanes of `size` bytes each can take (no conflict).
inline int ideal_wavefronts(int lanes, int size) { return (lanes * size + 127) / 128; }

}  // namespace bank
}  // namespace wb
