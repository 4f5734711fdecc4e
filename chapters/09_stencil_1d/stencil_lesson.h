// Chapter 09's problem, coefficients and output format: shared by stencil_1d.cu and stencil_model.cpp.
#pragma once

#include <cmath>
#include <cstdio>
#include <vector>

namespace lesson {

constexpr int RADIUS = 4;
constexpr int BDIM = 32;  // the book's block size: one tile of BDIM + 2 * RADIUS floats per block

// The book's constantStencil coefficients ("Professional CUDA C Programming", ch. 5,
// constantStencil.cu: #define a0 0.00000f ... a4 -0.00357f); source 003 prints only a0.
// They are the 8th-order central first-derivative weights 4/5, -1/5, 4/105, -1/280, cut to 5
// decimals (see the README: that cut sets the error floor).
constexpr float kCoef[RADIUS + 1] = {0.00000f, 0.80000f, -0.20000f, 0.03809f, -0.00357f};

// The test problem: f(x) = sin(x) sampled at x_i = i * h, so out[i] / h approximates cos(x_i).
// N is not a multiple of any block size used here.
constexpr double kH = 0.05;
constexpr int kN = 1000003;

// in[-RADIUS .. N + RADIUS): the halo is sampled from f too, so every output has its neighbours.
inline std::vector<float> make_input(int n) {
  std::vector<float> v(size_t(n) + 2 * RADIUS);
  for (int i = -RADIUS; i < n + RADIUS; ++i) v[size_t(i + RADIUS)] = static_cast<float>(std::sin(i * kH));
  return v;
}

// The stencil in float with fused multiply-adds in the kernels' order, k = 1..4: what the GPU
// computes, bit for bit (in each `tmp += c * (a - b)` the subtraction is one FADD and the
// multiply-add one FFMA).
inline float stencil_point(const float* in, int i) {
  float tmp = 0.0f;
  for (int k = 1; k <= RADIUS; ++k) tmp = std::fma(kCoef[k], in[i + k] - in[i - k], tmp);
  return tmp;
}

constexpr double kTolerance = 1e-6;  // |GPU - CPU double reference| allowed at every point
constexpr int kSamples[] = {0, 1, 31, 62, 1000, 500001, kN - 1};

inline void print_header() {
  std::printf("== stencil_1d: 9-point central first derivative, RADIUS %d ==\n", RADIUS);
  std::printf("coefficients a1..a4 = %.5f %.5f %.5f %.5f (the book's constantStencil)\n", kCoef[1],
              kCoef[2], kCoef[3], kCoef[4]);
  std::printf("f(x) = sin(x) at x_i = i * %.2f, i = 0 .. %d; out[i] / h approximates cos(x_i)\n\n", kH, kN - 1);
}

inline void print_check(const char* kernel, bool pass) {
  std::printf("%-22s %s  (|out - CPU double| <= %.0e at all %d points)\n", kernel, pass ? "PASS" : "FAIL",
              kTolerance, kN);
}

// The error against the exact derivative, and a few points, from one kernel's output.
inline void print_accuracy(const std::vector<float>& out) {
  double worst = 0;
  for (int i = 0; i < kN; ++i) worst = std::fmax(worst, std::fabs(out[i] / kH - std::cos(i * kH)));
  std::printf("\nmax |out/h - cos(x)| over all points: %.1e\n", worst);
  std::printf("%8s %10s %12s %12s\n", "i", "x", "out/h", "cos(x)");
  for (int i : kSamples) std::printf("%8d %10.2f %12.7f %12.7f\n", i, i * kH, out[i] / kH, std::cos(i * kH));
}

}  // namespace lesson
