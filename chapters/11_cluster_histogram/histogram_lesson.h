// Chapter 11's inputs, cases, CPU histogram and output format: shared by cluster_histogram.cu and
// histogram_model.cpp. Nothing here depends on the GPU: every rule that decides what is printed
// (which method applies, whether a counter must have wrapped) is a constant of the lesson.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "hash.h"

namespace lesson {

constexpr uint32_t kSeed = 7;

// The inputs. kSource (printed as "source") is this chapter's clamped input, not 004's (004 gives
// no input): values spread over [-pad, nbins + pad), pad = nbins / 64 + 1 (our choice), so
// 2 pad / (nbins + 2 pad) of them, 3.8% at 256 bins to 3.0% from 16,384 on, fall outside
// [0, nbins), half on each side, and 004's kernel clamps them into the first and last bin (two
// hot bins).
// kUniform: every value a uniform hash in [0, nbins). kHot (printed lesson only): 3/8 of the values
// are bin 2 and 3/8 are bin 3, the rest as kSource; it makes packed counters overflow.
enum Dist { kUniform = 0, kSource = 1, kHot = 2 };
inline const char* dist_name(int d) { return d == kUniform ? "uniform" : d == kSource ? "source" : "hot"; }

WB_HOST_DEVICE inline int pad_of(int nbins) { return nbins / 64 + 1; }
WB_HOST_DEVICE inline int value_at(uint64_t i, int nbins, int dist) {
  const uint32_t r = wb::hash32(i, kSeed);
  if (dist == kUniform) return static_cast<int>(r % static_cast<uint32_t>(nbins));
  const int pad = pad_of(nbins);
  if (dist == kHot) {
    const uint32_t sel = r & 7u;
    if (sel < 3) return 2 % nbins;
    if (sel < 6) return 3 % nbins;
    return static_cast<int>((r >> 3) % static_cast<uint32_t>(nbins + 2 * pad)) - pad;
  }
  return static_cast<int>(r % static_cast<uint32_t>(nbins + 2 * pad)) - pad;
}
WB_HOST_DEVICE inline int clamp_bin(int v, int nbins) { return v < 0 ? 0 : (v >= nbins ? nbins - 1 : v); }

// The printed cases: (bins, cluster size, input). From one block's shared memory, through
// clusters that are needed (65536 int bins = 256 KB), to the non-portable 16; two hot inputs
// that overflow histPacked's 16- and 8-bit counters.
struct Case {
  int bins, cluster, dist;
};
constexpr Case kCases[] = {{256, 1, kSource},     {1024, 1, kUniform},    {4096, 2, kSource},
                           {65536, 2, kSource},   {131072, 4, kSource},   {262144, 8, kSource},
                           {262144, 16, kSource}, {65536, 2, kHot},       {262144, 8, kHot}};
constexpr uint64_t kLessonN = (1u << 20) + 3;  // elements per case: not a multiple of 4 or a block

// Threads per block (004 gives no value; both are this chapter's choices): 004's clusterHist_kernel
// and the baselines global_atomics and smem_private run 512, ours (histVec4, histPacked) 1024. The kernels' files and diagrams/cluster_bins.svg use these.
constexpr int kSourceThreads = 512;
constexpr int kOursThreads = 1024;

// The printed cases run histPacked on this many blocks, on every GPU, so that a bin with more than
// 4 x 65,535 in-range hits must overflow a 16-bit counter in at least one block (pigeonhole).
constexpr int kLessonBlocks = 4;
// smem_private keeps int bins in one block; the lesson gives it at most 64 KB (16,384 bins), which
// every GPU with clusters has (sm_120: 99 KB), so that whether it applies never depends on the GPU.
constexpr int kPrivateMaxBins = 16384;
inline bool private_applies(int bins) { return bins <= kPrivateMaxBins; }
// The counter widths histPacked is checked with, in the printed order.
constexpr int kPackedBits[] = {32, 16, 8};

// The CPU histograms of the first n values, both rules at once: clamped (004's kernel's rule) and
// dropped (what cub::DeviceHistogram::HistogramEven does with out-of-range values). The dropped
// one is also the count of in-range hits, the ones histPacked adds in shared memory.
struct CpuHist {
  std::vector<uint32_t> clamped, dropped;
};
inline void cpu_histogram_range(uint64_t begin, uint64_t end, int nbins, int dist, uint32_t* clamped,
                                uint32_t* dropped) {
  for (uint64_t i = begin; i < end; ++i) {
    const int v = value_at(i, nbins, dist);
    ++clamped[clamp_bin(v, nbins)];
    if (v >= 0 && v < nbins) ++dropped[v];
  }
}
inline CpuHist cpu_histogram(uint64_t n, int nbins, int dist) {
  CpuHist h{std::vector<uint32_t>(nbins, 0), std::vector<uint32_t>(nbins, 0)};
  cpu_histogram_range(0, n, nbins, dist, h.clamped.data(), h.dropped.data());
  return h;
}

// True when some block must overflow a counter of `bits` bits: a bin's in-range hits exceed what
// kLessonBlocks counters of that width hold (pigeonhole). The program then also checks that its
// kernel did report a wrap.
inline bool must_wrap(const std::vector<uint32_t>& in_range, int bits) {
  if (bits >= 32) return false;
  const uint32_t most = *std::max_element(in_range.begin(), in_range.end());
  return uint64_t(most) > uint64_t(kLessonBlocks) * ((1u << bits) - 1);
}

inline void print_case(const Case& c, uint64_t n, const std::vector<uint32_t>& h,
                       const std::vector<uint32_t>& in_range) {
  uint64_t total = 0, checksum = 0;
  for (int b = 0; b < c.bins; ++b) {
    total += h[b];
    checksum += uint64_t(b + 1) * h[b];  // weights each count by its bin, so misplaced counts show
  }
  int fullest = 0;
  for (int b = 1; b < c.bins; ++b)
    if (in_range[b] > in_range[fullest]) fullest = b;
  std::printf("\n== %d bins, cluster of %d, %s input: %d bins (%d KB) of shared memory per block ==\n", c.bins,
              c.cluster, dist_name(c.dist), c.bins / c.cluster, c.bins / c.cluster * 4 / 1024);
  std::printf("elements %llu, total count %llu, checksum %llu\n", (unsigned long long)n,
              (unsigned long long)total, (unsigned long long)checksum);
  // At most 4 bins from each end, never the same bin twice (with 2 bins: both, once).
  const int first = std::min(4, c.bins);
  std::printf("first bins:");
  for (int b = 0; b < first; ++b) std::printf(" [%d] %u", b, h[b]);
  std::printf("\n");
  if (first < c.bins) {
    std::printf("last bins: ");
    for (int b = std::max(first, c.bins - 4); b < c.bins; ++b) std::printf(" [%d] %u", b, h[b]);
    std::printf("\n");
  }
  std::printf("most in-range hits on one bin: [%d] %u\n", fullest, in_range[fullest]);
}

inline void print_not_applicable(const char* kernel) {
  std::printf("  %-22s n/a (more than %d bins: over the 64 KB the lesson gives one block)\n", kernel,
              kPrivateMaxBins);
}

inline void print_check(const char* kernel, bool pass, const char* against) {
  std::printf("  %-22s %s (every bin equals the CPU histogram, %s)\n", kernel, pass ? "PASS" : "FAIL", against);
}

inline void print_packed_check(int bits, bool pass, bool wrapped) {
  char name[32];
  std::snprintf(name, sizeof name, "histPacked %d-bit", bits);
  std::printf("  %-22s %s (every bin equals the CPU histogram, clamped%s)\n", name, pass ? "PASS" : "FAIL",
              wrapped ? "; counters overflowed in a block and were carried" : "");
}

}  // namespace lesson
