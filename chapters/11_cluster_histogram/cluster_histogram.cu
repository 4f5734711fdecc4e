// Chapter 11 — cluster histogram: distributed shared memory on Hopper, against CUB and global atomics.
//
// Run:    ./build/bin/cluster_histogram             (expected stdout: expected_outputs/cluster_histogram.txt)
//         ./build/bin/cluster_histogram --bins 32768 [--cluster 2]     one case of your own
//         ./build/bin/cluster_histogram --bench [--reps 50] [--csv-dir DIR]
//             times every method for n = 2^28 ints and 256 .. 262144 bins, every cluster size that
//             fits (table to stderr; with --csv-dir, DIR/<gpu>/cluster_histogram.csv)
// Needs sm_90 (thread-block clusters); exits 77 on older GPUs.
//
// Kernels:
//   1. clusterHist_kernel  the source's (004 "分布式共享内存"): the bins are split across the
//                          blocks of a cluster; each element is counted with an atomicAdd into the
//                          owning block's shared memory, reached with cluster.map_shared_rank;
//                          cluster.sync() before and after; then one atomicAdd per bin into global.
//                          Cluster size 1 while the bins fit in one block, else 2, 4, 8 (portable)
//                          or 16 (cudaFuncAttributeNonPortableClusterSizeAllowed).
//   2. global_atomics      one global atomicAdd per element
//   3. smem_private        a block-private shared histogram (only when the bins fit in one block)
//   4. cub_HistogramEven   cub::DeviceHistogram::HistogramEven, the library peer
//   5. read_reference      cub::DeviceReduce::Sum over the same input: the read bandwidth that
//                          bounds any histogram (benchmark only)
//   6. copy                common/copy.cuh, the bandwidth reference (benchmark only)
//   7. histVec4            ours: clusterHist_kernel with 16-byte loads, 8 elements in flight per
//                          thread, up to 8 private copies of the bins per block (fewer collisions
//                          on hot bins), local shared atomics when the cluster is one block
//   8. histVec4_multipass  ours, for bins that do not fit in one block: histVec4 with cluster 1,
//                          once per range of bins that does fit, re-reading the input each pass
//
// Self-check (exit 1): every bin of every kernel equals a CPU histogram of the same generated input
// (for CUB: CUB's rule, which drops out-of-range values instead of clamping them). The histograms
// accumulate with atomicAdd, so their output must start at zero: that memset is the algorithm's
// initial value, not a poison; the exact counts catch any lost or extra increment.
#include <cooperative_groups.h>
#include <cub/device/device_histogram.cuh>
#include <cub/device/device_reduce.cuh>

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "args.h"
#include "check.h"
#include "copy.cuh"
#include "csv.h"
#include "histogram_lesson.h"
#include "timer.h"

namespace cg = cooperative_groups;

// 1. The source's kernel. Changes: the thread index is computed in size_t (the source's int
// overflows past 2^31 elements) from blockIdx/threadIdx, and bins are clamped as it describes.
__global__ void clusterHist_kernel(int* bins, const int nbins, const int bins_per_block,
                                   const int* __restrict__ input, size_t array_size) {
  extern __shared__ int smem[];
  const size_t tid = blockIdx.x * size_t(blockDim.x) + threadIdx.x;

  cg::cluster_group cluster = cg::this_cluster();

  for (int i = threadIdx.x; i < bins_per_block; i += blockDim.x) smem[i] = 0;

  // Every block's bins are zero, and every block of the cluster is running, before anyone
  // writes into anyone else's shared memory.
  cluster.sync();

  for (size_t i = tid; i < array_size; i += blockDim.x * size_t(gridDim.x)) {
    const int binid = lesson::clamp_bin(input[i], nbins);
    // The block that owns this bin, and the bin's place in that block's shared memory.
    const int dst_block_rank = binid / bins_per_block;
    const int dst_offset = binid % bins_per_block;
    int* dst_smem = cluster.map_shared_rank(smem, dst_block_rank);
    atomicAdd(dst_smem + dst_offset, 1);
  }

  // All distributed-shared-memory updates are done, and no block exits (freeing its shared
  // memory) while another may still be adding into it.
  cluster.sync();

  int* lbins = bins + cluster.block_rank() * bins_per_block;
  for (int i = threadIdx.x; i < bins_per_block; i += blockDim.x) atomicAdd(&lbins[i], smem[i]);
}

// 2. The baseline every histogram is compared with: one global atomic per element (L2 atomics).
__global__ void global_atomics(int* bins, int nbins, const int* __restrict__ input, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += blockDim.x * size_t(gridDim.x))
    atomicAdd(&bins[lesson::clamp_bin(input[i], nbins)], 1);
}

