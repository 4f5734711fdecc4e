// Chapter 06 — reduceInteger: the book's parallel reduction with shared memory, unrolling and warp
// shuffles (source 003 sections 5.3 and 5.6.3, source 004 "reduction with shared memory"), checked,
// counted with Nsight Compute, and timed against CUB.
//
// Run:    ./build/bin/reduceInteger                  (expected stdout: expected_outputs/reduceInteger.txt)
//             the source's kernels on 004's 2^24 ints (sum 206464799), each with the book's grid
//         ./build/bin/reduceInteger --bench [--n 2^28] [--reps 50] [--kernel NAME] [--csv-dir DIR]
//             also times a whole sum of n unsigned ints with every kernel (or only NAME), CUB, a copy
//             and cudaMemcpy; the table goes to stderr and, with --csv-dir, to
//             DIR/<gpu>/reduceInteger.csv. Never to stdout.
//         ./build/bin/reduceInteger --profile         one checked launch of each source kernel at
//             2^24 with the book's grids, and of ours, for Nsight Compute (gmem_transactions.py)
//         --n N sets the lessons' size (default 2^24) and, with --bench, the timed size too; at most
//             (2^31 - 1) x 128, the most the source's one-block-per-128 grids can launch.
//         The table times each kernel as a whole sum to one value (the source's kernels: + ours' two
//         kernels over their partials), and first_pass_ms, the source's kernel alone.
//
// Build without CMake, in this folder:
//   nvcc -std=c++17 -O3 -arch=native -I../../common -o reduceInteger reduceInteger.cu
//
// Kernels (the source's names; blocks of DIM = 128 threads, as in the book):
//   1. reduceGmem            the baseline: an in-place tree in global memory (it overwrites its input)
//   2. reduceSmem            the same tree in shared memory: one element per thread
//   3. reduceSmemUnroll      each thread first adds 4 elements, one from each of 4 blocks' worth of data
//   4. reduceSmemUnrollDyn   the same with dynamic shared memory (extern __shared__)
//   5. reduceShfl            003 section 5.6.3 (the book's reduceIntegerShfl.cu): warp shuffles, one
//                            shared value per warp, no tree
//   6. reduceSmemUnrollShfl  the book's reduceIntegerShfl.cu: unroll 4, tree down to 32, then shuffles
//   Each leaves one partial sum per block; the lessons add them up on the host, as the book does.
// The source's errors, run on the GPU (lesson section 3):
//   7. reduceSmemUnrollBookGuard  reduceSmemUnroll with the book's guard `idx + 4 * blockDim.x <= n`
//   8. reduceShfl003              reduceShfl with 003's block step as printed (mySum vs localSum)
// Ours and the library:
//   9. reduceUnrollShflVec + reduceFinal  16-byte loads, 4 in flight per thread (the book's unrolling,
//                            with vectors), shuffle block sums, a grid that fills the GPU once;
//                            reduceFinal adds the grid's partials in one block: the whole sum on the device
//  10. cub::DeviceReduce::Sum  the library peer
//  11. copy, cudaMemcpy      common/copy.cuh: the bandwidth reference, and the driver's copy (--bench)
//
// Self-checks (exit 1): every partial of every source kernel against the CPU's sum of its block,
// every whole sum against the CPU, each erratum against the CPU's prediction of the wrong value.
// Sums are unsigned, i.e. modulo 2^32: wrap-around is defined for unsigned ints and independent of
// the order of the additions, so every kernel that adds each element once must produce the same
// bits (the errata kernels 7 and 8 do not). (The book uses int; with 004's data the sums stay far
// below 2^31, so the printed values are the same.)
#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "args.h"
#include "bench.h"
#include "block_reduce.cuh"
#include "check.h"
#include "copy.cuh"
#include "csv.h"
#include "hash.h"
#include "reduceInteger_lesson.h"
#include "report.h"
#include "timer.h"

constexpr unsigned kFull = 0xffffffffu;
constexpr unsigned DIM = lesson::DIM;   // the book's #define DIM 128
constexpr unsigned SMEMDIM = DIM / 32;  // one slot per warp: 4 (the book's comment says "128/32 = 8")

