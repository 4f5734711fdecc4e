// CPU model of chapter 08: runs every kernel's block, thread and tile index arithmetic on the CPU
// (loads into simulated shared tiles, then the sums of each thread, barrier by barrier), compares
// each C with a plain triple loop, and predicts the stdout, including what source 004's kernels
// as printed leave unwritten or get wrong. cuBLAS is taken at its specification (C = A B).
// Each simulated tile load also checks that every element of the tile is written exactly once.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <vector>

#include "matMul_lesson.h"

using lesson::Case;
using Matrix = std::vector<float>;
const float kUnset = std::nanf("");

struct Problem {
  Case s;
  Matrix A, B;
  float a(int r, int c) const { return A[size_t(r) * s.K + c]; }
  float b(int r, int c) const { return B[size_t(r) * s.N + c]; }
};

// A shared tile that counts writes: a tile load must write each element exactly once.
struct Tile {
  std::vector<float> v;
  std::vector<int> writes;
  int used;  // how many elements the load must cover
  explicit Tile(size_t n, int used_) : v(n, kUnset), writes(n, 0), used(used_) {}
  void clear() {  // unset again: a read of an element this load did not write gives NaN
    std::fill(v.begin(), v.end(), kUnset);
    std::fill(writes.begin(), writes.end(), 0);
  }
  void put(size_t i, float x) { v.at(i) = x, ++writes.at(i); }
  bool complete() const {
    int once = 0;
    for (int w : writes) {
      if (w > 1) return false;
      once += w;
    }
    return once == used;
  }
};

static bool g_tiles_ok = true;

// 1. One thread per element: the row of A times the column of B.
static Matrix gmem_kernel(const Problem& p, int grid_x, int grid_y, bool guarded) {
  const Case s = p.s;
  Matrix C(size_t(s.M) * s.N, kUnset);
  for (int by = 0; by < grid_y; ++by)
    for (int bx = 0; bx < grid_x; ++bx)
      for (int ty = 0; ty < 16; ++ty)
        for (int tx = 0; tx < 16; ++tx) {
          const int row = by * 16 + ty, col = bx * 16 + tx;
          if (guarded && (row >= s.M || col >= s.N)) continue;
          float v = 0;
          for (int e = 0; e < s.K; ++e) v += p.a(row, e) * p.b(e, col);
          C[size_t(row) * s.N + col] = v;
        }
  return C;
}

// 2. 16 x 16 tiles through shared memory; `clipped`: ours (partial tiles padded with zeros, loop
// rounded up, guarded store); otherwise 004's (K / 16 tiles, no guards).
static Matrix smem_kernel(const Problem& p, int grid_x, int grid_y, bool clipped) {
  const Case s = p.s;
  Matrix C(size_t(s.M) * s.N, kUnset);
  const int tiles = clipped ? (s.K + 15) / 16 : s.K / 16;
  Tile As(256, 256), Bs(256, 256);
  for (int by = 0; by < grid_y; ++by)
    for (int bx = 0; bx < grid_x; ++bx) {
      float acc[16][16] = {};
      for (int m = 0; m < tiles; ++m) {
        As.clear(), Bs.clear();
        for (int ty = 0; ty < 16; ++ty)
          for (int tx = 0; tx < 16; ++tx) {
            const int ar = by * 16 + ty, ac = m * 16 + tx, br = m * 16 + ty, bc = bx * 16 + tx;
            As.put(ty * 16 + tx, ar < s.M && ac < s.K ? p.a(ar, ac) : 0.0f);
            Bs.put(ty * 16 + tx, br < s.K && bc < s.N ? p.b(br, bc) : 0.0f);
          }
        g_tiles_ok &= As.complete() && Bs.complete();
        for (int ty = 0; ty < 16; ++ty)
          for (int tx = 0; tx < 16; ++tx)
            for (int e = 0; e < 16; ++e) acc[ty][tx] += As.v[ty * 16 + e] * Bs.v[e * 16 + tx];
      }
      for (int ty = 0; ty < 16; ++ty)
        for (int tx = 0; tx < 16; ++tx) {
          const int row = by * 16 + ty, col = bx * 16 + tx;
          if (!clipped || (row < s.M && col < s.N)) C[size_t(row) * s.N + col] = acc[ty][tx];
        }
    }
  return C;
}

constexpr int BM = 128, BN = 128, BK = 8, NT = 256, PADA = 4;  // BK: kernels 3 and 4

