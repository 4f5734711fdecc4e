// Chapter 07 — cache_config: what the cache-configuration API changes for two of this chapter's
// kernels and for a third built so that L1 could serve its strided reads. Source 003 (section 5.1.4) describes cudaFuncSetCacheConfig with Kepler's 64 KB split
// into 48/16 KB; on current GPUs the split is a per-kernel carveout, set with
// cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, percent).
//
// Run:    ./build/bin/cache_config                  (quick: 1024 x 1024, every setting once, checked)
//         ./build/bin/cache_config --bench [--reps 20] [--csv-dir DIR]
//             8192 x 8192 floats; the table to stderr; with --csv-dir, DIR/<gpu>/cache_config.csv
// Build without CMake, in this folder:
//   nvcc -std=c++17 -O3 -arch=native -I../../common -o cache_config cache_config.cu
//
// Kernels (1 and 3 as in transposeSmemUnrollPad.cu; the template argument kProbe = true adds a
// residency probe and is never timed):
//   1. naiveGmem         no shared memory: rows read, columns written
//   2. naiveGmemReadCol  ours, naiveGmem's twin: columns read, rows written. A warp's read touches
//                        32 sectors of 32 bytes, and the other 7 warps of its half of the block
//                        (threadIdx.y 0-7 or 8-15) read the other floats of the same sectors: they
//                        hit in L1 only while L1 still holds them, so
//                        this is the kernel where a smaller L1 could cost time (README: the four
//                        settings that ask for the most shared memory were its slowest, by under 1%;
//                        they were transposeSmem's slowest too, so the run does not tie this to L1)
//   3. transposeSmem     source 004's 16 x 32 shared tile (2 KB of static shared memory per block)
// Settings, each applied to both instantiations of a kernel before it runs:
//   cudaFuncSetCacheConfig: PreferNone, PreferShared, PreferL1, PreferEqual (carveout left at -1)
//   carveout percent: 0 (max L1), 5, 10, 25, 50, 100 (max shared), cache config left at PreferNone
// Columns: blocks per SM from cudaOccupancyMaxActiveBlocksPerMultiprocessor, the most blocks the
// probe saw resident on one SM at once (each block counts itself in and out with atomics and
// holds its SM for about 20 microseconds), and the median time of the plain kernel.
//
// Self-check (exit 1): every output element of every setting (timed, or run once without --bench)
// equals the input's transpose; outputs are poisoned first.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "args.h"
#include "check.h"
#include "csv.h"
#include "timer.h"

#define BDIMX 32
#define BDIMY 16
#define INDEX(ROW, COL, INNER) ((size_t)(ROW) * (INNER) + (COL))

// The PTX ISA: "The SM identifier ranges from 0 to %nsmid-1", and %nsmid "may be larger than the
// physical number of SMs in the device", so the probe's per-SM counters are %nsmid long.
__device__ __forceinline__ unsigned smid() {
  unsigned id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}
__global__ void read_nsmid(unsigned* n) {
  asm volatile("mov.u32 %0, %%nsmid;" : "=r"(*n));
}

// Probe: thread 0 counts its block in on this SM, records the peak, holds the SM a while (so
// that blocks overlap as much as residency allows), and counts the block out at the end, on the
// SM it counted in on (%smid "may change during execution", the PTX ISA says).
template <bool kProbe>
__device__ __forceinline__ unsigned probe_enter(int* live, int* peak) {
  unsigned sm = 0;
  if (kProbe && threadIdx.x == 0 && threadIdx.y == 0) {
    sm = smid();
    atomicMax(&peak[sm], atomicAdd(&live[sm], 1) + 1);
    const long long t0 = clock64();
    while (clock64() - t0 < 40000) {}
  }
  return sm;
}
template <bool kProbe>
__device__ __forceinline__ void probe_leave(int* live, unsigned sm) {
  if (kProbe) {
    __syncthreads();  // reached by every thread: the probe's barrier is block-uniform
    if (threadIdx.x == 0 && threadIdx.y == 0) atomicSub(&live[sm], 1);
  }
}

template <bool kProbe>
__global__ void naiveGmem(float* out, const float* in, const int rows, const int cols, int* live, int* peak) {
  const unsigned sm = probe_enter<kProbe>(live, peak);
  unsigned int col = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < rows && col < cols) out[INDEX(col, row, rows)] = in[INDEX(row, col, cols)];
  probe_leave<kProbe>(live, sm);
}

