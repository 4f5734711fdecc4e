// Chapter 07's shapes, kernel list and output format: shared by transposeSmemUnrollPad.cu and
// transpose_model.cpp.
#pragma once

#include <cstdio>
#include <cstring>
#include <vector>

namespace lesson {

struct Shape {
  int rows, cols;
};

// Correctness shapes: the printed 8 x 6, sizes that are not multiples of any tile, a single row
// and a single column, and one that is.
constexpr Shape kShapes[] = {{8, 6}, {1023, 777}, {777, 1023}, {1, 4096}, {4096, 1}, {512, 512}};

enum Kind { Copy, Naive, Smem, SmemPad, SmemUnroll, SmemUnrollPad, Tiled, Sgeam };

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
