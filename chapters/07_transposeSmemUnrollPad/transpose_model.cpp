// CPU model of chapter 07: runs the block and thread index arithmetic of the five shared-memory
// kernels on the CPU (both phases, with a simulated shared tile; transposeTiled with the program's
// TILED_TILE and TILED_ROWS), compares with a plain transpose, and predicts the stdout, including how
// many outputs source 004's boundary test leaves unwritten. copyGmem and naiveGmem (one element per
// thread, no tile) run as plain loops over the elements; cuBLAS is taken at its specification
// (C = A^T).
#include <cmath>
#include <functional>

#include "transpose_lesson.h"

using lesson::Shape;
constexpr int BX = lesson::BDIMX, BY = lesson::BDIMY;
const float kUnset = std::nanf("");

using Matrix = std::vector<float>;

// Simulates a two-phase shared-memory kernel: `load` runs for every thread of a block, then
// `store` (the barrier sits between them).
static void blocks(int gx, int gy, int tx_n, int ty_n, const std::function<void(int, int, int, int)>& load,
                   const std::function<void(int, int, int, int)>& store) {
  for (int by = 0; by < gy; ++by)
    for (int bx = 0; bx < gx; ++bx) {
      for (int ty = 0; ty < ty_n; ++ty)
        for (int tx = 0; tx < tx_n; ++tx) load(bx, by, tx, ty);
      for (int ty = 0; ty < ty_n; ++ty)
        for (int tx = 0; tx < tx_n; ++tx) store(bx, by, tx, ty);
    }
}

static Matrix run(lesson::Kind k, const Matrix& in, int rows, int cols, bool book_boundary = false) {
  Matrix out(size_t(rows) * cols, kUnset);
  auto at = [](int r, int c, int inner) { return size_t(r) * inner + c; };
  const int gx = (cols + BX - 1) / BX, gy = (rows + BY - 1) / BY;
  std::vector<float> tile;
  switch (k) {
    case lesson::Copy:
    case lesson::Naive:
      for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) out[k == lesson::Copy ? at(r, c, cols) : at(c, r, rows)] = in[at(r, c, cols)];
      break;
    case lesson::Smem:
    case lesson::SmemPad: {
      // The tile with the kernel's row length; the indices are transpose_lesson.h's, which the
      // diagrams draw.
      const int pad = k == lesson::SmemPad ? lesson::PAD : 0;
      blocks(gx, gy, BX, BY,
             [&](int bx, int by, int tx, int ty) {
               if (tx == 0 && ty == 0) tile.assign(BY * (BX + pad), kUnset);
               const int row = by * BY + ty, col = bx * BX + tx;
               if (row < rows && col < cols) tile[lesson::tile_word(ty, tx, pad)] = in[at(row, col, cols)];
             },
             [&](int bx, int by, int tx, int ty) {
               const lesson::TileElem e = lesson::out_element(ty * BX + tx);  // (irow, icol)
               const int row = bx * BX + e.r, col = by * BY + e.c;
               if (row < cols && col < rows) out[at(row, col, rows)] = tile[lesson::tile_word(e.c, e.r, pad)];
             });
      break;
    }
    case lesson::SmemUnroll:
    case lesson::SmemUnrollPad:
      blocks((cols + 2 * BX - 1) / (2 * BX), gy, BX, BY,
             [&](int bx, int by, int tx, int ty) {
               if (tx == 0 && ty == 0) tile.assign(BY * 2 * BX, kUnset);
               const int row = by * BY + ty, col = 2 * bx * BX + tx;
               const bool first = row < rows && (book_boundary ? col + BX < cols : col < cols);
               if (first) tile[ty * 2 * BX + tx] = in[at(row, col, cols)];
               if (row < rows && col + BX < cols) tile[ty * 2 * BX + tx + BX] = in[at(row, col + BX, cols)];
             },
             [&](int bx, int by, int tx, int ty) {
               const int bidx = ty * BX + tx, irow = bidx / BY, icol = bidx % BY;
               const int row = 2 * bx * BX + irow, col = by * BY + icol;
               const bool first = col < rows && (book_boundary ? row + BX < cols : row < cols);
               if (first) out[at(row, col, rows)] = tile[icol * 2 * BX + irow];
               if (col < rows && row + BX < cols) out[at(row + BX, col, rows)] = tile[icol * 2 * BX + irow + BX];
             });
      break;
    case lesson::Tiled:
    case lesson::TiledPlainLoads:
    case lesson::TiledColsFirst: {
      // transposeTiled (and transposeTiled_plainLoads, which differs only in a cache hint of its
      // loads): blockIdx.x walks the tile rows of the input, blockIdx.y its tile columns;
      // transposeTiled_colsFirst the other way round. (x0, y0): the tile's first input column, row.
      // The kernels also store 0 into the tile for elements outside the matrix, which no thread
      // reads; the model leaves them unset (NaN), so that a read of one would show as a mismatch.
      const int T = lesson::TILED_TILE, R = lesson::TILED_ROWS;
      const bool down = k != lesson::TiledColsFirst;
      const int tiles_r = (rows + T - 1) / T, tiles_c = (cols + T - 1) / T;
      auto origin = [&](int bx, int by, int& x0, int& y0) {
        const lesson::TilePos t = lesson::tiled_input_tile(down, bx, by);
        x0 = t.c * T, y0 = t.r * T;
      };
      blocks(down ? tiles_r : tiles_c, down ? tiles_c : tiles_r, 32, R,
             [&](int bx, int by, int tx, int ty) {
               int x0, y0;
               origin(bx, by, x0, y0);
               if (tx == 0 && ty == 0) tile.assign(T * T, kUnset);
               for (int cx = 0; cx < T; cx += 32)
                 for (int ry = 0; ry < T; ry += R) {
                   const int r = y0 + ry + ty, c = x0 + cx + tx;
                   if (r < rows && c < cols) tile[(ry + ty) * T + cx + tx] = in[at(r, c, cols)];
                 }
             },
             [&](int bx, int by, int tx, int ty) {
               int x0, y0;
               origin(bx, by, x0, y0);
               for (int cx = 0; cx < T; cx += 32)
                 for (int ry = 0; ry < T; ry += R) {
                   const int orow = x0 + ry + ty, ocol = y0 + cx + tx;
                   if (orow < cols && ocol < rows) out[at(orow, ocol, rows)] = tile[(cx + tx) * T + ry + ty];
                 }
             });
      break;
    }
    case lesson::Sgeam:
      for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) out[at(c, r, rows)] = in[at(r, c, cols)];
      break;
  }
  return out;
}

