// Chapter 07's shapes, kernel list and output format: shared by transposeSmemUnrollPad.cu and
// transpose_model.cpp.
#pragma once

#include <cstdio>
#include <cstring>
#include <vector>

#include "bank_model.h"

namespace lesson {

struct Shape {
  int rows, cols;
};

// The book's block, BDIMX x BDIMY threads, which stages a BDIMY x BDIMX tile of the input (a row of
// the tile per threadIdx.y), and its padding: PAD words after every tile row.
constexpr int BDIMX = 32, BDIMY = 16;
constexpr int PAD = 2;

// transposeTiled (ours): a block of 32 x TILED_ROWS threads moves a TILED_TILE x TILED_TILE tile,
// TILED_TILE * TILED_TILE / (32 * TILED_ROWS) elements per thread (64, 16: 512 threads, 8 each).
// The program launches transposeTiled<TILED_TILE, TILED_ROWS> and the CPU model runs the same.
constexpr int TILED_TILE = 64, TILED_ROWS = 16;

// transposeSmem / transposeSmemPad. Thread (tx, ty) stores input element (ty, tx) of the block's tile
// in tile[ty][tx]: a warp (one ty) stores a tile row. After the barrier, thread bidx = ty * BDIMX + tx
// writes element (irow, icol) = (bidx / BDIMY, bidx % BDIMY) of the block's output tile, which it
// reads from tile[icol][irow]: a warp reads two tile columns, 16 lanes each.
struct TileElem {
  int r, c;
};
constexpr TileElem out_element(int bidx) { return {bidx / BDIMY, bidx % BDIMY}; }  // (irow, icol)
// The word of tile[r][c] in a tile whose rows are BDIMX + pad words long.
constexpr int tile_word(int r, int c, int pad) { return r * (BDIMX + pad) + c; }

// The bank model (common/bank_model.h, which chapter 05 and the exercise checkers use too) for
// 4-byte words: 32 banks, word w in bank w % 32; a warp access takes as many wavefronts as the
// most distinct words that one bank must deliver (lanes reading the same word share it).
constexpr int kBanks = wb::bank::kBanks;
inline int wavefronts(const std::vector<int>& words) { return wb::bank::word_wavefronts(words); }
// The words warp `warp` reads in the column read of transpose_smem<pad> (lane = bidx % 32).
inline std::vector<int> column_read_words(int warp, int pad) {
  std::vector<int> w;
  for (int lane = 0; lane < 32; ++lane) {
    const TileElem e = out_element(warp * 32 + lane);
    w.push_back(tile_word(e.c, e.r, pad));  // tile[icol][irow]
  }
  return w;
}

// Correctness shapes: the printed 8 x 6, sizes that are not multiples of any tile, a single row
// and a single column, and one that is.
constexpr Shape kShapes[] = {{8, 6}, {1023, 777}, {777, 1023}, {1, 4096}, {4096, 1}, {512, 512}};

// The input tile (row, column) that block (bx, by) moves in transposeTiled and its bench-only
// twins: down (transposeTiled, transposeTiled_plainLoads), blockIdx.x walks the tile rows;
// otherwise (transposeTiled_colsFirst) the tile columns. The kernels compute the same from
// blockIdx; the CPU model and the block-numbering picture call this.
struct TilePos {
  int r, c;
};
constexpr TilePos tiled_input_tile(bool down, int bx, int by) { return down ? TilePos{bx, by} : TilePos{by, bx}; }

// Bench only, not in kKernels: TiledColsFirst, transposeTiled's body in the block order of the
// others; TiledPlainLoads, transposeTiled without the .L2::256B load hint.
enum Kind { Copy, Naive, Smem, SmemPad, SmemUnroll, SmemUnrollPad, Tiled, Sgeam, TiledColsFirst, TiledPlainLoads };

struct KernelInfo {
  const char* name;
  Kind kind;
};

constexpr KernelInfo kKernels[] = {
    {"copyGmem", Copy},
    {"naiveGmem", Naive},
    {"transposeSmem", Smem},
    {"transposeSmemPad", SmemPad},
    {"transposeSmemUnroll", SmemUnroll},
    {"transposeSmemUnrollPad", SmemUnrollPad},
    {"transposeTiled", Tiled},
    {"cublasSgeam", Sgeam},
};

// The demonstration of source 004's boundary test (see the README): on this shape its
// transposeSmemUnrollPad leaves some outputs unwritten.
constexpr Shape kBoundaryDemo = {1023, 777};

// The value of element (r, c) of the printed 8 x 6 example: readable, row * 10 + column.
inline float small_value(int r, int c) { return static_cast<float>(10 * r + c); }

inline void print_matrix(const char* title, const float* m, int rows, int cols) {
  std::printf("%s (%d x %d):\n", title, rows, cols);
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) std::printf(" %3.0f", m[r * cols + c]);
    std::printf("\n");
  }
}

inline void print_header() {
  std::printf("== matrix transpose through shared memory: every kernel on every shape ==\n");
  std::printf("(each output checked element by element against a CPU transpose; copyGmem against a copy)\n");
}

inline void print_result(const char* kernel, Shape s, bool pass) {
  std::printf("%-24s %5d x %-5d %s\n", kernel, s.rows, s.cols, pass ? "PASS" : "FAIL");
}

inline void print_boundary_demo(long long unwritten, long long total) {
  std::printf("\n== source 004's transposeSmemUnrollPad boundary test, on %d x %d ==\n",
              kBoundaryDemo.rows, kBoundaryDemo.cols);
  std::printf("it loads and stores a pair of columns only when both are inside the matrix:\n");
  std::printf("%lld of %lld outputs are never written\n", unwritten, total);
}

}  // namespace lesson
