// Chapter 05 — setRowReadCol: shared-memory layouts and bank conflicts, square and rectangular.
//
// Run:    ./build/bin/setRowReadCol                  (expected stdout: expected_outputs/setRowReadCol.txt)
//         ./build/bin/setRowReadCol --bench [--iters 256] [--reps 50] [--kernel NAME] [--csv-dir DIR]
//             times each access pattern (or only NAME, beside its shape's row/row kernel) at
//             throughput scale (table to stderr and, with --csv-dir, DIR/<gpu>/setRowReadCol.csv)
//         python3 scripts/bank_conflicts.py --program build/bin/setRowReadCol --check --csv bc.csv
//             the proof: Nsight Compute's shared-memory wavefront counters for the 14 one-block kernels
// Build without CMake, in this folder:
//   nvcc -std=c++17 -O3 -arch=native -I../../common -o setRowReadCol setRowReadCol.cu
//
// Kernels (source 003 section 5.2, 004 "共享内存的数据布局"; names kept, rect_ for the 32x16 set):
//   1. setRowReadRow        tile[y][x] write, tile[y][x] read            conflict-free
//   2. setColReadCol        tile[x][y] write and read                    32-way (rect: 16-way)
//   3. setColReadRow        column write, row read                       store conflicts
//   4. setRowReadCol        row write, column read (a transpose)         load conflicts
//   5. setRowReadColDyn     4. with dynamic shared memory                same as 4.
//   6. setRowReadColPad     4. with one padding word per row (rect: 2)   conflict-free
//   7. setRowReadColDynPad  6. with dynamic shared memory                conflict-free
//   8-14. rect_*            the same seven on a 32x16 block
//   bench<rect, pattern>    each pattern in a loop, on a full GPU, for the timing table
//   copy, cudaMemcpy        common/copy.cuh: the global-memory bandwidth reference, and the driver's copy
//
// Self-check (exit 1 on mismatch): every output element of every kernel against the CPU
// (identity or transpose); every benchmark thread's accumulated sum against the CPU.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "args.h"
#include "bench.h"
#include "check.h"
#include "copy.cuh"
#include "csv.h"
#include "report.h"
#include "setRowReadCol_lesson.h"
#include "timer.h"

using lesson::Pattern;

// The kernels are written once as templates over the block shape and instantiated under the
// source's names below. idx is the thread's row-major index; (irow, icol) are the book's
// transposed coordinates: in the kernels that compute them, out[idx] reads the element that thread
// (x = irow, y = icol) wrote (rowReadRow and colReadCol read back their own).
template <int BX, int BY>
__device__ void rowReadRow(int* out) {
  __shared__ int tile[BY][BX];
  unsigned idx = threadIdx.y * BX + threadIdx.x;
  tile[threadIdx.y][threadIdx.x] = idx;  // consecutive lanes, consecutive words: 32 banks
  __syncthreads();
  out[idx] = tile[threadIdx.y][threadIdx.x];
}

template <int BX, int BY>
__device__ void colReadCol(int* out) {
  __shared__ int tile[BX][BY];
  unsigned idx = threadIdx.y * BX + threadIdx.x;
  tile[threadIdx.x][threadIdx.y] = idx;  // lanes BY words apart: BY = 32 puts all in one bank
  __syncthreads();
  out[idx] = tile[threadIdx.x][threadIdx.y];
}

template <int BX, int BY>
__device__ void colReadRow(int* out) {
  __shared__ int tile[BX][BY];
  unsigned idx = threadIdx.y * BX + threadIdx.x;
  unsigned irow = idx / BY, icol = idx % BY;
  tile[threadIdx.x][threadIdx.y] = idx;  // the column write conflicts
  __syncthreads();
  out[idx] = tile[irow][icol];  // reading tile[BX][BY] in order: conflict-free
}

