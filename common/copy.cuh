// common/copy.cuh — the bandwidth references every timing table is measured against, in the same
// run and with the same bytes convention (bytes read + bytes written):
//   copy        the best copy kernel we have: 16-byte accesses, kUnroll independent loads in
//               flight per thread before any store, one tile of kUnroll x 256 vectors per block, a
//               grid that covers the array (a grid-stride loop only past 2^31 - 1 blocks). It is
//               built for kUnroll = 1, 4 and 8; time_copy times each and keeps the fastest on this
//               GPU at this size, and says which on stderr. (Streaming cache hints, __ldcs/__stcs,
//               made it 3-5% slower on the H100, so it has none.) Its effective bandwidth (bytes
//               read + written over time) is the practical ceiling of a streaming kernel.
//   cudaMemcpy  the driver's device-to-device copy of the same bytes (cudaMemcpyAsync), for scale:
//               the copy kernel should stay within a few percent of it.
// Both are checked word for word on the host before they are timed.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "check.h"
#include "timer.h"

namespace wb {

constexpr int kCopyThreads = 256;

template <int kUnroll>
__global__ void __launch_bounds__(kCopyThreads)
copy(const unsigned* __restrict__ in, unsigned* __restrict__ out, size_t n) {
  const uint4* in4 = reinterpret_cast<const uint4*>(in);  // cudaMalloc memory is 256-byte aligned
  uint4* out4 = reinterpret_cast<uint4*>(out);
  const size_t n4 = n / 4;
  constexpr size_t kTile = size_t(kCopyThreads) * kUnroll;
  for (size_t base = blockIdx.x * kTile; base < n4; base += size_t(gridDim.x) * kTile) {
    uint4 v[kUnroll];
    // All loads first: kUnroll x 16 bytes in flight per thread.
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) {
      const size_t i = base + k * kCopyThreads + threadIdx.x;
      if (i < n4) v[k] = in4[i];
    }
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) {
      const size_t i = base + k * kCopyThreads + threadIdx.x;
      if (i < n4) out4[i] = v[k];
    }
  }
  if (blockIdx.x == 0 && threadIdx.x < n - n4 * 4) out[n4 * 4 + threadIdx.x] = in[n4 * 4 + threadIdx.x];  // last n % 4
}

// The copy's grid: one block per tile of kUnroll x kCopyThreads vectors, at most 2^31 - 1 blocks
// (then the kernel loops).
inline unsigned copy_blocks(size_t n, int unroll) {
  const size_t tile = size_t(kCopyThreads) * unroll;
  const size_t tiles = std::max<size_t>(1, (n / 4 + tile - 1) / tile);
  return static_cast<unsigned>(std::min<size_t>(tiles, 0x7fffffffu));
}

// Blocks that fill the GPU exactly once (a persistent grid).
template <class Kernel>
int full_grid(Kernel kernel, int threads, const cudaDeviceProp& prop, size_t smem = 0) {
  int per_sm = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem));
  return std::max(1, per_sm) * prop.multiProcessorCount;
}

// Does d_out equal d_in, word for word? Compared in slices of at most 2^24 words, so that host
// memory stays at 128 MB for any n. Prints the first differing slice.
inline bool same_words(const unsigned* d_in, const unsigned* d_out, size_t n, const char* what) {
  const size_t slice = std::min<size_t>(n, size_t(1) << 24);
  std::vector<unsigned> a(slice), b(slice);
  for (size_t off = 0; off < n; off += slice) {
    const size_t len = std::min(slice, n - off);
    CUDA_CHECK(cudaMemcpy(a.data(), d_in + off, len * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(b.data(), d_out + off, len * sizeof(unsigned), cudaMemcpyDeviceToHost));
    if (!std::equal(a.begin(), a.begin() + len, b.begin())) {
      std::fprintf(stderr, "MISMATCH: %s output differs from its input (words %zu .. %zu)\n", what, off, off + len - 1);
      return false;
    }
  }
  return true;
}

// Copies d_in (n words) into d_out, which is poisoned first, with each form of the copy; checks every
// word on the host; then times each (cold: L2 flushed before each run) and returns the fastest
// one's timing. Counts a mismatch in *failures.
inline Timing time_copy(const unsigned* d_in, unsigned* d_out, size_t n, const cudaDeviceProp& prop,
                        int warmup, int reps, int* failures) {
  (void)prop;
  struct Form {
    int unroll;
    void (*kernel)(const unsigned*, unsigned*, size_t);
  };
  const Form forms[] = {{1, copy<1>}, {4, copy<4>}, {8, copy<8>}};
  Timing best;
  int best_unroll = 0;
  std::string times;
  for (const Form& f : forms) {
    const unsigned blocks = copy_blocks(n, f.unroll);
    auto launch = [&] {
      f.kernel<<<blocks, kCopyThreads>>>(d_in, d_out, n);
      CUDA_CHECK_LAUNCH();
    };
    CUDA_CHECK(cudaMemset(d_out, 0xab, n * sizeof(unsigned)));
    launch();
    const std::string name = "copy (" + std::to_string(f.unroll) + " per thread)";
    if (!same_words(d_in, d_out, n, name.c_str())) ++*failures;
    const Timing t = time_cuda(launch, warmup, reps);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s%.4f ms with %d", times.empty() ? "" : ", ", t.median_ms, f.unroll);
    times += buf;
    if (!best_unroll || t.median_ms < best.median_ms) {
      best = t;
      best_unroll = f.unroll;
    }
  }
  std::fprintf(stderr, "copy of %zu words, by 16-byte loads in flight per thread: %s; the table has %d\n", n,
               times.c_str(), best_unroll);
  return best;
}

// The same for cudaMemcpyAsync device to device (the `cudaMemcpy` row).
inline Timing time_memcpy(const unsigned* d_in, unsigned* d_out, size_t n, int warmup, int reps, int* failures) {
  auto launch = [&] { CUDA_CHECK(cudaMemcpyAsync(d_out, d_in, n * sizeof(unsigned), cudaMemcpyDeviceToDevice)); };
  CUDA_CHECK(cudaMemset(d_out, 0xab, n * sizeof(unsigned)));
  launch();
  if (!same_words(d_in, d_out, n, "cudaMemcpy")) ++*failures;
  return time_cuda(launch, warmup, reps);
}

}  // namespace wb