// 3. The classic: each block counts into its own shared histogram, then adds it to global.
__global__ void smem_private(int* bins, int nbins, const int* __restrict__ input, size_t n) {
  extern __shared__ int smem[];
  for (int i = threadIdx.x; i < nbins; i += blockDim.x) smem[i] = 0;
  __syncthreads();
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += blockDim.x * size_t(gridDim.x))
    atomicAdd(&smem[lesson::clamp_bin(input[i], nbins)], 1);
  __syncthreads();
  for (int i = threadIdx.x; i < nbins; i += blockDim.x)
    if (smem[i]) atomicAdd(&bins[i], smem[i]);
}

// 7. Ours. The histogram is bound by reading n*4 bytes if the atomics keep up. So: 16-byte loads,
// two of them in flight per thread per iteration; `copies` private copies of the block's bins
// (warp w counts into copy w % copies), which spreads hot bins over more addresses; and, when the
// cluster is a single block, plain shared-memory atomics instead of the generic address that
// map_shared_rank returns. bins_per_block is a power of two: shifts, not divisions. One launch
// counts the bins [bin_lo, bin_lo + cluster size * bins_per_block) and skips the rest: all of them
// for a single launch, one range per pass for histVec4_multipass.
constexpr int kOursThreads = 1024;
__global__ void __launch_bounds__(kOursThreads)
histVec4(int* bins, int nbins, int bin_lo, int bpb_log2, int copies, const int* __restrict__ input, size_t n) {
  extern __shared__ int smem[];
  cg::cluster_group cluster = cg::this_cluster();
  const int bpb = 1 << bpb_log2;
  const bool one_block = cluster.num_blocks() == 1;
  for (int i = threadIdx.x; i < copies * bpb; i += kOursThreads) smem[i] = 0;
  cluster.sync();

  const int copy_base = ((threadIdx.x / 32) % copies) << bpb_log2;
  const unsigned range = unsigned(cluster.num_blocks()) << bpb_log2;
  auto count = [&](int v) {
    const int b = lesson::clamp_bin(v, nbins) - bin_lo;
    if (unsigned(b) >= range) return;  // another pass counts it
    if (one_block) {
      atomicAdd(&smem[copy_base + b], 1);
    } else {
      int* dst = cluster.map_shared_rank(smem, b >> bpb_log2);
      atomicAdd(dst + copy_base + (b & (bpb - 1)), 1);
    }
  };
  const int4* in4 = reinterpret_cast<const int4*>(input);  // cudaMalloc: 256-byte aligned
  const size_t n4 = n / 4, stride = size_t(gridDim.x) * kOursThreads;
  size_t i = blockIdx.x * size_t(kOursThreads) + threadIdx.x;
  for (; i + stride < n4; i += 2 * stride) {
    const int4 a = in4[i], b = in4[i + stride];
    count(a.x); count(a.y); count(a.z); count(a.w);
    count(b.x); count(b.y); count(b.z); count(b.w);
  }
  for (; i < n4; i += stride) {
    const int4 a = in4[i];
    count(a.x); count(a.y); count(a.z); count(a.w);
  }
  const size_t t = 4 * n4 + blockIdx.x * size_t(kOursThreads) + threadIdx.x;  // the last n % 4
  if (t < n) count(input[t]);
  cluster.sync();

  int* lbins = bins + bin_lo + (size_t(cluster.block_rank()) << bpb_log2);
  for (int j = threadIdx.x; j < bpb; j += kOursThreads) {
    int s = 0;
    for (int c = 0; c < copies; ++c) s += smem[(c << bpb_log2) + j];
    if (s) atomicAdd(&lbins[j], s);
  }
}

__global__ void fill_input(int* a, size_t n, int nbins, int pad) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += blockDim.x * size_t(gridDim.x))
    a[i] = lesson::value_at(i, nbins, pad);
}

// ---------------------------------------------------------------------------------------------

constexpr int kSourceThreads = 512;
static int g_failures = 0;

static int log2_of(int x) {
  int l = 0;
  while ((1 << l) < x) ++l;
  return l;
}

struct Hist {
  const cudaDeviceProp& prop;
  int* d_bins;
  const int* d_in;
  size_t n;
  int nbins;
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
    if (cluster > 8) CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
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

