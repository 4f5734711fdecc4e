// Chapter 11 — cluster histogram: distributed shared memory on Hopper, against CUB and global atomics,
// and a packed block-private histogram that beats all of them.
//
// Run:    ./build/bin/cluster_histogram             (expected stdout: expected_outputs/cluster_histogram.txt)
//         ./build/bin/cluster_histogram --bins 32768 [--cluster 2]     one case of your own
//         ./build/bin/cluster_histogram --bench [--n 2^28] [--reps 50] [--kernel NAME] [--csv-dir DIR]
//             times every method (or only NAME, beside CUB and the references) on n ints (default
//             2^28) of two inputs, `uniform` and `source`, at 256 .. 262144 bins, every cluster size
//             that fits, histPacked with 32-bit counters and each narrower width that saves a pass
//             (table to stderr; with --csv-dir, DIR/<gpu>/cluster_histogram.csv)
// Needs sm_90 (thread-block clusters); exits 77 on older GPUs. Builds for every architecture.
// Build without CMake, in this folder:
//   nvcc -std=c++17 -O3 -arch=native -DWB_MIN_SM=90 -I../../common -o cluster_histogram cluster_histogram.cu
//
// The kernels live in kernels/, one idea a file (included below, in reading order):
//   1. clusterHist_kernel  kernels/clusterHist.cuh: the source's (004 "分布式共享内存"), the bins split
//                          across the blocks of a cluster, each element added into the owning block's
//                          shared memory through cluster.map_shared_rank; cluster size 1 while the bins
//                          fit in one block, else 2, 4, 8 (portable) or 16 (non-portable)
//   2. global_atomics      kernels/baselines.cuh: one global atomicAdd per element
//   3. smem_private        kernels/baselines.cuh: a block-private shared histogram (bins that fit)
//   4. cub_HistogramEven   cub::DeviceHistogram::HistogramEven, the library peer
//   5. read_reference      cub::DeviceReduce::Sum over the benchmark's input buffer (n ints) while it
//                          holds the 256-bin `source` values (benchmark only)
//   6. copy, cudaMemcpy    common/copy.cuh: the bandwidth references (benchmark only)
//   7. histVec4            kernels/histVec4.cuh: ours, clusterHist_kernel with 16-byte loads, private
//                          copies of the bins, local shared atomics when the cluster is one block
//   8. histPacked          kernels/histPacked.cuh (+ packed_counter.cuh): ours, for any bin count,
//      + histPackedSum     32-, 16- or 8-bit counters packed in 32-bit shared words, one pass over the
//                          input per range of bins that fits, overflow carried exactly
// This file is the harness: launches (struct Hist), the printed cases, the benchmark, main().
//
// Self-check (exit 1): every bin of every kernel equals a CPU histogram of the same generated input
// (for CUB: CUB's rule, which drops out-of-range values instead of clamping them). The histograms
// accumulate with atomicAdd, so their output must start at zero: that memset is the algorithm's
// initial value, not a poison; the exact counts catch any lost or extra increment.
#include <cub/device/device_histogram.cuh>
#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "args.h"
#include "bench.h"
#include "check.h"
#include "copy.cuh"
#include "csv.h"
#include "histogram_lesson.h"
#include "report.h"
#include "timer.h"

#include "kernels/clusterHist.cuh"    // 1. clusterHist_kernel, the source's distributed shared memory
#include "kernels/baselines.cuh"      // 2. global_atomics, 3. smem_private
#include "kernels/histVec4.cuh"       // 7. histVec4
#include "kernels/packed_counter.cuh" // 8. histPacked's counter word and its carry
#include "kernels/histPacked.cuh"     // 8. histPacked, histPackedSum

// The input generator: the same values as the CPU histograms (histogram_lesson.h).
__global__ void fill_input(int* a, size_t n, int nbins, int dist) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += blockDim.x * size_t(gridDim.x))
    a[i] = lesson::value_at(i, nbins, dist);
}

using lesson::kSourceThreads;  // 512: the block of clusterHist_kernel and the baselines, our choice (histogram_lesson.h)
static int g_failures = 0;

static int log2_of(int x) {
  int l = 0;
  while ((1 << l) < x) ++l;
  return l;
}

