// Chapter 09 — constant_divergence: what a warp pays when its lanes read different __constant__
// addresses, against the read-only path (__ldg) and plain global loads of the same pattern; and
// how much of a footprint the constant path's first level holds for one warp, from the time per
// read as the footprint grows.
//
// Run:    ./build/bin/constant_divergence               (quick: every kernel once, values checked)
//         ./build/bin/constant_divergence --bench [--reps 21] [--csv-dir DIR]
//             the table to stderr; with --csv-dir, DIR/<gpu>/constant_divergence.csv
// Build without CMake, in this folder:
//   nvcc -std=c++17 -O3 -arch=native -I../../common -o constant_divergence constant_divergence.cu
//
// Every kernel is a pointer chase, idx = table[idx], run by one warp on one SM and timed with
// clock64 around STEPS dependent reads, so the time per read is the latency of one warp-wide load
// instruction with that address pattern, plus the one integer instruction that turns the index into
// an address (SHF/IMAD.SHL before LDC, IMAD.WIDE.U32 before LDG in the sm_90 SASS). The table is
// the same 64 KB in all three places:
//   1. chaseConstant  table[] is a __constant__ array, read with a per-lane index (LDC)
//   2. chaseLdg       table[] in global memory, read with __ldg (LDG.E.CONSTANT)
//   3. chaseGlobal    table[] in global memory, plain loads (LDG.E)
// Experiment "divergence": lane l chases a self-loop at word (l % k) * stride: k distinct addresses
//   per warp read, k = 1, 2, 4, 8, 16, 32, with the addresses 4 bytes apart (all within 128 bytes)
//   or 256 bytes apart (k x 256 bytes; no run here measures a cache line's size).
// Experiment "footprint": every lane follows the same cycle through F bytes, one word every 64
//   bytes, F = 512 B .. 64 KB (the whole constant space), after one untimed pass that warms the
//   caches: the time per read steps up where F outgrows a cache level.
//
// Self-check (exit 1): the index each lane ends on equals the host's replay of its chase; outputs
// are poisoned first.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "args.h"
#include "check.h"
#include "clock.cuh"
#include "constant_divergence_cases.h"
#include "csv.h"

constexpr int kWords = 16384;  // 64 KB: the most __constant__ data one .cu file may declare (ptxas)
constexpr int kUnroll = 16;

__constant__ unsigned table_c[kWords];


enum Path { kConstant = 0, kLdg = 1, kGlobal = 2 };

template <int P>
__device__ __forceinline__ unsigned load(const unsigned* g, unsigned idx) {
  if (P == kConstant) return table_c[idx];
  if (P == kLdg) return __ldg(g + idx);
  return g[idx];
}

// warm: reads before the clock starts (a whole pass of the cycle); steps: timed reads.
template <int P>
__device__ void chase(const unsigned* g, unsigned* out, long long* cycles, const unsigned* start,
                      int warm, int steps) {
  const int lane = threadIdx.x;
  unsigned idx = start[lane];
  for (int i = 0; i < warm; ++i) idx = load<P>(g, idx);
  __syncwarp();
  // t0 is read before the first timed load is issued. The clock read does not wait for the
  // warm-up's loads (our reading of the sm_90 SASS control bits, whose layout NVIDIA does not
  // document: the CS2R waits on no scoreboard that those loads set), so the warm-up's last load
  // may still be in flight, adding at most that load's own latency to the `steps` timed reads;
  // with warm = 1 it is the launch's first read of the table, whose latency no run measures.
  const long long t0 = wb::clock_now();
  for (int s = 0; s < steps; s += kUnroll) {
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) idx = load<P>(g, idx);
  }
  out[lane] = idx;  // the store waits for the last load; the clock is read after it
  const long long t1 = wb::clock_now();
  if (lane == 0) cycles[0] = t1 - t0;
}
__global__ void chaseConstant(const unsigned* g, unsigned* out, long long* c, const unsigned* s, int w, int n) {
  chase<kConstant>(g, out, c, s, w, n);
}
__global__ void chaseLdg(const unsigned* g, unsigned* out, long long* c, const unsigned* s, int w, int n) {
  chase<kLdg>(g, out, c, s, w, n);
}
__global__ void chaseGlobal(const unsigned* g, unsigned* out, long long* c, const unsigned* s, int w, int n) {
  chase<kGlobal>(g, out, c, s, w, n);
}

namespace {

using Kernel = void (*)(const unsigned*, unsigned*, long long*, const unsigned*, int, int);
struct PathInfo {
  const char* name;
  Kernel fn;
};
const PathInfo kPaths[] = {{"constant", chaseConstant}, {"ldg", chaseLdg}, {"global", chaseGlobal}};

}  // namespace

