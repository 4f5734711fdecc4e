// matmul_check.h — the body of both chapter 08 exercise checkers (check_matMulTiled.cu and
// check_matMulRegTile.cu). The including file defines EX_KERNEL, EX_TILE (the side of C a block
// of 16 x 16 threads computes), and the reference kernel EX_REF with its name EX_REF_NAME and its
// tile EX_REF_TILE, then includes this. Inputs are small integers (-3..3), so every product and
// every sum of a few hundred of them is an exact float: the comparison is exact, whatever the
// order of the additions.
#pragma once

#include <string>
#include <vector>

#include "exercise.h"

struct MatCase {
  int M, N, K;
};
// 1 x 1; whole tiles; edges in every dimension (K = 37: two whole steps of 16 and a partial one);
// a single row, a single column; K smaller than a step; a larger odd shape. --quick (the sanitizer
// runs) skips every case above 200,000 multiply-adds: M N K = 100 70 130, 256 256 256, 513 129 257.
constexpr MatCase kCases[] = {{1, 1, 1},    {16, 16, 16}, {32, 32, 32}, {17, 33, 37},    {100, 70, 130},
                              {1, 300, 50}, {300, 1, 64}, {45, 77, 5},  {256, 256, 256}, {513, 129, 257}};

inline int run_checker(int argc, char** argv) {
  wb::ex::Checker ck(argc, argv, WB_EXERCISE_ATTEMPTED);
  ck.require_device();
  auto launch = [](auto kernel, int tile, dim3 block, const float* A, const float* B, float* C, int M, int N, int K) {
    kernel<<<dim3((N + tile - 1) / tile, (M + tile - 1) / tile), block>>>(A, B, C, M, N, K);
  };
  for (const MatCase mc : kCases) {
    const int M = mc.M, N = mc.N, K = mc.K;
    if (ck.quick() && size_t(M) * N * K > 200000) continue;  // the sanitizer runs: the small shapes
    std::vector<float> a(size_t(M) * K), b(size_t(K) * N), want(size_t(M) * N, 0.0f);
    unsigned x = 88172645u ^ unsigned(M * 131 + N * 7 + K);
    auto small = [&x] {  // -3..3, xorshift
      x ^= x << 13, x ^= x >> 17, x ^= x << 5;
      return float(int(x % 7) - 3);
    };
    for (auto& v : a) v = small();
    for (auto& v : b) v = small();
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float s = 0;
        for (int k = 0; k < K; ++k) s += a[size_t(i) * K + k] * b[size_t(k) * N + j];
        want[size_t(i) * N + j] = s;
      }
    wb::ex::DeviceArray<float> dA(a), dB(b), dC(want.size());
    launch(EX_KERNEL, EX_TILE, dim3(16, 16), dA.ptr, dB.ptr, dC.ptr, M, N, K);
    ck.launched();
    ck.expect("M N K = " + std::to_string(M) + " " + std::to_string(N) + " " + std::to_string(K) + ", C[row * N + col]",
              dC.download(), want);
  }
  if (!ck.quick()) {  // the time at 1024^3 against the chapter's kernel (stderr, never judged)
    const int n = 1024;
    wb::ex::DeviceArray<float> dA(std::vector<float>(size_t(n) * n, 1.0f)), dB(std::vector<float>(size_t(n) * n, 1.0f)),
        dC(size_t(n) * n);
    ck.time([&] { launch(EX_KERNEL, EX_TILE, dim3(16, 16), dA.ptr, dB.ptr, dC.ptr, n, n, n); }, EX_REF_NAME,
            [&] { launch(EX_REF, EX_REF_TILE, dim3(EX_REF_TILE, EX_REF_TILE), dA.ptr, dB.ptr, dC.ptr, n, n, n); });
  }
  return ck.finish();
}