template <bool kProbe>
__global__ void naiveGmemReadCol(float* out, const float* in, const int rows, const int cols, int* live, int* peak) {
  const unsigned sm = probe_enter<kProbe>(live, peak);
  unsigned int col = blockIdx.x * blockDim.x + threadIdx.x;  // output column = input row
  unsigned int row = blockIdx.y * blockDim.y + threadIdx.y;  // output row = input column
  if (row < cols && col < rows) out[INDEX(row, col, rows)] = in[INDEX(col, row, cols)];
  probe_leave<kProbe>(live, sm);
}

template <bool kProbe>
__global__ void transposeSmem(float* out, const float* in, int rows, int cols, int* live, int* peak) {
  __shared__ float tile[BDIMY][BDIMX];
  const unsigned sm = probe_enter<kProbe>(live, peak);
  unsigned int col = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < rows && col < cols) tile[threadIdx.y][threadIdx.x] = in[INDEX(row, col, cols)];
  unsigned int bidx = threadIdx.y * blockDim.x + threadIdx.x;
  unsigned int irow = bidx / blockDim.y;
  unsigned int icol = bidx % blockDim.y;
  row = blockIdx.x * blockDim.x + irow;
  col = blockIdx.y * blockDim.y + icol;
  __syncthreads();
  if (row < cols && col < rows) out[INDEX(row, col, rows)] = tile[icol][irow];
  probe_leave<kProbe>(live, sm);
}

namespace {

using Kernel = void (*)(float*, const float*, int, int, int*, int*);
struct KernelPair {
  const char* name;
  Kernel timed, probe;
};
struct Setting {
  const char* api;    // which call sets it
  const char* value;  // its value, as text
  cudaFuncCache cache;
  int carveout;       // -1: no preference
};

void apply(Kernel k, const Setting& s) {
  // Both knobs every time, so that no setting leaks into the next.
  CUDA_CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(k), cudaFuncAttributePreferredSharedMemoryCarveout,
                                  s.carveout));
  CUDA_CHECK(cudaFuncSetCacheConfig(reinterpret_cast<const void*>(k), s.cache));
}

}  // namespace