static bool correct(lesson::Kind k, const Matrix& in, const Matrix& out, int rows, int cols) {
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      const float want = in[size_t(r) * cols + c];
      const float got = k == lesson::Copy ? out[size_t(r) * cols + c] : out[size_t(c) * rows + r];
      if (!(got == want)) return false;  // an unset (NaN) output fails too
    }
  return true;
}

static Matrix input(Shape s) {  // any distinct values: the model checks positions, not values
  Matrix m(size_t(s.rows) * s.cols);
  for (size_t i = 0; i < m.size(); ++i) m[i] = static_cast<float>(i % 16777216);
  return m;
}

int main() {
  const Shape small = lesson::kShapes[0];
  Matrix in(size_t(small.rows) * small.cols);
  for (int r = 0; r < small.rows; ++r)
    for (int c = 0; c < small.cols; ++c) in[size_t(r) * small.cols + c] = lesson::small_value(r, c);
  const Matrix out = run(lesson::SmemUnrollPad, in, small.rows, small.cols);
  lesson::print_matrix("in", in.data(), small.rows, small.cols);
  lesson::print_matrix("out = transposeSmemUnrollPad(in)", out.data(), small.cols, small.rows);
  std::printf("\n");

  lesson::print_header();
  for (const auto& k : lesson::kKernels)
    for (auto s : lesson::kShapes) {
      const Matrix m = input(s);
      lesson::print_result(k.name, s, correct(k.kind, m, run(k.kind, m, s.rows, s.cols), s.rows, s.cols));
    }

  const Shape s = lesson::kBoundaryDemo;
  const Matrix demo = run(lesson::SmemUnrollPad, input(s), s.rows, s.cols, /*book_boundary=*/true);
  long long unwritten = 0;
  for (float v : demo) unwritten += std::isnan(v);
  lesson::print_boundary_demo(unwritten, static_cast<long long>(demo.size()));
  return 0;
}
