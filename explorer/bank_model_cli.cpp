// bank_model_cli — what the browser explorer's Banks view must show, computed in C++ from the
// workbook's own code: the warp accesses of chapter 05's kernels (setRowReadCol_lesson.h), of
// chapter 07's shared tiles (transposeSmemUnrollPad.cu's index arithmetic, as transpose_model.cpp
// runs it), and of the tile exercises' solutions and wrong answers (their tile_index, included
// as they are), counted by common/bank_model.h. tests/explorer_test.py compares the page with it.
//
//   bank_model_cli                      every case, one line each (tab-separated):
//                                       name, page state, wavefronts, n-way, conflict-free
//                                       wavefronts, the 32 lanes' element offsets, their banks
//   bank_model_cli --size S --offsets o0,o1,...,o31
//                                       one access given by its element offsets (S: 4 or 8 bytes)
//
// Each case names the page state (#bank:...) that shows the same access; the test checks that the
// page, set to that state, reads the same 32 offsets and counts the same wavefronts.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bank_model.h"
#include "setRowReadCol_lesson.h"

// The exercise files are CUDA; only their host-callable tile_index is used here. These stand-ins
// let a host compiler read the rest (the kernels are compiled, never called).
#define __host__
#define __device__
#define __global__ [[maybe_unused]] static
#define __shared__ static
struct Dim3Stand_in {
  unsigned x = 0, y = 0, z = 0;
};
[[maybe_unused]] static Dim3Stand_in threadIdx, blockIdx, blockDim;
[[maybe_unused]] static inline void __syncthreads() {}

namespace ex05_pad_solution {
#include "chapters/05_setRowReadCol/exercises/solutions/tile_pad_double.cu"
}
namespace ex05_pad_wrong {
#include "chapters/05_setRowReadCol/exercises/wrong/tile_pad_double.cu"
}
namespace ex05_swizzle_solution {
#include "chapters/05_setRowReadCol/exercises/solutions/tile_swizzle_double.cu"
}
namespace ex05_swizzle_wrong {
#include "chapters/05_setRowReadCol/exercises/wrong/tile_swizzle_double.cu"
}
namespace ex07_pad_solution {
#include "chapters/07_transposeSmemUnrollPad/exercises/solutions/transposePad.cu"
}
namespace ex07_pad_wrong {
#include "chapters/07_transposeSmemUnrollPad/exercises/wrong/transposePad.cu"
}
namespace ex07_swizzle_solution {
[[maybe_unused]] constexpr int kTileWords = 32 * 32;  // as check_transposeSwizzle.cu defines it
#include "chapters/07_transposeSmemUnrollPad/exercises/solutions/transposeSwizzle.cu"
}
namespace ex07_swizzle_wrong {
[[maybe_unused]] constexpr int kTileWords = 32 * 32;
#include "chapters/07_transposeSmemUnrollPad/exercises/wrong/transposeSwizzle.cu"
}

// Chapter 07's constants, from its lesson header (ch07_constants.cpp).
namespace ch07 {
int bdimx();
int bdimy();
int pad();
int tiled_tile();
int tiled_rows();
}  // namespace ch07

