// CPU model of chapter 09: the stencil in float with fused multiply-adds in the kernels' order, so
// it predicts the GPU's outputs bit for bit, and with them every line of stencil_1d's stdout.
#include "stencil_lesson.h"

int main() {
  const std::vector<float> padded = lesson::make_input(lesson::kN);
  const float* in = padded.data() + lesson::RADIUS;
  std::vector<float> out(lesson::kN);
  bool ok = true;
  for (int i = 0; i < lesson::kN; ++i) {
    out[i] = lesson::stencil_point(in, i);
    double ref = 0;
    for (int k = 1; k <= lesson::RADIUS; ++k) ref += double(lesson::kCoef[k]) * (double(in[i + k]) - double(in[i - k]));
    ok &= std::fabs(out[i] - ref) <= lesson::kTolerance;
  }
  lesson::print_header();
  // All four variants compute the same sum in the same order: one prediction serves them all.
  for (const char* name : {"stencil_1d", "stencil_1d_readonly", "stencil_1d_ldg", "stencil_1d_vec4"})
    lesson::print_check(name, ok);
  lesson::print_accuracy(out);
  return 0;
}