// ---------------------------------------------------------------------------------------------
// The source's kernels
// ---------------------------------------------------------------------------------------------
// Fixes (see the README's errata), each where the book's kernel needs it. Besides unsigned sums,
// __shfl_xor_sync with a full mask for the removed __shfl_xor, integer adds for reduceIntegerShfl.cu's
// floats, sum4Blocks' per-load guards and the tree's steps for DIM only (both below; three
// __syncthreads() fewer than the book's), these two:
//  * reduceGmem, reduceSmem and reduceShfl: in a block that the end of the array cuts, the book
//    returns early for idx >= n, before __syncthreads() (and, in reduceShfl, before shuffles): the
//    Programming Guide allows __syncthreads() in conditional code only where the condition is the
//    same in the whole block. (In PTX, __syncthreads() is bar.sync 0, i.e. barrier.sync.aligned 0.
//    PTX ISA, exit: "If the exiting threads are holding up the barrier, the barrier is released";
//    barrier: an .aligned barrier in conditionally executed code is undefined unless "all threads
//    in CTA evaluate the condition identically".) Threads past the end take part and contribute 0;
//  * reduceGmem, reduceSmem, reduceSmemUnroll and reduceSmemUnrollDyn: the book's "unrolling warp"
//    adds through a `volatile` pointer with no synchronisation, which was only correct while a warp
//    ran in lockstep. Since Volta lanes may diverge: each step reads, then __syncwarp(), then
//    writes, then __syncwarp().

// The book's last warp over smem[0..63]: six halving steps; the sum ends in thread 0.
__device__ __forceinline__ unsigned lastWarpSmem(unsigned* smem, unsigned tid) {
  unsigned v = smem[tid];
#pragma unroll
  for (unsigned offset = lesson::kLastWarpStep; offset > 0; offset /= 2) {
    v += smem[tid + offset];
    __syncwarp();
    smem[tid] = v;
    __syncwarp();
  }
  return v;
}

// The book's tree over DIM values in shared memory, then the last warp. Valid in thread 0. The book
// tests blockDim.x at run time and runs a __syncthreads() after each of its steps for 1024, 512, 256
// and 128 threads; the loop here starts at DIM / 2, so only the step for DIM and its barrier exist:
// three barriers fewer than the book's at 128 threads (so too in reduceGmem and reduceSmemUnrollShfl).
__device__ __forceinline__ unsigned smemTree(unsigned* smem, unsigned tid) {
  __syncthreads();
#pragma unroll
  for (unsigned s = DIM / 2; s >= 2 * lesson::kLastWarpStep; s /= 2) {
    if (tid < s) smem[tid] += smem[tid + s];
    __syncthreads();
  }
  return tid < lesson::kWarpSize ? lastWarpSmem(smem, tid) : 0u;
}

// The book's butterfly (reduceIntegerShfl.cu's warpReduce, there with the removed __shfl_xor).
__device__ __forceinline__ unsigned warpReduce(unsigned localSum) {
  localSum += __shfl_xor_sync(kFull, localSum, 16);
  localSum += __shfl_xor_sync(kFull, localSum, 8);
  localSum += __shfl_xor_sync(kFull, localSum, 4);
  localSum += __shfl_xor_sync(kFull, localSum, 2);
  localSum += __shfl_xor_sync(kFull, localSum, 1);
  return localSum;
}

// "Unrolling 4 blocks": the sum of elements idx, idx + DIM, idx + 2 DIM, idx + 3 DIM. One guard per
// load, as 004's code has it, so that any n works (the book's single guard drops data: kernel 7).
__device__ __forceinline__ unsigned sum4Blocks(const unsigned* g_idata, size_t n, size_t idx) {
  unsigned a1 = 0, a2 = 0, a3 = 0, a4 = 0;
  if (idx < n) a1 = g_idata[idx];
  if (idx + DIM < n) a2 = g_idata[idx + DIM];
  if (idx + 2 * DIM < n) a3 = g_idata[idx + 2 * DIM];
  if (idx + 3 * DIM < n) a4 = g_idata[idx + 3 * DIM];
  return a1 + a2 + a3 + a4;
}

