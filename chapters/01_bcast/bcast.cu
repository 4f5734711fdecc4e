// Chapter 01 — bcast: one lane's value to the whole warp with __shfl_sync, and what the
// `width` argument does to srcLane.
//
// Run:    ./build/bin/bcast            (expected stdout: expected_outputs/bcast.txt)
// Build:  cmake --workflow --preset default   (builds and tests everything)
// Build without CMake, in this folder:
//   nvcc -std=c++17 -O3 -arch=native -I../../common -o bcast bcast.cu
//
// Kernels:
//   1. bcast  — the CUDA Programming Guide's example (source 000, section 3.1): lane 0 holds arg,
//               __shfl_sync(0xffffffff, value, 0) hands it to all 32 lanes.
//   2. test   — source 002's experiment kernel (its name kept): every lane passes its lane id
//               through one shuffle with a given srcLane/delta/laneMask and width.
//
// Self-check: every lane of bcast must hold arg; every line of the width experiments must equal
// the CPU warp model (common/warp_model.h), i.e. the Programming Guide's rules. Exit 1 if not.
#include <cstdio>
#include <cstring>

#include "args.h"
#include "bcast_lesson.h"
#include "check.h"
#include "report.h"

using warp_model::Mode;
constexpr unsigned kFull = 0xffffffffu;

__global__ void bcast(int arg, int* received) {
  int laneId = threadIdx.x & 0x1f;
  // The guide leaves `value` uninitialised on lanes 1-31. Every lane reads its own `value` when it
  // passes it to the shuffle (only lane 0's copy reaches another lane), and reading an
  // uninitialised int is undefined behaviour in C++, so we start from a poison value that would
  // show up in the output if the shuffle ever read a lane other than 0.
  int value = -1;
  if (laneId == 0) value = arg;
  // No lane has exited, so every lane named in the mask must reach this call (README, rule 1);
  // it waits for them and returns lane 0's `value`.
  value = __shfl_sync(kFull, value, 0);
  if (value != arg) printf("Thread %d failed.\n", threadIdx.x);  // the guide's own check
  received[threadIdx.x] = value;
}

__global__ void test(Mode mode, int x, int width, int* out) {
  int value = threadIdx.x & 0x1f;  // lane id
  int ret = 0;
  // `mode` is the same for the whole warp, so all 32 lanes take the same branch and all of them
  // execute the shuffle, as the full mask promises.
  switch (mode) {
    case Mode::Idx: ret = __shfl_sync(kFull, value, x, width); break;
    case Mode::Up: ret = __shfl_up_sync(kFull, value, static_cast<unsigned>(x), width); break;
    case Mode::Down: ret = __shfl_down_sync(kFull, value, static_cast<unsigned>(x), width); break;
    case Mode::Xor: ret = __shfl_xor_sync(kFull, value, x, width); break;
  }
  out[threadIdx.x] = ret;
}

// Poison the output, run `launch`, copy 32 ints back.
template <class Launch>
void run_warp(int* d_out, int* h_out, Launch&& launch) {
  CUDA_CHECK(cudaMemset(d_out, 0xff, 32 * sizeof(int)));  // -1 everywhere: unwritten shows
  launch();
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaMemcpy(h_out, d_out, 32 * sizeof(int), cudaMemcpyDeviceToHost));
}

int main(int argc, char** argv) {
  wb::Args args(argc, argv, "usage: bcast  (no options; prints the lesson and checks it)");
  args.finish();
  wb::require_device();

  int* d_out = nullptr;
  CUDA_CHECK(cudaMalloc(&d_out, 32 * sizeof(int)));
  int got[32];
  int failures = 0;

  run_warp(d_out, got, [&] { bcast<<<1, 32>>>(bcast_lesson::kArg, d_out); });
  bcast_lesson::print_bcast(got);
  for (int l = 0; l < 32; ++l) failures += got[l] != bcast_lesson::kArg;

  bcast_lesson::print_header();
  for (const auto& c : bcast_lesson::kCases) {
    run_warp(d_out, got, [&] { test<<<1, 32>>>(c.mode, c.x, c.width, d_out); });
    bcast_lesson::print_case(c, got);
    auto want = warp_model::values(warp_model::shfl(c.mode, warp_model::kFullMask,
                                                    warp_model::lane_ids<int>(),
                                                    static_cast<unsigned>(c.x), c.width));
    for (int l = 0; l < 32; ++l) {
      if (got[l] != want[l]) {
        std::fprintf(stderr, "MISMATCH %s lane %d: GPU %d, CPU model (the Guide's rules) %d\n",
                     c.label, l, got[l], want[l]);
        ++failures;
      }
    }
  }
  CUDA_CHECK(cudaFree(d_out));

  return wb::finish(failures, "lane values differ from the CPU reference",
                    "\nPASS: every lane matches the CPU reference");
}