// How histPacked runs one histogram: counter width, passes, bins per pass, grid, shared memory,
// and the scratch its blocks write.
struct PackedPlan {
  int bits = 0, passes = 0, pass_bins = 0, grid = 0, total_words = 0;
  size_t smem = 0, scratch_bytes = 0;
};

template <int kBits>
static PackedPlan packed_plan(int nbins, int grid_cap, const cudaDeviceProp& prop) {
  auto kernel = histPacked<kBits>;
  cudaFuncAttributes attr{};
  CUDA_CHECK(cudaFuncGetAttributes(&attr, kernel));
  const size_t limit = prop.sharedMemPerBlockOptin - attr.sharedSizeBytes;
  constexpr int kPer = 32 / kBits;
  PackedPlan p;
  p.bits = kBits;
  const long long cap_bins = static_cast<long long>(limit / 16) * 4 * kPer;  // the most one pass holds
  p.passes = static_cast<int>((nbins + cap_bins - 1) / cap_bins);
  p.pass_bins = (nbins + p.passes - 1) / p.passes;
  p.pass_bins = (p.pass_bins + 4 * kPer - 1) / (4 * kPer) * (4 * kPer);  // whole 16-byte vectors
  p.smem = packed_words(p.pass_bins, kBits) * sizeof(unsigned);
  CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(p.smem)));
  p.grid = grid_cap ? grid_cap : wb::full_grid(kernel, kOursThreads, prop, p.smem);
  p.total_words = (nbins + kPer - 1) / kPer;
  p.scratch_bytes = size_t(p.grid) * packed_words(nbins, kBits) * sizeof(unsigned);
  return p;
}

static PackedPlan plan_for(int bits, int nbins, int grid_cap, const cudaDeviceProp& prop) {
  switch (bits) {
    case 8: return packed_plan<8>(nbins, grid_cap, prop);
    case 16: return packed_plan<16>(nbins, grid_cap, prop);
    default: return packed_plan<32>(nbins, grid_cap, prop);
  }
}

// The widths worth running at this bin count: 32-bit always; a narrower one only where it saves a
// pass (at 32,768 bins on sm_90, 16-bit counters would still be one pass, and only wrap more).
static std::vector<int> useful_bits(int nbins, const cudaDeviceProp& prop) {
  std::vector<int> bits{32};
  int passes = plan_for(32, nbins, 1, prop).passes;
  for (int b : {16, 8}) {
    const int p = plan_for(b, nbins, 1, prop).passes;
    if (p < passes) {
      bits.push_back(b);
      passes = p;
    }
  }
  return bits;
}

struct Hist {
  const cudaDeviceProp& prop;
  int* d_bins;
  const int* d_in;
  size_t n;
  int nbins;
  int packed_grid = 0;               // 0: histPacked's persistent grid; else this many blocks
  unsigned* d_scratch = nullptr;     // histPacked's partial histograms, owned by the caller
  size_t scratch_bytes = 0;
  unsigned* d_wraps = nullptr;       // histPacked counts its counter wraps here, if set
  void* d_cub = nullptr;
  size_t cub_bytes = 0;

  size_t smem_limit() const { return prop.sharedMemPerBlockOptin; }

  // Each method below prepares one histogram method at this bin count: kernel attributes, grid
  // size and CUB's scratch are settled once, here, so that the returned launch (zero the bins,
  // then launch) is all the timed runs contain. An empty Launch: the method does not apply.
  using Launch = std::function<void()>;

  Launch zero_then(Launch launch) const {
    return [=] {
      CUDA_CHECK(cudaMemsetAsync(d_bins, 0, nbins * sizeof(int)));
      launch();
    };
  }

