// Chapter 05's kernels as data: which tile each uses, where each thread stores and loads, what the
// lesson claims about bank conflicts, and how the output is printed. Shared by setRowReadCol.cu
// (its throughput benchmark and self-check) and setRowReadCol_model.cpp.
#pragma once

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <vector>

#include "bank_model.h"

#ifdef __CUDACC__
#define LESSON_HD __host__ __device__
#else
#define LESSON_HD
#endif

namespace lesson {

// Square: one 32x32 block over int tile[32][32]. Rectangular: one 32x16 block (BDIMX x BDIMY).
constexpr int kSquare = 32;
constexpr int kRectX = 32, kRectY = 16;
constexpr int kSquarePad = 1;  // one word per row moves each column onto 32 different banks
constexpr int kRectPad = 2;    // a rect column read spans two tile columns: pad 1 leaves 2-way conflicts

enum Pattern { RowRow, ColCol, ColRow, RowCol, RowColDyn, RowColPad, RowColDynPad, kPatterns };

struct KernelInfo {
  const char* name;
  bool rect;
  Pattern pattern;
  int ld_way, st_way;  // the lesson's claim: shared-memory wavefronts per warp instruction
};

constexpr KernelInfo kKernels[] = {
    {"setRowReadRow", false, RowRow, 1, 1},
    {"setColReadCol", false, ColCol, 32, 32},
    {"setColReadRow", false, ColRow, 1, 32},
    {"setRowReadCol", false, RowCol, 32, 1},
    {"setRowReadColDyn", false, RowColDyn, 32, 1},
    {"setRowReadColPad", false, RowColPad, 1, 1},
    {"setRowReadColDynPad", false, RowColDynPad, 1, 1},
    {"rect_setRowReadRow", true, RowRow, 1, 1},
    {"rect_setColReadCol", true, ColCol, 16, 16},
    {"rect_setColReadRow", true, ColRow, 1, 16},
    {"rect_setRowReadCol", true, RowCol, 16, 1},
    {"rect_setRowReadColDyn", true, RowColDyn, 16, 1},
    {"rect_setRowReadColPad", true, RowColPad, 1, 1},
    {"rect_setRowReadColDynPad", true, RowColDynPad, 1, 1},
};
constexpr int kNumKernels = sizeof(kKernels) / sizeof(kKernels[0]);

LESSON_HD constexpr int block_x(bool rect) { return rect ? kRectX : kSquare; }
LESSON_HD constexpr int block_y(bool rect) { return rect ? kRectY : kSquare; }
LESSON_HD constexpr int pad(bool rect) { return rect ? kRectPad : kSquarePad; }
// Words of shared memory the tile needs (padded tiles are larger).
LESSON_HD constexpr int tile_words(bool rect, Pattern p) {
  return (p == RowColPad || p == RowColDynPad) ? block_y(rect) * (block_x(rect) + pad(rect))
                                               : block_x(rect) * block_y(rect);
}

struct Access {
  int st, ld;  // word offsets into the tile; the value stored is idx
};

// Where thread (tx, ty) stores and loads: a second copy of the one-block kernels' index arithmetic,
// which the bench kernels, the CPU model and the picture use (tied to the kernels by their output
// and the ncu counts).
// padding: words added to each row of the padded patterns; -1 (the kernels) means pad(rect).
LESSON_HD constexpr Access access(bool rect, Pattern p, int tx, int ty, int padding = -1) {
  const int bx = block_x(rect), by = block_y(rect);
  const int idx = ty * bx + tx;
  // The book's transposed coordinates: (irow, icol) = (idx / BDIMY, idx % BDIMY) is idx's place in
  // the BDIMY-wide transpose (out). The row-write, column-read patterns (RowCol, RowColDyn,
  // RowColPad, RowColDynPad) read tile[BDIMY][BDIMX] at (row icol, column irow); ColRow reads
  // tile[BDIMX][BDIMY] at (row irow, column icol); RowRow and ColCol do not use them. For the square
  // block they are simply irow = ty, icol = tx.
  const int irow = idx / by;
  const int icol = idx % by;
  const int row_major = ty * bx + tx;       // tile[ty][tx]   in tile[BDIMY][BDIMX]
  const int col_major = tx * by + ty;       // tile[tx][ty]   in tile[BDIMX][BDIMY]
  const int read_col = icol * bx + irow;    // tile[icol][irow] in tile[BDIMY][BDIMX]
  const int padded = bx + (padding < 0 ? pad(rect) : padding);
  switch (p) {
    case RowRow: return {row_major, row_major};
    case ColCol: return {col_major, col_major};
    case ColRow: return {col_major, irow * by + icol};  // tile[irow][icol] of tile[BDIMX][BDIMY] (= idx)
    case RowCol:
    case RowColDyn: return {row_major, read_col};
    case RowColPad:
    case RowColDynPad: return {ty * padded + tx, icol * padded + irow};
    default: return {0, 0};
  }
}

// The bank model: 32 banks of 4 bytes, word w in bank w % 32. A warp access takes as many
// wavefronts as the largest number of distinct words that share a bank (lanes on the same word
// share it: a load broadcasts it, a store writes it once). Used by setRowReadCol_model.cpp and the chapter's pictures; the count is
// common/bank_model.h's, which the exercise checkers and the browser explorer's proof use too.
constexpr int kBanks = wb::bank::kBanks;
inline int bank(int word) { return word % kBanks; }
inline int n_way(const std::vector<int>& word_offsets) { return wb::bank::word_wavefronts(word_offsets); }

// What out[idx] must hold: the identity for the row/row and col/col kernels, the transpose
// (the value thread (irow, icol) stored) for the rest. Written without the tile, as a check.
inline int expected(bool rect, Pattern p, int idx) {
  if (p == RowRow || p == ColCol) return idx;
  const int bx = block_x(rect), by = rect ? kRectY : kSquare;
  return (idx % by) * bx + idx / by;
}

inline void print_kernel(const KernelInfo& k, const std::vector<int>& out, bool pass) {
  const int bx = block_x(k.rect);
  std::printf("%-25s %s  ld %2d-way, st %2d-way\n", k.name, pass ? "PASS" : "FAIL", k.ld_way, k.st_way);
  for (int row = 0; row < 2; ++row) {
    std::printf("  out row %d:", row);
    for (int x = 0; x < bx; ++x) std::printf(" %3d", out[row * bx + x]);
    std::printf("\n");
  }
}

inline void print_section(bool rect) {
  if (!rect)
    std::printf("== square: int tile[32][32], one 32x32 block; out[idx], idx = threadIdx.y * 32 + threadIdx.x ==\n");
  else
    std::printf("\n== rectangle: BDIMX 32 x BDIMY 16, one 32x16 block; tile[16][32] or tile[32][16] ==\n");
  std::printf("(n-way: shared-memory wavefronts per warp access, the lesson's claim; ctest -L ncu measures it)\n");
}

}  // namespace lesson
