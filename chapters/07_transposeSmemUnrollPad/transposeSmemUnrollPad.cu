// Chapter 07 — transposeSmemUnrollPad: matrix transpose through shared memory, from the naive
// kernel to near the speed of a copy, with cuBLAS beside it.
//
// Run:    ./build/bin/transposeSmemUnrollPad          (expected stdout: expected_outputs/transposeSmemUnrollPad.txt)
//         ./build/bin/transposeSmemUnrollPad --bench [--reps 50] [--max-side N | --side N] [--kernel NAME]
//                                            [--csv-dir DIR]
//             times every kernel (or only NAME, beside copyGmem, cuBLAS, copy and cudaMemcpy) at
//             2048^2 .. 16384^2 and one non-square shape (table to stderr; with --csv-dir,
//             DIR/<gpu>/transpose.csv)
//         ./build/bin/transposeSmemUnrollPad --profile    one launch of each kernel at 4096^2 (for ncu)
// Build without CMake, in this folder:
//   nvcc -std=c++17 -O3 -arch=native -I../../common -o transposeSmemUnrollPad transposeSmemUnrollPad.cu -lcublas
//
// out (cols x rows) = transpose of in (rows x cols), row-major floats. Book kernels use the book's
// 32 x 16 block (BDIMX x BDIMY). Kernels:
//   1. copyGmem                the bandwidth reference: the same tiling, a plain copy
//   2. naiveGmem               coalesced reads, strided writes
//   3. transposeSmem           through a 16 x 32 shared tile: both global sides coalesced, but
//                              the column read of the tile is a 16-way bank conflict
//   4. transposeSmemPad        3. with 2 padding words per tile row: the column read is
//                              conflict-free by the bank arithmetic
//   5. transposeSmemUnroll     each block does two tiles side by side (16 x 64)
//   6. transposeSmemUnrollPad  5. padded (source 004's final kernel)
//   7. transposeTiled          ours: 64 x 64 tiles, 512 threads, 8 independent loads issued per
//                              thread before its barrier, conflict-free padding, blocks down
//                              the input first, loads with the PTX hint .L2::256B (used on sm_80
//                              and up: see load_input)
//   8. cublasSgeam             the library peer (C = A^T with beta = 0)
//   (bench only) transposeTiled_colsFirst  7. with its blocks numbered as in 1 to 6
//   (bench only) transposeTiled_plainLoads 7. with plain loads, without the .L2::256B hint
//   (bench only) copy, cudaMemcpy  common/copy.cuh: the fastest form of the 16-byte copy kernel
//                              and the driver's copy, for scale; the table's pct_of_copy is
//                              relative to copyGmem, as the book measures
// Kernels 1 to 8 handle any rows and cols up to the grid limit (gridDim.y <= 65535: rows <= 1,048,560
// for 1 to 6); transposeSmemUnrollPad_004boundary keeps 004's test, which assumes cols % 64 == 0.
//
// Self-check (exit 1 on mismatch): every output element of kernels 1 to 8 on every test shape (and,
// under --bench, of every timed kernel on every bench shape), against a CPU transpose (copyGmem,
// copy and cudaMemcpy against a copy), bit for bit; the output is poisoned first, so an unwritten
// element fails.
#include <cublas_v2.h>
#include <cuda/ptx>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "args.h"
#include "bench.h"
#include "check.h"
#include "copy.cuh"
#include "cublas_check.h"
#include "csv.h"
#include "report.h"
#include "timer.h"
#include "transpose_lesson.h"

#define INDEX(ROW, COL, INNER) ((size_t)(ROW) * (INNER) + (COL))

constexpr int BDIMX = lesson::BDIMX, BDIMY = lesson::BDIMY;  // the book's block: 32 x 16
constexpr int PAD = lesson::PAD;                               // the book's padding: 2 words per tile row

// 1. copyGmem: read and write row-major, both coalesced: the reference for this tiling (the same
// 32 x 16 blocks and 4-byte accesses, one element per thread; kernels that move two elements per
// thread can pass it).
__global__ void copyGmem(float* out, const float* in, const int rows, const int cols) {
  unsigned int col = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < rows && col < cols) out[INDEX(row, col, cols)] = in[INDEX(row, col, cols)];
}