// 1. In place in global memory: every step of the tree is a global load, load and store. The access
// pattern is the book's, down to re-reading idata[tid] at every step of the last warp, so that the
// transaction counts can be compared with 004's table. `count` (the elements this block owns) keeps
// the last block of an n that is not a multiple of DIM inside the array; full blocks are unaffected.
__global__ void reduceGmem(unsigned* g_idata, unsigned* g_odata, size_t n) {
  const unsigned tid = threadIdx.x;
  const size_t base = blockIdx.x * size_t(DIM);
  const unsigned count = static_cast<unsigned>(n - base < DIM ? n - base : DIM);
  unsigned* idata = g_idata + base;
#pragma unroll
  for (unsigned s = DIM / 2; s >= 2 * lesson::kLastWarpStep; s /= 2) {
    if (tid < s && tid + s < count) idata[tid] += idata[tid + s];
    __syncthreads();
  }
  volatile unsigned* vmem = idata;
  if (tid < 32) {
#pragma unroll
    for (unsigned offset = lesson::kLastWarpStep; offset > 0; offset /= 2) {
      const unsigned a = tid < count ? vmem[tid] : 0u;
      const unsigned b = tid + offset < count ? vmem[tid + offset] : 0u;
      __syncwarp();
      if (tid < count) vmem[tid] = a + b;
      __syncwarp();
    }
  }
  if (tid == 0) g_odata[blockIdx.x] = vmem[0];
}

// 2. The same tree in shared memory: one global load per element, one global store per block.
__global__ void reduceSmem(const unsigned* g_idata, unsigned* g_odata, size_t n) {
  __shared__ unsigned smem[DIM];
  const unsigned tid = threadIdx.x;
  const size_t idx = blockIdx.x * size_t(DIM) + tid;
  smem[tid] = idx < n ? g_idata[idx] : 0u;
  const unsigned sum = smemTree(smem, tid);
  if (tid == 0) g_odata[blockIdx.x] = sum;
}

// 3. A quarter of the blocks, each thread adding 4 elements first: a quarter of the stores.
__global__ void reduceSmemUnroll(const unsigned* g_idata, unsigned* g_odata, size_t n) {
  __shared__ unsigned smem[DIM];
  const unsigned tid = threadIdx.x;
  smem[tid] = sum4Blocks(g_idata, n, blockIdx.x * size_t(DIM) * 4 + tid);
  const unsigned sum = smemTree(smem, tid);
  if (tid == 0) g_odata[blockIdx.x] = sum;
}

// 4. The same; the array's size comes from the launch (<<<grid, DIM, DIM * sizeof(unsigned)>>>).
__global__ void reduceSmemUnrollDyn(const unsigned* g_idata, unsigned* g_odata, size_t n) {
  extern __shared__ unsigned dynSmem[];
  const unsigned tid = threadIdx.x;
  dynSmem[tid] = sum4Blocks(g_idata, n, blockIdx.x * size_t(DIM) * 4 + tid);
  const unsigned sum = smemTree(dynSmem, tid);
  if (tid == 0) g_odata[blockIdx.x] = sum;
}

// 5. 003 section 5.6.3, the book's reduceShfl: warp level (a butterfly), block level (one shared
// slot per warp, then warp 0 reduces the slots), grid level (one partial per block).
__global__ void reduceShfl(const unsigned* g_idata, unsigned* g_odata, size_t n) {
  __shared__ unsigned smem[SMEMDIM];
  const size_t idx = blockIdx.x * size_t(DIM) + threadIdx.x;
  const unsigned laneIdx = threadIdx.x % 32, warpIdx = threadIdx.x / 32;
  unsigned mySum = idx < n ? g_idata[idx] : 0u;
  mySum = warpReduce(mySum);
  if (laneIdx == 0) smem[warpIdx] = mySum;
  __syncthreads();
  mySum = threadIdx.x < SMEMDIM ? smem[laneIdx] : 0u;
  if (warpIdx == 0) mySum = warpReduce(mySum);
  if (threadIdx.x == 0) g_odata[blockIdx.x] = mySum;
}