  bool fits_one_block() const { return size_t(nbins) * sizeof(int) <= smem_limit(); }

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
    Launch l = cluster_launch(histVec4, kOursThreads, size_t(copies) * bpb * sizeof(int), cluster, d_bins, nbins, 0,
                              log2_of(bpb), copies, d_in, n);
    return l ? zero_then(l) : l;
  }
  // The widest power-of-two range of bins one block holds.
  int pass_bins() const {
    int b = 1;
    while (size_t(2 * b) * sizeof(int) <= smem_limit()) b *= 2;
    return b;
  }
  Launch multipass() const {
    if (nbins <= pass_bins()) return {};  // one pass: that is histVec4 with cluster 1
    const int width = pass_bins();
    std::vector<Launch> passes;
    for (int lo = 0; lo < nbins; lo += width) {
      passes.push_back(cluster_launch(histVec4, kOursThreads, width * sizeof(int), 1, d_bins, nbins, lo,
                                      log2_of(width), 1, d_in, n));
      if (!passes.back()) return {};
    }
    return zero_then([passes] {
      for (const auto& pass : passes) pass();
    });
  }
  Launch global() const {
    const int grid = wb::full_grid(global_atomics, kSourceThreads, prop);
    return zero_then([=] {
      global_atomics<<<grid, kSourceThreads>>>(d_bins, nbins, d_in, n);
      CUDA_CHECK_LAUNCH();
    });
  }
  Launch private_smem() const {
    if (!fits_one_block()) return {};
    const size_t smem = nbins * sizeof(int);
    CUDA_CHECK(cudaFuncSetAttribute(smem_private, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
    const int grid = wb::full_grid(smem_private, kSourceThreads, prop, smem);
    return zero_then([=] {
      smem_private<<<grid, kSourceThreads, smem>>>(d_bins, nbins, d_in, n);
      CUDA_CHECK_LAUNCH();
    });
  }
  Launch cub_even() {
    size_t bytes = 0;
    CUDA_CHECK(cub::DeviceHistogram::HistogramEven(nullptr, bytes, d_in, d_bins, nbins + 1, 0, nbins, int64_t(n)));
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
  void fill(size_t n, int nbins, const cudaDeviceProp& prop) {
    fill_input<<<4 * prop.multiProcessorCount, 256>>>(d_in, n, nbins, lesson::pad_of(nbins));
    CUDA_CHECK_LAUNCH();
  }
};

static bool same(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) { return a == b; }

static void run_case(const lesson::Case& c, const cudaDeviceProp& prop) {
  const size_t n = lesson::kLessonN;
  Buffers buf(n, c.bins);
  buf.fill(n, c.bins, prop);
  Hist h{prop, buf.d_bins, buf.d_in, n, c.bins};
  const auto want = lesson::cpu_histogram(n, c.bins, true);
  const auto want_cub = lesson::cpu_histogram(n, c.bins, false);

  const Hist::Launch source = h.source(c.cluster);
  if (!source) {
    std::fprintf(stderr, "clusterHist_kernel cannot run %d bins in a cluster of %d\n", c.bins, c.cluster);
    ++g_failures;
    return;
  }
  source();
  const auto got = h.result();
  lesson::print_case(c, n, got);
  auto report = [&](const char* name, const Hist::Launch& launch, const std::vector<uint32_t>& expect, const char* rule) {
    if (!launch) {
      lesson::print_not_applicable(name);
      return;
    }
    launch();
    const bool ok = same(h.result(), expect);
    if (!ok) ++g_failures;
    lesson::print_check(name, ok, rule);
  };
  const bool ok = same(got, want);
  if (!ok) ++g_failures;
  lesson::print_check("clusterHist_kernel", ok, "clamped");
  report("histVec4", h.ours(c.cluster), want, "clamped");
  report("histVec4_multipass", h.multipass(), want, "clamped");
  report("global_atomics", h.global(), want, "clamped");
  report("smem_private", h.private_smem(), want, "clamped");
  report("cub_HistogramEven", h.cub_even(), want_cub, "out-of-range dropped");
  if (h.d_cub) CUDA_CHECK(cudaFree(h.d_cub));
}

static void run_bench(const cudaDeviceProp& prop, int reps, const std::string& csv_dir) {
  const size_t n = size_t(1) << 28;
  const int kBins[] = {256, 1024, 4096, 16384, 32768, 65536, 131072, 262144};
  const int warmup = std::min(3, reps);
  Buffers buf(n, 262144);
  wb::BandwidthTable table({"size", "bins", "cluster"});
  const std::string size = std::to_string(n);
  const double bytes = 4.0 * n;

  // The references: copy (read + write 1 GiB each) and the pure read, over the same input.
  buf.fill(n, 256, prop);
  {
    unsigned* d_copy = nullptr;
    CUDA_CHECK(cudaMalloc(&d_copy, n * sizeof(int)));
    table.add("copy", {size, "", ""}, 8.0 * n,
              wb::time_copy(reinterpret_cast<const unsigned*>(buf.d_in), d_copy, n, prop, warmup, reps, &g_failures));
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
    long long got = 0, expect = 0;
    CUDA_CHECK(cudaMemcpy(&got, d_sum, sizeof got, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < n; ++i) expect += lesson::value_at(i, 256, lesson::pad_of(256));
    if (got != expect) {
      std::fprintf(stderr, "MISMATCH: read_reference sum %lld, CPU %lld\n", got, expect);
      ++g_failures;
    }
    table.add("read_reference", {size, "", ""}, bytes, wb::time_cuda(sum, warmup, reps));
    CUDA_CHECK(cudaFree(d_sum));
    CUDA_CHECK(cudaFree(d_temp));
  }

  for (int nbins : kBins) {
    buf.fill(n, nbins, prop);
    Hist h{prop, buf.d_bins, buf.d_in, n, nbins};
    const auto want = lesson::cpu_histogram(n, nbins, true);
    const auto want_cub = lesson::cpu_histogram(n, nbins, false);
    const std::string b = std::to_string(nbins);
    // Check one run, then time it (each run zeroes the bins, as every histogram must).
    auto measure = [&](const std::string& name, const std::string& cluster, const Hist::Launch& launch,
                       const std::vector<uint32_t>& expect) {
      if (!launch) return;  // does not fit: no row
      launch();
      if (h.result() != expect) {
        std::fprintf(stderr, "MISMATCH: %s, %d bins, cluster %s\n", name.c_str(), nbins, cluster.c_str());
        ++g_failures;
      }
      table.add(name, {size, b, cluster}, bytes, wb::time_cuda(launch, warmup, reps));
    };
    measure("global_atomics", "", h.global(), want);
    measure("smem_private", "1", h.private_smem(), want);
    measure("cub_HistogramEven", "", h.cub_even(), want_cub);
    for (int cs : {1, 2, 4, 8, 16}) {
      if (nbins % cs) continue;
      measure("clusterHist_kernel", std::to_string(cs), h.source(cs), want);
      measure("histVec4", std::to_string(cs), h.ours(cs), want);
    }
    measure("histVec4_multipass", "1", h.multipass(), want);
    if (h.d_cub) CUDA_CHECK(cudaFree(h.d_cub));
    std::fprintf(stderr, "bins %d done\n", nbins);
  }
  table.report(csv_dir, prop, "cluster_histogram");
}

int main(int argc, char** argv) {
  wb::Args args(argc, argv,
                "usage: cluster_histogram [--bins B [--cluster C]] [--bench [--reps R] [--csv-dir DIR]]\n"
                "  (no options)  the printed cases, every method checked (the golden output)\n"
                "  --bins B      instead, one case of B bins (a power of two, 2 .. 2^24)\n"
                "  --cluster C   its cluster size (1, 2, 4, 8 or 16; default: the smallest that fits)\n"
                "  --bench       also time every method at n = 2^28 and 256 .. 262144 bins\n"
                "  --reps R      timed runs per row, median reported (default 50)\n"
                "  --csv-dir DIR write DIR/<gpu>/cluster_histogram.csv");
  const int bins = static_cast<int>(args.count("--bins", 0, 2, 1 << 24));
  const int cluster = static_cast<int>(args.count("--cluster", 0, 1, 16));
  const bool bench = args.flag("--bench");
  const int reps = static_cast<int>(args.count("--reps", 50, 1, 100000));
  const std::string csv_dir = args.text("--csv-dir", "");
  args.finish();
  args.only_with("--bench", {"--reps", "--csv-dir"});
  args.only_with("--bins", {"--cluster"});
  if (bins && (bins & (bins - 1))) wb::bad_input("--bins must be a power of two (the bins split evenly over a cluster)");
  if (cluster && (cluster & (cluster - 1))) wb::bad_input("--cluster must be 1, 2, 4, 8 or 16");

  const cudaDeviceProp prop = wb::require_device(9, 0, "thread-block clusters and distributed shared memory");
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
    if (bins % cs || size_t(bins / cs) > per_block_limit)
      wb::bad_input(std::to_string(bins) + " bins do not fit in a cluster of " + std::to_string(cs) + " (" +
                    std::to_string(prop.sharedMemPerBlockOptin) + " bytes per block)");
    cases = {{bins, cs}};
  }
  if (bench) wb::require_device_memory((size_t(2) << 28) * sizeof(int) + (64u << 20), "--bench");

  std::printf("== histograms of %llu hashed ints per case; values outside [0, bins) clamp to the end bins ==\n",
              (unsigned long long)lesson::kLessonN);
  for (const auto& c : cases) run_case(c, prop);
  if (bench) run_bench(prop, reps, csv_dir);
  if (g_failures) {
    std::printf("FAIL: %d checks against the CPU histogram failed\n", g_failures);
    return wb::kFail;
  }
  return wb::kPass;
}
