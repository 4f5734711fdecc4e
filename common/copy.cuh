// common/copy.cuh — the bandwidth reference every timing table is measured against: a grid-stride
// copy of n 4-byte words, 16 bytes per access, on a grid that fills the GPU once. Its effective
// bandwidth (bytes read + bytes written over time) is the practical ceiling for streaming kernels.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "check.h"
#include "timer.h"

namespace wb {

constexpr int kCopyThreads = 256;

__global__ void __launch_bounds__(kCopyThreads)
copy(const unsigned* __restrict__ in, unsigned* __restrict__ out, size_t n) {
  const size_t stride = size_t(gridDim.x) * kCopyThreads;
  const size_t n4 = n / 4;  // cudaMalloc memory is 256-byte aligned, so uint4 access is legal
  for (size_t i = blockIdx.x * size_t(kCopyThreads) + threadIdx.x; i < n4; i += stride)
    reinterpret_cast<uint4*>(out)[i] = reinterpret_cast<const uint4*>(in)[i];
  const size_t tail = n4 * 4 + blockIdx.x * size_t(kCopyThreads) + threadIdx.x;  // the last n % 4
  if (tail < n) out[tail] = in[tail];
}

// Blocks that fill the GPU exactly once (a persistent grid).
template <class Kernel>
int full_grid(Kernel kernel, int threads, const cudaDeviceProp& prop, size_t smem = 0) {
  int per_sm = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem));
  return std::max(1, per_sm) * prop.multiProcessorCount;
}

// Copies d_in (n words) into d_out, which is poisoned first; checks every word on the host;
// then times the copy. Returns the timing; counts a mismatch in *failures.
inline Timing time_copy(const unsigned* d_in, unsigned* d_out, size_t n, const cudaDeviceProp& prop,
                        int warmup, int reps, int* failures) {
  const int blocks = full_grid(copy, kCopyThreads, prop);
  auto launch = [&] {
    copy<<<blocks, kCopyThreads>>>(d_in, d_out, n);
    CUDA_CHECK_LAUNCH();
  };
  CUDA_CHECK(cudaMemset(d_out, 0xab, n * sizeof(unsigned)));
  launch();
  // Compared in slices of at most 2^24 words, so that host memory stays at 128 MB for any n.
  const size_t slice = std::min<size_t>(n, size_t(1) << 24);
  std::vector<unsigned> a(slice), b(slice);
  for (size_t off = 0; off < n; off += slice) {
    const size_t len = std::min(slice, n - off);
    CUDA_CHECK(cudaMemcpy(a.data(), d_in + off, len * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(b.data(), d_out + off, len * sizeof(unsigned), cudaMemcpyDeviceToHost));
    if (!std::equal(a.begin(), a.begin() + len, b.begin())) {
      std::fprintf(stderr, "MISMATCH: copy output differs from its input (words %zu .. %zu)\n", off, off + len - 1);
      ++*failures;
      break;
    }
  }
  return time_cuda(launch, warmup, reps);
}

}  // namespace wb