// 6. The book's reduceSmemUnrollShfl: unroll 4, the shared tree down to 32 values, then the last
// warp with shuffles instead of shared memory.
__global__ void reduceSmemUnrollShfl(const unsigned* g_idata, unsigned* g_odata, size_t n) {
  __shared__ unsigned smem[DIM];
  const unsigned tid = threadIdx.x;
  smem[tid] = sum4Blocks(g_idata, n, blockIdx.x * size_t(DIM) * 4 + tid);
  __syncthreads();
#pragma unroll
  for (unsigned s = DIM / 2; s >= 32; s /= 2) {
    if (tid < s) smem[tid] += smem[tid + s];
    __syncthreads();
  }
  unsigned localSum = smem[tid];
  if (tid < 32) localSum = warpReduce(localSum);
  if (tid == 0) g_odata[blockIdx.x] = localSum;
}

#include "reduceInteger_errata.cuh"  // the source's errors, run as written (kernels 7, 8)

#include "reduceUnrollShflVec.cuh"  // ours: reduceUnrollShflVec and reduceFinal


// ---------------------------------------------------------------------------------------------
// Host
// ---------------------------------------------------------------------------------------------

static int g_failures = 0;

static void expect(bool ok, const std::string& what) {
  if (!ok) {
    std::fprintf(stderr, "MISMATCH: %s\n", what.c_str());
    ++g_failures;
  }
}

static size_t ceil_div(size_t a, size_t b) { return (a + b - 1) / b; }

// The most blocks a grid's x dimension holds on every GPU CUDA 13 supports (maxGridSize[0]). The
// source's kernels take one block per DIM elements, so n is bounded by kMaxGrid * DIM: main refuses
// more before any GPU work, and grid_x() makes a narrowing that slipped past that a failure, never a
// smaller launch than the data needs.
constexpr size_t kMaxGrid = 0x7fffffffu;
constexpr uint64_t kMaxN = uint64_t(kMaxGrid) * DIM;
static unsigned grid_x(size_t blocks) {
  if (blocks == 0 || blocks > kMaxGrid) {
    std::fprintf(stderr, "internal error: a grid of %zu blocks (at most %zu)\n", blocks, kMaxGrid);
    std::exit(wb::kFail);
  }
  return static_cast<unsigned>(blocks);
}

// The source's six kernels, in the lesson's order.
struct BookKernel {
  const char* name;
  unsigned per_block;  // elements per block: DIM, or 4 * DIM when unrolled
  unsigned dyn_smem;   // dynamic shared memory per block, in bytes
  bool in_place;       // overwrites its input: runs on a copy
};
constexpr BookKernel kBook[] = {
    {"reduceGmem", DIM, 0, true},
    {"reduceSmem", DIM, 0, false},
    {"reduceSmemUnroll", 4 * DIM, 0, false},
    {"reduceSmemUnrollDyn", 4 * DIM, DIM * sizeof(unsigned), false},
    {"reduceShfl", DIM, 0, false},
    {"reduceSmemUnrollShfl", 4 * DIM, 0, false},
};
constexpr int kBookCount = sizeof kBook / sizeof kBook[0];

// Device buffers for one size n; sized so that every kernel above fits.
struct Buffers {
  size_t n = 0;
  unsigned *in = nullptr, *work = nullptr, *partials = nullptr, *partials2 = nullptr, *out = nullptr;
  void* cub = nullptr;
  size_t cub_bytes = 0;
  int vec_blocks = 0;