// 3. sgemmRegTile: 128 x 128 x 8 tiles; thread (ty, tx) = (t / 16, t % 16) owns rows ty*8 + i and
// columns tx*8 + j. Loads: element t + 256 s of each tile, A row-major (8 wide), B row-major.
static Matrix regtile_kernel(const Problem& p) {
  const Case s = p.s;
  Matrix C(size_t(s.M) * s.N, kUnset);
  Tile As(BM * BK, BM * BK), Bs(BK * BN, BK * BN);
  std::vector<float> acc(size_t(NT) * 64);
  for (int by = 0; by < (s.M + BM - 1) / BM; ++by)
    for (int bx = 0; bx < (s.N + BN - 1) / BN; ++bx) {
      std::fill(acc.begin(), acc.end(), 0.0f);
      for (int k0 = 0; k0 < s.K; k0 += BK) {
        As.clear(), Bs.clear();
        for (int t = 0; t < NT; ++t)
          for (int rep = 0; rep < BM * BK / NT; ++rep) {
            const int i = t + rep * NT;
            const int ar = by * BM + i / BK, ac = k0 + i % BK;
            As.put(i, ar < s.M && ac < s.K ? p.a(ar, ac) : 0.0f);
            const int br = k0 + i / BN, bc = bx * BN + i % BN;
            Bs.put(i, br < s.K && bc < s.N ? p.b(br, bc) : 0.0f);
          }
        g_tiles_ok &= As.complete() && Bs.complete();
        for (int t = 0; t < NT; ++t) {
          const int ty = t / 16, tx = t % 16;
          for (int k = 0; k < BK; ++k)
            for (int i = 0; i < 8; ++i)
              for (int j = 0; j < 8; ++j)
                acc[size_t(t) * 64 + i * 8 + j] += As.v[(ty * 8 + i) * BK + k] * Bs.v[k * BN + tx * 8 + j];
        }
      }
      for (int t = 0; t < NT; ++t)
        for (int i = 0; i < 8; ++i)
          for (int j = 0; j < 8; ++j) {
            const int r = by * BM + (t / 16) * 8 + i, c = bx * BN + (t % 16) * 8 + j;
            if (r < s.M && c < s.N) C[size_t(r) * s.N + c] = acc[size_t(t) * 64 + i * 8 + j];
          }
    }
  return C;
}

// Four elements (row, col..col+3) of a rows x cols matrix: on the float4 path all four or none
// (the kernel relies on cols % 4 == 0 there), else each on its own test.
template <class Get>
static void four(bool vec, int row, int col, int rows, int cols, Get get, float out[4]) {
  for (int j = 0; j < 4; ++j) {
    const bool in = row < rows && (vec ? col < cols : col + j < cols);
    out[j] = in ? get(row, col + j) : 0.0f;
  }
}

