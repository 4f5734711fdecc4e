// Chapter 08 — matMul: the CUDA Programming Guide's matrix multiply from source 004, without and
// with shared memory, then step by step to a fast FP32 SGEMM, with cuBLAS beside it.
//
// Build without CMake, in this folder:
//   nvcc -std=c++17 -O3 -arch=native -I../../common -o matMul matMul.cu -lcublas
// (on a Hopper GPU, -gencode arch=compute_90a,code=sm_90a in place of -arch=native gives step 10 its
// setmaxnreg: -arch=native builds sm_90, where step 10 runs without it and is not timed)
// Run:    ./build/bin/matMul              (expected stdout: expected_outputs/matMul.txt)
//         ./build/bin/matMul --bench [--kernel NAME] [--reps 20] [--n N] [--csv-dir DIR]
//             times every kernel (or NAME, beside cuBLAS) on square FP32 matrices, n = 1024, 2048,
//             4096, 8192 (or only N), TFLOP/s = 2 n^3 / time; table to stderr, with --csv-dir
//             DIR/<gpu>/matMul.csv (matMul_NAME.csv)
//         ./build/bin/matMul --tune [--reps 20] [--n N] [--csv-dir DIR]
//             the tune's tile shapes of sgemmTuned (kTuneKernels) in every block order at 2048 and
//             4096, then the best at 2048 and the best four at 4096 again at 8192, each checked;
//             DIR/<gpu>/sgemm_tune.csv
//         ./build/bin/matMul --profile    one checked launch of each kernel at 4096^3 (for Nsight
//             Compute: chapters/08_matMul/matmul_traffic.py, sgemm_ncu.py)
//         ./build/bin/matMul --lane-release [--bench --kernel sgemmSetMaxNReg ...]   step 10 with one
//             arrival per consumer thread, for racecheck (kernels/10_sgemmSetMaxNReg.cuh says why)
//
// C (M x N) = A (M x K) * B (K x N), row-major floats. Kernels, one file each in kernels/, in the
// order of the ladder (`diff kernels/04_sgemmVec4.cuh kernels/05_sgemmDoubleBuffer.cuh` shows what a
// step adds); Tiles<>, the shape of 7. and 8., is in matMul_tiles.h:
//   1. MatMulKernel (gmem::)  source 004 / the Programming Guide: one thread per element of C, the
//                             row of A and the column of B straight from global memory
//   2. MatMulKernel (smem::)  the same through 16 x 16 tiles of A and B in shared memory
//                             (GetSubMatrix, GetElement, SetElement, BLOCK_SIZE 16)
//   3. sgemmRegTile           ours: 128 x 128 tiles, 8 x 8 outputs per thread, held in registers
//   4. sgemmVec4              ours: 3. with 16-byte loads and stores, A's tile transposed and
//                             padded, fragments read with 16-byte shared loads
//   5. sgemmDoubleBuffer      ours: 4. with two shared stages (the next tile loaded while this one
//                             is used, one barrier per tile) and a 16-deep k-tile
//   6. sgemmWarpTile          ours: 5. with each warp's threads on one compact 32 x 64 tile of C
//   7. sgemmAsync             ours: 6. with cp.async copies into three shared stages (sm_80 and
//                             later; plain loads and stores below)
//   8. sgemmTuned             ours: 7. at another tile shape, stage count and block order
//   9. sgemmWarpSpecialized   ours: producer warps fill the ring of stages, consumer warps compute,
//                             mbarriers instead of __syncthreads() (sm_80 on; named barriers below)
//  10. sgemmSetMaxNReg        ours: 9. with the producers' registers handed to the consumers
//                             (PTX setmaxnreg, used in sm_90a code only; elsewhere it runs without it
//                             and is checked but not timed), 32-deep k-tiles from 4096^2 outputs (6
//                             stages of 16 below), one arrival per consumer warp from sm_80 on
//      cublasSgemm            the library peer, CUBLAS_PEDANTIC_MATH: plain FP32 (no TF32, no
//                             tensor cores)
// Every kernel of the ladder handles every size (the tune's other shapes are built for whole tiles
// only); the source's assume multiples of 16 (see README errata).
//
// Self-check (exit 1 on any mismatch): lesson cases use whole-number inputs, so C is exact and
// every element of every kernel must equal the CPU's. The benchmark uses random floats in
// [-1, 1): every element of every kernel (cuBLAS too) must lie within 1.01 gamma_K sum_k |a_ik b_kj|
// (gamma_K = K u / (1 - K u), u = 2^-24: the bound on rounding error of any summation order) of an
// FP64 reference computed on the GPU, which itself is checked against the CPU on three full rows.
#include <cublas_v2.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <string>
#include <vector>

#include "args.h"
#include "check.h"
#include "csv.h"
#include "cublas_check.h"
#include "matMul_lesson.h"
#include "report.h"
#include "timer.h"

// The kernels, one step of the ladder per file, in order (each file's header says what it adds).
#include "kernels/01_MatMulKernel_gmem.cuh"
#include "kernels/02_MatMulKernel_smem.cuh"
#include "kernels/03_sgemmRegTile.cuh"
#include "kernels/04_sgemmVec4.cuh"
#include "kernels/05_sgemmDoubleBuffer.cuh"
#include "kernels/06_sgemmWarpTile.cuh"
#include "kernels/07_sgemmAsync.cuh"
#include "kernels/08_sgemmTuned.cuh"
#include "kernels/09_sgemmWarpSpecialized.cuh"
#include "kernels/10_sgemmSetMaxNReg.cuh"