  static size_t cub_bytes_for(size_t n) {
    size_t bytes = 0;
    CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, bytes, static_cast<const unsigned*>(nullptr),
                                      static_cast<unsigned*>(nullptr), n));
    return bytes;
  }
  // What allocate() will take, for the memory check before any allocation.
  static size_t bytes_for(size_t n, int vec_blocks) {
    return 2 * n * sizeof(unsigned) + (ceil_div(n, DIM) + vec_blocks + 1) * sizeof(unsigned) + cub_bytes_for(n);
  }
  void allocate(size_t n_, int vec_blocks_) {
    n = n_;
    vec_blocks = vec_blocks_;
    cub_bytes = cub_bytes_for(n);
    CUDA_CHECK(cudaMalloc(&in, n * sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&work, n * sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&partials, ceil_div(n, DIM) * sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&partials2, vec_blocks * sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&out, sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&cub, std::max<size_t>(cub_bytes, 1)));
  }
  void release() {
    for (void* p : {(void*)in, (void*)work, (void*)partials, (void*)partials2, (void*)out, cub}) CUDA_CHECK(cudaFree(p));
    *this = Buffers();
  }
};

// One launch of the source's kernel k over src[0..n) (for reduceGmem: b.work, restored by the caller),
// one partial per block into b.partials. Returns the number of partials.
static size_t launch_book(int k, const Buffers& b, size_t n) {
  const unsigned grid = grid_x(ceil_div(n, kBook[k].per_block));
  switch (k) {
    case 0: reduceGmem<<<grid, DIM>>>(b.work, b.partials, n); break;
    case 1: reduceSmem<<<grid, DIM>>>(b.in, b.partials, n); break;
    case 2: reduceSmemUnroll<<<grid, DIM>>>(b.in, b.partials, n); break;
    case 3: reduceSmemUnrollDyn<<<grid, DIM, kBook[k].dyn_smem>>>(b.in, b.partials, n); break;
    case 4: reduceShfl<<<grid, DIM>>>(b.in, b.partials, n); break;
    case 5: reduceSmemUnrollShfl<<<grid, DIM>>>(b.in, b.partials, n); break;
  }
  CUDA_CHECK_LAUNCH();
  return grid;
}

// Ours over src[0..count): two launches, the sum in b.out.
static void launch_ours(const Buffers& b, const unsigned* src, size_t count) {
  reduceUnrollShflVec<<<b.vec_blocks, kVecThreads>>>(src, count, b.partials2);
  CUDA_CHECK_LAUNCH();
  reduceFinal<<<1, kVecThreads>>>(b.partials2, b.vec_blocks, b.out);
  CUDA_CHECK_LAUNCH();
}

static void restore_work(const Buffers& b, size_t n) {
  CUDA_CHECK(cudaMemcpyAsync(b.work, b.in, n * sizeof(unsigned), cudaMemcpyDeviceToDevice));
}

static std::vector<unsigned> read_back(const unsigned* d, size_t count) {
  std::vector<unsigned> h(count);
  CUDA_CHECK(cudaMemcpy(h.data(), d, count * sizeof(unsigned), cudaMemcpyDeviceToHost));
  return h;
}

static unsigned read_out(const Buffers& b) {
  unsigned v = 0;
  CUDA_CHECK(cudaMemcpy(&v, b.out, sizeof v, cudaMemcpyDeviceToHost));
  return v;
}

// 004's data, uploaded in chunks (no host copy of the whole input), and what the CPU knows of it:
// the sum of every DIM-element block, the total, and the first and last values for the errata.
struct SourceData {
  std::vector<unsigned> block_sums;  // sum of elements [DIM b, DIM b + DIM)
  unsigned total = 0;
  std::vector<unsigned> head;        // elements [0, 32)
  size_t tail_start = 0;
  std::vector<unsigned> tail;        // elements [tail_start, n)
};

static SourceData upload_source_data(unsigned* d_in, size_t n) {
  SourceData s;
  s.block_sums.assign(ceil_div(n, DIM), 0u);
  s.tail_start = n > 4096 ? n - 4096 : 0;
  lesson::GlibcRand rng;
  std::vector<unsigned> chunk(std::min<size_t>(n, size_t(1) << 22));  // 2^22, or all of a smaller n
  for (size_t off = 0; off < n; off += chunk.size()) {
    const size_t len = std::min(chunk.size(), n - off);
    for (size_t i = 0; i < len; ++i) {
      const unsigned v = lesson::source_value(rng);
      const size_t e = off + i;
      chunk[i] = v;
      s.block_sums[e / DIM] += v;
      s.total += v;
      if (e < 32) s.head.push_back(v);
      if (e >= s.tail_start) s.tail.push_back(v);
    }
    CUDA_CHECK(cudaMemcpy(d_in + off, chunk.data(), len * sizeof(unsigned), cudaMemcpyHostToDevice));
  }
  return s;
}

