// common/report.h — host-only printing shared by each chapter program and its CPU model, so the
// two can differ only in the values they compute, never in formatting.
#pragma once

#include <cstdio>

namespace wb {

// One line: a label, then 32 lane values; " |" marks each boundary between sub-groups of
// `width` lanes.
inline void print_lanes(const char* label, const int* v, int width = 32) {
  std::printf("%-36s:", label);
  for (int l = 0; l < 32; ++l) {
    if (l > 0 && l % width == 0) std::printf(" |");
    std::printf(" %2d", v[l]);
  }
  std::printf("\n");
}

// The end of every main: exit 1 with one line on stdout ("FAIL: <count> <what>") when a check
// failed, else exit 0, after printing `pass_line` if one is given (the exit codes of
// common/check.h: 0 pass, 1 fail).
inline int finish(int failures, const char* what, const char* pass_line = nullptr) {
  if (failures) {
    std::printf("FAIL: %d %s\n", failures, what);
    return 1;
  }
  if (pass_line) std::printf("%s\n", pass_line);
  return 0;
}

}  // namespace wb
