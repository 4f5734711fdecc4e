// matmul_check.h — the body of both chapter 08 exercise checkers (check_matMulTiled.cu and
// check_matMulRegTile.cu). The including file defines EX_KERNEL, EX_NAME, EX_FILE, EX_TILE (the
// side of C a block computes), and the reference kernel EX_REF with its tile EX_REF_TILE, then
// includes this. Inputs are small integers (-3..3), so every product and every sum of up to a few
// hundred of them is an exact float: the comparison is exact, whatever the order of the additions.
#pragma once

#include "exercise_check.h"

struct MatCase {
  int M, N, K;
};
// 1 x 1; whole tiles; edges in every dimension (K = 37: two whole steps of 16 and a partial one);
// a single row, a single column; K smaller than a step.
constexpr MatCase kCases[] = {{1, 1, 1},     {16, 16, 16},  {32, 32, 32},  {17, 33, 37}, {100, 70, 130},
                              {256, 256, 256}, {1, 300, 50}, {300, 1, 64},  {45, 77, 5},  {513, 129, 257}};

inline int run_checker(int argc, char** argv) {
  const ex::Options opt = ex::parse(argc, argv, false);
#ifdef WB_NOT_ATTEMPTED
  (void)opt;
  ex::not_attempted(EX_FILE);
#else
  wb::require_device();
  auto launch = [](auto kernel, int tile, dim3 block, const float* A, const float* B, float* C, int M, int N, int K) {
    kernel<<<dim3((N + tile - 1) / tile, (M + tile - 1) / tile), block>>>(A, B, C, M, N, K);
    CUDA_CHECK_LAUNCH();
  };
  for (int rep = 0; rep < opt.reps; ++rep) {
    for (const MatCase mc : kCases) {
      const int M = mc.M, N = mc.N, K = mc.K;
      ex::Rng rng(size_t(M) * 1000003u + size_t(N) * 1009u + K + 31u * rep);
      std::vector<float> a(size_t(M) * K), b(size_t(K) * N), expect(size_t(M) * N, 0.0f);
      for (auto& v : a) v = float(int(rng.next() % 7) - 3);
      for (auto& v : b) v = float(int(rng.next() % 7) - 3);
      for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j) {
          float s = 0;
          for (int k = 0; k < K; ++k) s += a[size_t(i) * K + k] * b[size_t(k) * N + j];
          expect[size_t(i) * N + j] = s;
        }
      float *dA = nullptr, *dB = nullptr;
      CUDA_CHECK(cudaMalloc(&dA, a.size() * sizeof(float)));
      CUDA_CHECK(cudaMalloc(&dB, b.size() * sizeof(float)));
      CUDA_CHECK(cudaMemcpy(dA, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice));
      CUDA_CHECK(cudaMemcpy(dB, b.data(), b.size() * sizeof(float), cudaMemcpyHostToDevice));
      float* dC = ex::device_poisoned<float>(expect.size());
      launch(EX_KERNEL, EX_TILE, dim3(16, 16), dA, dB, dC, M, N, K);
      CUDA_CHECK(cudaDeviceSynchronize());
      const bool ok = ex::same(std::string(EX_NAME) + ", M N K = " + std::to_string(M) + " " + std::to_string(N) + " " +
                                   std::to_string(K) + " (C[row * N + col])",
                               expect, ex::to_host(dC, expect.size()));
      CUDA_CHECK(cudaFree(dA));
      CUDA_CHECK(cudaFree(dB));
      CUDA_CHECK(cudaFree(dC));
      if (!ok) return wb::kFail;
    }
  }
  {  // the time at 1024^3 against the chapter's kernel (stderr, never judged)
    const int n = 1024;
    float* dA = ex::device_poisoned<float>(size_t(n) * n);
    float* dB = ex::device_poisoned<float>(size_t(n) * n);
    float* dC = ex::device_poisoned<float>(size_t(n) * n);
    CUDA_CHECK(cudaMemset(dA, 0, size_t(n) * n * sizeof(float)));
    CUDA_CHECK(cudaMemset(dB, 0, size_t(n) * n * sizeof(float)));
    ex::report_time(EX_NAME, [&] { launch(EX_KERNEL, EX_TILE, dim3(16, 16), dA, dB, dC, n, n, n); }, EX_REF_NAME,
                    [&] { launch(EX_REF, EX_REF_TILE, dim3(EX_REF_TILE, EX_REF_TILE), dA, dB, dC, n, n, n); },
                    3.0 * n * n * sizeof(float));
    CUDA_CHECK(cudaFree(dA));
    CUDA_CHECK(cudaFree(dB));
    CUDA_CHECK(cudaFree(dC));
  }
  std::printf("%s: every element of C right on %zu shapes\n", EX_NAME, sizeof kCases / sizeof kCases[0]);
  return wb::kPass;
#endif
}
