// common/hash.h — the workbook's deterministic input generator: a hash of the index (splitmix64's
// finaliser), the same on host and device, so every input, sum and count is exact and
// reproducible on any GPU without copying inputs from the host.
#pragma once

#include <cstddef>
#include <cstdint>

#ifdef __CUDACC__
#define WB_HOST_DEVICE __host__ __device__
#else
#define WB_HOST_DEVICE
#endif

namespace wb {

WB_HOST_DEVICE inline uint32_t hash32(uint64_t i, uint32_t seed) {
  uint64_t z = i + (static_cast<uint64_t>(seed) << 32) + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return static_cast<uint32_t>((z ^ (z >> 31)) >> 32);
}

#ifdef __CUDACC__
// a[i] = hash32(i, seed) for i in [0, n), on any grid (a grid-stride loop).
__global__ void fill_hash(unsigned* a, size_t n, unsigned seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    a[i] = hash32(i, seed);
}
#endif

}  // namespace wb