// 2. naiveGmem: a warp reads 32 consecutive floats of a row but writes 32 floats `rows` apart.
__global__ void naiveGmem(float* out, const float* in, const int rows, const int cols) {
  unsigned int col = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < rows && col < cols) out[INDEX(col, row, rows)] = in[INDEX(row, col, cols)];
}

// 3./4. Source 004's transposeSmem and transposeSmemPad. The block reads a 16 x 32 tile row by row,
// then writes it as a 32 x 16 tile of the output, again row by row: both global sides are
// coalesced. Thread bidx of the block writes output element (irow, icol) of the block's tile,
// which it reads from the shared tile's column: tile[icol][irow].
template <int kPad>
__device__ void transpose_smem(float* out, const float* in, const int rows, const int cols) {
  __shared__ float tile[BDIMY][BDIMX + kPad];
  unsigned int col = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < rows && col < cols) tile[threadIdx.y][threadIdx.x] = in[INDEX(row, col, cols)];

  unsigned int bidx = threadIdx.y * blockDim.x + threadIdx.x;
  unsigned int irow = bidx / blockDim.y;
  unsigned int icol = bidx % blockDim.y;
  row = blockIdx.x * blockDim.x + irow;  // output row = input column
  col = blockIdx.y * blockDim.y + icol;  // output column = input row
  // Every thread reaches the barrier: the boundary tests guard the accesses, not the barrier.
  __syncthreads();
  // The element read here was loaded by thread (x = irow, y = icol), under the same test.
  if (row < cols && col < rows) out[INDEX(row, col, rows)] = tile[icol][irow];
}
__global__ void transposeSmem(float* out, const float* in, int rows, int cols) { transpose_smem<0>(out, in, rows, cols); }
__global__ void transposeSmemPad(float* out, const float* in, int rows, int cols) { transpose_smem<PAD>(out, in, rows, cols); }

// 5./6. Two tiles per block, side by side: each thread moves two elements, 32 columns apart.
// Source 004 tests `col + blockDim.x < cols` once for both elements, so when the second column of
// the pair falls outside the matrix the first is skipped too. Here each element has its own test.
// kBookBoundary = true keeps 004's test, for the demonstration only.
template <int kPad, bool kBookBoundary>
__device__ void transpose_smem_unroll(float* out, const float* in, const int rows, const int cols) {
  __shared__ float tile[BDIMY][BDIMX * 2 + kPad];
  unsigned int col = 2 * blockIdx.x * blockDim.x + threadIdx.x;
  unsigned int row = blockIdx.y * blockDim.y + threadIdx.y;
  const bool in_row = row < rows;
  const bool first = kBookBoundary ? in_row && col + blockDim.x < cols : in_row && col < cols;
  const bool second = in_row && col + blockDim.x < cols;
  if (first) tile[threadIdx.y][threadIdx.x] = in[INDEX(row, col, cols)];
  if (second) tile[threadIdx.y][threadIdx.x + blockDim.x] = in[INDEX(row, col + blockDim.x, cols)];

  unsigned int bidx = threadIdx.y * blockDim.x + threadIdx.x;
  unsigned int irow = bidx / blockDim.y;
  unsigned int icol = bidx % blockDim.y;
  row = 2 * blockIdx.x * blockDim.x + irow;
  col = blockIdx.y * blockDim.y + icol;
  __syncthreads();
  const bool in_col = col < rows;
  const bool out_first = kBookBoundary ? in_col && row + blockDim.x < cols : in_col && row < cols;
  const bool out_second = in_col && row + blockDim.x < cols;
  if (out_first) out[INDEX(row, col, rows)] = tile[icol][irow];
  if (out_second) out[INDEX(row + blockDim.x, col, rows)] = tile[icol][irow + blockDim.x];
}
__global__ void transposeSmemUnroll(float* out, const float* in, int rows, int cols) {
  transpose_smem_unroll<0, false>(out, in, rows, cols);
}
__global__ void transposeSmemUnrollPad(float* out, const float* in, int rows, int cols) {
  transpose_smem_unroll<PAD, false>(out, in, rows, cols);
}
__global__ void transposeSmemUnrollPad_004boundary(float* out, const float* in, int rows, int cols) {
  transpose_smem_unroll<PAD, true>(out, in, rows, cols);
}