template <int BX, int BY>
__device__ void rowReadCol(int* out) {
  __shared__ int tile[BY][BX];
  unsigned idx = threadIdx.y * BX + threadIdx.x;
  unsigned irow = idx / BY, icol = idx % BY;
  tile[threadIdx.y][threadIdx.x] = idx;
  __syncthreads();
  out[idx] = tile[icol][irow];  // lanes BX words apart (two columns for the rectangle): conflicts
}

template <int BX, int BY>
__device__ void rowReadColDyn(int* out) {
  extern __shared__ int dtile[];  // 1-D as in the source (int dtile[][BX] works too: only the first bound is open)
  unsigned idx = threadIdx.y * BX + threadIdx.x;
  unsigned irow = idx / BY, icol = idx % BY;
  dtile[idx] = idx;
  __syncthreads();
  out[idx] = dtile[icol * BX + irow];
}

template <int BX, int BY, int PAD>
__device__ void rowReadColPad(int* out) {
  __shared__ int tile[BY][BX + PAD];  // row length BX + PAD: a column now walks across banks
  unsigned idx = threadIdx.y * BX + threadIdx.x;
  unsigned irow = idx / BY, icol = idx % BY;
  tile[threadIdx.y][threadIdx.x] = idx;
  __syncthreads();
  out[idx] = tile[icol][irow];
}

template <int BX, int BY, int PAD>
__device__ void rowReadColDynPad(int* out) {
  extern __shared__ int dtile[];
  unsigned idx = threadIdx.y * BX + threadIdx.x;
  unsigned irow = idx / BY, icol = idx % BY;
  dtile[threadIdx.y * (BX + PAD) + threadIdx.x] = idx;
  __syncthreads();
  out[idx] = dtile[icol * (BX + PAD) + irow];
}

constexpr int S = lesson::kSquare, RX = lesson::kRectX, RY = lesson::kRectY;
__global__ void setRowReadRow(int* out) { rowReadRow<S, S>(out); }
__global__ void setColReadCol(int* out) { colReadCol<S, S>(out); }
__global__ void setColReadRow(int* out) { colReadRow<S, S>(out); }
__global__ void setRowReadCol(int* out) { rowReadCol<S, S>(out); }
__global__ void setRowReadColDyn(int* out) { rowReadColDyn<S, S>(out); }
__global__ void setRowReadColPad(int* out) { rowReadColPad<S, S, lesson::kSquarePad>(out); }
__global__ void setRowReadColDynPad(int* out) { rowReadColDynPad<S, S, lesson::kSquarePad>(out); }
__global__ void rect_setRowReadRow(int* out) { rowReadRow<RX, RY>(out); }
__global__ void rect_setColReadCol(int* out) { colReadCol<RX, RY>(out); }
__global__ void rect_setColReadRow(int* out) { colReadRow<RX, RY>(out); }
__global__ void rect_setRowReadCol(int* out) { rowReadCol<RX, RY>(out); }
__global__ void rect_setRowReadColDyn(int* out) { rowReadColDyn<RX, RY>(out); }
__global__ void rect_setRowReadColPad(int* out) { rowReadColPad<RX, RY, lesson::kRectPad>(out); }
__global__ void rect_setRowReadColDynPad(int* out) { rowReadColDynPad<RX, RY, lesson::kRectPad>(out); }

// In lesson::kKernels order.
using Kernel = void (*)(int*);
constexpr Kernel kLessonKernels[] = {
    setRowReadRow,      setColReadCol,         setColReadRow,         setRowReadCol,
    setRowReadColDyn,   setRowReadColPad,      setRowReadColDynPad,   rect_setRowReadRow,
    rect_setColReadCol, rect_setColReadRow,    rect_setRowReadCol,    rect_setRowReadColDyn,
    rect_setRowReadColPad, rect_setRowReadColDynPad};
static_assert(sizeof(kLessonKernels) / sizeof(Kernel) == lesson::kNumKernels, "one per kernel");

__host__ __device__ constexpr bool is_dynamic(Pattern p) { return p == lesson::RowColDyn || p == lesson::RowColDynPad; }