// 4./5./6. sgemmVec4 (k-tile 8), sgemmDoubleBuffer (k-tile 16, two stages) and sgemmWarpTile (5.
// with warp w owning rows (w / 2) * 32 + (lane / 8) * 4 + {0..3, 16..19} and columns
// (w % 2) * 64 + (lane % 8) * 4 + {0..3, 32..35}). Loads: float4 number
// f = t + 256 j of a tile (j < bk / 8) is A's (row f / (bk / 4), k (f % (bk / 4)) * 4 ..), stored
// transposed into As[k][m] (rows of 132), and B's (k f / 32, column (f % 32) * 4 ..). Thread
// (ty, tx) = (t / 16, t % 16) owns rows (i / 4) * 64 + ty * 4 + i % 4 and the same columns with tx.
static Matrix vec_kernel(const Problem& p, bool double_buffer, bool warp_tile = false) {
  const Case s = p.s;
  const bool vec = lesson::vec_path(s);
  const int bk = double_buffer ? 16 : 8;
  Matrix C(size_t(s.M) * s.N, kUnset);
  std::vector<Tile> As(2, Tile(bk * (BM + PADA), BM * bk)), Bs(2, Tile(bk * BN, bk * BN));
  std::vector<float> acc(size_t(NT) * 64);
  auto load = [&](int by, int bx, int k0, int st) {
    As[st].clear(), Bs[st].clear();
    for (int t = 0; t < NT; ++t)
      for (int j = 0; j < bk / 8; ++j) {
        const int f = t + NT * j, ar = f / (bk / 4), ak = (f % (bk / 4)) * 4, bkr = f / 32, bc = (f % 32) * 4;
        float a[4], b[4];
        four(vec, by * BM + ar, k0 + ak, s.M, s.K, [&](int r, int c) { return p.a(r, c); }, a);
        four(vec, k0 + bkr, bx * BN + bc, s.K, s.N, [&](int r, int c) { return p.b(r, c); }, b);
        for (int q = 0; q < 4; ++q) {
          As[st].put(size_t(ak + q) * (BM + PADA) + ar, a[q]);
          Bs[st].put(size_t(bkr) * BN + bc + q, b[q]);
        }
      }
    g_tiles_ok &= As[st].complete() && Bs[st].complete();
  };
  // thread t's row i (j: column) of its 8 x 8 outputs, inside the block tile
  auto row_of = [&](int t, int i) {
    return warp_tile ? (t / 32 / 2) * 32 + (t % 32 / 8) * 4 + (i / 4) * 16 + i % 4 : (i / 4) * 64 + (t / 16) * 4 + i % 4;
  };
  auto col_of = [&](int t, int j) {
    return warp_tile ? (t / 32 % 2) * 64 + (t % 8) * 4 + (j / 4) * 32 + j % 4 : (j / 4) * 64 + (t % 16) * 4 + j % 4;
  };
  auto compute = [&](int st) {
    for (int t = 0; t < NT; ++t)
      for (int k = 0; k < bk; ++k)
        for (int i = 0; i < 8; ++i)
          for (int j = 0; j < 8; ++j)
            acc[size_t(t) * 64 + i * 8 + j] +=
                As[st].v[size_t(k) * (BM + PADA) + row_of(t, i)] * Bs[st].v[size_t(k) * BN + col_of(t, j)];
  };
  for (int by = 0; by < (s.M + BM - 1) / BM; ++by)
    for (int bx = 0; bx < (s.N + BN - 1) / BN; ++bx) {
      std::fill(acc.begin(), acc.end(), 0.0f);
      if (double_buffer) {  // prologue into stage 0; then compute stage st while loading st ^ 1
        int st = 0;
        load(by, bx, 0, 0);
        for (int k0 = 0; k0 < s.K; k0 += bk) {
          compute(st);
          if (k0 + bk < s.K) load(by, bx, k0 + bk, st ^ 1), st ^= 1;
        }
      } else {
        for (int k0 = 0; k0 < s.K; k0 += bk) load(by, bx, k0, 0), compute(0);
      }
      for (int t = 0; t < NT; ++t)
        for (int i = 0; i < 8; ++i)
          for (int h = 0; h < 2; ++h) {
            const int r = by * BM + row_of(t, i), c0 = bx * BN + col_of(t, h * 4);
            for (int j = 0; j < 4; ++j)
              if (r < s.M && (vec ? c0 < s.N : c0 + j < s.N))
                C[size_t(r) * s.N + c0 + j] = acc[size_t(t) * 64 + i * 8 + h * 4 + j];
          }
    }
  return C;
}