// 7. Ours. A transpose moves each byte once each way, like a copy, so it needs many loads in
// flight. A block of 32 x ROWS threads moves a TILE x TILE tile: each thread issues all of its
// TILE*TILE/(32*ROWS) loads (they are independent), then its shared stores, the barrier, and all
// of its global stores.
// The program runs TILE 64 with ROWS 16 (transpose_lesson.h: 512 threads, 8 loads each): 16 warps
// per block to switch among while loads are outstanding, 8 values per thread held in registers.
// A smaller ROWS gives each thread more loads and the block fewer warps; the bench times only
// this choice. Warps read 32 consecutive floats of an input row and write 32
// consecutive floats of an output row; the one-word padding makes the column read of the tile
// conflict-free.
// The block numbering: blockIdx.x walks down the input (tile rows), blockIdx.y across it, the
// reverse of kernels 1 to 6. Blocks with neighbouring blockIdx.x then write neighbouring pieces of
// the same output rows (and read pieces of input rows far apart). The Programming Guide does not
// say in which order blocks run; it requires that they can run "in any order, in parallel or in
// series". The bench times the same body with the other numbering, transposeTiled_colsFirst, to
// show what this one buys (README, "What the block numbering buys").
// The loads: on sm_80 and newer each is ld.global.nc.L2::256B.b32, the read-only load that __ldg
// makes (ld.global.nc) with the qualifier .L2::256B, which the PTX ISA describes as a hint to fetch
// additional data of that size into L2, and as a performance hint only: the values loaded are the
// same. cuda::ptx (CCCL, shipped with the CUDA Toolkit) has one function per PTX instruction form;
// its ld_nc_L2_256B first ships with CCCL 3.0 (CUDA 13.0), so an older toolkit (CUDA 12.4's CCCL
// 2.3) gets the same instruction written as inline PTX, as CCCL writes it.
// The bench times the same kernel without the hint, transposeTiled_plainLoads (README, "What the
// L2::256B hint buys"). Before sm_80: __ldg. The PTX ISA's ld.global.nc notes give
// .level::prefetch_size (.L2::64B, .L2::128B, .L2::256B) from sm_75, but ptxas 13.0 rejects
// .L2::256B for sm_75 ("Modifier '.L2::256B' requires .target sm_80 or higher"; .L2::64B and
// .L2::128B assemble there), and CCCL declares ld_nc_L2_256B for SM_80 and up.
template <bool kL2Fetch256>
__device__ __forceinline__ float load_input(const float* p) {
#if __CUDA_ARCH__ >= 800
#if CCCL_MAJOR_VERSION >= 3
  if (kL2Fetch256) return cuda::ptx::ld_nc_L2_256B(cuda::ptx::space_global, p);
#else
  if (kL2Fetch256) {
    unsigned bits;
    asm("ld.global.nc.L2::256B.b32 %0, [%1];" : "=r"(bits) : "l"(__cvta_generic_to_global(p)) : "memory");
    return __uint_as_float(bits);
  }
#endif
#endif
  return __ldg(p);
}
template <int TILE, int ROWS, bool kL2Fetch256>
__device__ __forceinline__ void transpose_tiled(float* __restrict__ out, const float* __restrict__ in, int rows,
                                                int cols, int x0, int y0) {  // the tile's first input column, row
  __shared__ float tile[TILE][TILE + 1];
  // All loads into registers first, then all shared stores, so that no store waits for its load
  // before every load is issued (the SASS rule checks it). Outside the matrix a thread keeps 0,
  // which no thread reads back.
  float v[TILE / 32][TILE / ROWS];
#pragma unroll
  for (int cx = 0; cx < TILE; cx += 32)
#pragma unroll
    for (int ry = 0; ry < TILE; ry += ROWS) {
      const int r = y0 + ry + threadIdx.y, c = x0 + cx + threadIdx.x;
      v[cx / 32][ry / ROWS] = r < rows && c < cols ? load_input<kL2Fetch256>(in + INDEX(r, c, cols)) : 0.0f;
    }
#pragma unroll
  for (int cx = 0; cx < TILE; cx += 32)
#pragma unroll
    for (int ry = 0; ry < TILE; ry += ROWS) tile[ry + threadIdx.y][cx + threadIdx.x] = v[cx / 32][ry / ROWS];
  __syncthreads();
#pragma unroll
  for (int cx = 0; cx < TILE; cx += 32)
#pragma unroll
    for (int ry = 0; ry < TILE; ry += ROWS) {
      const int orow = x0 + ry + threadIdx.y, ocol = y0 + cx + threadIdx.x;  // output (row, col)
      if (orow < cols && ocol < rows) out[INDEX(orow, ocol, rows)] = tile[cx + threadIdx.x][ry + threadIdx.y];
    }
}
template <int TILE, int ROWS>
__global__ void __launch_bounds__(32 * ROWS)
transposeTiled(float* __restrict__ out, const float* __restrict__ in, const int rows, const int cols) {
  transpose_tiled<TILE, ROWS, true>(out, in, rows, cols, blockIdx.y * TILE, blockIdx.x * TILE);
}
// (bench only) The same tile in the order of kernels 1 to 6: blockIdx.x walks across the input.
template <int TILE, int ROWS>
__global__ void __launch_bounds__(32 * ROWS)
transposeTiled_colsFirst(float* __restrict__ out, const float* __restrict__ in, const int rows, const int cols) {
  transpose_tiled<TILE, ROWS, true>(out, in, rows, cols, blockIdx.x * TILE, blockIdx.y * TILE);
}
// (bench only) transposeTiled with plain read-only loads, without the .L2::256B hint.
template <int TILE, int ROWS>
__global__ void __launch_bounds__(32 * ROWS)
transposeTiled_plainLoads(float* __restrict__ out, const float* __restrict__ in, const int rows, const int cols) {
  transpose_tiled<TILE, ROWS, false>(out, in, rows, cols, blockIdx.y * TILE, blockIdx.x * TILE);
}