  // A cluster kernel through cudaLaunchKernelEx, its grid sized by cudaOccupancyMaxActiveClusters;
  // empty when this cluster size and shared memory cannot run.
  template <class... Args>
  Launch cluster_launch(void (*kernel)(Args...), int threads, size_t smem, int cluster, Args... args) const {
    if (smem > smem_limit()) return {};
    CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
    if (cluster > 8 && cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1) != cudaSuccess) {
      cudaGetLastError();  // this GPU has no non-portable cluster sizes: does not apply
      return {};
    }
    cudaLaunchAttribute attr = {};
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = cluster;
    attr.val.clusterDim.y = 1;
    attr.val.clusterDim.z = 1;
    cudaLaunchConfig_t config = {};
    config.attrs = &attr;
    config.numAttrs = 1;
    config.blockDim = threads;
    config.dynamicSmemBytes = smem;
    config.gridDim = cluster;  // the occupancy query needs a grid that is a whole number of clusters
    int clusters = 0;
    if (cudaOccupancyMaxActiveClusters(&clusters, kernel, &config) != cudaSuccess || clusters == 0) {
      cudaGetLastError();  // clear the error: "does not fit" is an answer here, not a failure
      return {};
    }
    config.gridDim = clusters * cluster;  // a persistent grid: every cluster the GPU holds at once
    return [=]() mutable {
      config.attrs = &attr;  // this copy's attribute, not the one on the preparing stack
      CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, args...));
      CUDA_CHECK_LAUNCH();
    };
  }

  static int copies_for(int bpb) {  // up to 8 copies within 48 KB
    int c = 1;
    while (c < 8 && size_t(2 * c) * bpb * sizeof(int) <= 48 * 1024) c *= 2;
    return c;
  }

  Launch source(int cluster) const {
    const int bpb = nbins / cluster;
    Launch l = cluster_launch(clusterHist_kernel, kSourceThreads, bpb * sizeof(int), cluster, d_bins, nbins, bpb, d_in, n);
    return l ? zero_then(l) : l;
  }
  Launch ours(int cluster) const {
    const int bpb = nbins / cluster, copies = copies_for(bpb);
    Launch l = cluster_launch(histVec4, kOursThreads, size_t(copies) * bpb * sizeof(int), cluster, d_bins, nbins,
                              log2_of(bpb), copies, d_in, n);
    return l ? zero_then(l) : l;
  }
  template <int kBits>
  Launch packed_t() const {
    const PackedPlan p = packed_plan<kBits>(nbins, packed_grid, prop);
    if (p.scratch_bytes > scratch_bytes) {
      std::fprintf(stderr, "internal error: histPacked needs %zu bytes of scratch, has %zu\n", p.scratch_bytes,
                   scratch_bytes);
      std::exit(wb::kFail);
    }
    const int sum_grid = (p.total_words + 255) / 256;
    unsigned* bins = reinterpret_cast<unsigned*>(d_bins);
    const int* in = d_in;
    unsigned *scratch = d_scratch, *wraps = d_wraps;
    const int nb = nbins;
    const size_t count = n;
    return zero_then([=] {
      histPacked<kBits><<<p.grid, kOursThreads, p.smem>>>(bins, nb, p.pass_bins, in, count, scratch, wraps);
      CUDA_CHECK_LAUNCH();
      histPackedSum<kBits><<<sum_grid, 256>>>(bins, nb, scratch, p.grid);
      CUDA_CHECK_LAUNCH();
    });
  }
  Launch packed(int bits) const {
    switch (bits) {
      case 8: return packed_t<8>();
      case 16: return packed_t<16>();
      default: return packed_t<32>();
    }
  }
  Launch global() const {
    const int grid = wb::full_grid(global_atomics, kSourceThreads, prop);
    return zero_then([=] {
      global_atomics<<<grid, kSourceThreads>>>(d_bins, nbins, d_in, n);
      CUDA_CHECK_LAUNCH();
    });
  }
  // Applies when the bins fit in one block: in the benchmark, this GPU's block; in the printed
  // cases, the lesson's 64 KB (lesson::private_applies), so that the output is the same everywhere.
  Launch private_smem() const {
    const size_t smem = nbins * sizeof(int);
    if (smem > smem_limit()) return {};
    CUDA_CHECK(cudaFuncSetAttribute(smem_private, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
    const int grid = wb::full_grid(smem_private, kSourceThreads, prop, smem);
    return zero_then([=] {
      smem_private<<<grid, kSourceThreads, smem>>>(d_bins, nbins, d_in, n);
      CUDA_CHECK_LAUNCH();
    });
  }
  static size_t cub_temp_bytes(int nbins, size_t n) {
    size_t bytes = 0;
    CUDA_CHECK(cub::DeviceHistogram::HistogramEven(static_cast<void*>(nullptr), bytes, static_cast<const int*>(nullptr),
                                                   static_cast<int*>(nullptr), nbins + 1, 0, nbins, int64_t(n)));
    return bytes;
  }
  Launch cub_even() {
    const size_t bytes = cub_temp_bytes(nbins, n);
    if (bytes > cub_bytes) {
      if (d_cub) CUDA_CHECK(cudaFree(d_cub));
      CUDA_CHECK(cudaMalloc(&d_cub, bytes));
      cub_bytes = bytes;
    }
    return zero_then([=] {
      size_t b = bytes;
      CUDA_CHECK(cub::DeviceHistogram::HistogramEven(d_cub, b, d_in, d_bins, nbins + 1, 0, nbins, int64_t(n)));
      CUDA_CHECK_LAUNCH();
    });
  }
  void release() {
    if (d_cub) CUDA_CHECK(cudaFree(d_cub));
    d_cub = nullptr;
    cub_bytes = 0;
  }

  std::vector<uint32_t> result() const {
    std::vector<uint32_t> h(nbins);
    CUDA_CHECK(cudaMemcpy(h.data(), d_bins, nbins * sizeof(int), cudaMemcpyDeviceToHost));
    return h;
  }
};

struct Buffers {
  int* d_in = nullptr;
  int* d_bins = nullptr;
  Buffers(size_t n, int max_bins) {
    CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_bins, size_t(max_bins) * sizeof(int)));
  }
  ~Buffers() {
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_bins));
  }
  void fill(size_t n, int nbins, int dist, const cudaDeviceProp& prop) {
    fill_input<<<4 * prop.multiProcessorCount, 256>>>(d_in, n, nbins, dist);
    CUDA_CHECK_LAUNCH();
  }
};