// Does every partial equal the CPU's sum of the elements its block covers?
static bool partials_ok(const std::vector<unsigned>& got, const SourceData& s, unsigned per_block) {
  const size_t group = per_block / DIM;
  for (size_t b = 0; b < got.size(); ++b) {
    unsigned want = 0;
    for (size_t j = b * group; j < std::min(s.block_sums.size(), (b + 1) * group); ++j) want += s.block_sums[j];
    if (got[b] != want) return false;
  }
  return true;
}

// The lessons (and, with `profile_only`, only the source's kernels and ours: the launches ncu counts).
static void run_lesson(size_t n, bool profile_only, const cudaDeviceProp& prop) {
  Buffers b;
  b.allocate(n, wb::full_grid(reduceUnrollShflVec, kVecThreads, prop));
  const SourceData s = upload_source_data(b.in, n);
  lesson::print_header(n, s.total);

  lesson::print_section("1. the source's kernels; each writes one partial per block, which the host adds up, as the book does");
  for (int k = 0; k < kBookCount; ++k) {
    if (kBook[k].in_place) restore_work(b, n);
    CUDA_CHECK(cudaMemset(b.partials, 0xff, ceil_div(n, DIM) * sizeof(unsigned)));  // poison
    const size_t grid = launch_book(k, b, n);
    const std::vector<unsigned> got = read_back(b.partials, grid);
    unsigned gpu_sum = 0;
    for (unsigned p : got) gpu_sum += p;
    const bool ok = partials_ok(got, s, kBook[k].per_block);
    lesson::print_book_kernel(kBook[k].name, grid, kBook[k].dyn_smem, gpu_sum, s.total, ok);
    expect(ok && gpu_sum == s.total, std::string(kBook[k].name) + ": partials or sum differ from the CPU");
  }

  lesson::print_section("2. the whole sum on the device, one value");
  CUDA_CHECK(cudaMemset(b.out, 0xff, sizeof(unsigned)));
  launch_ours(b, b.in, n);
  const unsigned ours = read_out(b);
  lesson::print_whole("reduceUnrollShflVec + reduceFinal (ours)", ours, s.total);
  expect(ours == s.total, "reduceUnrollShflVec + reduceFinal: sum differs from the CPU");
  if (profile_only) {
    b.release();
    return;
  }
  CUDA_CHECK(cudaMemset(b.out, 0xff, sizeof(unsigned)));
  CUDA_CHECK(cub::DeviceReduce::Sum(b.cub, b.cub_bytes, b.in, b.out, n));
  const unsigned cub_sum = read_out(b);
  lesson::print_whole("cub::DeviceReduce::Sum", cub_sum, s.total);
  expect(cub_sum == s.total, "cub::DeviceReduce::Sum: sum differs from the CPU");

  lesson::print_section("3. the source's errors, run on the GPU");
  {
    // The CPU's prediction: thread tid of block blk adds its 4 values only if blk*4*DIM + tid + 4*DIM <= n,
    // which can fail only in the last two blocks, i.e. within the tail the CPU kept.
    const unsigned grid = grid_x(ceil_div(n, 4 * DIM));
    CUDA_CHECK(cudaMemset(b.partials, 0xff, grid * sizeof(unsigned)));
    reduceSmemUnrollBookGuard<<<grid, DIM>>>(b.in, b.partials, n);
    CUDA_CHECK_LAUNCH();
    unsigned gpu_sum = 0;
    for (unsigned p : read_back(b.partials, grid)) gpu_sum += p;
    unsigned lost_sum = 0;
    uint64_t lost = 0;
    for (size_t e = s.tail_start; e < n; ++e) {
      const size_t blk = e / (4 * DIM), tid = e % DIM;
      if (blk * 4 * DIM + tid + 4 * DIM > n) {
        lost_sum += s.tail[e - s.tail_start];
        ++lost;
      }
    }
    lesson::print_book_guard(grid, gpu_sum, s.total, lost);
    expect(gpu_sum == s.total - lost_sum, "the book's guard: the GPU's sum differs from the CPU's prediction");
  }
  {
    const unsigned grid = grid_x(ceil_div(n, DIM));
    CUDA_CHECK(cudaMemset(b.partials, 0xff, sizeof(unsigned)));
    reduceShfl003<<<grid, DIM>>>(b.in, b.partials, n);
    CUDA_CHECK_LAUNCH();
    const unsigned block0 = read_back(b.partials, 1)[0];
    unsigned warp0 = 0;
    for (unsigned v : s.head) warp0 += v;
    lesson::print_003_block_step(block0, warp0, s.block_sums[0]);
    expect(block0 == 32u * warp0, "003's block step: block 0 is not 32 x its warp 0's sum");
  }
  b.release();
}

