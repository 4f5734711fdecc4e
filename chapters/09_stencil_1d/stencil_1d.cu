// Chapter 09 — stencil_1d: a 9-point stencil with constant memory, the read-only cache, and the
// race in the source's grid-stride loop, fixed.
//
// Run:    ./build/bin/stencil_1d                 (expected stdout: expected_outputs/stencil_1d.txt)
//         ./build/bin/stencil_1d --bench [--reps 50] [--max-log2 L] [--kernel NAME] [--csv-dir DIR]
//             times every variant (or only NAME) for N = 2^20 .. 2^28 floats, beside copy and
//             cudaMemcpy (table to stderr; with --csv-dir, DIR/<gpu>/stencil_1d.csv)
//         cmake --build build --target stencil_1d_race_demo_check
//             the source's kernel, unfixed, under compute-sanitizer (a demo, not a test)
// Build without CMake, in this folder:
//   nvcc -std=c++17 -O3 -arch=native -I../../common -o stencil_1d stencil_1d.cu
//
// out[i] = sum_{k=1..4} c_k * (in[i+k] - in[i-k]), in[] padded with RADIUS samples on each side.
// Kernels:
//   1. stencil_1d           coefficients in __constant__ memory (cudaMemcpyToSymbol); a shared
//                           tile of BDIM + 2*RADIUS with a halo (source 003 section 5.5.1), fixed
//   2. stencil_1d_readonly  the same; coefficients through a const __restrict__ pointer (5.5.2)
//   3. stencil_1d_ldg       the same; coefficients through __ldg() (5.5.2)
//   4. stencil_1d_vec4      ours: no shared memory; each thread makes 4 outputs from three 16-byte
//                           loads (overlapping its neighbours'), one 16-byte store
//   5. copy, cudaMemcpy     common/copy.cuh: the bandwidth reference, and the driver's copy
//
// Self-check (exit 1): every output of every variant within 1e-6 of a CPU double-precision
// stencil (NaN fails; outputs are poisoned first).
#include <cstdio>
#include <string>
#include <vector>

#include "args.h"
#include "bench.h"
#include "check.h"
#include "copy.cuh"
#include "csv.h"
#include "report.h"
#include "stencil_lesson.h"
#include "timer.h"

constexpr int RADIUS = lesson::RADIUS;
constexpr int BDIM = lesson::BDIM;  // the book's block size

__constant__ float coef[RADIUS + 1];

// The book's kernel had `while (idx < N) { ...; __syncthreads(); ...; idx += stride; }`, with
// four latent bugs (README: what triggers each):
//  * when N % BDIM != 0, a thread whose idx passes N leaves the loop while the rest of its block
//    goes on to the barrier: the Guide allows __syncthreads() in conditional code only where the
//    condition is the same for the whole block (synccheck is silent on the committed run, whose
//    one-warp blocks' leaving threads exit the kernel; no run tells if either is why; README);
//  * when blocks loop, nothing stops a fast thread from writing the next iteration's tile while
//    slower ones still read this one's (racecheck: write-after-read hazards);
//  * when N % BDIM != 0, the last chunk's halo load in[idx + BDIM] can run past the padded input
//    (memcheck);
//  * when N % BDIM != 0, the last chunk's threads past N have left the loop and their tile words
//    stay stale or never written: the slots of in[N] .. in[N + RADIUS - 1] inside the chunk, which
//    the last outputs need, and, when N % BDIM < RADIUS, the left-halo slots of threads
//    N % BDIM .. RADIUS-1, which every output of that chunk reads (no sanitizer reports it).
// The fix: the loop runs over block-sized chunks, so its trip count is the same for every thread
// of the block; guards move inside it (for the last bug: the element load's up to N + RADIUS, and
// the first RADIUS threads load the left halo on every trip); a second barrier protects the tile
// before reuse.
// The chunk index is 64-bit so that base + gridDim.x * BDIM cannot overflow. The program's own
// sizes would fit an int (at N = 2^30 on a grid of N / BDIM blocks the last step reaches
// 2^31 - BDIM); the 64-bit index keeps a larger N from wrapping negative and looping for ever.
template <class Coef>
__device__ void stencil_body(const float* in, float* out, int N, Coef c) {
  __shared__ float smem[BDIM + 2 * RADIUS];
  const int sidx = threadIdx.x + RADIUS;
  for (int64_t base = int64_t(blockIdx.x) * BDIM; base < N; base += int64_t(gridDim.x) * BDIM) {  // block-uniform
    const int64_t idx = base + threadIdx.x;
    // in[] is valid on [-RADIUS, N + RADIUS): load my element and, for the first RADIUS threads,
    // one halo element on each side.
    if (idx < N + RADIUS) smem[sidx] = in[idx];
    if (threadIdx.x < RADIUS) {
      smem[sidx - RADIUS] = in[idx - RADIUS];
      if (idx + BDIM < N + RADIUS) smem[sidx + BDIM] = in[idx + BDIM];
    }
    __syncthreads();
    if (idx < N) {
      float tmp = 0.0f;
#pragma unroll
      for (int i = 1; i <= RADIUS; i++) tmp += c(i) * (smem[sidx + i] - smem[sidx - i]);
      out[idx] = tmp;
    }
    __syncthreads();  // everyone has read the tile before the next chunk overwrites it
  }
}