// Runs work(begin, end, t) over [0, n) split into one contiguous range per CPU thread.
template <class Work>
static int parallel_ranges(uint64_t n, Work&& work) {
  const int workers = static_cast<int>(std::max(1u, std::min(32u, std::thread::hardware_concurrency())));
  std::vector<std::thread> threads;
  for (int t = 0; t < workers; ++t) threads.emplace_back([&, t] { work(n * t / workers, n * (t + 1) / workers, t); });
  for (auto& th : threads) th.join();
  return workers;
}

// The CPU histograms of a benchmark input (2^28 values): the lesson's loop, split over threads.
static lesson::CpuHist cpu_histogram_parallel(uint64_t n, int nbins, int dist) {
  std::vector<lesson::CpuHist> part(32);
  const int workers = parallel_ranges(n, [&](uint64_t begin, uint64_t end, int t) {
    part[t].clamped.assign(nbins, 0);
    part[t].dropped.assign(nbins, 0);
    lesson::cpu_histogram_range(begin, end, nbins, dist, part[t].clamped.data(), part[t].dropped.data());
  });
  lesson::CpuHist h{std::vector<uint32_t>(nbins, 0), std::vector<uint32_t>(nbins, 0)};
  for (int t = 0; t < workers; ++t)
    for (int b = 0; b < nbins; ++b) {
      h.clamped[b] += part[t].clamped[b];
      h.dropped[b] += part[t].dropped[b];
    }
  return h;
}

// The sum of the input's values, for read_reference's check.
static long long cpu_sum_parallel(uint64_t n, int nbins, int dist) {
  std::vector<long long> part(32, 0);
  const int workers = parallel_ranges(n, [&](uint64_t begin, uint64_t end, int t) {
    long long s = 0;
    for (uint64_t i = begin; i < end; ++i) s += lesson::value_at(i, nbins, dist);
    part[t] = s;
  });
  long long s = 0;
  for (int t = 0; t < workers; ++t) s += part[t];
  return s;
}

// The printed cases' cluster launches, tried before anything is printed: a GPU that cannot run one
// (too little shared memory per block, or no cluster of 16) skips the whole lesson with the reason,
// so that stdout is either the golden output or nothing.
static void require_lesson_clusters(const std::vector<lesson::Case>& cases, const cudaDeviceProp& prop) {
  for (const auto& c : cases) {
    Hist h{prop, nullptr, nullptr, lesson::kLessonN, c.bins};
    if (h.source(c.cluster) && h.ours(c.cluster)) continue;
    const size_t bytes = size_t(c.bins / c.cluster) * sizeof(int);
    wb::skip("the printed case of " + std::to_string(c.bins) + " bins in a cluster of " + std::to_string(c.cluster) +
             " needs " + std::to_string(bytes) + " bytes of shared memory per block" +
             (c.cluster > 8 ? " and a non-portable cluster size" : "") + "; this GPU (" + prop.name + ", " +
             wb::sm_of(prop) + ") cannot launch it (" + std::to_string(prop.sharedMemPerBlockOptin) +
             " bytes per block)");
  }
}