int main(int argc, char** argv) {
  wb::Args args(argc, argv,
                "usage: cache_config [--bench [--reps R] [--csv-dir DIR]]\n"
                "  without --bench: 1024 x 1024, every setting once, every output checked");
  const bool bench = args.flag("--bench");
  const int reps = static_cast<int>(args.count("--reps", 20, 1, 1000));
  const std::string csv_dir = args.out_dir("--csv-dir");
  args.only_with("--bench", {"--reps", "--csv-dir"});
  args.finish();

  const cudaDeviceProp prop = wb::require_device();
  const int side = bench ? 8192 : 1024;
  const size_t n = static_cast<size_t>(side) * side;
  wb::require_device_memory(2 * n * sizeof(float) + (1 << 20), "cache_config");
  std::vector<float> h_in(n), h_out(n);
  for (size_t i = 0; i < n; ++i) h_in[i] = static_cast<float>(i % 16777216);  // exact in float
  float *d_in = nullptr, *d_out = nullptr;
  int *d_live = nullptr, *d_peak = nullptr;
  unsigned* d_nsmid = nullptr;
  unsigned sm_ids = 0;  // %nsmid, above every %smid
  CUDA_CHECK(cudaMalloc(&d_nsmid, sizeof(unsigned)));
  read_nsmid<<<1, 1>>>(d_nsmid);
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaMemcpy(&sm_ids, d_nsmid, sizeof(unsigned), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_nsmid));
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_live, sm_ids * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_peak, sm_ids * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  const KernelPair kernels[] = {{"naiveGmem", naiveGmem<false>, naiveGmem<true>},
                                {"naiveGmemReadCol", naiveGmemReadCol<false>, naiveGmemReadCol<true>},
                                {"transposeSmem", transposeSmem<false>, transposeSmem<true>}};
  const Setting settings[] = {
      {"none", "default", cudaFuncCachePreferNone, -1},
      {"cudaFuncSetCacheConfig", "PreferShared", cudaFuncCachePreferShared, -1},
      {"cudaFuncSetCacheConfig", "PreferL1", cudaFuncCachePreferL1, -1},
      {"cudaFuncSetCacheConfig", "PreferEqual", cudaFuncCachePreferEqual, -1},
      {"carveout", "0", cudaFuncCachePreferNone, 0},
      {"carveout", "5", cudaFuncCachePreferNone, 5},
      {"carveout", "10", cudaFuncCachePreferNone, 10},
      {"carveout", "25", cudaFuncCachePreferNone, 25},
      {"carveout", "50", cudaFuncCachePreferNone, 50},
      {"carveout", "100", cudaFuncCachePreferNone, 100},
  };
  const dim3 block(BDIMX, BDIMY);
  const dim3 grid((side + BDIMX - 1) / BDIMX, (side + BDIMY - 1) / BDIMY);
  const double bytes = 2.0 * n * sizeof(float);

  wb::CsvTable table({"kernel", "api", "setting", "static_smem_bytes", "blocks_per_sm_api",
                      "blocks_per_sm_seen", "bytes", "time_ms", "gbps", "min_ms", "max_ms", "reps"});
  for (const KernelPair& k : kernels) {
    cudaFuncAttributes attr{};
    CUDA_CHECK(cudaFuncGetAttributes(&attr, k.timed));
    for (const Setting& s : settings) {
      apply(k.timed, s);
      apply(k.probe, s);
      int per_sm = 0;
      CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k.timed, BDIMX * BDIMY, 0));

      CUDA_CHECK(cudaMemset(d_live, 0, sm_ids * sizeof(int)));
      CUDA_CHECK(cudaMemset(d_peak, 0, sm_ids * sizeof(int)));
      k.probe<<<grid, block>>>(d_out, d_in, side, side, d_live, d_peak);
      CUDA_CHECK_LAUNCH();
      std::vector<int> peak(sm_ids);
      CUDA_CHECK(cudaMemcpy(peak.data(), d_peak, sm_ids * sizeof(int), cudaMemcpyDeviceToHost));
      const int seen = *std::max_element(peak.begin(), peak.end());

      CUDA_CHECK(cudaMemset(d_out, 0xff, n * sizeof(float)));  // poison: NaN
      wb::Timing t{};
      auto launch = [&] {
        k.timed<<<grid, block>>>(d_out, d_in, side, side, nullptr, nullptr);
        CUDA_CHECK_LAUNCH();
      };
      if (bench) {
        t = wb::time_cuda(launch, 3, reps);
      } else {
        launch();
      }
      CUDA_CHECK(cudaMemcpy(h_out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
      for (size_t r = 0; r < static_cast<size_t>(side); ++r)
        for (size_t c = 0; c < static_cast<size_t>(side); ++c)
          if (h_out[c * side + r] != h_in[r * side + c]) {
            std::fprintf(stderr, "MISMATCH %s (%s %s): out[%zu][%zu] = %g, expected %g\n", k.name, s.api, s.value,
                         c, r, h_out[c * side + r], h_in[r * side + c]);
            return wb::kFail;
          }
      if (seen < 1) {  // every block counts itself in: at least one was seen
        std::fprintf(stderr, "FAILED: %s (%s %s): the probe saw no block\n", k.name, s.api, s.value);
        return wb::kFail;
      }
      table.add({k.name, s.api, s.value, std::to_string(attr.sharedSizeBytes), std::to_string(per_sm),
                 std::to_string(seen), wb::fmt(bytes, 0), bench ? wb::fmt(t.median_ms, 4) : "",
                 bench ? wb::fmt(wb::gbps(bytes, t.median_ms), 1) : "", bench ? wb::fmt(t.min_ms, 4) : "",
                 bench ? wb::fmt(t.max_ms, 4) : "", std::to_string(bench ? reps : 0)});
    }
    apply(k.timed, settings[0]);
    apply(k.probe, settings[0]);
  }
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  CUDA_CHECK(cudaFree(d_live));
  CUDA_CHECK(cudaFree(d_peak));
  std::fprintf(stderr, "\ncache_config on %s (%d x %d floats; %zu bytes of shared memory per SM; %s)\n", prop.name,
               side, side, static_cast<size_t>(prop.sharedMemPerMultiprocessor),
               bench ? ("median of " + std::to_string(reps) + " runs").c_str() : "quick mode: not timed");
  table.print(stderr);
  if (bench && !csv_dir.empty()) table.write(csv_dir + "/" + wb::gpu_slug(prop) + "/cache_config.csv");
  std::printf("cache_config: every setting ran all three kernels and every output was checked: OK\n");
  return wb::kPass;
}