// Throughput version of one pattern: each thread stores and loads `iters` times through the same
// addresses as the lesson kernel, so shared-memory traffic dominates and global traffic is one
// int per thread. The stored value changes every iteration, so nothing can be hoisted.
template <bool kRect, Pattern kP>
__global__ void bench(int* out, int iters) {
  constexpr int kWords = lesson::tile_words(kRect, kP);
  extern __shared__ int dyn_tile[];
  __shared__ int static_tile[is_dynamic(kP) ? 1 : kWords];
  int* tile = is_dynamic(kP) ? dyn_tile : static_tile;
  const lesson::Access a = lesson::access(kRect, kP, threadIdx.x, threadIdx.y);
  unsigned acc = 0;  // unsigned: the sum wraps modulo 2^32 (well defined) for any --iters
  for (int k = 0; k < iters; ++k) {
    tile[a.st] = k + threadIdx.x;
    __syncthreads();
    acc += tile[a.ld];
    __syncthreads();  // nobody overwrites the tile before everybody has read it
  }
  constexpr int kThreads = lesson::block_x(kRect) * lesson::block_y(kRect);
  out[size_t(blockIdx.x) * kThreads + threadIdx.y * lesson::block_x(kRect) + threadIdx.x] = static_cast<int>(acc);
}

using BenchKernel = void (*)(int*, int);
template <bool kRect>
constexpr BenchKernel kBench[] = {bench<kRect, lesson::RowRow>,    bench<kRect, lesson::ColCol>,
                             bench<kRect, lesson::ColRow>,    bench<kRect, lesson::RowCol>,
                             bench<kRect, lesson::RowColDyn>, bench<kRect, lesson::RowColPad>,
                             bench<kRect, lesson::RowColDynPad>};

static int g_failures = 0;

static void run_lesson(int* d_out) {
  std::vector<int> out(lesson::kSquare * lesson::kSquare);
  for (int i = 0; i < lesson::kNumKernels; ++i) {
    const auto& k = lesson::kKernels[i];
    if (i == 0 || k.rect != lesson::kKernels[i - 1].rect) lesson::print_section(k.rect);
    const int bx = lesson::block_x(k.rect), by = lesson::block_y(k.rect);
    const size_t smem = is_dynamic(k.pattern) ? lesson::tile_words(k.rect, k.pattern) * sizeof(int) : 0;
    CUDA_CHECK(cudaMemset(d_out, 0xff, out.size() * sizeof(int)));  // poison
    kLessonKernels[i]<<<1, dim3(bx, by), smem>>>(d_out);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(out.data(), d_out, bx * by * sizeof(int), cudaMemcpyDeviceToHost));
    bool pass = true;
    for (int idx = 0; idx < bx * by; ++idx) pass &= out[idx] == lesson::expected(k.rect, k.pattern, idx);
    if (!pass) ++g_failures;
    lesson::print_kernel(k, out, pass);
  }
}

static void print_shared_memory_facts(const cudaDeviceProp& prop) {
  std::fprintf(stderr,
               "shared memory on this GPU (cudaDeviceProp): %zu B per block by default, %zu B per "
               "block opt-in (cudaFuncAttributeMaxDynamicSharedMemorySize), %zu B per SM; banks (not "
               "asked: the Programming Guide, compute capability 5.x and later): 32, each 4 bytes wide\n",
               prop.sharedMemPerBlock, prop.sharedMemPerBlockOptin, prop.sharedMemPerMultiprocessor);
}