static void run_case(const lesson::Case& c, const cudaDeviceProp& prop) {
  const size_t n = lesson::kLessonN;
  Buffers buf(n, c.bins);
  buf.fill(n, c.bins, c.dist, prop);
  unsigned* d_wraps = nullptr;
  CUDA_CHECK(cudaMalloc(&d_wraps, sizeof(unsigned)));
  size_t scratch = 0;
  for (int bits : lesson::kPackedBits)
    scratch = std::max(scratch, plan_for(bits, c.bins, lesson::kLessonBlocks, prop).scratch_bytes);
  unsigned* d_scratch = nullptr;
  CUDA_CHECK(cudaMalloc(&d_scratch, scratch));
  Hist h{prop, buf.d_bins, buf.d_in, n, c.bins, lesson::kLessonBlocks, d_scratch, scratch, d_wraps};
  const lesson::CpuHist cpu = lesson::cpu_histogram(n, c.bins, c.dist);

  const Hist::Launch source = h.source(c.cluster);
  if (!source) {  // require_lesson_clusters or main's checks rule this out
    std::fprintf(stderr, "clusterHist_kernel cannot run %d bins in a cluster of %d\n", c.bins, c.cluster);
    std::exit(wb::kFail);
  }
  source();
  const auto got = h.result();
  lesson::print_case(c, n, got, cpu.dropped);
  auto report = [&](const char* name, const Hist::Launch& launch, const std::vector<uint32_t>& expect, const char* rule) {
    launch();
    const bool ok = h.result() == expect;
    if (!ok) ++g_failures;
    lesson::print_check(name, ok, rule);
  };
  const bool ok = got == cpu.clamped;
  if (!ok) ++g_failures;
  lesson::print_check("clusterHist_kernel", ok, "clamped");
  report("histVec4", h.ours(c.cluster), cpu.clamped, "clamped");
  for (int bits : lesson::kPackedBits) {
    CUDA_CHECK(cudaMemset(d_wraps, 0, sizeof(unsigned)));
    h.packed(bits)();
    unsigned wraps = 0;
    CUDA_CHECK(cudaMemcpy(&wraps, d_wraps, sizeof wraps, cudaMemcpyDeviceToHost));
    const PackedPlan p = plan_for(bits, c.bins, lesson::kLessonBlocks, prop);
    std::fprintf(stderr, "  (histPacked %d-bit, %d bins: %d pass%s of %d bins, %u wraps)\n", bits, c.bins, p.passes,
                 p.passes == 1 ? "" : "es", p.pass_bins, wraps);
    const bool must = lesson::must_wrap(cpu.dropped, bits);
    if (must && wraps == 0)
      std::fprintf(stderr, "FAIL: histPacked %d-bit reported no counter wrap, but a bin has more in-range hits "
                   "than %d blocks of %d-bit counters hold\n", bits, lesson::kLessonBlocks, bits);
    const bool pass = h.result() == cpu.clamped && (!must || wraps > 0);
    if (!pass) ++g_failures;
    lesson::print_packed_check(bits, pass, must);
  }
  report("global_atomics", h.global(), cpu.clamped, "clamped");
  if (lesson::private_applies(c.bins)) report("smem_private", h.private_smem(), cpu.clamped, "clamped");
  else lesson::print_not_applicable("smem_private");
  report("cub_HistogramEven", h.cub_even(), cpu.dropped, "out-of-range dropped");
  h.release();
  CUDA_CHECK(cudaFree(d_scratch));
  CUDA_CHECK(cudaFree(d_wraps));
}