// ---------------------------------------------------------------------------------------------

struct Runner {
  cublasHandle_t cublas;

  // Enqueue kernel `k` for a rows x cols input.
  void launch(lesson::Kind k, float* out, const float* in, int rows, int cols) {
    const dim3 block(BDIMX, BDIMY);
    const dim3 grid((cols + BDIMX - 1) / BDIMX, (rows + BDIMY - 1) / BDIMY);
    const dim3 grid2((cols + 2 * BDIMX - 1) / (2 * BDIMX), (rows + BDIMY - 1) / BDIMY);
    switch (k) {
      case lesson::Copy: copyGmem<<<grid, block>>>(out, in, rows, cols); break;
      case lesson::Naive: naiveGmem<<<grid, block>>>(out, in, rows, cols); break;
      case lesson::Smem: transposeSmem<<<grid, block>>>(out, in, rows, cols); break;
      case lesson::SmemPad: transposeSmemPad<<<grid, block>>>(out, in, rows, cols); break;
      case lesson::SmemUnroll: transposeSmemUnroll<<<grid2, block>>>(out, in, rows, cols); break;
      case lesson::SmemUnrollPad: transposeSmemUnrollPad<<<grid2, block>>>(out, in, rows, cols); break;
      case lesson::Tiled: tiled(transposeTiled<kT, kR>, true, out, in, rows, cols); break;
      case lesson::TiledPlainLoads: tiled(transposeTiled_plainLoads<kT, kR>, true, out, in, rows, cols); break;
      case lesson::TiledColsFirst: tiled(transposeTiled_colsFirst<kT, kR>, false, out, in, rows, cols); break;
      case lesson::Sgeam: {
        // Row-major in (rows x cols) is column-major A (cols x rows), lda = cols; row-major out
        // (cols x rows) is column-major C (rows x cols), ldc = rows. C = 1 * A^T + 0 * C.
        const float alpha = 1.0f, beta = 0.0f;
        CUBLAS_CHECK(cublasSgeam(cublas, CUBLAS_OP_T, CUBLAS_OP_N, rows, cols, &alpha, in, cols,
                                 &beta, out, rows, out, rows));
        break;
      }
    }
    CUDA_CHECK_LAUNCH();
  }