// ---------------------------------------------------------------------------------------------
// Checking (not lesson kernels). ref = sum_k a_ik b_kj in FP64 (a product of two floats is exact
// in double), tol = 1.01 * gamma_K * sum_k |a_ik b_kj|.
__global__ void referenceFP64(const float* __restrict__ A, const float* __restrict__ B, double* __restrict__ ref,
                              float* __restrict__ tol, int M, int N, int K, double gamma) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N) return;
  double s = 0, sa = 0;
  for (int k = 0; k < K; ++k) {
    const double p = double(A[row * K + k]) * double(B[k * N + col]);
    s += p;
    sa += fabs(p);
  }
  ref[row * N + col] = s;
  tol[row * N + col] = float(1.01 * gamma * sa);
}

// Counts the elements of C outside the tolerance (NaN, the poison of an unwritten element, counts)
// and finds the largest |C - ref| / tol (a non-negative float, so its bits order like unsigned ints).
__global__ void countOutside(const float* __restrict__ C, const double* __restrict__ ref,
                             const float* __restrict__ tol, size_t n, unsigned long long* bad,
                             unsigned int* worst_bits) {
  unsigned long long mine = 0;
  float worst = 0.0f;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    const double err = fabs(double(C[i]) - ref[i]);
    mine += !(err <= double(tol[i]));
    if (tol[i] > 0.0f) worst = fmaxf(worst, float(err / tol[i]));  // fmaxf drops a NaN
  }
  if (mine) atomicAdd(bad, mine);
  atomicMax(worst_bits, __float_as_uint(worst));
}

// ---------------------------------------------------------------------------------------------
// Launching the Tiles<> kernels: one instantiation for whole tiles and one for any size (none for
// the tune's shapes, which run only on whole tiles).
using SgemmFn = void (*)(const float*, const float*, float*, int, int, int, int);
struct TiledKernel {
  lesson::TileCfg cfg;
  SgemmFn full, edge;
  int smem_bytes;           // dynamic shared memory per block
  int producer_threads = 0;  // threads beyond cfg.threads() (9.: the producer warps)
};
template <class T>
constexpr lesson::TileCfg cfg_of(int group) {
  return {T::BM, T::BN, T::BK, T::WM, T::WN, T::RM, T::RN, T::STAGES, T::MINB, group, T::PF};
}

static const TiledKernel kAsyncKernel = {lesson::kAsync, sgemmAsync<AsyncTiles, true>, sgemmAsync<AsyncTiles, false>,
                                         AsyncTiles::kSmemBytes};
static const TiledKernel kTunedSmallKernel = {lesson::kTunedSmall, sgemmTuned<TunedSmallTiles, true>,
                                              sgemmTuned<TunedSmallTiles, false>, TunedSmallTiles::kSmemBytes};
static const TiledKernel kTunedLargeKernel = {lesson::kTunedLarge, sgemmTuned<TunedLargeTiles, true>,
                                              sgemmTuned<TunedLargeTiles, false>, TunedLargeTiles::kSmemBytes};

// 9. sgemmWarpSpecialized: consumers in the shape kWarpSpecialized, kProducerWarps producer warps;
// its 2-stage variant where a GPU's shared memory per block cannot hold 4 stages.
using WarpSpecTiles = WB_TILES(lesson::kWarpSpecialized);
using WarpSpecSmallTiles = WB_TILES(lesson::kWarpSpecializedSmall);
constexpr int kProducerThreads = 32 * lesson::kProducerWarps;
static const TiledKernel kWarpSpecKernel = {
    lesson::kWarpSpecialized, sgemmWarpSpecialized<WarpSpecTiles, lesson::kProducerWarps, true>,
    sgemmWarpSpecialized<WarpSpecTiles, lesson::kProducerWarps, false>, WarpSpecTiles::kSmemBytes, kProducerThreads};
// 10. sgemmSetMaxNReg at its two shapes, and at step 9's two where a GPU cannot hold them;
// kSetMaxNRegKernels<true>: the same four with one arrival per consumer thread (--lane-release,
// kLaneRelease, for racecheck).
template <class T, bool kLane>
constexpr TiledKernel setmaxnreg_entry(lesson::TileCfg cfg) {
  return {cfg, sgemmSetMaxNReg<T, lesson::kProducerWarps, true, kLane>,
          sgemmSetMaxNReg<T, lesson::kProducerWarps, false, kLane>, T::kSmemBytes, kProducerThreads};
}
using SetMaxNRegSmallTiles = WB_TILES(lesson::kSetMaxNRegSmall);
using SetMaxNRegLargeTiles = WB_TILES(lesson::kSetMaxNRegLarge);
template <bool kLane>
static const TiledKernel kSetMaxNRegKernels[] = {
    setmaxnreg_entry<SetMaxNRegSmallTiles, kLane>(lesson::kSetMaxNRegSmall),
    setmaxnreg_entry<SetMaxNRegLargeTiles, kLane>(lesson::kSetMaxNRegLarge),
    setmaxnreg_entry<WarpSpecTiles, kLane>(lesson::kWarpSpecialized),
    setmaxnreg_entry<WarpSpecSmallTiles, kLane>(lesson::kWarpSpecializedSmall)};
static const TiledKernel kWarpSpecSmallKernel = {
    lesson::kWarpSpecializedSmall, sgemmWarpSpecialized<WarpSpecSmallTiles, lesson::kProducerWarps, true>,
    sgemmWarpSpecialized<WarpSpecSmallTiles, lesson::kProducerWarps, false>, WarpSpecSmallTiles::kSmemBytes,
    kProducerThreads};