static void run_bench(const cudaDeviceProp& prop, int iters, int reps, int blocks_override,
                      const std::string& csv_dir, const wb::KernelPick& pick) {
  // The row/row kernels are every row's baseline (slowdown_vs_rowrow): timed with any --kernel.
  auto timed = [&](const std::string& name) {
    return pick(name) || name == "setRowReadRow" || name == "rect_setRowReadRow";
  };
  wb::BandwidthTable table({"size"}, {"slowdown_vs_rowrow"});
  const int warmup = std::min(3, reps);
  // The output holds one int per thread of the largest grid asked for (sized from the request).
  size_t max_out = 0;
  for (int i = 0; i < lesson::kNumKernels; ++i) {
    const auto& k = lesson::kKernels[i];
    const int threads = lesson::block_x(k.rect) * lesson::block_y(k.rect);
    const size_t smem = is_dynamic(k.pattern) ? lesson::tile_words(k.rect, k.pattern) * sizeof(int) : 0;
    const BenchKernel kernel = (k.rect ? kBench<true> : kBench<false>)[k.pattern];
    const int blocks = blocks_override ? blocks_override : 4 * wb::full_grid(kernel, threads, prop, smem);
    max_out = std::max(max_out, size_t(blocks) * threads);
  }
  wb::require_device_memory(max_out * sizeof(int) + (size_t(2) << 26) * sizeof(unsigned) + wb::timer_device_bytes(prop),
                            "--bench");
  int* d_out = nullptr;
  CUDA_CHECK(cudaMalloc(&d_out, max_out * sizeof(int)));
  std::vector<int> host;
  for (int i = 0; i < lesson::kNumKernels; ++i) {
    const auto& k = lesson::kKernels[i];
    if (!timed(k.name)) continue;
    const int bx = lesson::block_x(k.rect), by = lesson::block_y(k.rect), threads = bx * by;
    const BenchKernel kernel = (k.rect ? kBench<true> : kBench<false>)[k.pattern];
    const size_t smem = is_dynamic(k.pattern) ? lesson::tile_words(k.rect, k.pattern) * sizeof(int) : 0;
    // Four waves of the blocks the GPU holds at once: full, and long enough to time.
    const int blocks = blocks_override ? blocks_override : 4 * wb::full_grid(kernel, threads, prop, smem);
    auto launch = [&] {
      kernel<<<blocks, dim3(bx, by), smem>>>(d_out, iters);
      CUDA_CHECK_LAUNCH();
    };
    CUDA_CHECK(cudaMemset(d_out, 0xff, size_t(blocks) * threads * sizeof(int)));
    launch();
    host.resize(size_t(blocks) * threads);
    CUDA_CHECK(cudaMemcpy(host.data(), d_out, host.size() * sizeof(int), cudaMemcpyDeviceToHost));
    // Thread t loads what the thread that stores to the same word stored: k + its threadIdx.x.
    std::vector<int> writer_x(lesson::tile_words(k.rect, k.pattern), -1);
    for (int y = 0; y < by; ++y)
      for (int x = 0; x < bx; ++x) writer_x[lesson::access(k.rect, k.pattern, x, y).st] = x;
    bool ok = true;
    for (int b = 0; b < blocks; ++b)
      for (int y = 0; y < by; ++y)
        for (int x = 0; x < bx; ++x) {
          const uint64_t wx = writer_x[lesson::access(k.rect, k.pattern, x, y).ld];
          const uint64_t want = uint64_t(iters) * (iters - 1) / 2 + uint64_t(iters) * wx;  // mod 2^32 below
          ok &= static_cast<uint32_t>(host[size_t(b) * threads + y * bx + x]) == static_cast<uint32_t>(want);
        }
    if (!ok) {
      std::fprintf(stderr, "MISMATCH: bench %s\n", k.name);
      ++g_failures;
    }
    const double accesses = 2.0 * blocks * threads * iters;  // one store and one load per iteration
    // Warm: shared-memory loops that write a few MB of global memory once; an L2 flush means nothing
    // here, and back-to-back batches keep the events' resolution out of short runs.
    table.add(k.name, {wb::fmt(accesses, 0)}, 4.0 * accesses,
              wb::time_cuda(launch, wb::TimeOptions{warmup, reps, wb::Cache::Warm}));
  }
  CUDA_CHECK(cudaFree(d_out));

  // The global-memory copy, far above L2, for scale: what a DRAM round trip costs per byte.
  const size_t n = size_t(1) << 26;
  unsigned *d_a = nullptr, *d_b = nullptr;
  CUDA_CHECK(cudaMalloc(&d_a, n * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&d_b, n * sizeof(unsigned)));
  CUDA_CHECK(cudaMemset(d_a, 0x5a, n * sizeof(unsigned)));
  table.add("copy", {std::to_string(n)}, 8.0 * n, wb::time_copy(d_a, d_b, n, prop, warmup, reps, &g_failures));
  table.add("cudaMemcpy", {std::to_string(n)}, 8.0 * n, wb::time_memcpy(d_a, d_b, n, warmup, reps, &g_failures));
  CUDA_CHECK(cudaFree(d_a));
  CUDA_CHECK(cudaFree(d_b));

  // Slowdown against the conflict-free row/row kernel of the same shape.
  auto& rows = table.rows();
  for (auto& r : rows) {
    if (r.kernel == "copy" || r.kernel == "cudaMemcpy") continue;
    const bool rect = r.kernel.rfind("rect_", 0) == 0;
    for (const auto& base : rows)
      if (base.kernel == (rect ? "rect_setRowReadRow" : "setRowReadRow"))
        r.extra[0] = wb::fmt(r.t.median_ms / base.t.median_ms, 2);
  }
  table.report(csv_dir, prop, "setRowReadCol");
}

