// Checker of exercise histPacked16 (chapter 11): every bin, exactly, on uniform inputs (an even and
// an odd number of bins) and hot inputs that make a block's 16-bit counters wrap: one even bin, one
// odd bin (about 2 wraps per block at 2^20 + 3 values), two neighbouring bins (the carry of the low
// half into the high half; 0 or 1 wrap of the low half per block at 2^20 + 3 values, 3 or 4 at 4x
// that; the high half stands at 65535 at one of them only by chance), and a case built so that, in
// a grid-stride loop, the odd bin stands at exactly 65535 when the even bin wraps, in every block
// (the carry into a full neighbour; hist_check.h says why). 8 blocks in every case, so at 2^20
// values or more each block counts 2^17 or more of a hot input. racecheck is declared in
// CMakeLists.txt. Times the exercise against the chapter's smem_private (32-bit counters) on the
// last input.
#include <algorithm>

#include "exercise.h"
#include WB_EXERCISE_FILE

#define EX_KERNEL histPacked16
#define EX_SMEM_BYTES(nbins) (size_t((nbins) + 1) / 2 * sizeof(unsigned))
#define EX_FIXED_GRID 8
#include "hist_check.h"

int main(int argc, char** argv) {
  const size_t big = (size_t(1) << 20) + 3;
  return run_checker(argc, argv,
                     {{1000, 37, kUniform, 0},        {999, 100003, kUniform, 0},      {1000, 4096, kHotBin, 10},
                      {1000, big, kHotBin, 10},       {1000, big, kHotBin, 11},        {999, big, kHotBin, 998},
                      {1000, big, kTwoNeighbours, 4}, {1000, size_t(1) << 20, kFullNeighbour, 10},
                      {8192, big * 4, kTwoNeighbours, 100}});
}