constexpr int kBenchBins[] = {256, 1024, 4096, 16384, 32768, 65536, 131072, 262144};
// --small, the sanitizers' run (racecheck checks shared-memory accesses, and by count, zeroing and
// reading out a persistent grid's shared bins makes far more of them at large bin counts than the
// values counted): three cases (two printed ones, and 4096 bins in a cluster of 16, which the golden
// output does not print) that between them reach every kernel and launch path (one-block and remote
// cluster atomics, the non-portable cluster of 16, smem_private, histPacked's multi-pass and its 16-
// and 8-bit carries, CUB; not the 16-bit carry into a full neighbouring counter, which needs bin 3's
// counter at exactly 65,535 at one of bin 2's four 16-bit wraps), and a bench of the smallest bin
// count only (every method, every cluster size, both inputs, histPacked on a full grid).
constexpr lesson::Case kSmallCases[] = {{256, 1, lesson::kSource}, {4096, 16, lesson::kUniform}, {262144, 8, lesson::kHot}};
static int g_bench_max_bins = 262144;
constexpr int kBenchDists[] = {lesson::kUniform, lesson::kSource};

// Everything the benchmark allocates at once: input, copy output, bins, histPacked's scratch (the
// largest plan), CUB's scratch (the largest bin count) and the reduction's.
static size_t bench_scratch_bytes(const cudaDeviceProp& prop) {
  size_t s = 0;
  for (int nbins : kBenchBins)
    for (int bits : useful_bits(nbins, prop)) s = std::max(s, plan_for(bits, nbins, 0, prop).scratch_bytes);
  return s;
}
static size_t bench_bytes(size_t n, const cudaDeviceProp& prop) {
  size_t cub = 0;
  for (int nbins : kBenchBins) cub = std::max(cub, Hist::cub_temp_bytes(nbins, n));
  size_t reduce = 0;
  CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, reduce, static_cast<const int*>(nullptr), static_cast<long long*>(nullptr),
                                    int64_t(n)));
  return 2 * n * sizeof(int) + 262144 * sizeof(int) + bench_scratch_bytes(prop) + cub + reduce + sizeof(long long);
}

