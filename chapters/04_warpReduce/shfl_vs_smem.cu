// Chapter 04 — shfl_vs_smem: one exchange between the lanes of a warp through a shuffle
// (__shfl_xor_sync) against the same exchange through shared memory (store, __syncwarp, load),
// timed by reading %clock64 (wb::clock_now()) inside the kernel: latency (a dependent chain) and
// throughput (independent exchanges), with one warp on an SM and with the SM full.
//
// Run:    ./build/bin/shfl_vs_smem                  (quick: every kernel once, values checked)
//         ./build/bin/shfl_vs_smem --bench [--reps 21] [--csv-dir DIR]
//             the table to stderr; with --csv-dir, DIR/<gpu>/shfl_vs_smem.csv
// Build without CMake, in this folder:
//   nvcc -std=c++17 -O3 -arch=native -I../../common -o shfl_vs_smem shfl_vs_smem.cu
//
// Kernels (template argument ILP = independent exchanges per step, 1 or 8):
//   1. shflChain<ILP>  v = __shfl_xor_sync(full, v, m), m = mask_of(i): 1, 2, 4, 8, 16, 1, ...
//                      within each unrolled trip of kUnroll steps (a trip ends 1, 2; the next
//                      starts at 1 again)
//   2. smemChain<ILP>  buf[p][lane] = v; __syncwarp(); v = buf[p][lane ^ m]   (p = 0, 1, 0, ...:
//                      two buffers, so one __syncwarp per exchange is enough: a lane overwrites a
//                      buffer only after the next barrier, which every lane reaches after its load)
// Each warp runs STEPS steps of ILP exchanges; every lane reads %clock64 (wb::clock_now()) before
// and after them, and lane 0 records the two readings and the SM it ran on. The result of every
// exchange feeds the next one, and the last values are written out, so nothing can be dropped.
// Latency: cycles per step of the median warp. Throughput: per SM, the warp exchanges of all its
// warps over the SM's span (first start to last end: %clock64 is one counter per SM); the median
// SM. (One warp's own elapsed time would overstate it: with the SM full, the median warp's time is
// shorter than the SM's span. Why is not measured; one hypothesis is that the scheduler favours
// some warps, which then finish early.)
//
// Self-check (exit 1): after the chain every lane must hold the start value of lane ^ X, where X
// is the XOR of all the masks used (the host replays the masks); outputs are poisoned first. A
// trip's masks XOR to 3, so X is 3 after an odd number of trips and 0 after an even one: the quick
// mode's 3 trips tell an exchange from none; the bench's 256 show only that each value came back.
#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "args.h"
#include "check.h"
#include "clock.cuh"
#include "csv.h"
#include "shfl_vs_smem_chain.h"  // kUnroll, mask_of, buffer_of: the chains' shape (also drawn)

constexpr unsigned kFull = 0xffffffffu;
constexpr int kBlock = 256;   // threads per block when the SM is filled
using chain::buffer_of;
using chain::kBuffers;
using chain::kUnroll;
using chain::mask_of;


__device__ __forceinline__ unsigned smid() {
  unsigned id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}

// Start value of (warp w, slot k, lane l): distinct for every one of them.
__host__ __device__ constexpr int start_value(int w, int k, int l, int ilp) { return (w * ilp + k) * 32 + l; }

template <int ILP>
__global__ void shflChain(int* out, long long* stamps, int trips) {
  const int lane = threadIdx.x & 31;
  const int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  int v[ILP];
#pragma unroll
  for (int k = 0; k < ILP; ++k) v[k] = start_value(warp, k, lane, ILP);
  __syncwarp();
  const long long t0 = wb::clock_now();
  for (int t = 0; t < trips; ++t) {
#pragma unroll
    for (int i = 0; i < kUnroll; ++i) {
#pragma unroll
      for (int k = 0; k < ILP; ++k) v[k] = __shfl_xor_sync(kFull, v[k], mask_of(i));
    }
  }
  // The stores need the last values, so the clock is read only after the chain has finished.
#pragma unroll
  for (int k = 0; k < ILP; ++k) out[(warp * ILP + k) * 32 + lane] = v[k];
  const long long t1 = wb::clock_now();
  if (lane == 0) {
    stamps[3 * warp] = t0;
    stamps[3 * warp + 1] = t1;
    stamps[3 * warp + 2] = smid();
  }
}