namespace {

// A page state: the tile (rows x cols elements of `size` bytes, `pad` elements after each row,
// column c of row r stored at c ^ (r & swz)) and the warp's access: 32 consecutive elements in
// row-major order from (row, col) ("row"), or in column-major order ("col").
struct State {
  int rows, cols, size, pad, swz;
  const char* access;
  int row, col;
  std::string text() const {
    char b[200];
    std::snprintf(b, sizeof b, "bank:rows=%d,cols=%d,size=%d,pad=%d,swz=%d,access=%s,row=%d,col=%d", rows, cols,
                  size, pad, swz, access, row, col);
    return b;
  }
};

void print_case(const std::string& name, const std::string& state, const std::vector<long long>& offsets, int size) {
  std::vector<long long> bytes;
  for (long long o : offsets) bytes.push_back(o * size);
  int worst = 0;
  const int wf = wb::bank::wavefronts(bytes, size, &worst);
  std::printf("%s\t%s\t%d\t%d\t%d\t", name.c_str(), state.c_str(), wf, worst, wb::bank::ideal_wavefronts(32, size));
  for (size_t i = 0; i < offsets.size(); ++i) std::printf("%s%lld", i ? "," : "", offsets[i]);
  std::printf("\t");
  for (size_t i = 0; i < bytes.size(); ++i)
    std::printf("%s%lld", i ? "," : "", bytes[i] / wb::bank::kBankBytes % wb::bank::kBanks);
  std::printf("\n");
}

// Chapter 05: every kernel, every warp, its store and its load (lesson::access gives the word
// offsets). The page state is the tile the kernel declares and the row or column the warp walks.
int chapter05() {
  int bad = 0;
  for (const auto& k : lesson::kKernels) {
    const int bx = lesson::block_x(k.rect), by = lesson::block_y(k.rect);
    const bool padded = k.pattern == lesson::RowColPad || k.pattern == lesson::RowColDynPad;
    const int pad = padded ? lesson::pad(k.rect) : 0;
    int worst_st = 0, worst_ld = 0;
    for (int w = 0; w < bx * by / 32; ++w) {
      std::vector<long long> st, ld;
      for (int lane = 0; lane < 32; ++lane) {
        const int t = w * 32 + lane;
        const auto a = lesson::access(k.rect, k.pattern, t % bx, t / bx);
        st.push_back(a.st);
        ld.push_back(a.ld);
      }
      // tile[by][bx] walked along a row; tile[bx][by] walked along a column; the transposed read
      // of tile[by][bx] (irow = idx / by) walks column 32 w / by.
      const State row_of_row_major{by, bx, 4, pad, 0, "row", w * 32 / bx, 0};
      const State col_of_col_major{bx, by, 4, 0, 0, "col", 0, w};
      const State row_of_col_major{bx, by, 4, 0, 0, "row", w * 32 / by, 0};
      const State col_of_row_major{by, bx, 4, pad, 0, "col", 0, w * 32 / by};
      State s_st = row_of_row_major, s_ld = row_of_row_major;
      switch (k.pattern) {
        case lesson::RowRow: break;
        case lesson::ColCol: s_st = s_ld = col_of_col_major; break;
        case lesson::ColRow: s_st = col_of_col_major, s_ld = row_of_col_major; break;
        default: s_ld = col_of_row_major; break;  // RowCol, RowColDyn, RowColPad, RowColDynPad
      }
      const std::string base = std::string("ch05 ") + k.name + " warp " + std::to_string(w);
      print_case(base + " store", s_st.text(), st, 4);
      print_case(base + " load", s_ld.text(), ld, 4);
      std::vector<long long> b_st, b_ld;
      for (int i = 0; i < 32; ++i) b_st.push_back(4 * st[i]), b_ld.push_back(4 * ld[i]);
      worst_st = std::max(worst_st, wb::bank::wavefronts(b_st, 4));
      worst_ld = std::max(worst_ld, wb::bank::wavefronts(b_ld, 4));
    }
    if (worst_st != k.st_way || worst_ld != k.ld_way) {
      std::fprintf(stderr, "%s: banks give st %d-way, ld %d-way; the lesson claims %d and %d\n", k.name, worst_st,
                   worst_ld, k.st_way, k.ld_way);
      ++bad;
    }
  }
  return bad;
}

// Chapter 07's shared tiles, as transposeSmemUnrollPad.cu indexes them (block BDIMX x BDIMY, PAD;
// transposeTiled<TILED_TILE, TILED_ROWS> with tile[TILE][TILE + 1]; the constants are the
// chapter's, the index expressions are the kernels' written out). Warp w of a 32 x BDIMY block is
// threadIdx.y = w.
void chapter07() {
  const int BX = ch07::bdimx(), BY = ch07::bdimy(), PAD = ch07::pad();
  for (int pad : {0, PAD}) {
    const std::string k = pad ? "transposeSmemPad" : "transposeSmem";
    const int stride = BX + pad;  // tile[BDIMY][BDIMX + kPad]
    for (int w = 0; w < BY; ++w) {
      std::vector<long long> st, ld;
      for (int lane = 0; lane < 32; ++lane) {
        const int bidx = w * BX + lane, irow = bidx / BY, icol = bidx % BY;
        st.push_back(w * stride + lane);     // tile[threadIdx.y][threadIdx.x]
        ld.push_back(icol * stride + irow);  // tile[icol][irow]
      }
      const std::string n = "ch07 " + k + " warp " + std::to_string(w);
      print_case(n + " store", State{BY, BX, 4, pad, 0, "row", w, 0}.text(), st, 4);
      print_case(n + " load", State{BY, BX, 4, pad, 0, "col", 0, 2 * w}.text(), ld, 4);
    }
  }
  for (int pad : {0, PAD}) {
    const std::string k = pad ? "transposeSmemUnrollPad" : "transposeSmemUnroll";
    const int stride = 2 * BX + pad;  // tile[BDIMY][BDIMX * 2 + kPad]
    for (int w = 0; w < BY; ++w)
      for (int half = 0; half < 2; ++half) {
        std::vector<long long> st, ld;
        for (int lane = 0; lane < 32; ++lane) {
          const int bidx = w * BX + lane, irow = bidx / BY, icol = bidx % BY;
          st.push_back(w * stride + lane + half * BX);     // tile[threadIdx.y][threadIdx.x (+ blockDim.x)]
          ld.push_back(icol * stride + irow + half * BX);  // tile[icol][irow (+ blockDim.x)]
        }
        const std::string n = "ch07 " + k + " warp " + std::to_string(w) + (half ? " second" : " first");
        print_case(n + " store", State{BY, 2 * BX, 4, pad, 0, "row", w, half * BX}.text(), st, 4);
        print_case(n + " load", State{BY, 2 * BX, 4, pad, 0, "col", 0, 2 * w + half * BX}.text(), ld, 4);
      }
  }
  // transposeTiled<TILE, ROWS>: tile[TILE][TILE + 1], block 32 x ROWS. Every warp, both column
  // halves, the first and the last of the TILE / ROWS row steps (the others repeat the pattern
  // ROWS rows on).
  const int T = ch07::tiled_tile(), R = ch07::tiled_rows();
  for (int w = 0; w < R; ++w)
    for (int cx = 0; cx < T; cx += 32)
      for (int ry : {0, T - R}) {
        std::vector<long long> st, ld;
        for (int lane = 0; lane < 32; ++lane) {
          st.push_back((ry + w) * (T + 1) + cx + lane);  // tile[ry + threadIdx.y][cx + threadIdx.x]
          ld.push_back((cx + lane) * (T + 1) + ry + w);  // tile[cx + threadIdx.x][ry + threadIdx.y]
        }
        const std::string n = "ch07 transposeTiled warp " + std::to_string(w) + " cx " + std::to_string(cx) +
                              " ry " + std::to_string(ry);
        print_case(n + " store", State{T, T, 4, 1, 0, "row", ry + w, cx}.text(), st, 4);
        print_case(n + " load", State{T, T, 4, 1, 0, "col", cx, ry + w}.text(), ld, 4);
      }
}

// The tile exercises: each file's tile_index; warp i stores row i (lane = column) and loads
// column i (lane = row), as their checkers' bank models walk them. The page state is the layout
// the file describes: its padding or its swizzle.
template <class F>
void exercise(const std::string& name, F tile_index, int size, int pad, int swz) {
  for (int i = 0; i < 32; ++i) {
    std::vector<long long> st, ld;
    for (int lane = 0; lane < 32; ++lane) {
      st.push_back(tile_index(i, lane));
      ld.push_back(tile_index(lane, i));
    }
    const std::string n = name + " " + std::to_string(i);
    print_case(n + " row store", State{32, 32, size, pad, swz, "row", i, 0}.text(), st, size);
    print_case(n + " column load", State{32, 32, size, pad, swz, "col", 0, i}.text(), ld, size);
  }
}

void exercises() {
  exercise("ch05 exercise tile_pad_double solution", ex05_pad_solution::tile_index, 8, 1, 0);
  exercise("ch05 exercise tile_pad_double wrong", ex05_pad_wrong::tile_index, 8, 2, 0);
  exercise("ch05 exercise tile_swizzle_double solution", ex05_swizzle_solution::tile_index, 8, 0, 15);
  exercise("ch05 exercise tile_swizzle_double wrong", ex05_swizzle_wrong::tile_index, 8, 0, 7);
  exercise("ch07 exercise transposePad solution", ex07_pad_solution::tile_index, 4, 1, 0);
  exercise("ch07 exercise transposePad wrong", ex07_pad_wrong::tile_index, 4, 2, 0);
  exercise("ch07 exercise transposeSwizzle solution", ex07_swizzle_solution::tile_index, 4, 0, 31);
  exercise("ch07 exercise transposeSwizzle wrong", ex07_swizzle_wrong::tile_index, 4, 0, 7);
}

[[noreturn]] void usage(const char* why) {
  std::fprintf(stderr, "error: %s\nusage: bank_model_cli [--size 4|8 --offsets o0,...,o31]\n", why);
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 1) {
    const int bad = chapter05();
    chapter07();
    exercises();
    return bad ? 1 : 0;
  }
  if (argc != 5 || std::string(argv[1]) != "--size" || std::string(argv[3]) != "--offsets")
    usage("expected no arguments, or --size S --offsets LIST");
  const int size = std::atoi(argv[2]);
  if (size != 4 && size != 8) usage("--size must be 4 or 8");
  std::vector<long long> offsets;
  std::string list = argv[4];
  size_t pos = 0;
  while (pos <= list.size()) {
    const size_t comma = list.find(',', pos);
    const std::string item = list.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    char* end = nullptr;
    const long long v = std::strtoll(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || v < 0) usage("--offsets takes 32 non-negative integers, comma-separated");
    offsets.push_back(v);
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  if (offsets.size() != 32) usage("--offsets takes exactly 32 offsets");
  print_case("offsets", "-", offsets, size);
  return 0;
}