// Every kernel as a whole sum of n unsigned ints into one value. The source's kernels leave
// partials; on the device, ours adds them up (time_ms - first_pass_ms). The table's time is the whole
// sum, like CUB's; first_pass_ms is the source's kernel alone, which is what 004 times (for ours,
// reduceUnrollShflVec without reduceFinal).
static void run_bench(size_t n, int reps, const std::string& csv_dir, const cudaDeviceProp& prop,
                      const wb::KernelPick& pick) {
  const unsigned seed = 2024;
  Buffers b;
  b.allocate(n, wb::full_grid(reduceUnrollShflVec, kVecThreads, prop));
  wb::fill_hash<<<4 * prop.multiProcessorCount, 256>>>(b.in, n, seed);
  CUDA_CHECK_LAUNCH();
  unsigned expected = 0;  // modulo 2^32, like the kernels
  for (size_t i = 0; i < n; ++i) expected += wb::hash32(i, seed);

  struct Variant {
    std::string name;
    std::function<void()> setup, whole, first;  // first: empty for CUB
  };
  std::vector<Variant> variants;
  auto nothing = [] {};
  for (int k = 0; k < kBookCount; ++k) {
    if (!pick(kBook[k].name)) continue;
    auto first = [&b, k, n] { launch_book(k, b, n); };
    auto whole = [&b, k, n] { launch_ours(b, b.partials, launch_book(k, b, n)); };
    std::function<void()> setup = nothing;
    if (kBook[k].in_place) setup = [&b, n] { restore_work(b, n); };
    variants.push_back({kBook[k].name, setup, whole, first});
  }
  if (pick("reduceUnrollShflVec"))
    variants.push_back({"reduceUnrollShflVec", nothing, [&b, n] { launch_ours(b, b.in, n); }, [&b, n] {
                        reduceUnrollShflVec<<<b.vec_blocks, kVecThreads>>>(b.in, n, b.partials2);
                        CUDA_CHECK_LAUNCH();
                      }});
  variants.push_back({"cub_DeviceReduce_Sum", nothing, [&b, n] {
                        CUDA_CHECK(cub::DeviceReduce::Sum(b.cub, b.cub_bytes, b.in, b.out, n));
                        CUDA_CHECK_LAUNCH();
                      }, nullptr});

  wb::BandwidthTable table({"size"}, {"first_pass_ms", "pct_of_cub"});
  const int warmup = std::min(3, reps);
  for (const auto& v : variants) {
    CUDA_CHECK(cudaMemset(b.out, 0xab, sizeof(unsigned)));  // poison, then check one whole sum
    v.setup();
    v.whole();
    const unsigned got = read_out(b);
    expect(got == expected, v.name + ": sum " + std::to_string(got) + ", CPU " + std::to_string(expected) +
                                " (n = " + std::to_string(n) + ")");
    // setup (reduceGmem's fresh copy of its input) runs before every run, outside the events.
    const wb::TimeOptions opt{warmup, reps};
    auto& row = table.add(v.name, {std::to_string(n)}, 4.0 * n + 4, wb::time_cuda(v.setup, v.whole, opt));
    if (v.first) row.extra[0] = wb::fmt(wb::time_cuda(v.setup, v.first, opt).median_ms, 4);
  }
  table.add("copy", {std::to_string(n)}, 8.0 * n, wb::time_copy(b.in, b.work, n, prop, warmup, reps, &g_failures));
  table.add("cudaMemcpy", {std::to_string(n)}, 8.0 * n, wb::time_memcpy(b.in, b.work, n, warmup, reps, &g_failures));

  double cub_ms = 0;
  for (const auto& r : table.rows())
    if (r.kernel == "cub_DeviceReduce_Sum") cub_ms = r.t.median_ms;
  for (auto& r : table.rows())
    if (r.kernel != "copy" && r.kernel != "cudaMemcpy") r.extra[1] = wb::fmt(100.0 * cub_ms / r.t.median_ms, 1);
  table.report(csv_dir, prop, "reduceInteger");
  b.release();
}