// The tune's candidates (whole tiles only); each is timed in every block order of kTuneGroups.
template <int BM, int BN, int BK, int WM, int WN, int RM, int RN, int ST, int MINB, int PF = 0>
constexpr TiledKernel tune_entry() {
  using T = Tiles<BM, BN, BK, WM, WN, RM, RN, ST, MINB, PF>;
  return {cfg_of<T>(1), sgemmTuned<T, true>, nullptr, T::kSmemBytes};
}
static const TiledKernel kTuneKernels[] = {
    // 8 x 8 per thread (RM = RN = 2), 32 x 64 or 64 x 32 warp tiles
    tune_entry<128, 128, 16, 32, 64, 2, 2, 2, 2>(),
    tune_entry<128, 128, 16, 32, 64, 2, 2, 3, 2>(),
    tune_entry<128, 128, 16, 32, 64, 2, 2, 4, 2>(),
    tune_entry<128, 128, 8, 32, 64, 2, 2, 4, 2>(),
    tune_entry<128, 128, 16, 64, 32, 2, 2, 3, 2>(),
    tune_entry<64, 256, 16, 32, 64, 2, 2, 3, 2>(),
    // 4 warps per block, 4 blocks per SM
    tune_entry<64, 128, 8, 32, 64, 2, 2, 4, 4>(),
    tune_entry<64, 128, 16, 32, 64, 2, 2, 3, 4>(),
    tune_entry<64, 128, 16, 32, 64, 2, 2, 4, 4>(),
    tune_entry<64, 128, 32, 32, 64, 2, 2, 2, 4>(),
    tune_entry<64, 128, 32, 32, 64, 2, 2, 3, 3>(),
    tune_entry<64, 128, 16, 32, 64, 2, 2, 4, 3, 1>(),
    tune_entry<64, 128, 16, 32, 64, 2, 2, 4, 4, 1>(),
    tune_entry<64, 128, 8, 32, 64, 2, 2, 4, 4, 1>(),
    // 8 x 16 or 16 x 8 per thread: more FMAs per shared load, fewer warps
    tune_entry<128, 128, 16, 64, 64, 2, 4, 3, 2>(),
    tune_entry<128, 128, 16, 64, 64, 2, 4, 3, 2, 1>(),
    tune_entry<128, 128, 16, 64, 64, 4, 2, 4, 2>(),
    tune_entry<128, 256, 16, 64, 64, 2, 4, 3, 1>(),
    tune_entry<128, 256, 16, 64, 64, 2, 4, 3, 1, 1>(),
    tune_entry<128, 256, 8, 64, 64, 2, 4, 3, 1, 1>(),
    tune_entry<128, 256, 8, 64, 64, 2, 4, 4, 1, 1>(),
    tune_entry<128, 256, 8, 64, 64, 4, 2, 3, 1, 1>(),
    tune_entry<128, 256, 16, 64, 64, 4, 2, 3, 1>(),
};
constexpr int kTuneGroups[] = {1, 8, 16};

// Launches a Tiles<> kernel; false (nothing launched) when this GPU's shared memory per block is
// too small for it or the sizes need the edge kernel it lacks.
static bool launch_tiled(const TiledKernel& k, int group, int smem_optin, const float* A, const float* B, float* C,
                         int M, int N, int K) {
  const lesson::TileCfg& c = k.cfg;
  const bool full = M % c.bm == 0 && N % c.bn == 0 && K % c.bk == 0;
  const SgemmFn f = full ? k.full : k.edge;
  if (!f) return false;
  // Once per kernel, outside the timed runs (smem_optin is the GPU's, the same on every call):
  // whether it fits, its static shared memory (9.'s mbarriers) counted with the dynamic, and if
  // so its attributes set.
  struct Ready {
    SgemmFn f;
    bool fits;
  };
  static std::vector<Ready> ready;
  auto it = std::find_if(ready.begin(), ready.end(), [&](const Ready& r) { return r.f == f; });
  if (it == ready.end()) {
    cudaFuncAttributes attr{};
    CUDA_CHECK(cudaFuncGetAttributes(&attr, reinterpret_cast<const void*>(f)));
    const bool fits = k.smem_bytes + int(attr.sharedSizeBytes) <= smem_optin;
    if (fits) {
      CUDA_CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(f), cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      k.smem_bytes));
      // A hint: as much shared memory as the carveout allows, so that MINB blocks fit beside each other.
      CUDA_CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(f),
                                      cudaFuncAttributePreferredSharedMemoryCarveout, cudaSharedmemCarveoutMaxShared));
    }
    it = ready.insert(ready.end(), {f, fits});
  }
  if (!it->fits) return false;
  const int tiles = ((M + c.bm - 1) / c.bm) * ((N + c.bn - 1) / c.bn);
  f<<<tiles, c.threads() + k.producer_threads, k.smem_bytes>>>(A, B, C, M, N, K, group);
  return true;
}

// The first of `ks` that this GPU can hold, launched in its own block order; exits (a failure) when
// none fits, naming the kernel and the smallest shape's bytes.
static void launch_first_fit(const char* name, std::initializer_list<const TiledKernel*> ks, int smem_optin,
                             const float* A, const float* B, float* C, int M, int N, int K) {
  for (const TiledKernel* k : ks)
    if (launch_tiled(*k, k->cfg.group, smem_optin, A, B, C, M, N, K)) return;
  std::fprintf(stderr, "%s: %d bytes of shared memory per block do not fit this GPU\n", name,
               (*(ks.end() - 1))->smem_bytes);
  std::exit(wb::kFail);
}