__global__ void stencil_1d(const float* in, float* out, int N) {
  // Every lane of a warp reads the same coefficient: one constant-cache broadcast.
  stencil_body(in, out, N, [](int i) { return coef[i]; });
}

__global__ void stencil_1d_readonly(const float* in, float* out, int N, const float* __restrict__ dcoef) {
  stencil_body(in, out, N, [dcoef](int i) { return dcoef[i]; });
}

__global__ void stencil_1d_ldg(const float* in, float* out, int N, const float* dcoef) {
  stencil_body(in, out, N, [dcoef](int i) { return __ldg(&dcoef[i]); });
}

// Ours. A stencil with radius 4 reads each input 8 times (the centre has weight 0 and is not read)
// but only needs it from DRAM once; the shared tile is one way to get the reuse, L1 is another.
// Each thread handles 4 consecutive outputs i..i+3 (i a multiple of 4): it needs in[i-4 .. i+7],
// exactly three aligned float4 loads (RADIUS = 4 keeps them aligned), and writes one float4. Each
// float4 is loaded by three neighbouring threads; for DRAM to see each byte about once, a cache (L1
// or L2: not measured which) must serve the repeats. A grid-stride loop (it runs once per thread on
// the covering grid that launch() gives it), and a scalar tail for N % 4.
constexpr int kVecThreads = 256;
__global__ void __launch_bounds__(kVecThreads)
stencil_1d_vec4(const float* __restrict__ in, float* __restrict__ out, int N) {
  const int n4 = N / 4;
  for (int q = blockIdx.x * kVecThreads + threadIdx.x; q < n4; q += gridDim.x * kVecThreads) {
    const int i = 4 * q;
    const float4 l = *reinterpret_cast<const float4*>(in + i - 4);
    const float4 m = *reinterpret_cast<const float4*>(in + i);
    const float4 r = *reinterpret_cast<const float4*>(in + i + 4);
    const float w[12] = {l.x, l.y, l.z, l.w, m.x, m.y, m.z, m.w, r.x, r.y, r.z, r.w};  // in[i-4 .. i+7]
    float o[4];
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      float tmp = 0.0f;
#pragma unroll
      for (int k = 1; k <= RADIUS; ++k) tmp += coef[k] * (w[4 + j + k] - w[4 + j - k]);
      o[j] = tmp;
    }
    *reinterpret_cast<float4*>(out + i) = make_float4(o[0], o[1], o[2], o[3]);
  }
  for (int i = 4 * n4 + blockIdx.x * kVecThreads + threadIdx.x; i < N; i += gridDim.x * kVecThreads) {
    float tmp = 0.0f;
#pragma unroll
    for (int k = 1; k <= RADIUS; ++k) tmp += coef[k] * (in[i + k] - in[i - k]);
    out[i] = tmp;
  }
}

// ---------------------------------------------------------------------------------------------

enum Variant { Constant, ReadOnly, Ldg, Vec4 };
constexpr struct {
  const char* name;
  Variant v;
} kVariants[] = {{"stencil_1d", Constant}, {"stencil_1d_readonly", ReadOnly}, {"stencil_1d_ldg", Ldg},
                 {"stencil_1d_vec4", Vec4}};

