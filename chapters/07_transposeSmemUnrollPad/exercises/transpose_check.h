// transpose_check.h — the body of both chapter 07 exercise checkers (check_transposePad.cu and
// check_transposeSwizzle.cu). The including file includes the exercise, defines EX_KERNEL, then
// includes this.
//
//   --bank-model  host only: tile_index in the chapter's bank model. A warp stores a tile row
//                 (lane = column, 32 stores) and loads a tile column (lane = row, 32 loads); each
//                 of the 64 accesses must take 1 wavefront, and the 32 x 32 elements must map to
//                 distinct words inside kTileWords.
//   (default)     the kernel's static shared memory is kTileWords floats; every shape of the chapter
//                 on the GPU, every element exact against a CPU transpose (--quick: three small
//                 shapes, two of them with partial tiles).
#pragma once

#include <iterator>
#include <string>
#include <vector>

#include "exercise.h"
#include "transpose_lesson.h"

// The reference for the time: a 32 x 32 tile padded by one word, the same 32 x 8 block.
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

inline int bank_model(wb::ex::Checker& ck) {
  std::vector<int> owner(static_cast<size_t>(kTileWords), -1);
  for (int r = 0; r < 32; ++r)
    for (int c = 0; c < 32; ++c) {
      const int w = tile_index(r, c);
      if (w < 0 || w >= kTileWords) {
        std::printf("FAIL: tile_index(%d, %d) = %d is outside the tile's %d words\n", r, c, w, kTileWords);
        return wb::kFail;
      }
      if (owner[w] >= 0) {
        std::printf("FAIL: tile_index(%d, %d) = tile_index(%d, %d) = %d: two elements in one word\n", r, c,
                    owner[w] / 32, owner[w] % 32, w);
        return wb::kFail;
      }
      owner[w] = r * 32 + c;
    }
  int total = 0, worst_st = 1, worst_ld = 1;
  for (int i = 0; i < 32; ++i) {
    std::vector<long long> st(32), ld(32);
    for (int lane = 0; lane < 32; ++lane) {
      st[lane] = 4LL * tile_index(i, lane);  // store of tile row i
      ld[lane] = 4LL * tile_index(lane, i);  // load of tile column i
    }
    const int s = wb::ex::wavefronts(st, 4), l = wb::ex::wavefronts(ld, 4);
    worst_st = s > worst_st ? s : worst_st;
    worst_ld = l > worst_ld ? l : worst_ld;
    total += s + l;
  }
  std::printf("row store: worst %d wavefront(s) per warp access; column load: worst %d\n", worst_st, worst_ld);
  return ck.finish_bank("of the 32 row stores and 32 column loads of tile_index", total, 64);
}

inline int run_checker(int argc, char** argv) {
  wb::ex::Checker ck(argc, argv, WB_EXERCISE_ATTEMPTED, true);
  if (ck.bank_model()) return bank_model(ck);
  ck.require_device();
  // The tile the kernel declares must be the tile the bank model judged: kTileWords floats (a padded
  // tile with a swizzled tile_index would pass every other check of transposeSwizzle).
  cudaFuncAttributes attr{};
  CUDA_CHECK(cudaFuncGetAttributes(&attr, EX_KERNEL));
  ck.expect_true("the kernel's shared tile", attr.sharedSizeBytes == sizeof(float) * kTileWords,
                 std::to_string(attr.sharedSizeBytes) + " bytes of static shared memory, not kTileWords = " +
                     std::to_string(kTileWords) + " floats (" + std::to_string(sizeof(float) * kTileWords) +
                     " bytes)");
  auto launch = [](auto kernel, float* out, const float* in, int rows, int cols) {
    kernel<<<dim3((cols + 31) / 32, (rows + 31) / 32), dim3(32, 8)>>>(out, in, rows, cols);
  };
  // --quick (the sanitizer and Nsight Compute runs): a few blocks only, two shapes with partial
  // tiles. At 4096^2 Nsight Compute counted conflicts in the chapter's padded kernels, whose tiles are
  // conflict-free by the bank arithmetic (the chapter README), so the zero-conflict check runs on
  // these few blocks, where the solutions count 0 (plots/data/*/logs/exercises.log: ncu-bank passed).
  static const lesson::Shape kQuick[] = {{8, 6}, {33, 70}, {64, 64}};
  std::vector<lesson::Shape> shapes(std::begin(lesson::kShapes), std::end(lesson::kShapes));
  if (ck.quick()) shapes.assign(std::begin(kQuick), std::end(kQuick));
  for (const lesson::Shape s : shapes) {
    const size_t count = size_t(s.rows) * s.cols;
    std::vector<float> in(count), want(count);
    for (int r = 0; r < s.rows; ++r)
      for (int c = 0; c < s.cols; ++c) {
        in[size_t(r) * s.cols + c] = static_cast<float>(size_t(r) * s.cols + c);  // exact: < 2^24
        want[size_t(c) * s.rows + r] = in[size_t(r) * s.cols + c];
      }
    wb::ex::DeviceArray<float> d_in(in), d_out(count);
    launch(EX_KERNEL, d_out.ptr, d_in.ptr, s.rows, s.cols);
    ck.launched();
    ck.expect(std::to_string(s.rows) + " x " + std::to_string(s.cols) + ", out[c * rows + r] = in[r * cols + c]",
              d_out.download(), want);
  }
  if (!ck.quick()) {
    const int side = 4096;
    wb::ex::DeviceArray<float> d_in(size_t(side) * side), d_out(size_t(side) * side);
    ck.time([&] { launch(EX_KERNEL, d_out.ptr, d_in.ptr, side, side); }, "32 x 32 tile padded by one word, 4096^2",
            [&] { launch(transposePadRef, d_out.ptr, d_in.ptr, side, side); });
  }
  return ck.finish();
}