struct Runner {
  cublasHandle_t cublas;
  int smem_optin = 48 << 10;  // cudaDeviceProp::sharedMemPerBlockOptin
  bool setmaxnreg = false;    // this build's code for the GPU has setmaxnreg (10.'s setmaxnreg_probe)
  const TiledKernel* setmaxnreg_kernels = kSetMaxNRegKernels<false>;  // <true> with --lane-release

  void launch(lesson::Kind k, const float* A, const float* B, float* C, int M, int N, int K) {
    const dim3 block16(BLOCK_SIZE, BLOCK_SIZE);
    const dim3 grid16((N + BLOCK_SIZE - 1) / BLOCK_SIZE, (M + BLOCK_SIZE - 1) / BLOCK_SIZE);
    const dim3 grid128((N + kBN - 1) / kBN, (M + kBM - 1) / kBM);
    const bool vec = K % 4 == 0 && N % 4 == 0;
    switch (k) {
      case lesson::Gmem:
        gmem::MatMulKernel<<<grid16, block16>>>({K, M, const_cast<float*>(A)}, {N, K, const_cast<float*>(B)},
                                                {N, M, C});
        break;
      case lesson::Smem:  // the source omits this host code; stride = width for whole matrices
        smem::MatMulKernel<<<grid16, block16>>>({K, M, K, const_cast<float*>(A)}, {N, K, N, const_cast<float*>(B)},
                                                {N, M, N, C});
        break;
      case lesson::RegTile: sgemmRegTile<<<grid128, kThreads>>>(A, B, C, M, N, K); break;
      case lesson::Vec4:
        if (vec) sgemmVec4<true><<<grid128, kThreads>>>(A, B, C, M, N, K);
        else sgemmVec4<false><<<grid128, kThreads>>>(A, B, C, M, N, K);
        break;
      case lesson::DoubleBuffer:
        if (vec) sgemmDoubleBuffer<true><<<grid128, kThreads>>>(A, B, C, M, N, K);
        else sgemmDoubleBuffer<false><<<grid128, kThreads>>>(A, B, C, M, N, K);
        break;
      case lesson::WarpTile:
        if (vec) sgemmWarpTile<true><<<grid128, kThreads>>>(A, B, C, M, N, K);
        else sgemmWarpTile<false><<<grid128, kThreads>>>(A, B, C, M, N, K);
        break;
      case lesson::Async:  // 49,920 bytes of shared memory: fits every GPU from sm_75 on
        if (!launch_tiled(kAsyncKernel, kAsyncKernel.cfg.group, smem_optin, A, B, C, M, N, K)) {
          std::fprintf(stderr, "sgemmAsync: %d bytes of shared memory per block do not fit this GPU\n",
                       kAsyncKernel.smem_bytes);
          std::exit(wb::kFail);
        }
        break;
      case lesson::Tuned: {  // the tuned shape for this size; where this GPU cannot hold it, sgemmAsync's
        const TiledKernel& t = (long long)M * N >= lesson::kTunedLargeFrom ? kTunedLargeKernel : kTunedSmallKernel;
        if (!launch_tiled(t, t.cfg.group, smem_optin, A, B, C, M, N, K))
          launch(lesson::Async, A, B, C, M, N, K);
        break;
      }
      case lesson::WarpSpecialized:  // 4 stages (99,328 bytes) where they fit, else 2 (49,664 bytes)
        launch_first_fit("sgemmWarpSpecialized", {&kWarpSpecKernel, &kWarpSpecSmallKernel}, smem_optin, A, B, C, M,
                         N, K);
        break;
      case lesson::SetMaxNReg: {  // its shape for this size, else step 9's 4 stages, else 2
        const bool large = (long long)M * N >= lesson::kSetMaxNRegLargeFrom;
        launch_first_fit("sgemmSetMaxNReg",
                         {&setmaxnreg_kernels[large ? 1 : 0], &setmaxnreg_kernels[2], &setmaxnreg_kernels[3]},
                         smem_optin, A, B, C, M, N, K);
        break;
      }
      case lesson::Cublas: {
        // cuBLAS is column-major. Row-major C (M x N) is column-major C^T (N x M), and
        // C^T = B^T A^T, where row-major B and A are column-major B^T (N x K, ld N) and A^T
        // (K x M, ld K): so ask for the column-major product B^T A^T, of shape N x M.
        const float alpha = 1.0f, beta = 0.0f;
        CUBLAS_CHECK(cublasSgemm(cublas, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, B, N, A, K, &beta, C, N));
        break;
      }
    }
    CUDA_CHECK_LAUNCH();
  }
};

static int g_failures = 0;

// Runs kernel k on the case's A and B (already on the device) into a poisoned C.
// C of case s into h_C: dC poisoned, `launch` (which writes dC) run, the result copied back.
template <class Launch>
static void run_into(lesson::Case s, float* dC, std::vector<float>& h_C, Launch launch) {
  const size_t nc = size_t(s.M) * s.N;
  CUDA_CHECK(cudaMemset(dC, 0xff, nc * sizeof(float)));  // NaN: an unwritten element fails
  launch();
  h_C.resize(nc);
  CUDA_CHECK(cudaMemcpy(h_C.data(), dC, nc * sizeof(float), cudaMemcpyDeviceToHost));
}

