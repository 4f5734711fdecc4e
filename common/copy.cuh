// common/copy.cuh — the bandwidth references every timing table is measured against, in the same
// run and with the same bytes convention (bytes read + bytes written):
//   copy        the best copy kernel we have: 16-byte accesses, kCopyUnroll independent loads in
//               flight per thread before any store, one tile of kCopyUnroll x 256 vectors per block,
//               a grid that covers the array (a grid-stride loop only past 2^31 - 1 blocks). It is
//               built with and without streaming cache hints (__ldcs/__stcs: evict first, the data
//               is touched once); time_copy keeps whichever is faster on this GPU at this size and
//               says which on stderr. Its effective bandwidth (bytes read + written over time) is the
//               practical ceiling of a streaming kernel.
//   cudaMemcpy  the driver's device-to-device copy of the same bytes (cudaMemcpyAsync), for scale:
//               the copy kernel should stay within a few percent of it.
// Both are checked word for word on the host before they are timed.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "check.h"
#include "timer.h"

namespace wb {

constexpr int kCopyThreads = 256;
constexpr int kCopyUnroll = 4;

template <bool kStreaming>
__global__ void __launch_bounds__(kCopyThreads)
copy(const unsigned* __restrict__ in, unsigned* __restrict__ out, size_t n) {
  const uint4* in4 = reinterpret_cast<const uint4*>(in);  // cudaMalloc memory is 256-byte aligned
  uint4* out4 = reinterpret_cast<uint4*>(out);
  const size_t n4 = n / 4;
  constexpr size_t kTile = size_t(kCopyThreads) * kCopyUnroll;
  for (size_t base = blockIdx.x * kTile; base < n4; base += size_t(gridDim.x) * kTile) {
    uint4 v[kCopyUnroll];
    // All loads first: kCopyUnroll x 16 bytes in flight per thread.
#pragma unroll
    for (int k = 0; k < kCopyUnroll; ++k) {
      const size_t i = base + k * kCopyThreads + threadIdx.x;
      if (i < n4) v[k] = kStreaming ? __ldcs(in4 + i) : in4[i];
    }
#pragma unroll
    for (int k = 0; k < kCopyUnroll; ++k) {
      const size_t i = base + k * kCopyThreads + threadIdx.x;
      if (i < n4) {
        if (kStreaming) __stcs(out4 + i, v[k]);
        else out4[i] = v[k];
      }
    }
  }
  if (blockIdx.x == 0 && threadIdx.x < n - n4 * 4) out[n4 * 4 + threadIdx.x] = in[n4 * 4 + threadIdx.x];  // last n % 4
}

// The copy's grid: one block per tile, at most 2^31 - 1 blocks (then the kernel loops).
inline unsigned copy_blocks(size_t n) {
  constexpr size_t kTile = size_t(kCopyThreads) * kCopyUnroll;
  const size_t tiles = std::max<size_t>(1, (n / 4 + kTile - 1) / kTile);
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
// word on the host; then times both (cold: L2 flushed before each run) and returns the faster one's
// timing. Counts a mismatch in *failures.
inline Timing time_copy(const unsigned* d_in, unsigned* d_out, size_t n, const cudaDeviceProp& prop,
                        int warmup, int reps, int* failures) {
  (void)prop;
  const unsigned blocks = copy_blocks(n);
  auto plain = [&] {
    copy<false><<<blocks, kCopyThreads>>>(d_in, d_out, n);
    CUDA_CHECK_LAUNCH();
  };
  auto streaming = [&] {
    copy<true><<<blocks, kCopyThreads>>>(d_in, d_out, n);
    CUDA_CHECK_LAUNCH();
  };
  CUDA_CHECK(cudaMemset(d_out, 0xab, n * sizeof(unsigned)));
  plain();
  if (!same_words(d_in, d_out, n, "copy")) ++*failures;
  CUDA_CHECK(cudaMemset(d_out, 0xab, n * sizeof(unsigned)));
  streaming();
  if (!same_words(d_in, d_out, n, "copy (streaming hints)")) ++*failures;
  const Timing a = time_cuda(plain, warmup, reps), b = time_cuda(streaming, warmup, reps);
  std::fprintf(stderr, "copy of %zu words: %.4f ms plain, %.4f ms with streaming hints: the table has the %s\n", n,
               a.median_ms, b.median_ms, b.median_ms < a.median_ms ? "streaming one" : "plain one");
  return b.median_ms < a.median_ms ? b : a;
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
