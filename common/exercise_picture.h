// common/exercise_picture.h — the picture an exercise checker writes when it rejects an answer
// because values are wrong: 32 elements of the learner's result beside the expected ones, the wrong
// ones marked (wb::lanes_svg::expected_vs_got). Host code only, so that tests/exercise_picture_test.cpp
// can check it without a GPU; common/exercise.h's Checker::expect() calls it.
//
// Which 32 elements: those of the warp that holds the first wrong element (elements 32w to 32w+31).
// When the array ends inside that warp but holds 32 or more elements, the window is the last 32
// elements instead, so that every box is a real element; an array shorter than 32 is padded, and
// the padding (equal in both rows, never marked) is named in the picture's title.
#pragma once

#include <cstddef>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>
#include <type_traits>
#include <vector>

#include "lanes_svg.h"

namespace wb::ex {

struct Picture {
  bool written = false;  // the file was written
  bool full = false;     // all 32 boxes are elements of the array (no padding)
  size_t first = 0;      // the first wrong element
  size_t start = 0;      // the element in box 0
  std::string line;      // the line the checker prints: what the picture shows and where it is
};

// Draws `name`'s case `what` (e.g. "n = 1000, k = 5") into `path` (its folder is created). The
// result compares element by element as bytes, as Checker::expect() does. Returns written = false
// (and a line saying why) when the arrays do not differ, hold no integers, or the file cannot be
// written.
template <class T>
Picture draw_mistake(const std::string& path, const std::string& name, const std::string& what,
                     const std::vector<T>& got, const std::vector<T>& want) {
  Picture p;
  if (path.empty()) return p;
  if constexpr (!std::is_integral_v<T>) {
    p.line = "no picture: the values are not integers";
    return p;
  } else {
    const size_t n = got.size() < want.size() ? got.size() : want.size();
    while (p.first < n && std::memcmp(&got[p.first], &want[p.first], sizeof(T)) == 0) ++p.first;
    if (p.first == n) {
      p.line = "no picture: no element differs";
      return p;
    }
    p.start = p.first / 32 * 32;
    if (n >= 32 && p.start + 32 > n) p.start = n - 32;
    p.full = p.start + 32 <= n;
    std::vector<long long> e(32, 0), g(32, 0);
    for (size_t l = 0; l < 32 && p.start + l < n; ++l) {
      e[l] = static_cast<long long>(want[p.start + l]);
      g[l] = static_cast<long long>(got[p.start + l]);
    }
    const size_t last = p.start + 31 < n ? p.start + 31 : n - 1;
    std::string title = name + ", " + what + ": elements " + std::to_string(p.start) + " to " + std::to_string(last);
    if (p.start) title += " (lane l: element " + std::to_string(p.start) + " + l)";
    if (!p.full) title += "; no element after " + std::to_string(n - 1) + " (0 in both rows)";
    std::error_code ec;
    const auto dir = std::filesystem::path(path).parent_path();
    if (!dir.empty()) std::filesystem::create_directories(dir, ec);
    if (!lanes_svg::expected_vs_got(title, e, g).write(path)) {
      p.line = "no picture: cannot write " + path;
      return p;
    }
    p.written = true;
    p.line = "picture of the mistake: " + path + " (" + what + ", elements " + std::to_string(p.start) + " to " +
             std::to_string(last) + ", expected against got)";
    return p;
  }
}

}  // namespace wb::ex