static void run_bench(const cudaDeviceProp& prop, size_t n, int reps, const std::string& csv_dir,
                      const wb::KernelPick& pick) {
  const int warmup = std::min(3, reps - 1);  // none for a one-run smoke test (the sanitizers' small bench)
  Buffers buf(n, 262144);
  wb::BandwidthTable table({"size", "dist", "bins", "cluster"}, {"counter_bits", "passes"});
  const std::string size = std::to_string(n);
  const double bytes = 4.0 * n;

  // The references: copy (read + write n ints each) and the pure read, over the same input.
  buf.fill(n, 256, lesson::kSource, prop);
  {
    unsigned* d_copy = nullptr;
    CUDA_CHECK(cudaMalloc(&d_copy, n * sizeof(int)));
    table.add("copy", {size, "", "", ""}, 8.0 * n,
              wb::time_copy(reinterpret_cast<const unsigned*>(buf.d_in), d_copy, n, prop, warmup, reps, &g_failures));
    table.add("cudaMemcpy", {size, "", "", ""}, 8.0 * n,
              wb::time_memcpy(reinterpret_cast<const unsigned*>(buf.d_in), d_copy, n, warmup, reps, &g_failures));
    CUDA_CHECK(cudaFree(d_copy));
    long long* d_sum = nullptr;
    void* d_temp = nullptr;
    size_t temp = 0;
    CUDA_CHECK(cudaMalloc(&d_sum, sizeof(long long)));
    CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, temp, buf.d_in, d_sum, int64_t(n)));
    CUDA_CHECK(cudaMalloc(&d_temp, temp));
    auto sum = [&] { CUDA_CHECK(cub::DeviceReduce::Sum(d_temp, temp, buf.d_in, d_sum, int64_t(n))); };
    CUDA_CHECK(cudaMemset(d_sum, 0xff, sizeof(long long)));
    sum();
    long long got = 0;
    CUDA_CHECK(cudaMemcpy(&got, d_sum, sizeof got, cudaMemcpyDeviceToHost));
    const long long expect = cpu_sum_parallel(n, 256, lesson::kSource);
    if (got != expect) {
      std::fprintf(stderr, "MISMATCH: read_reference sum %lld, CPU %lld\n", got, expect);
      ++g_failures;
    }
    table.add("read_reference", {size, "", "", ""}, bytes, wb::time_cuda(sum, warmup, reps));
    CUDA_CHECK(cudaFree(d_sum));
    CUDA_CHECK(cudaFree(d_temp));
  }

  const size_t scratch = bench_scratch_bytes(prop);
  unsigned* d_scratch = nullptr;
  CUDA_CHECK(cudaMalloc(&d_scratch, scratch));
  for (int dist : kBenchDists) {
    for (int nbins : kBenchBins) {
      if (nbins > g_bench_max_bins) continue;
      buf.fill(n, nbins, dist, prop);
      Hist h{prop, buf.d_bins, buf.d_in, n, nbins, 0, d_scratch, scratch, nullptr};
      const lesson::CpuHist cpu = cpu_histogram_parallel(n, nbins, dist);
      const std::string b = std::to_string(nbins), d = lesson::dist_name(dist);
      // Time it, then check the histogram its last timed run left (every run zeroes the bins first,
      // as every histogram must): one launch per row when --reps 1, for the sanitizers.
      auto measure = [&](const std::string& name, const std::string& cluster, const Hist::Launch& launch,
                         const std::vector<uint32_t>& expect) -> wb::BandwidthTable::Row* {
        if (!launch) return nullptr;  // does not fit: no row
        if (!pick(name) && name != "cub_HistogramEven") return nullptr;  // CUB: the peer, always timed
        const wb::Timing t = wb::time_cuda(launch, warmup, reps);
        if (h.result() != expect) {
          std::fprintf(stderr, "MISMATCH: %s, %s input, %d bins, cluster %s\n", name.c_str(), d.c_str(), nbins,
                       cluster.c_str());
          ++g_failures;
        }
        return &table.add(name, {size, d, b, cluster}, bytes, t);
      };
      measure("global_atomics", "", h.global(), cpu.clamped);
      measure("smem_private", "1", h.private_smem(), cpu.clamped);
      measure("cub_HistogramEven", "", h.cub_even(), cpu.dropped);
      for (int cs : {1, 2, 4, 8, 16}) {
        if (nbins % cs) continue;
        measure("clusterHist_kernel", std::to_string(cs), h.source(cs), cpu.clamped);
        measure("histVec4", std::to_string(cs), h.ours(cs), cpu.clamped);
      }
      for (int bits : useful_bits(nbins, prop)) {
        wb::BandwidthTable::Row* r = measure("histPacked", "", h.packed(bits), cpu.clamped);
        if (r) r->extra = {std::to_string(bits), std::to_string(plan_for(bits, nbins, 0, prop).passes)};
      }
      h.release();
      std::fprintf(stderr, "%s input, %d bins done\n", d.c_str(), nbins);
    }
  }
  CUDA_CHECK(cudaFree(d_scratch));
  table.report(csv_dir, prop, "cluster_histogram");
}