int main(int argc, char** argv) {
  wb::Args args(argc, argv,
                "usage: reduceInteger [--n N] [--bench [--reps R] [--kernel NAME] [--csv-dir DIR]] | --profile\n"
                "  (no options)  the lessons on 004's 2^24 ints, checked (the golden output)\n"
                "  --bench       also time a whole sum of N unsigned ints (default 2^28) with every kernel,\n"
                "                CUB and a copy; the table goes to stderr\n"
                "  --n N         element count: digits or 2^K, 1 <= N <= (2^31 - 1) x 128 (the book's grids);\n"
                "                without --bench the lessons' size\n"
                "                (default 2^24), with --bench the size of both the lessons and the timing\n"
                "  --reps R      timed runs per kernel, median reported (default 50)\n"
                "  --kernel NAME time only NAME (a kernel of the table) with CUB, copy and cudaMemcpy\n"
                "  --csv-dir DIR write the table to DIR/<gpu>/reduceInteger.csv\n"
                "  --profile     instead, one checked launch of each source kernel at 2^24 with the book's\n"
                "                grids, and of ours, for Nsight Compute");
  const bool bench = args.flag("--bench");
  const bool profile = args.flag("--profile");
  const uint64_t n_given = args.count("--n", 0, 1, uint64_t(1) << 40);
  const int reps = static_cast<int>(args.count("--reps", 50, 1, 100000));
  args.only_with("--bench", {"--reps", "--csv-dir"});
  std::vector<std::string> names;
  for (const auto& k : kBook) names.push_back(k.name);
  names.push_back("reduceUnrollShflVec");
  names.push_back("cub_DeviceReduce_Sum");
  const wb::KernelPick pick(args, names);
  const std::string csv_dir = args.out_dir("--csv-dir");
  args.finish();
  if (n_given > kMaxN)
    wb::bad_input("--n " + std::to_string(n_given) + " needs more than " + std::to_string(kMaxGrid) +
                  " blocks of " + std::to_string(DIM) + " (the most a grid holds) for the source's kernels: at most " +
                  std::to_string(kMaxN));
  if (profile && bench) wb::bad_input("--bench and --profile are separate runs: choose one");
  if (profile && n_given) wb::bad_input("--profile runs 004's size, 2^24: --n does not apply");
  const size_t lesson_n = n_given ? n_given : lesson::kSourceN;
  const size_t bench_n = n_given ? n_given : size_t(1) << 28;

  const cudaDeviceProp prop = wb::require_device();
  {
    const int vec_blocks = wb::full_grid(reduceUnrollShflVec, kVecThreads, prop);
    const size_t need = Buffers::bytes_for(bench ? std::max(lesson_n, bench_n) : lesson_n, vec_blocks);
    wb::require_device_memory(need + wb::timer_device_bytes(prop) + (64u << 20), "n = " + std::to_string(bench ? bench_n : lesson_n));
  }

  run_lesson(lesson_n, profile, prop);
  if (bench) run_bench(bench_n, reps, csv_dir, prop, pick);

  return wb::finish(g_failures, "checks against the CPU reference failed");
}