struct Buffers {
  float* in_padded;  // N + 2 * RADIUS floats; in = in_padded + RADIUS
  float* out;
  float* dcoef;      // the coefficients in global memory, for the read-only variants
  int n;
  float* in() const { return in_padded + RADIUS; }
};

static void launch(Variant v, const Buffers& b, int grid_cap, const cudaDeviceProp& prop) {
  int grid = (b.n + BDIM - 1) / BDIM;
  if (grid_cap) grid = std::min(grid, grid_cap);
  switch (v) {
    case Constant: stencil_1d<<<grid, BDIM>>>(b.in(), b.out, b.n); break;
    case ReadOnly: stencil_1d_readonly<<<grid, BDIM>>>(b.in(), b.out, b.n, b.dcoef); break;
    case Ldg: stencil_1d_ldg<<<grid, BDIM>>>(b.in(), b.out, b.n, b.dcoef); break;
    case Vec4: {
      // One thread per 4 outputs, a grid that covers the array: each thread's loop runs once
      // (the capped lesson grid makes it loop), and a finished block's slots go to a new block
      // with fresh loads, as in the copy kernel that the table compares it with.
      const int n4 = b.n / 4;
      int vgrid = std::max(1, (n4 + kVecThreads - 1) / kVecThreads);
      if (grid_cap) vgrid = std::min(vgrid, grid_cap);
      stencil_1d_vec4<<<vgrid, kVecThreads>>>(b.in(), b.out, b.n);
      break;
    }
  }
  CUDA_CHECK_LAUNCH();
}