template <int ILP>
__global__ void smemChain(int* out, long long* stamps, int trips) {
  __shared__ int buf[kBuffers][ILP][kBlock];
  const int lane = threadIdx.x & 31;
  const int base = threadIdx.x & ~31;  // this warp's 32 slots
  const int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  int v[ILP];
#pragma unroll
  for (int k = 0; k < ILP; ++k) v[k] = start_value(warp, k, lane, ILP);
  __syncwarp();
  const long long t0 = wb::clock_now();
  for (int t = 0; t < trips; ++t) {
#pragma unroll
    for (int i = 0; i < kUnroll; ++i) {
      const int p = buffer_of(i);  // 0, 1, 0, ...: kUnroll is even, so across trips too
#pragma unroll
      for (int k = 0; k < ILP; ++k) buf[p][k][base + lane] = v[k];
      __syncwarp();  // every lane's store is visible to the warp before any lane loads
#pragma unroll
      for (int k = 0; k < ILP; ++k) v[k] = buf[p][k][base + (lane ^ mask_of(i))];
    }
  }
#pragma unroll
  for (int k = 0; k < ILP; ++k) out[(warp * ILP + k) * 32 + lane] = v[k];
  const long long t1 = wb::clock_now();
  if (lane == 0) {
    stamps[3 * warp] = t0;
    stamps[3 * warp + 1] = t1;
    stamps[3 * warp + 2] = smid();
  }
}

namespace {

struct Case {
  const char* kernel;
  const char* experiment;
  int ilp;
  bool full;  // fill every SM (else one warp on one SM)
  void (*fn)(int*, long long*, int);
  int block_smem;
};

}  // namespace

