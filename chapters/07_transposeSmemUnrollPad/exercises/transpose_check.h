// transpose_check.h — the body of both chapter 07 exercise checkers (check_transposePad.cu and
// check_transposeSwizzle.cu). The including file defines EX_KERNEL (the exercise's kernel), EX_NAME
// and EX_FILE, includes the exercise, then this.
//
//   --bank-model   host only: the chapter's bank model on tile_index (exit 0 conflict-free, 1 not)
//   (default)      every shape on the GPU, every element exact against a CPU transpose
#pragma once

#include "bank_model.h"
#include "exercise_check.h"
#include "transpose_lesson.h"

// The reference for the time: the chapter's padded 32-wide tile (transposeSmemPad's padding rule,
// one word per row here), with the same 32 x 8 block.
__global__ void transposePadRef(float* out, const float* in, int rows, int cols) {
  __shared__ float tile[32][33];
  const int x = blockIdx.x * 32 + threadIdx.x;
  for (int j = threadIdx.y; j < 32; j += 8) {
    const int y = blockIdx.y * 32 + j;
    if (y < rows && x < cols) tile[j][threadIdx.x] = in[(size_t)y * cols + x];
  }
  __syncthreads();
  const int ox = blockIdx.y * 32 + threadIdx.x;
  for (int j = threadIdx.y; j < 32; j += 8) {
    const int oy = blockIdx.x * 32 + j;
    if (oy < cols && ox < rows) out[(size_t)oy * rows + ox] = tile[threadIdx.x][j];
  }
}

inline int run_checker(int argc, char** argv) {
  const ex::Options opt = ex::parse(argc, argv, true);
#ifdef WB_NOT_ATTEMPTED
  (void)opt;
  ex::not_attempted(EX_FILE);
#else
  if (opt.bank_model) return bank::judge("tile_index", [](int r, int c) { return tile_index(r, c); }, kTileWords);
  wb::require_device();
  auto launch = [](auto kernel, float* out, const float* in, int rows, int cols) {
    kernel<<<dim3((cols + 31) / 32, (rows + 31) / 32), dim3(32, 8)>>>(out, in, rows, cols);
    CUDA_CHECK_LAUNCH();
  };
  for (int rep = 0; rep < opt.reps; ++rep) {
    for (const lesson::Shape s : lesson::kShapes) {
      const size_t count = size_t(s.rows) * s.cols;
      std::vector<float> h(count), expect(count);
      for (int r = 0; r < s.rows; ++r)
        for (int c = 0; c < s.cols; ++c) {
          h[size_t(r) * s.cols + c] = static_cast<float>(size_t(r) * s.cols + c);  // exact: < 2^24
          expect[size_t(c) * s.rows + r] = h[size_t(r) * s.cols + c];
        }
      float* d_in = nullptr;
      CUDA_CHECK(cudaMalloc(&d_in, count * sizeof(float)));
      CUDA_CHECK(cudaMemcpy(d_in, h.data(), count * sizeof(float), cudaMemcpyHostToDevice));
      float* d_out = ex::device_poisoned<float>(count);
      launch(EX_KERNEL, d_out, d_in, s.rows, s.cols);
      CUDA_CHECK(cudaDeviceSynchronize());
      const bool ok = ex::same(std::string(EX_NAME) + ", " + std::to_string(s.rows) + " x " + std::to_string(s.cols) +
                                   " (out[c * rows + r] = in[r * cols + c])",
                               expect, ex::to_host(d_out, count));
      CUDA_CHECK(cudaFree(d_in));
      CUDA_CHECK(cudaFree(d_out));
      if (!ok) return wb::kFail;
    }
  }
  {  // the time, at 4096 x 4096, against the padded reference (stderr, never judged)
    const int side = 4096;
    float* d_in = ex::device_poisoned<float>(size_t(side) * side);
    float* d_out = ex::device_poisoned<float>(size_t(side) * side);
    ex::report_time(EX_NAME, [&] { launch(EX_KERNEL, d_out, d_in, side, side); },
                    "32 x 32 tile padded by one word", [&] { launch(transposePadRef, d_out, d_in, side, side); },
                    2.0 * side * side * sizeof(float));
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
  }
  std::printf("%s: every element right on %zu shapes\n", EX_NAME, sizeof lesson::kShapes / sizeof lesson::kShapes[0]);
  return wb::kPass;
#endif
}
