// constant_divergence's "divergence" cases: shared by constant_divergence.cu (which runs them) and
// stencil_1d_diagrams.cpp (which draws them), so the picture shows the cases the table measures.
#pragma once

namespace cd_cases {

constexpr int kLanes = 32;
constexpr int kStrideBytes[] = {4, 256};       // the k addresses 4 B apart (within 128 B) or 256 B apart
constexpr int kDistinct[] = {1, 2, 4, 8, 16, 32};  // k: distinct addresses per warp-wide read

// Lane l sits on a word that points to itself: word (l mod k) * stride, so one warp read asks for
// k distinct addresses.
constexpr unsigned start_word(int lane, int k, int stride_bytes) {
  return static_cast<unsigned>((lane % k) * (stride_bytes / 4));
}

}  // namespace cd_cases