// 7./8. sgemmAsync and sgemmTuned (matMul.cu's sgemm_async_body) at the shape c: a 1-D grid whose
// block b takes tile (tm, tn) in the block order c.group; per k-tile, the asynchronous copies
// into a ring of c.stages stages (M, N and K multiples of the block tile and the k-tile: each
// thread's copies at its constant offsets, B in 16-byte pieces; any other size, every tile:
// element by element with bounds tests), then each thread's (4 rm) x (4 rn) outputs. Checks that
// every tile of C is computed by exactly one block.
// 9. and 10. sgemmWarpSpecialized, sgemmSetMaxNReg: the same copy and compute index arithmetic with `copiers` producer
// threads doing every copy (0: the computing threads copy, as in 7. and 8.). The model runs each
// stage's copies before its compute, in order: it checks which thread copies and computes which
// element, not the mbarrier protocol (the GPU tests do: memcheck, synccheck and initcheck steps 9
// and 10; racecheck step 9, and step 10 only in its --lane-release form; CMakeLists.txt).
static Matrix tiled_kernel(const Problem& p, const lesson::TileCfg& c, int copiers = 0) {
  const Case s = p.s;
  const int nt = c.threads(), lda = c.bm + 4, tiles_m = (s.M + c.bm - 1) / c.bm, tiles_n = (s.N + c.bn - 1) / c.bn;
  const int np = copiers ? copiers : nt;  // the threads that copy
  const int wtx = c.wn / (4 * c.rn), ra = 8 * c.bm / np, bq = c.bn / 4;
  const bool wide = np >= bq;  // one copy instruction covers whole rows of B
  const bool full = s.M % c.bm == 0 && s.N % c.bn == 0 && s.K % c.bk == 0;
  Matrix C(size_t(s.M) * s.N, kUnset);
  std::vector<Tile> As(c.stages, Tile(size_t(c.bk) * lda, c.bk * c.bm)), Bs(c.stages, Tile(size_t(c.bk) * c.bn, c.bk * c.bn));
  std::vector<int> owner(size_t(tiles_m) * tiles_n, 0);
  const int nacc = 16 * c.rm * c.rn;
  std::vector<float> acc(size_t(nt) * nacc);
  auto a_at = [&](int r, int k) { return r < s.M && k < s.K ? p.a(r, k) : 0.0f; };
  auto b_at = [&](int k, int n) { return k < s.K && n < s.N ? p.b(k, n) : 0.0f; };
  for (int b = 0; b < tiles_m * tiles_n; ++b) {
    int tm, tn;
    if (c.group <= 1) {
      tm = b / tiles_n, tn = b % tiles_n;
    } else {
      const int per = c.group * tiles_n, first = (b / per) * c.group, rows = std::min(c.group, tiles_m - first);
      tm = first + (b % per) % rows, tn = (b % per) / rows;
    }
    ++owner.at(size_t(tm) * tiles_n + tn);
    const int bm = tm * c.bm, bn = tn * c.bn;
    std::fill(acc.begin(), acc.end(), 0.0f);
    for (int kt = 0; kt * c.bk < s.K; ++kt) {
      const int st = kt % c.stages, k0 = kt * c.bk;
      As[st].clear(), Bs[st].clear();
      for (int t = 0; t < np; ++t) {
        for (int j = 0; j < c.bm * c.bk / np; ++j) {
          int m, k;
          if (full) {
            m = t / 8 % c.bm + (np / 8) * (j % ra), k = t % 8 + 8 * (j / ra);
          } else {
            const int e = t + np * j;
            m = (e / 8) % c.bm, k = (e / (8 * c.bm)) * 8 + e % 8;
          }
          As[st].put(size_t(k) * lda + m, a_at(bm + m, k0 + k));
        }
        if (full) {
          for (int j = 0; j < c.bk * c.bn / 4 / np; ++j) {
            const int per_row = wide ? 1 : bq / np;
            const int k = wide ? t / bq + j * (np / bq) : j / per_row;
            const int n = wide ? (t % bq) * 4 : 4 * t + np * 4 * (j % per_row);
            for (int q = 0; q < 4; ++q) Bs[st].put(size_t(k) * c.bn + n + q, b_at(k0 + k, bn + n + q));
          }
        } else {
          for (int j = 0; j < c.bk * c.bn / np; ++j) {
            const int e = t + np * j, k = e / c.bn, n = e % c.bn;
            Bs[st].put(size_t(k) * c.bn + n, b_at(k0 + k, bn + n));
          }
        }
      }
      g_tiles_ok &= As[st].complete() && Bs[st].complete();
      for (int t = 0; t < nt; ++t) {
        const int warp = t / 32, lane = t % 32;
        const int a0 = (warp / (c.bn / c.wn)) * c.wm + (lane / wtx) * 4, b0 = (warp % (c.bn / c.wn)) * c.wn + (lane % wtx) * 4;
        for (int k = 0; k < c.bk; ++k)
          for (int i = 0; i < 4 * c.rm; ++i)
            for (int j = 0; j < 4 * c.rn; ++j)
              acc[size_t(t) * nacc + i * 4 * c.rn + j] +=
                  As[st].v[size_t(k) * lda + a0 + (i / 4) * (c.wm / c.rm) + i % 4] *
                  Bs[st].v[size_t(k) * c.bn + b0 + (j / 4) * (c.wn / c.rn) + j % 4];
      }
    }
    for (int t = 0; t < nt; ++t) {
      const int warp = t / 32, lane = t % 32;
      const int a0 = (warp / (c.bn / c.wn)) * c.wm + (lane / wtx) * 4, b0 = (warp % (c.bn / c.wn)) * c.wn + (lane % wtx) * 4;
      for (int i = 0; i < 4 * c.rm; ++i)
        for (int h = 0; h < c.rn; ++h) {
          const int r = bm + a0 + (i / 4) * (c.wm / c.rm) + i % 4, c0 = bn + b0 + h * (c.wn / c.rn);
          for (int j = 0; j < 4; ++j)
            if (r < s.M && (full ? c0 < s.N : c0 + j < s.N))
              C[size_t(r) * s.N + c0 + j] = acc[size_t(t) * nacc + i * 4 * c.rn + h * 4 + j];
        }
    }
  }
  for (int o : owner) g_tiles_ok &= o == 1;
  return C;
}