int main(int argc, char** argv) {
  wb::Args args(argc, argv,
                "usage: cluster_histogram [--bins B [--cluster C] | --small] [--bench [--n N] [--reps R]\n"
                "                          [--kernel NAME] [--csv-dir DIR]]\n"
                "  (no options)  the printed cases, every method checked (the golden output)\n"
                "  --bins B      instead, one case of B bins (a power of two, 2 .. 2^24) of the `source` (clamped) input\n"
                "  --cluster C   its cluster size (1, 2, 4, 8 or 16, at most B; default: the smallest that fits)\n"
                "  --small       the sanitizers' run: 3 cases that reach every kernel; --bench at 256 bins only\n"
                "  --bench       also time every method on N ints of two inputs at 256 .. 262144 bins\n"
                "  --n N         the benchmark's input size: digits or 2^K, 1 .. 2^31 - 1 (default 2^28)\n"
                "  --reps R      timed runs per row, median reported (default 50)\n"
                "  --kernel NAME time only NAME (a method of the table) beside cub_HistogramEven, copy,\n"
                "                cudaMemcpy and read_reference\n"
                "  --csv-dir DIR write DIR/<gpu>/cluster_histogram.csv");
  const int bins = static_cast<int>(args.count("--bins", 0, 2, 1 << 24));
  const int cluster = static_cast<int>(args.count("--cluster", 0, 1, 16));
  const bool small = args.flag("--small");
  const bool bench = args.flag("--bench");
  const size_t n = args.count("--n", size_t(1) << 28, 1, (uint64_t(1) << 31) - 1);  // counts fit in an int
  const int reps = static_cast<int>(args.count("--reps", 50, 1, 100000));
  args.only_with("--bench", {"--n", "--reps", "--csv-dir"});
  args.only_with("--bins", {"--cluster"});
  const wb::KernelPick pick(args, {"global_atomics", "smem_private", "cub_HistogramEven", "clusterHist_kernel",
                                   "histVec4", "histPacked"});
  const std::string csv_dir = args.out_dir("--csv-dir");
  args.finish();
  if (small && bins) wb::bad_input("--small and --bins choose the cases: give one of them");
  if (small) g_bench_max_bins = kBenchBins[0];
  if (bins && (bins & (bins - 1))) wb::bad_input("--bins must be a power of two (the bins split evenly over a cluster)");
  if (cluster && (cluster & (cluster - 1))) wb::bad_input("--cluster must be 1, 2, 4, 8 or 16");
  if (cluster > bins && bins)
    wb::bad_input("--cluster " + std::to_string(cluster) + " is more blocks than --bins " + std::to_string(bins) +
                  " has bins: every block of a cluster holds at least one");

  const cudaDeviceProp prop = wb::require_device();
  std::vector<lesson::Case> cases(std::begin(lesson::kCases), std::end(lesson::kCases));
  if (bins) {
    const size_t per_block_limit = prop.sharedMemPerBlockOptin / sizeof(int);
    int cs = cluster;
    if (!cs)
      for (cs = 1; cs < 16 && size_t(bins / cs) > per_block_limit; cs *= 2) {}
    if (size_t(bins) > 16 * per_block_limit)
      wb::bad_input(std::to_string(bins) + " bins need " + std::to_string(size_t(bins) * 4) +
                    " bytes of shared memory: more than a 16-block cluster holds (16 x " +
                    std::to_string(prop.sharedMemPerBlockOptin) + " bytes on this GPU)");
    if (size_t(bins / cs) > per_block_limit)
      wb::bad_input(std::to_string(bins) + " bins do not fit in a cluster of " + std::to_string(cs) + " (" +
                    std::to_string(prop.sharedMemPerBlockOptin) + " bytes per block)");
    Hist probe{prop, nullptr, nullptr, lesson::kLessonN, bins};
    if (!probe.source(cs) || !probe.ours(cs))
      wb::bad_input("this GPU (" + std::string(prop.name) + ") cannot launch a cluster of " + std::to_string(cs) +
                    " blocks with " + std::to_string(size_t(bins / cs) * 4) + " bytes of shared memory each");
    cases = {{bins, cs, lesson::kSource}};
  } else {
    if (small) cases.assign(std::begin(kSmallCases), std::end(kSmallCases));
    require_lesson_clusters(cases, prop);
  }
  size_t lesson_bytes = 0;  // per case: input, bins, histPacked's scratch, CUB's scratch, the wrap counter
  for (const auto& c : cases) {
    size_t scratch = 0;
    for (int b : lesson::kPackedBits) scratch = std::max(scratch, plan_for(b, c.bins, lesson::kLessonBlocks, prop).scratch_bytes);
    lesson_bytes = std::max(lesson_bytes, lesson::kLessonN * sizeof(int) + size_t(c.bins) * sizeof(int) + scratch +
                                              Hist::cub_temp_bytes(c.bins, lesson::kLessonN) + sizeof(unsigned));
  }
  wb::require_device_memory(lesson_bytes, "the printed cases");
  if (bench)
    wb::require_device_memory(bench_bytes(n, prop) + wb::timer_device_bytes(prop), "--bench with --n " + std::to_string(n));

  std::printf("== histograms of %llu generated ints per case; values outside [0, bins) clamp to the end bins ==\n",
              (unsigned long long)lesson::kLessonN);
  std::printf("== histPacked runs on %d blocks here, so a bin with over %d x 65535 in-range hits must overflow ==\n",
              lesson::kLessonBlocks, lesson::kLessonBlocks);
  for (const auto& c : cases) run_case(c, prop);
  if (bench) run_bench(prop, n, reps, csv_dir, pick);
  return wb::finish(g_failures, "checks against the CPU histogram failed");
}