static long long checksum(const std::vector<float>& C) {
  long long sum = 0;
  for (float v : C) sum += std::isfinite(v) ? static_cast<long long>(v) : 0;
  return sum;
}

static void run_lesson(Runner& run) {
  size_t max_a = 0, max_b = 0, max_c = 0;
  for (auto s : lesson::kCases) {
    max_a = std::max(max_a, size_t(s.M) * s.K);
    max_b = std::max(max_b, size_t(s.K) * s.N);
    max_c = std::max(max_c, size_t(s.M) * s.N);
  }
  float *dA, *dB, *dC;
  CUDA_CHECK(cudaMalloc(&dA, max_a * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dB, max_b * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dC, max_c * sizeof(float)));
  std::vector<float> A, B, C;

  lesson::print_header();
  for (size_t c = 0; c < std::size(lesson::kCases); ++c) {
    const lesson::Case s = lesson::kCases[c];
    lesson::fill(s, A, B);
    CUDA_CHECK(cudaMemcpy(dA, A.data(), A.size() * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dB, B.data(), B.size() * sizeof(float), cudaMemcpyHostToDevice));
    // The CPU reference, in double; exact (see matMul_lesson.h).
    std::vector<double> ref(size_t(s.M) * s.N, 0.0);
    for (int i = 0; i < s.M; ++i)
      for (int k = 0; k < s.K; ++k)
        for (int j = 0; j < s.N; ++j) ref[size_t(i) * s.N + j] += double(A[size_t(i) * s.K + k]) * B[size_t(k) * s.N + j];

    // The elements of C that differ from ref (NaN fails), reported and counted as a failure.
    auto wrong = [&](const char* what) {
      size_t bad = 0;
      for (size_t i = 0; i < C.size(); ++i) bad += !(double(C[i]) == ref[i]);
      if (bad) std::fprintf(stderr, "MISMATCH: %s on %d x %d x %d: %zu wrong elements\n", what, s.M, s.K, s.N, bad);
      g_failures += bad != 0;
      return bad;
    };
    bool printed = false;
    for (const auto& kern : lesson::kKernels) {
      run_into(s, dC, C, [&] { run.launch(kern.kind, dA, dB, dC, s.M, s.N, s.K); });
      const size_t bad = wrong(kern.name);
      if (!printed) {  // the example values come from the source's first kernel on the GPU
        if (c == 0) {
          std::printf("\n");
          lesson::print_matrix("A", A.data(), s.M, s.K);
          lesson::print_matrix("B", B.data(), s.K, s.N);
          lesson::print_matrix("C = MatMulKernel(A, B)", C.data(), s.M, s.N);
        }
        lesson::print_case(s, C.data());
        printed = true;
      }
      lesson::print_result(kern.name, checksum(C), bad == 0);
    }
    // sgemmWarpSpecialized's 2-stage variant, which runs only where 4 stages do not fit: checked
    // here on every case too (silently: the golden output is the same on every GPU), so that no
    // path of the step goes untested on a GPU that has room for 4.
    bool ran = false;
    run_into(s, dC, C, [&] {
      ran = launch_tiled(kWarpSpecSmallKernel, kWarpSpecSmallKernel.cfg.group, run.smem_optin, dA, dB, dC, s.M, s.N,
                         s.K);
      if (ran) CUDA_CHECK_LAUNCH();
    });
    if (ran) wrong("sgemmWarpSpecialized with 2 stages");
    // sgemmSetMaxNReg at each of its shapes that this GPU can hold (the launch picks one per size),
    // checked here on every case too, silently.
    for (size_t i = 0; i < std::size(kSetMaxNRegKernels<false>); ++i) {
      const TiledKernel& k = run.setmaxnreg_kernels[i];
      ran = false;
      run_into(s, dC, C, [&] {
        ran = launch_tiled(k, k.cfg.group, run.smem_optin, dA, dB, dC, s.M, s.N, s.K);
        if (ran) CUDA_CHECK_LAUNCH();
      });
      if (ran) {
        const std::string what = "sgemmSetMaxNReg at " + std::to_string(k.cfg.bk) + "-deep k-tiles, " +
                                 std::to_string(k.cfg.stages) + " stages";
        wrong(what.c_str());
      }
    }
  }

  // Source 004's kernels as printed, with its host code's grid: B.width / 16 x A.height / 16.
  lesson::print_demo_header();
  const lesson::Case s = lesson::kDemo;
  lesson::fill(s, A, B);
  CUDA_CHECK(cudaMemcpy(dA, A.data(), A.size() * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dB, B.data(), B.size() * sizeof(float), cudaMemcpyHostToDevice));
  std::vector<double> ref(size_t(s.M) * s.N, 0.0);
  for (int i = 0; i < s.M; ++i)
    for (int k = 0; k < s.K; ++k)
      for (int j = 0; j < s.N; ++j) ref[size_t(i) * s.N + j] += double(A[size_t(i) * s.K + k]) * B[size_t(k) * s.N + j];
  const dim3 block(BLOCK_SIZE, BLOCK_SIZE), grid(s.N / BLOCK_SIZE, s.M / BLOCK_SIZE);
  for (int which = 0; which < 2; ++which) {
    CUDA_CHECK(cudaMemset(dC, 0xff, size_t(s.M) * s.N * sizeof(float)));
    if (which == 0)
      gmem::MatMulKernel_004<<<grid, block>>>({s.K, s.M, dA}, {s.N, s.K, dB}, {s.N, s.M, dC});
    else
      smem::MatMulKernel_004<<<grid, block>>>({s.K, s.M, s.K, dA}, {s.N, s.K, s.N, dB}, {s.N, s.M, s.N, dC});
    CUDA_CHECK_LAUNCH();
    C.resize(size_t(s.M) * s.N);
    CUDA_CHECK(cudaMemcpy(C.data(), dC, C.size() * sizeof(float), cudaMemcpyDeviceToHost));
    long long unwritten = 0, wrong = 0;
    for (size_t i = 0; i < C.size(); ++i) {
      if (std::isnan(C[i])) ++unwritten;
      else wrong += double(C[i]) != ref[i];
    }
    lesson::print_demo(which == 0 ? "MatMulKernel_gmem" : "MatMulKernel_smem", unwritten, wrong,
                       static_cast<long long>(C.size()));
  }
  lesson::print_demo_footer();
  CUDA_CHECK(cudaFree(dA));
  CUDA_CHECK(cudaFree(dB));
  CUDA_CHECK(cudaFree(dC));
}