static Matrix run(lesson::Kind k, const Problem& p) {
  const Case s = p.s;
  switch (k) {
    case lesson::Gmem: return gmem_kernel(p, (s.N + 15) / 16, (s.M + 15) / 16, true);
    case lesson::Smem: return smem_kernel(p, (s.N + 15) / 16, (s.M + 15) / 16, true);
    case lesson::RegTile: return regtile_kernel(p);
    case lesson::Vec4: return vec_kernel(p, false);
    case lesson::DoubleBuffer: return vec_kernel(p, true);
    case lesson::WarpTile: return vec_kernel(p, true, true);
    case lesson::Async: return tiled_kernel(p, lesson::kAsync);
    case lesson::Tuned: return tiled_kernel(p, lesson::tuned_cfg(s.M, s.N));
    case lesson::WarpSpecialized: return tiled_kernel(p, lesson::kWarpSpecialized, 32 * lesson::kProducerWarps);
    case lesson::SetMaxNReg:  // 9.'s copies and compute at 10.'s shape for this size
      return tiled_kernel(p, lesson::setmaxnreg_cfg(s.M, s.N), 32 * lesson::kProducerWarps);
    case lesson::Cublas: break;
  }
  Matrix C(size_t(s.M) * s.N, 0.0f);  // cuBLAS: C = A B, by definition
  for (int i = 0; i < s.M; ++i)
    for (int k = 0; k < s.K; ++k)
      for (int j = 0; j < s.N; ++j) C[size_t(i) * s.N + j] += p.a(i, k) * p.b(k, j);
  return C;
}

static std::vector<double> reference(const Problem& p) {  // exact: see matMul_lesson.h
  const Case s = p.s;
  std::vector<double> r(size_t(s.M) * s.N, 0.0);
  for (int i = 0; i < s.M; ++i)
    for (int j = 0; j < s.N; ++j)
      for (int k = 0; k < s.K; ++k) r[size_t(i) * s.N + j] += double(p.a(i, k)) * double(p.b(k, j));
  return r;
}

static long long checksum(const Matrix& C) {
  long long sum = 0;
  for (float v : C) sum += std::isfinite(v) ? static_cast<long long>(v) : 0;
  return sum;
}

int main() {
  lesson::print_header();
  for (size_t c = 0; c < std::size(lesson::kCases); ++c) {
    Problem p{lesson::kCases[c], {}, {}};
    lesson::fill(p.s, p.A, p.B);
    const std::vector<double> ref = reference(p);
    bool printed = false;
    for (const auto& kern : lesson::kKernels) {
      g_tiles_ok = true;
      const Matrix C = run(kern.kind, p);
      bool pass = g_tiles_ok;
      for (size_t i = 0; i < C.size(); ++i) pass &= double(C[i]) == ref[i];
      if (!printed) {
        if (c == 0) {
          std::printf("\n");
          lesson::print_matrix("A", p.A.data(), p.s.M, p.s.K);
          lesson::print_matrix("B", p.B.data(), p.s.K, p.s.N);
          lesson::print_matrix("C = MatMulKernel(A, B)", C.data(), p.s.M, p.s.N);
        }
        lesson::print_case(p.s, C.data());
        printed = true;
      }
      lesson::print_result(kern.name, checksum(C), pass);
    }
  }

  lesson::print_demo_header();
  Problem p{lesson::kDemo, {}, {}};
  lesson::fill(p.s, p.A, p.B);
  const std::vector<double> ref = reference(p);
  for (int which = 0; which < 2; ++which) {
    const int gx = p.s.N / 16, gy = p.s.M / 16;
    const Matrix C = which == 0 ? gmem_kernel(p, gx, gy, false) : smem_kernel(p, gx, gy, false);
    long long unwritten = 0, wrong = 0;
    for (size_t i = 0; i < C.size(); ++i) {
      if (std::isnan(C[i])) ++unwritten;
      else wrong += double(C[i]) != ref[i];
    }
    lesson::print_demo(which == 0 ? "MatMulKernel_gmem" : "MatMulKernel_smem", unwritten, wrong,
                       static_cast<long long>(C.size()));
  }
  lesson::print_demo_footer();
  return 0;
}