static Buffers alloc(int n, const std::vector<float>& h_in_padded) {
  Buffers b{nullptr, nullptr, nullptr, n};
  CUDA_CHECK(cudaMalloc(&b.in_padded, (size_t(n) + 2 * RADIUS) * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&b.out, size_t(n) * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&b.dcoef, (RADIUS + 1) * sizeof(float)));
  // The read-only variants read the coefficients from global memory (cudaMalloc'd here; a __device__
  // array would do); the __constant__ coef, in device memory too, is set with cudaMemcpyToSymbol.
  CUDA_CHECK(cudaMemcpy(b.dcoef, lesson::kCoef, sizeof lesson::kCoef, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(b.in_padded, h_in_padded.data(), h_in_padded.size() * sizeof(float), cudaMemcpyHostToDevice));
  return b;
}

static void release(Buffers& b) {
  CUDA_CHECK(cudaFree(b.in_padded));
  CUDA_CHECK(cudaFree(b.out));
  CUDA_CHECK(cudaFree(b.dcoef));
}

static int g_failures = 0;

// Run variant v once on poisoned output; return whether every point is within tolerance.
static bool check(Variant v, const Buffers& b, const std::vector<float>& h_in_padded, std::vector<float>& h_out,
                  int grid_cap, const cudaDeviceProp& prop) {
  CUDA_CHECK(cudaMemset(b.out, 0xff, size_t(b.n) * sizeof(float)));  // NaN
  launch(v, b, grid_cap, prop);
  h_out.resize(b.n);
  CUDA_CHECK(cudaMemcpy(h_out.data(), b.out, size_t(b.n) * sizeof(float), cudaMemcpyDeviceToHost));
  const float* in = h_in_padded.data() + RADIUS;
  bool ok = true;
  for (int i = 0; i < b.n; ++i) {
    double ref = 0;
    for (int k = 1; k <= RADIUS; ++k) ref += double(lesson::kCoef[k]) * (double(in[i + k]) - double(in[i - k]));
    ok &= std::fabs(h_out[i] - ref) <= lesson::kTolerance;  // false for NaN
  }
  return ok;
}

static void run_lesson(const cudaDeviceProp& prop) {
  const std::vector<float> h_in = lesson::make_input(lesson::kN);
  Buffers b = alloc(lesson::kN, h_in);
  std::vector<float> h_out, first;
  lesson::print_header();
  for (const auto& var : kVariants) {
    // A capped grid (8 blocks) makes every block loop over many chunks: the case the fix is for.
    bool ok = check(var.v, b, h_in, h_out, 8, prop) && check(var.v, b, h_in, h_out, 0, prop);
    if (!ok) ++g_failures;
    lesson::print_check(var.name, ok);
    if (first.empty()) first = h_out;
  }
  lesson::print_accuracy(first);
  release(b);
}

static void run_bench(const cudaDeviceProp& prop, int reps, int max_log2, const std::string& csv_dir,
                      const wb::KernelPick& pick) {
  wb::BandwidthTable table({"size"});
  const int warmup = std::min(3, reps);
  std::vector<float> h_out;
  std::vector<int> sizes;  // 2^20, 2^22, .. up to 2^L, and 2^L itself when L is odd or below 20
  for (int lg = 20; lg <= max_log2; lg += 2) sizes.push_back(lg);
  if (sizes.empty() || sizes.back() != max_log2) sizes.push_back(max_log2);
  for (int lg : sizes) {
    const int n = 1 << lg;
    const std::vector<float> h_in = lesson::make_input(n);
    Buffers b = alloc(n, h_in);
    for (const auto& var : kVariants) {
      if (!pick(var.name)) continue;
      if (!check(var.v, b, h_in, h_out, 0, prop)) {
        std::fprintf(stderr, "MISMATCH: %s at N = %d\n", var.name, n);
        ++g_failures;
      }
      table.add(var.name, {std::to_string(n)}, 2.0 * n * sizeof(float),
                wb::time_cuda([&] { launch(var.v, b, 0, prop); }, warmup, reps));
    }
    table.add("copy", {std::to_string(n)}, 2.0 * n * sizeof(float),
              wb::time_copy(reinterpret_cast<const unsigned*>(b.in()), reinterpret_cast<unsigned*>(b.out),
                            size_t(n), prop, warmup, reps, &g_failures));
    table.add("cudaMemcpy", {std::to_string(n)}, 2.0 * n * sizeof(float),
              wb::time_memcpy(reinterpret_cast<const unsigned*>(b.in()), reinterpret_cast<unsigned*>(b.out),
                              size_t(n), warmup, reps, &g_failures));
    release(b);
  }
  table.report(csv_dir, prop, "stencil_1d");
}

int main(int argc, char** argv) {
  wb::Args args(argc, argv,
                "usage: stencil_1d [--bench [--reps R] [--max-log2 L] [--kernel NAME] [--csv-dir DIR]]\n"
                "  (no options)  run every variant on sin(x), check, print the accuracy (the golden output)\n"
                "  --bench       also time every variant for N = 2^20, 2^22, .. and 2^L floats\n"
                "  --reps R      timed runs per kernel and size, median reported (default 50)\n"
                "  --max-log2 L  the largest N is 2^L, 10 <= L <= 30 (default 28; below 20, only 2^L)\n"
                "  --kernel NAME time only NAME (stencil_1d, stencil_1d_readonly, stencil_1d_ldg or\n"
                "                stencil_1d_vec4) with copy and cudaMemcpy\n"
                "  --csv-dir DIR write DIR/<gpu>/stencil_1d.csv");
  const bool bench = args.flag("--bench");
  const int reps = static_cast<int>(args.count("--reps", 50, 1, 100000));
  const int max_log2 = static_cast<int>(args.count("--max-log2", 28, 10, 30));
  args.only_with("--bench", {"--reps", "--max-log2", "--csv-dir"});
  std::vector<std::string> names;
  for (const auto& v : kVariants) names.push_back(v.name);
  const wb::KernelPick pick(args, names);
  const std::string csv_dir = args.out_dir("--csv-dir");
  args.finish();

  const cudaDeviceProp prop = wb::require_device();
  if (bench)
    wb::require_device_memory((size_t(2) << max_log2) * sizeof(float) + wb::timer_device_bytes(prop) + (64u << 20),
                              "--bench");
  // Constant memory is written by the host, before the kernels that read it.
  CUDA_CHECK(cudaMemcpyToSymbol(coef, lesson::kCoef, sizeof lesson::kCoef));
  run_lesson(prop);
  if (bench) run_bench(prop, reps, max_log2, csv_dir, pick);
  return wb::finish(g_failures, "checks against the CPU reference failed");
}