// ---------------------------------------------------------------------------------------------
// Benchmark and profile: square n x n x n, random floats in [-1, 1) (24-bit values, exact in
// float), the same A and B for every kernel.

struct Square {
  int n;
  float *A = nullptr, *B = nullptr, *C = nullptr, *tol = nullptr;
  double* ref = nullptr;
  unsigned long long* bad = nullptr;
  unsigned int* worst = nullptr;

  explicit Square(int n_) : n(n_) {
    const size_t e = size_t(n) * n;
    CUDA_CHECK(cudaMalloc(&A, e * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&B, e * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&C, e * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&tol, e * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&ref, e * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&bad, sizeof(unsigned long long)));
    CUDA_CHECK(cudaMalloc(&worst, sizeof(unsigned int)));
    std::vector<float> hA(e), hB(e);
    for (size_t i = 0; i < e; ++i) hA[i] = random_value(i, 11);
    for (size_t i = 0; i < e; ++i) hB[i] = random_value(i, 12);
    CUDA_CHECK(cudaMemcpy(A, hA.data(), e * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(B, hB.data(), e * sizeof(float), cudaMemcpyHostToDevice));

    // The FP64 reference on the GPU, and three of its rows (first, middle, last) against the CPU.
    const double u = std::ldexp(1.0, -24), gamma = n * u / (1 - n * u);
    const dim3 block(16, 16), grid((n + 15) / 16, (n + 15) / 16);
    referenceFP64<<<grid, block>>>(A, B, ref, tol, n, n, n, gamma);
    CUDA_CHECK_LAUNCH();
    std::vector<double> row_ref(n);
    std::vector<float> row_tol(n);
    long long off = 0;
    for (int r : {0, n / 2, n - 1}) {
      CUDA_CHECK(cudaMemcpy(row_ref.data(), ref + size_t(r) * n, n * sizeof(double), cudaMemcpyDeviceToHost));
      CUDA_CHECK(cudaMemcpy(row_tol.data(), tol + size_t(r) * n, n * sizeof(float), cudaMemcpyDeviceToHost));
      std::vector<double> s(n, 0.0), sa(n, 0.0);
      for (int k = 0; k < n; ++k) {
        const double a = hA[size_t(r) * n + k];
        const float* brow = hB.data() + size_t(k) * n;
        for (int j = 0; j < n; ++j) {
          const double p = a * brow[j];
          s[j] += p;
          sa[j] += std::fabs(p);
        }
      }
      // FP64 sums in two orders differ by at most about n * 2^-53 * sum |p|.
      for (int j = 0; j < n; ++j) {
        const double eps = n * std::ldexp(1.0, -52) * sa[j];
        off += !(std::fabs(row_ref[j] - s[j]) <= eps) ||
               !(std::fabs(row_tol[j] - 1.01 * gamma * sa[j]) <= 1e-6 * 1.01 * gamma * sa[j] + 1e-30);
      }
    }
    if (off) {
      std::fprintf(stderr, "MISMATCH: the FP64 reference at n = %d differs from the CPU on %lld elements\n", n, off);
      ++g_failures;
    }
  }
  ~Square() {
    CUDA_CHECK(cudaFree(A));
    CUDA_CHECK(cudaFree(B));
    CUDA_CHECK(cudaFree(C));
    CUDA_CHECK(cudaFree(tol));
    CUDA_CHECK(cudaFree(ref));
    CUDA_CHECK(cudaFree(bad));
    CUDA_CHECK(cudaFree(worst));
  }
  static float random_value(size_t i, uint32_t seed) {  // [-1, 1) in steps of 2^-23
    return static_cast<float>(static_cast<int>(wb::hash32(i, seed) >> 8) - (1 << 23)) * 0x1p-23f;
  }

  // Runs kernel k once into a poisoned C; counts the elements outside the tolerance and returns
  // the largest error as a fraction of its element's tolerance in *worst_ratio.
  unsigned long long check(Runner& run, lesson::Kind k, float* worst_ratio) {
    const size_t e = size_t(n) * n;
    CUDA_CHECK(cudaMemset(C, 0xff, e * sizeof(float)));
    run.launch(k, A, B, C, n, n, n);
    return count_outside(worst_ratio);
  }
  // Counts the elements of C outside the tolerance, and the largest error as a fraction of its
  // element's tolerance in *worst_ratio.
  unsigned long long count_outside(float* worst_ratio) {
    const size_t e = size_t(n) * n;
    CUDA_CHECK(cudaMemset(bad, 0, sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemset(worst, 0, sizeof(unsigned int)));
    countOutside<<<1024, 256>>>(C, ref, tol, e, bad, worst);
    CUDA_CHECK_LAUNCH();
    unsigned long long h = 0;
    unsigned int w = 0;
    CUDA_CHECK(cudaMemcpy(&h, bad, sizeof h, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&w, worst, sizeof w, cudaMemcpyDeviceToHost));
    std::memcpy(worst_ratio, &w, sizeof w);
    return h;
  }
};

static size_t bytes_for(int n) {  // A, B, C, tol (float), ref (double); cuBLAS's workspace beside
  return size_t(n) * n * (4 * sizeof(float) + sizeof(double)) + (size_t(64) << 20);
}

// Every kernel (or only `only`, and cuBLAS) once at the square's size, against the FP64 bound.
static void check_all(Runner& run, Square& sq, const char* only = nullptr) {
  std::fprintf(stderr, "n = %d, largest |C - ref| / tolerance:", sq.n);
  for (const auto& k : lesson::kKernels) {
    if (only && k.kind != lesson::Cublas && std::strcmp(k.name, only) != 0) continue;
    float worst = 0;
    const unsigned long long bad = sq.check(run, k.kind, &worst);
    std::fprintf(stderr, " %s %.4f", k.name, worst);
    if (bad) {
      std::fprintf(stderr, "\nMISMATCH: %s at n = %d: %llu elements outside the tolerance\n", k.name, sq.n, bad);
      ++g_failures;
    }
  }
  std::fprintf(stderr, "\n");
}

// FP32 fused multiply-adds per clock per SM: the Programming Guide's throughput table ("Arithmetic
// Instructions", 32-bit floating-point add, multiply, multiply-add), 0 for a compute capability it
// does not list here. The FP32 peak is 2 x that x SMs x the row's sm_mhz (one reading of the SM clock
// right after its runs, common/timer.h), not the clock during them.
static int fp32_fma_per_sm_clock(const cudaDeviceProp& p) {
  const int cc = 10 * p.major + p.minor;
  switch (cc) {
    case 75: case 80: return 64;
    case 86: case 89: case 90: case 100: case 120: return 128;
    default: return 0;
  }
}

// `only`: one kernel's name (cuBLAS is timed beside it), or nullptr for all.
static void run_bench(Runner& run, const cudaDeviceProp& prop, int reps, const std::vector<int>& sizes,
                      const std::string& csv_dir, const char* only, const char* csv_suffix) {
  std::vector<std::string> cols{"kernel", "n", "time_ms", "tflops", "pct_of_cublas", "pct_of_fp32_peak"};
  for (const auto& c : wb::timing_columns()) cols.push_back(c);
  wb::CsvTable table(cols);
  const int warmup = std::min(3, reps);
  for (int n : sizes) {
    Square sq(n);
    check_all(run, sq, only);
    std::vector<std::pair<const char*, wb::Timing>> times;
    double cublas_ms = 0;
    for (const auto& k : lesson::kKernels) {
      if (only && k.kind != lesson::Cublas && std::strcmp(k.name, only) != 0) continue;
      if (k.kind == lesson::SetMaxNReg && !run.setmaxnreg) continue;  // its row is absent: main() says why
      const wb::Timing t = wb::time_cuda([&] { run.launch(k.kind, sq.A, sq.B, sq.C, n, n, n); }, warmup, reps);
      times.push_back({k.name, t});
      if (k.kind == lesson::Cublas) cublas_ms = t.median_ms;
    }
    const double flop = 2.0 * n * double(n) * n;
    const double bytes = 3.0 * n * double(n) * sizeof(float);  // A and B read, C written, once each
    for (auto& [name, t] : times) {
      const double tflops = flop / (t.median_ms * 1e-3) / 1e12;
      const double peak = 2.0 * fp32_fma_per_sm_clock(prop) * prop.multiProcessorCount * t.sm_mhz * 1e6 / 1e12;
      std::vector<std::string> cells{name, std::to_string(n), wb::fmt(t.median_ms, 4), wb::fmt(tflops, 2),
                                     wb::fmt(100.0 * cublas_ms / t.median_ms, 1),
                                     peak > 0 ? wb::fmt(100.0 * tflops / peak, 1) : std::string()};
      for (const auto& c : wb::timing_cells(t, bytes, prop)) cells.push_back(c);
      table.add(cells);
    }
  }
  std::fprintf(stderr, "\nmatMul on %s (FP32; cublasSgemm with CUBLAS_PEDANTIC_MATH: no TF32, no tensor cores; "
               "median of %d runs; TFLOP/s = 2 n^3 / time)%s\n", prop.name, reps,
               *csv_suffix ? "; sgemmSetMaxNReg with --lane-release" : "");
  table.print(stderr);
  if (!csv_dir.empty())
    table.write(wb::csv_path(csv_dir, prop, (only ? std::string("matMul_") + only : std::string("matMul")) + csv_suffix));
}

#include "matMul_tune.cuh"  // --tune: the tune's candidates and run_tune

int main(int argc, char** argv) {
  wb::Args args(argc, argv,
                "usage: matMul [--bench [--kernel NAME] [--reps R] [--n N] [--csv-dir DIR]] [--profile]\n"
                "              [--tune [--reps R] [--n N] [--csv-dir DIR]] [--lane-release]\n"
                "  (no options)  every kernel on every lesson case, checked (the golden output)\n"
                "  --bench       also time every kernel at n = 1024, 2048, 4096, 8192 (n x n x n, FP32)\n"
                "  --kernel NAME time only that kernel, and cublasSgemm beside it\n"
                "  --reps R      timed runs per kernel and size, median reported (default 20)\n"
                "  --n N         time only n = N (1 .. 32768; with --tune a multiple of 256)\n"
                "  --csv-dir DIR write DIR/<gpu>/matMul.csv (matMul_NAME.csv with --kernel; sgemm_tune.csv)\n"
                "  --profile     instead, one checked launch of each kernel at 4096^3 (for ncu)\n"
                "  --tune        instead, time the tune's tile shapes of sgemmTuned in every block order\n"
                "                at n = 2048 and 4096, then the best at 2048 and the best four at 4096\n"
                "                at 8192 (or only at --n)\n"
                "  --lane-release  sgemmSetMaxNReg with one arrival on empty[s] per consumer thread, not\n"
                "                per warp (what racecheck can follow); the lesson, or with --bench\n"
                "                --kernel sgemmSetMaxNReg (CSV matMul_sgemmSetMaxNReg_laneRelease.csv)");
  const bool bench = args.flag("--bench");
  const bool profile = args.flag("--profile");
  const bool tune = args.flag("--tune");
  const int reps = static_cast<int>(args.count("--reps", 20, 1, 100000));
  const int n_only = static_cast<int>(args.count("--n", 0, 1, 32768));
  const std::string kernel = args.text("--kernel", "");
  const bool lane_release = args.flag("--lane-release");
  if (!tune) args.only_with("--bench", {"--reps", "--n", "--csv-dir", "--kernel"});
  else args.only_with("--bench", {"--kernel"});
  const std::string csv_dir = args.out_dir("--csv-dir");
  args.finish();
  if (bench && profile) wb::bad_input("--bench and --profile are separate runs: choose one");
  if (tune && (bench || profile)) wb::bad_input("--tune is a run of its own: not with --bench or --profile");
  if (!kernel.empty() && std::none_of(std::begin(lesson::kKernels), std::end(lesson::kKernels),
                                      [&](const lesson::KernelInfo& k) { return kernel == k.name; })) {
    std::string names;
    for (const auto& k : lesson::kKernels) names += std::string(" ") + k.name;
    wb::bad_input("--kernel " + kernel + ": no such kernel; one of:" + names);
  }
  if (lane_release && (profile || tune || (bench && kernel != "sgemmSetMaxNReg")))
    wb::bad_input("--lane-release changes only sgemmSetMaxNReg: the lesson, or --bench --kernel sgemmSetMaxNReg");
  if (tune && n_only % 256 != 0) wb::bad_input("--tune --n " + std::to_string(n_only) + ": must be a multiple of 256");
  std::vector<int> sizes = n_only ? std::vector<int>{n_only} : std::vector<int>{1024, 2048, 4096, 8192};
  if (tune && !n_only) sizes = {2048, 4096};
  const int tune_final_n = tune && !n_only ? 8192 : 0;
  const int profile_n = 4096;

  const cudaDeviceProp prop = wb::require_device();
  if (bench || tune)
    wb::require_device_memory(bytes_for(std::max(tune_final_n, *std::max_element(sizes.begin(), sizes.end()))),
                              tune ? "--tune" : "--bench");
  if (profile) wb::require_device_memory(bytes_for(profile_n), "--profile");
  Runner run;
  run.smem_optin = int(prop.sharedMemPerBlockOptin);
  if (lane_release) run.setmaxnreg_kernels = kSetMaxNRegKernels<true>;
  {  // does this build's code for this GPU have setmaxnreg (step 10)?
    int* d_has = nullptr;
    int has = 0;
    CUDA_CHECK(cudaMalloc(&d_has, sizeof(int)));
    setmaxnreg_probe<<<1, 1>>>(d_has);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(&has, d_has, sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_has));
    run.setmaxnreg = has != 0;
  }
  const char* no_setmaxnreg =
      "sgemmSetMaxNReg is timed only where its code has setmaxnreg: sm_90a, on a Hopper GPU (sm_90). CMake: "
      "CMAKE_CUDA_ARCHITECTURES with 90 or native (the chapter makes it 90a); nvcc: -gencode "
      "arch=compute_90a,code=sm_90a (-arch=native is sm_90); here it runs without it, checked, untimed";
  if (kernel == "sgemmSetMaxNReg" && !run.setmaxnreg && (bench || tune)) wb::skip(no_setmaxnreg);
  if (bench && kernel.empty() && !run.setmaxnreg) std::fprintf(stderr, "%s\n", no_setmaxnreg);
  CUBLAS_CHECK(cublasCreate(&run.cublas));
  // Plain FP32: the prescribed compute type only (no TF32, no tensor cores), like our kernels.
  CUBLAS_CHECK(cublasSetMathMode(run.cublas, CUBLAS_PEDANTIC_MATH));
  if (profile) {
    std::printf("profile n %d\n", profile_n);  // read by matmul_traffic.py
    Square sq(profile_n);
    check_all(run, sq);
  } else if (tune) {
    run_tune(run, prop, reps, sizes, tune_final_n, csv_dir);
  } else {
    run_lesson(run);
    if (bench)
      run_bench(run, prop, reps, sizes, csv_dir, kernel.empty() ? nullptr : kernel.c_str(),
                lane_release ? "_laneRelease" : "");
  }
  CUBLAS_CHECK(cublasDestroy(run.cublas));

  return wb::finish(g_failures, "checks against the CPU failed");
}