int main(int argc, char** argv) {
  wb::Args args(argc, argv,
                "usage: shfl_vs_smem [--bench [--reps R] [--csv-dir DIR]]\n"
                "  without --bench: every kernel runs a short chain once and its values are checked");
  const bool bench = args.flag("--bench");
  const int reps = static_cast<int>(args.count("--reps", 21, 1, 1000));
  const std::string csv_dir = args.out_dir("--csv-dir");
  args.only_with("--bench", {"--reps", "--csv-dir"});
  args.finish();

  const cudaDeviceProp prop = wb::require_device();
  const int trips = bench ? 256 : 3;  // 8192 steps per warp in the bench; odd in the quick mode (X = 3)
  const int steps = trips * kUnroll;
  // The XOR of every mask of the chain: where each lane's final value comes from.
  int x = 0;
  for (int s = 0; s < steps; ++s) x ^= mask_of(s % kUnroll);

  const Case cases[] = {
      {"shfl", "latency", 1, false, shflChain<1>, 0},
      {"smem", "latency", 1, false, smemChain<1>, kBuffers * 1 * kBlock * 4},
      {"shfl", "throughput", 8, false, shflChain<8>, 0},
      {"smem", "throughput", 8, false, smemChain<8>, kBuffers * 8 * kBlock * 4},
      {"shfl", "throughput", 1, true, shflChain<1>, 0},
      {"smem", "throughput", 1, true, smemChain<1>, kBuffers * 1 * kBlock * 4},
      {"shfl", "throughput", 8, true, shflChain<8>, 0},
      {"smem", "throughput", 8, true, smemChain<8>, kBuffers * 8 * kBlock * 4},
  };

  // Buffers sized for the largest case: every SM full, ILP 8.
  int max_blocks_per_sm = 0;
  for (const Case& c : cases) {
    int b = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, c.fn, kBlock, 0));
    max_blocks_per_sm = std::max(max_blocks_per_sm, b);
  }
  const size_t max_warps = static_cast<size_t>(max_blocks_per_sm) * prop.multiProcessorCount * (kBlock / 32);
  int* d_out = nullptr;
  long long *d_stamps = nullptr, *d_clk = nullptr;
  CUDA_CHECK(cudaMalloc(&d_out, max_warps * 8 * 32 * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_stamps, 3 * max_warps * sizeof(long long)));
  CUDA_CHECK(cudaMalloc(&d_clk, 2 * sizeof(long long)));

  wb::CsvTable table({"kernel", "experiment", "warps_per_sm", "ilp", "steps", "cycles_per_step",
                      "ns_per_step", "warp_exchanges_per_sm_cycle", "min_cycles_per_step",
                      "max_cycles_per_step", "reps", "sm_mhz"});
  bool ok = true;
  for (const Case& c : cases) {
    int blocks = 1, threads = 32, warps_per_sm = 1;
    if (c.full) {
      int per_sm = 0;
      CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, c.fn, kBlock, 0));
      blocks = per_sm * prop.multiProcessorCount;  // one wave: at most per_sm blocks per SM, none waits
      threads = kBlock;
      warps_per_sm = per_sm * kBlock / 32;
    }
    const size_t warps = static_cast<size_t>(blocks) * threads / 32;
    const size_t n_out = warps * c.ilp * 32;
    std::vector<double> per_rep, rate_per_rep;
    std::vector<int> h_out(n_out);
    std::vector<long long> h_stamps(3 * warps);
    const int runs = bench ? reps : 1;
    for (int r = 0; r < runs; ++r) {
      CUDA_CHECK(cudaMemset(d_out, 0xff, n_out * sizeof(int)));  // poison: -1 is no start value
      CUDA_CHECK(cudaMemset(d_stamps, 0xff, 3 * warps * sizeof(long long)));
      c.fn<<<blocks, threads>>>(d_out, d_stamps, trips);
      CUDA_CHECK_LAUNCH();
      CUDA_CHECK(cudaMemcpy(h_out.data(), d_out, n_out * sizeof(int), cudaMemcpyDeviceToHost));
      CUDA_CHECK(cudaMemcpy(h_stamps.data(), d_stamps, 3 * warps * sizeof(long long), cudaMemcpyDeviceToHost));
      size_t bad = 0;
      for (size_t w = 0; w < warps; ++w)
        for (int k = 0; k < c.ilp; ++k)
          for (int l = 0; l < 32; ++l) {
            const int want = start_value(static_cast<int>(w), k, l ^ x, c.ilp);
            const int got = h_out[(w * c.ilp + k) * 32 + l];
            if (got != want && bad++ < 3)
              std::fprintf(stderr, "MISMATCH %s ilp %d warp %zu slot %d lane %d: %d, expected %d\n",
                           c.kernel, c.ilp, w, k, l, got, want);
          }
      // Per warp: its own cycles. Per SM: the span from its first warp's start to its last
      // warp's end, and how many warps it ran.
      std::vector<double> cyc(warps);
      std::map<long long, std::array<long long, 3>> sm;  // smid -> first start, last end, warps
      bool stamps_ok = true;
      for (size_t w = 0; w < warps; ++w) {
        const long long t0 = h_stamps[3 * w], t1 = h_stamps[3 * w + 1], id = h_stamps[3 * w + 2];
        stamps_ok = stamps_ok && t1 > t0 && t0 >= 0 && id >= 0;
        cyc[w] = static_cast<double>(t1 - t0);
        auto it = sm.find(id);
        if (it == sm.end()) sm[id] = {t0, t1, 1};
        else it->second = {std::min(it->second[0], t0), std::max(it->second[1], t1), it->second[2] + 1};
      }
      if (bad || !stamps_ok) {
        std::fprintf(stderr, "FAILED: %s %s ilp %d: %zu wrong values%s\n", c.kernel, c.experiment, c.ilp, bad,
                     stamps_ok ? "" : ", bad clock stamps");
        ok = false;
        break;
      }
      std::vector<double> rate;  // warp exchanges per cycle, per SM
      for (const auto& [id, v] : sm) rate.push_back(static_cast<double>(v[2]) * c.ilp * steps / (v[1] - v[0]));
      per_rep.push_back(wb::median_of(cyc) / steps);  // the median warp's cycles per step
      rate_per_rep.push_back(wb::median_of(rate));     // the median SM's exchange rate
    }
    if (!ok) break;
    if (!bench) continue;
    const double mhz = wb::sm_mhz(d_clk);
    const double cps = wb::median_of(per_rep);
    table.add({c.kernel, c.experiment, std::to_string(warps_per_sm), std::to_string(c.ilp),
               std::to_string(steps), wb::fmt(cps, 2), wb::fmt(cps / mhz * 1e3, 3),
               wb::fmt(wb::median_of(rate_per_rep), 3),
               wb::fmt(*std::min_element(per_rep.begin(), per_rep.end()), 2),
               wb::fmt(*std::max_element(per_rep.begin(), per_rep.end()), 2), std::to_string(reps),
               wb::fmt(mhz, 0)});
  }
  CUDA_CHECK(cudaFree(d_out));
  CUDA_CHECK(cudaFree(d_stamps));
  CUDA_CHECK(cudaFree(d_clk));
  if (!ok) return wb::kFail;
  if (bench) {
    std::fprintf(stderr, "\nshfl_vs_smem on %s: cycles per step of ILP exchanges (median warp) and warp exchanges per SM cycle (median SM); median of %d runs\n",
                 prop.name, reps);
    table.print(stderr);
    if (!csv_dir.empty()) table.write(csv_dir + "/" + wb::gpu_slug(prop) + "/shfl_vs_smem.csv");
  }
  std::printf("shfl_vs_smem: every lane's final value checked against lane ^ %d (%d steps per warp): OK\n", x, steps);
  return wb::kPass;
}