  // Kernel 7 and its bench-only twins: blocks of 32 x kR threads, one kT x kT tile each; the grid
  // is (tile rows, tile columns) where blockIdx.x walks down the input, (tile columns, tile rows)
  // where it walks across (transposeTiled_colsFirst).
  static constexpr int kT = lesson::TILED_TILE, kR = lesson::TILED_ROWS;
  template <class Kernel>
  void tiled(Kernel kernel, bool down, float* out, const float* in, int rows, int cols) {
    const unsigned tile_rows = (rows + kT - 1) / kT, tile_cols = (cols + kT - 1) / kT;
    const dim3 grid = down ? dim3(tile_rows, tile_cols) : dim3(tile_cols, tile_rows);
    kernel<<<grid, dim3(32, kR)>>>(out, in, rows, cols);
  }
};

// Deterministic, distinct-looking values (exact in float): a hash of the index, 24 bits.
static float value_at(size_t i) {
  uint64_t z = (i + 0x9e3779b97f4a7c15ull) * 0xbf58476d1ce4e5b9ull;
  z ^= z >> 31;
  return static_cast<float>(z >> 40) / 16777216.0f;
}

constexpr unsigned char kPoison = 0x7f;  // 0x7f7f7f7f = 3.4e38: finite, so 0 * poison is 0

static int g_failures = 0;