int main(int argc, char** argv) {
  wb::Args args(argc, argv,
                "usage: setRowReadCol [--bench [--iters K] [--reps R] [--blocks B] [--kernel NAME] [--csv-dir DIR]]\n"
                "  (no options)  run the 14 one-block kernels, print and check their outputs\n"
                "  --bench       also time each pattern on the whole GPU (K store+load rounds per thread)\n"
                "  --iters K     rounds per thread (default 256; the checked sums wrap modulo 2^32)\n"
                "  --reps R      timed runs per kernel, median reported (default 50)\n"
                "  --blocks B    grid size, at most 65536 (default: four waves of the GPU)\n"
                "  --kernel NAME time only NAME (one of the 14 kernels) beside its shape's row/row kernel,\n"
                "                copy and cudaMemcpy\n"
                "  --csv-dir DIR write DIR/<gpu>/setRowReadCol.csv");
  const bool bench = args.flag("--bench");
  const int iters = static_cast<int>(args.count("--iters", 256, 1, 1 << 20));
  const int reps = static_cast<int>(args.count("--reps", 50, 1, 100000));
  const int blocks = static_cast<int>(args.count("--blocks", 0, 1, 1 << 20));
  args.only_with("--bench", {"--iters", "--reps", "--blocks", "--csv-dir"});
  std::vector<std::string> names;
  for (const auto& k : lesson::kKernels) names.push_back(k.name);
  const wb::KernelPick pick(args, names);
  const std::string csv_dir = args.out_dir("--csv-dir");
  args.finish();
  // The output is one int per thread (up to 1024 per block) and is checked on the host: bound it.
  constexpr int kMaxBlocks = 65536;
  if (blocks > kMaxBlocks)
    wb::bad_input("--blocks " + std::to_string(blocks) + " needs " + std::to_string(blocks) +
                  " blocks x 1024 threads x 4 bytes = " + std::to_string(size_t(blocks) * 1024 * 4) +
                  " bytes of output (checked on the host); at most " + std::to_string(kMaxBlocks) +
                  " blocks (" + std::to_string(size_t(kMaxBlocks) * 1024 * 4) + " bytes)");

  const cudaDeviceProp prop = wb::require_device();
  print_shared_memory_facts(prop);
  int* d_out = nullptr;
  CUDA_CHECK(cudaMalloc(&d_out, lesson::kSquare * lesson::kSquare * sizeof(int)));
  run_lesson(d_out);
  CUDA_CHECK(cudaFree(d_out));
  if (bench) run_bench(prop, iters, reps, blocks, csv_dir, pick);

  return wb::finish(g_failures, "checks against the CPU reference failed");
}
