// Chapter 11's input generator, cases, CPU histogram and output format: shared by
// cluster_histogram.cu and histogram_model.cpp.
#pragma once

#include <cstdint>
#include <cstdio>
#include <vector>

#include "hash.h"

namespace lesson {

constexpr uint32_t kSeed = 7;

// Values spread over [-pad, nbins + pad): about 3% fall outside [0, nbins) and are clamped to the
// first or last bin, as the source's kernel does.
inline int pad_of(int nbins) { return nbins / 64 + 1; }
WB_HOST_DEVICE inline int value_at(uint64_t i, int nbins, int pad) {
  return static_cast<int>(wb::hash32(i, kSeed) % static_cast<uint32_t>(nbins + 2 * pad)) - pad;
}
WB_HOST_DEVICE inline int clamp_bin(int v, int nbins) { return v < 0 ? 0 : (v >= nbins ? nbins - 1 : v); }

// The printed cases: (bins, cluster size). From one block's shared memory, through clusters that
// are needed (65536 bins = 256 KB > one block's 227 KB), to the non-portable 16.
struct Case {
  int bins, cluster;
};
constexpr Case kCases[] = {{256, 1}, {4096, 2}, {65536, 2}, {131072, 4}, {262144, 8}, {262144, 16}};
constexpr uint64_t kLessonN = (1u << 20) + 3;  // elements per case: not a multiple of 4 or a block

// The CPU histogram. clamp = true is the source's rule; false drops out-of-range values, which is
// what cub::DeviceHistogram::HistogramEven does.
inline std::vector<uint32_t> cpu_histogram(uint64_t n, int nbins, bool clamp) {
  std::vector<uint32_t> h(nbins, 0);
  const int pad = pad_of(nbins);
  for (uint64_t i = 0; i < n; ++i) {
    const int v = value_at(i, nbins, pad);
    if (clamp) ++h[clamp_bin(v, nbins)];
    else if (v >= 0 && v < nbins) ++h[v];
  }
  return h;
}

inline void print_case(const Case& c, uint64_t n, const std::vector<uint32_t>& h) {
  uint64_t total = 0, checksum = 0;
  for (int b = 0; b < c.bins; ++b) {
    total += h[b];
    checksum += uint64_t(b + 1) * h[b];  // weights each count by its bin, so misplaced counts show
  }
  std::printf("\n== %d bins, cluster of %d: %d bins (%d KB) of shared memory per block ==\n", c.bins,
              c.cluster, c.bins / c.cluster, c.bins / c.cluster * 4 / 1024);
  std::printf("elements %llu, total count %llu, checksum %llu\n", (unsigned long long)n,
              (unsigned long long)total, (unsigned long long)checksum);
  std::printf("first bins:");
  for (int b = 0; b < 4; ++b) std::printf(" [%d] %u", b, h[b]);
  std::printf("\nlast bins: ");
  for (int b = c.bins - 4; b < c.bins; ++b) std::printf(" [%d] %u", b, h[b]);
  std::printf("\n");
}

// Which methods apply: smem_private needs all bins in one block; histVec4_multipass exists only for
// bins that do not fit (with fewer, it would be histVec4 with cluster 1, in one pass).
inline void print_not_applicable(const char* kernel) {
  const bool multi = kernel[0] == 'h';
  std::printf("  %-22s n/a (%s)\n", kernel,
              multi ? "one block holds the bins: histVec4 with cluster 1 is the one pass"
                    : "the bins do not fit in one block's shared memory");
}

inline void print_check(const char* kernel, bool pass, const char* against) {
  std::printf("  %-22s %s (every bin equals the CPU histogram, %s)\n", kernel, pass ? "PASS" : "FAIL", against);
}

}  // namespace lesson