int main(int argc, char** argv) {
  wb::Args args(argc, argv,
                "usage: constant_divergence [--bench [--reps R] [--csv-dir DIR]]\n"
                "  without --bench: every kernel runs a short chase once and its result is checked");
  const bool bench = args.flag("--bench");
  const int reps = static_cast<int>(args.count("--reps", 21, 1, 1000));
  const std::string csv_dir = args.out_dir("--csv-dir");
  args.only_with("--bench", {"--reps", "--csv-dir"});
  args.finish();

  const cudaDeviceProp prop = wb::require_device();
  const int steps = bench ? 4096 : 64;

  unsigned *d_table = nullptr, *d_out = nullptr, *d_start = nullptr;
  long long *d_cycles = nullptr, *d_clk = nullptr;
  CUDA_CHECK(cudaMalloc(&d_table, kWords * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&d_out, 32 * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&d_start, 32 * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&d_cycles, sizeof(long long)));
  CUDA_CHECK(cudaMalloc(&d_clk, 2 * sizeof(long long)));

  wb::CsvTable table({"experiment", "kernel", "distinct", "stride_bytes", "footprint_bytes", "steps",
                      "cycles_per_read", "ns_per_read", "min_cycles_per_read", "max_cycles_per_read",
                      "reps", "sm_mhz"});

  // One configuration: the same table in constant and global memory, the same start per lane.
  // Returns false on a wrong result.
  auto run = [&](const char* experiment, const std::vector<unsigned>& h_table, const std::vector<unsigned>& start,
                 int warm, int distinct, int stride_bytes, int footprint) -> bool {
    CUDA_CHECK(cudaMemcpyToSymbol(table_c, h_table.data(), kWords * sizeof(unsigned)));
    CUDA_CHECK(cudaMemcpy(d_table, h_table.data(), kWords * sizeof(unsigned), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_start, start.data(), 32 * sizeof(unsigned), cudaMemcpyHostToDevice));
    std::vector<unsigned> want(32);  // the host's replay of every lane's chase
    for (int l = 0; l < 32; ++l) {
      unsigned idx = start[l];
      for (int i = 0; i < warm + steps; ++i) idx = h_table[idx];
      want[l] = idx;
    }
    for (const PathInfo& p : kPaths) {
      std::vector<double> per_read;
      for (int r = 0; r < (bench ? reps : 1); ++r) {
        CUDA_CHECK(cudaMemset(d_out, 0xff, 32 * sizeof(unsigned)));  // poison: not an index
        CUDA_CHECK(cudaMemset(d_cycles, 0xff, sizeof(long long)));
        p.fn<<<1, 32>>>(d_table, d_out, d_cycles, d_start, warm, steps);
        CUDA_CHECK_LAUNCH();
        unsigned got[32];
        long long cyc = 0;
        CUDA_CHECK(cudaMemcpy(got, d_out, sizeof got, cudaMemcpyDeviceToHost));
        CUDA_CHECK(cudaMemcpy(&cyc, d_cycles, sizeof cyc, cudaMemcpyDeviceToHost));
        for (int l = 0; l < 32; ++l) {
          if (got[l] != want[l]) {
            std::fprintf(stderr, "MISMATCH %s %s distinct %d footprint %d lane %d: index %u, expected %u\n",
                         experiment, p.name, distinct, footprint, l, got[l], want[l]);
            return false;
          }
        }
        if (cyc <= 0) {
          std::fprintf(stderr, "FAILED: %s %s: %lld cycles\n", experiment, p.name, cyc);
          return false;
        }
        per_read.push_back(static_cast<double>(cyc) / steps);
      }
      if (!bench) continue;
      const double mhz = wb::sm_mhz(d_clk);
      const double c = wb::median_of(per_read);
      table.add({experiment, p.name, std::to_string(distinct), std::to_string(stride_bytes),
                 std::to_string(footprint), std::to_string(steps), wb::fmt(c, 2), wb::fmt(c / mhz * 1e3, 3),
                 wb::fmt(*std::min_element(per_read.begin(), per_read.end()), 2),
                 wb::fmt(*std::max_element(per_read.begin(), per_read.end()), 2), std::to_string(reps),
                 wb::fmt(mhz, 0)});
    }
    return true;
  };

  bool ok = true;
  // Divergence: every word points to itself, lane l sits on word (l % k) * stride.
  {
    std::vector<unsigned> self(kWords);
    for (int i = 0; i < kWords; ++i) self[i] = static_cast<unsigned>(i);
    for (int stride_bytes : cd_cases::kStrideBytes) {
      for (int k : cd_cases::kDistinct) {
        if (!ok) break;
        std::vector<unsigned> start(32);
        for (int l = 0; l < 32; ++l) start[l] = cd_cases::start_word(l, k, stride_bytes);
        ok = run("divergence", self, start, 1, k, stride_bytes, k * stride_bytes);
      }
    }
  }
  // Footprint: one cycle through F bytes, one word per 64 bytes, all lanes on the same word.
  if (ok) {
    const int kStride = 16;  // words: 64 bytes
    std::vector<int> sizes;
    for (int f = 512; f <= kWords * 4; f *= 2) {
      sizes.push_back(f);
      if (f * 3 / 2 < kWords * 4 && f >= 1024) sizes.push_back(f * 3 / 2);
    }
    if (!bench) sizes = {1024, kWords * 4};
    for (int f : sizes) {
      const int n = f / 64;
      std::vector<unsigned> cyc(kWords, 0);
      for (int i = 0; i < n; ++i) cyc[i * kStride] = static_cast<unsigned>(((i + 1) % n) * kStride);
      std::vector<unsigned> start(32, 0);
      if (!(ok = run("footprint", cyc, start, n, 1, 64, f))) break;
    }
  }

  CUDA_CHECK(cudaFree(d_table));
  CUDA_CHECK(cudaFree(d_out));
  CUDA_CHECK(cudaFree(d_start));
  CUDA_CHECK(cudaFree(d_cycles));
  CUDA_CHECK(cudaFree(d_clk));
  if (!ok) return wb::kFail;
  if (bench) {
    std::fprintf(stderr, "\nconstant_divergence on %s: cycles per dependent warp-wide read (median of %d runs)\n",
                 prop.name, reps);
    table.print(stderr);
    if (!csv_dir.empty()) table.write(csv_dir + "/" + wb::gpu_slug(prop) + "/constant_divergence.csv");
  }
  std::printf("constant_divergence: every chase ended on the expected index (%d timed reads each): OK\n", steps);
  return wb::kPass;
}
