// hist_check.h — the body of both chapter 11 exercise checkers. The including file defines
// EX_KERNEL, EX_SMEM_BYTES(nbins) (the exercise's dynamic shared memory), EX_FIXED_GRID (0: a grid
// sized from n; else that many blocks) and EX_CASES (the input cases), then includes this. Every
// bin is compared exactly with a CPU histogram; bins[] starts at 0. bins[] has nbins + 1 words and
// bins[nbins] must stay 0, so a write past the last bin (histPacked16's carry into the high half of
// an odd nbins' last word) fails even where it lands in the allocation's rounding: only racecheck
// runs the exercises under a sanitizer, and --quick skips the large inputs. (Writes there that add
// up to 0 still pass.)
#pragma once

#include <string>
#include <vector>

#include "exercise.h"

enum Dist { kUniform, kHotBin, kTwoNeighbours, kFewBins, kFullNeighbour };
struct HistCase {
  int nbins;
  size_t n;
  Dist dist;
  int hot;  // the hot bin (kHotBin), or the first of the two (kTwoNeighbours, kFullNeighbour: even)
};
inline const char* dist_name(Dist d) {
  switch (d) {
    case kUniform: return "uniform";
    case kHotBin: return "one hot bin";
    case kTwoNeighbours: return "two neighbouring hot bins";
    case kFullNeighbour: return "odd bin at 65535 when the even one wraps";
    default: return "4 bins";
  }
}
inline int value_at(const HistCase& c, size_t i) {
  uint64_t x = (i + 1) * 0x9E3779B97F4A7C15ull;
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 29;
  switch (c.dist) {
    case kUniform: return static_cast<int>(x % static_cast<uint64_t>(c.nbins));
    case kHotBin: return c.hot;
    case kTwoNeighbours: return c.hot + static_cast<int>(x & 1);
    case kFullNeighbour: {
      // For <<<8, 256>>> and a grid-stride loop, element i is step i / 2048 of thread i % 2048. Steps
      // 0..255 go to the odd bin hot + 1, 65,535 a block (thread 0 of each block sends its step 255
      // to hot + 2); steps 256..511 to the even bin hot, 65,536 a block. Every thread's odd adds come
      // before its even ones, and one thread's atomics on one word keep its program order, so the
      // add that wraps the even counter (a block's last on it) finds the odd one at exactly 65535.
      const size_t step = i / 2048;
      if (step >= 256) return c.hot;
      return (step == 255 && i % 256 == 0) ? c.hot + 2 : c.hot + 1;
    }
    default: return static_cast<int>(x % 4);
  }
}

// The chapter's smem_private: one shared atomic per element (the reference for the time).
__global__ void smem_private(unsigned* bins, int nbins, const int* input, size_t n) {
  extern __shared__ unsigned smem[];
  for (int i = threadIdx.x; i < nbins; i += blockDim.x) smem[i] = 0;
  __syncthreads();
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += blockDim.x * size_t(gridDim.x))
    atomicAdd(&smem[input[i]], 1u);
  __syncthreads();
  for (int i = threadIdx.x; i < nbins; i += blockDim.x)
    if (smem[i]) atomicAdd(&bins[i], smem[i]);
}

inline int run_checker(int argc, char** argv, const std::vector<HistCase>& cases) {
  wb::ex::Checker ck(argc, argv, WB_EXERCISE_ATTEMPTED);
  const cudaDeviceProp prop = ck.require_device();
  constexpr int kThreads = 256;
  for (const HistCase& c : cases) {
    if (ck.quick() && c.n > 100000) continue;  // the sanitizer runs: the small inputs
    std::vector<int> in(c.n);
    std::vector<unsigned> want(static_cast<size_t>(c.nbins) + 1, 0u);  // + bins[nbins]: a guard no thread may write
    for (size_t i = 0; i < c.n; ++i) ++want[static_cast<size_t>(in[i] = value_at(c, i))];
    wb::ex::DeviceArray<int> d_in(in);
    wb::ex::DeviceArray<unsigned> d_bins(want.size());
    const size_t smem = EX_SMEM_BYTES(c.nbins);
    const int grid = EX_FIXED_GRID ? EX_FIXED_GRID
                                   : static_cast<int>(std::min<size_t>((c.n + kThreads - 1) / kThreads,
                                                                       size_t(2) * prop.multiProcessorCount));
    CUDA_CHECK(cudaMemset(d_bins.ptr, 0, want.size() * sizeof(unsigned)));
    EX_KERNEL<<<grid, kThreads, smem>>>(d_bins.ptr, c.nbins, d_in.ptr, c.n);
    ck.launched();
    ck.expect(std::string(dist_name(c.dist)) + ", " + std::to_string(c.nbins) + " bins, n = " + std::to_string(c.n) +
                  ", " + std::to_string(grid) + " blocks, bins[b] (b = nbins: the guard past the last bin)",
              d_bins.download(), want);
    if (&c == &cases.back())
      ck.time([&] { EX_KERNEL<<<grid, kThreads, smem>>>(d_bins.ptr, c.nbins, d_in.ptr, c.n); },
              "smem_private (chapter 11, one shared atomic per element)",
              [&] { smem_private<<<grid, kThreads, c.nbins * sizeof(unsigned)>>>(d_bins.ptr, c.nbins, d_in.ptr, c.n); });
  }
  return ck.finish();
}