// Runs kernel k on a rows x cols matrix; returns how many outputs differ from the CPU.
static size_t check_kernel(Runner& run, lesson::Kind k, int rows, int cols, float* d_in, float* d_out,
                           const std::vector<float>& h_in, std::vector<float>& h_out) {
  const size_t n = size_t(rows) * cols;
  CUDA_CHECK(cudaMemset(d_out, kPoison, n * sizeof(float)));
  run.launch(k, d_out, d_in, rows, cols);
  h_out.resize(n);
  CUDA_CHECK(cudaMemcpy(h_out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
  size_t bad = 0;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      const float want = h_in[INDEX(r, c, cols)];
      const float got = k == lesson::Copy ? h_out[INDEX(r, c, cols)] : h_out[INDEX(c, r, rows)];
      bad += std::memcmp(&got, &want, sizeof got) != 0;
    }
  return bad;
}

static void run_lesson(Runner& run) {
  // The printed example: an 8 x 6 matrix and its transpose by transposeSmemUnrollPad.
  size_t max_n = 0;
  for (auto s : lesson::kShapes) max_n = std::max(max_n, size_t(s.rows) * s.cols);
  float *d_in = nullptr, *d_out = nullptr;
  CUDA_CHECK(cudaMalloc(&d_in, max_n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_out, max_n * sizeof(float)));
  std::vector<float> h_in, h_out;

  const lesson::Shape small = lesson::kShapes[0];
  h_in.resize(size_t(small.rows) * small.cols);
  for (int r = 0; r < small.rows; ++r)
    for (int c = 0; c < small.cols; ++c) h_in[INDEX(r, c, small.cols)] = lesson::small_value(r, c);
  CUDA_CHECK(cudaMemcpy(d_in, h_in.data(), h_in.size() * sizeof(float), cudaMemcpyHostToDevice));
  g_failures += check_kernel(run, lesson::SmemUnrollPad, small.rows, small.cols, d_in, d_out, h_in, h_out) != 0;
  lesson::print_matrix("in", h_in.data(), small.rows, small.cols);
  lesson::print_matrix("out = transposeSmemUnrollPad(in)", h_out.data(), small.cols, small.rows);
  std::printf("\n");

  lesson::print_header();
  for (const auto& k : lesson::kKernels)
    for (auto s : lesson::kShapes) {
      const size_t n = size_t(s.rows) * s.cols;
      h_in.resize(n);
      for (size_t i = 0; i < n; ++i) h_in[i] = value_at(i);
      CUDA_CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
      const size_t bad = check_kernel(run, k.kind, s.rows, s.cols, d_in, d_out, h_in, h_out);
      if (bad) std::fprintf(stderr, "MISMATCH: %s %d x %d: %zu wrong elements\n", k.name, s.rows, s.cols, bad);
      g_failures += bad != 0;
      lesson::print_result(k.name, s, bad == 0);
    }

  // 004's boundary test: count the outputs it never writes (they keep the poison).
  const lesson::Shape s = lesson::kBoundaryDemo;
  const size_t n = size_t(s.rows) * s.cols;
  h_in.resize(n);
  for (size_t i = 0; i < n; ++i) h_in[i] = value_at(i);
  CUDA_CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_out, kPoison, n * sizeof(float)));
  transposeSmemUnrollPad_004boundary<<<dim3((s.cols + 63) / 64, (s.rows + 15) / 16), dim3(BDIMX, BDIMY)>>>(
      d_out, d_in, s.rows, s.cols);
  CUDA_CHECK_LAUNCH();
  h_out.resize(n);
  CUDA_CHECK(cudaMemcpy(h_out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
  float poison;
  std::memset(&poison, kPoison, sizeof poison);
  long long unwritten = 0, wrong = 0;
  for (int r = 0; r < s.rows; ++r)
    for (int c = 0; c < s.cols; ++c) {
      const float got = h_out[INDEX(c, r, s.rows)];
      if (std::memcmp(&got, &poison, sizeof got) == 0) ++unwritten;
      else wrong += got != h_in[INDEX(r, c, s.cols)];
    }
  lesson::print_boundary_demo(unwritten, static_cast<long long>(n));
  if (wrong) {  // what it does write must still be right
    std::fprintf(stderr, "MISMATCH: 004's boundary kernel wrote %lld wrong values\n", wrong);
    ++g_failures;
  }
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
}

// An input of n values (value_at) on host and device, and an output buffer of the same size.
static void alloc_input(size_t n, float** d_in, float** d_out, std::vector<float>& h_in) {
  CUDA_CHECK(cudaMalloc(d_in, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(d_out, n * sizeof(float)));
  h_in.resize(n);
  for (size_t i = 0; i < n; ++i) h_in[i] = value_at(i);
  CUDA_CHECK(cudaMemcpy(*d_in, h_in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
}

// The benchmark's shapes: 2048^2 .. 16384^2 and one non-square shape, 10000 x 20000 (a whole number
// of the book's 16 x 32 tiles, but not of the unrolled 16 x 64 tile or of transposeTiled's 64 x 64),
// those with no side above max_side; or the one square shape `side` x `side`.
static std::vector<lesson::Shape> bench_shapes(int max_side, int side) {
  if (side) return {{side, side}};
  std::vector<lesson::Shape> shapes;
  for (int n : {2048, 4096, 8192, 16384})
    if (n <= max_side) shapes.push_back({n, n});
  if (20000 <= max_side) shapes.push_back({10000, 20000});
  return shapes;
}

static void run_bench(Runner& run, const cudaDeviceProp& prop, int reps, const std::vector<lesson::Shape>& shapes,
                      const std::string& csv_dir, const wb::KernelPick& pick) {
  wb::BandwidthTable table({"size"});
  table.set_reference("copyGmem");
  const int warmup = std::min(3, reps);
  for (auto s : shapes) {
    const size_t n = size_t(s.rows) * s.cols;
    float *d_in = nullptr, *d_out = nullptr;
    std::vector<float> h_in, h_out;
    alloc_input(n, &d_in, &d_out, h_in);
    const std::string size = s.rows == s.cols ? std::to_string(s.rows)
                                              : std::to_string(s.rows) + "x" + std::to_string(s.cols);
    // Checked against the CPU, then timed into the table's row `name`.
    auto check_and_time = [&](lesson::Kind kind, const char* name) {
      const size_t bad = check_kernel(run, kind, s.rows, s.cols, d_in, d_out, h_in, h_out);
      if (bad) {
        std::fprintf(stderr, "MISMATCH: %s at %s: %zu wrong elements\n", name, size.c_str(), bad);
        ++g_failures;
      }
      table.add(name, {size}, 2.0 * n * sizeof(float),
                wb::time_cuda([&] { run.launch(kind, d_out, d_in, s.rows, s.cols); }, warmup, reps));
    };
    for (const auto& k : lesson::kKernels) {
      // copyGmem is the table's 100% and cuBLAS the library peer: timed with any --kernel.
      if (!pick(k.name) && k.kind != lesson::Copy && k.kind != lesson::Sgeam) continue;
      check_and_time(k.kind, k.name);
    }
    // transposeTiled's body with the other block numbering: what the numbering of transposeTiled buys.
    if (pick("transposeTiled")) check_and_time(lesson::TiledColsFirst, "transposeTiled_colsFirst");
    // transposeTiled without the .L2::256B load hint: what the hint buys.
    if (pick("transposeTiled")) check_and_time(lesson::TiledPlainLoads, "transposeTiled_plainLoads");
    // For scale: the fastest form of the 16-byte copy kernel (common/copy.cuh), same bytes.
    table.add("copy", {size}, 2.0 * n * sizeof(float),
              wb::time_copy(reinterpret_cast<const unsigned*>(d_in), reinterpret_cast<unsigned*>(d_out), n, prop,
                            warmup, reps, &g_failures));
    table.add("cudaMemcpy", {size}, 2.0 * n * sizeof(float),
              wb::time_memcpy(reinterpret_cast<const unsigned*>(d_in), reinterpret_cast<unsigned*>(d_out), n, warmup,
                              reps, &g_failures));
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
  }
  table.report(csv_dir, prop, "transpose");
}

// One launch of each kernel at 4096 x 4096, for Nsight Compute.
static void run_profile(Runner& run) {
  const int side = 4096;
  const size_t n = size_t(side) * side;
  float *d_in = nullptr, *d_out = nullptr;
  std::vector<float> h_in, h_out;
  alloc_input(n, &d_in, &d_out, h_in);
  for (const auto& k : lesson::kKernels)
    if (check_kernel(run, k.kind, side, side, d_in, d_out, h_in, h_out)) ++g_failures;
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
}

int main(int argc, char** argv) {
  wb::Args args(argc, argv,
                "usage: transposeSmemUnrollPad [--bench [--reps R] [--max-side N | --side N] [--kernel NAME]\n"
                "                              [--csv-dir DIR]] [--profile]\n"
                "  (no options)  every kernel on every test shape, checked (the golden output)\n"
                "  --bench       also time every kernel at 2048^2 .. 16384^2 and 10000 x 20000\n"
                "  --reps R      timed runs per kernel and size, median reported (default 50)\n"
                "  --max-side N  leave out benchmark shapes with a side above N (default 20000; at least 2048)\n"
                "  --side N      instead, time the one shape N x N (1 .. 32768)\n"
                "  --kernel NAME time only NAME (a kernel of the table) beside copyGmem, cublasSgeam, copy\n"
                "                and cudaMemcpy\n"
                "  --csv-dir DIR write DIR/<gpu>/transpose.csv\n"
                "  --profile     instead, one checked launch of each kernel at 4096 x 4096 (for ncu)");
  const bool bench = args.flag("--bench");
  const bool profile = args.flag("--profile");
  const int reps = static_cast<int>(args.count("--reps", 50, 1, 100000));
  const int max_side = static_cast<int>(args.count("--max-side", 20000, 1, 1 << 20));
  const int side = static_cast<int>(args.count("--side", 0, 1, 32768));
  args.only_with("--bench", {"--reps", "--max-side", "--side", "--csv-dir"});
  std::vector<std::string> names;
  for (const auto& k : lesson::kKernels) names.push_back(k.name);
  const wb::KernelPick pick(args, names);
  const std::string csv_dir = args.out_dir("--csv-dir");
  args.finish();
  if (bench && profile) wb::bad_input("--bench and --profile are separate runs: choose one");
  if (side && args.given("--max-side")) wb::bad_input("--side and --max-side both choose the shapes: give one");
  const std::vector<lesson::Shape> shapes = bench_shapes(max_side, side);
  if (bench && shapes.empty())
    wb::bad_input("--max-side " + std::to_string(max_side) +
                  " leaves out every benchmark shape (the smallest is 2048 x 2048): the bench would run nothing");
  // Device memory: the input and the output of the largest shape run, and room for cuBLAS.
  size_t largest = 0;
  for (auto s : shapes) largest = std::max(largest, size_t(s.rows) * s.cols);
  const size_t profile_n = size_t(4096) * 4096;

  const cudaDeviceProp prop = wb::require_device();
  if (bench) wb::require_device_memory(2 * largest * sizeof(float) + wb::timer_device_bytes(prop) + (64u << 20), "--bench");
  if (profile) wb::require_device_memory(2 * profile_n * sizeof(float) + (64u << 20), "--profile");
  Runner run;
  CUBLAS_CHECK(cublasCreate(&run.cublas));
  if (profile) {
    run_profile(run);
  } else {
    run_lesson(run);
    if (bench) run_bench(run, prop, reps, shapes, csv_dir, pick);
  }
  CUBLAS_CHECK(cublasDestroy(run.cublas));

  return wb::finish(g_failures, "checks against the CPU transpose failed");
}
