// Chapter 03 — scan4: an inclusive prefix sum inside groups of 8 lanes with __shfl_up_sync.
//
// Run:    ./build/bin/scan4            (expected stdout: expected_outputs/scan4.txt)
// Build without CMake, in this folder:
//   nvcc -std=c++17 -O3 -arch=native -I../../common -o scan4 scan4.cu
//
// Kernels:
//   1. scan4 — the CUDA C++ Programming Guide's example (source 000, section 3.2): a Hillis-Steele
//              scan, log2(8) = 3 steps of shift-by-1, 2, 4 with width 8.
//
// The guide's kernel printf()s its result; here the kernel stores it and the host prints the
// guide's exact lines in lane order, because the order of device printf output is unspecified.
//
// Self-check: each lane's value must equal the sum of the seeds from the start of its group of 8
// to itself (a plain CPU loop, no shuffles). Exit 1 if not.
#include <cstdio>

#include "args.h"
#include "check.h"
#include "report.h"
#include "scan4_lesson.h"

__global__ void scan4(int* out) {
  int laneId = threadIdx.x & 0x1f;
  // Seed sample starting value (inverse of lane ID)
  int value = 31 - laneId;  // scan4_lesson::seed(), which the host check uses

  // Scan requires log2(n) == 3 steps for 8 threads. Every lane does the shuffle, even those
  // that will not use the result: the full mask requires every non-exited lane to make the call
  // (none exits here), and a lane may only read from a lane that executes it.
  for (int i = 1; i <= 4; i *= 2) {
    int n = __shfl_up_sync(0xffffffff, value, i, 8);
    // Lanes with fewer than i predecessors in their group got their own value back: skip it.
    if ((laneId & 7) >= i) value += n;
  }
  out[threadIdx.x] = value;
}

int main(int argc, char** argv) {
  wb::Args args(argc, argv, "usage: scan4  (no options; prints the guide's lines and checks them)");
  args.finish();
  wb::require_device();

  int* d_out = nullptr;
  CUDA_CHECK(cudaMalloc(&d_out, 32 * sizeof(int)));
  CUDA_CHECK(cudaMemset(d_out, 0xff, 32 * sizeof(int)));  // poison: an unwritten lane reads -1
  scan4<<<1, 32>>>(d_out);
  CUDA_CHECK_LAUNCH();
  int value[32];
  CUDA_CHECK(cudaMemcpy(value, d_out, sizeof value, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_out));

  scan4_lesson::print(value);

  int failures = 0;
  for (int lane = 0; lane < 32; ++lane) {
    int want = 0;
    for (int k = lane & ~(scan4_lesson::kGroup - 1); k <= lane; ++k) want += scan4_lesson::seed(k);
    if (value[lane] != want) {
      std::fprintf(stderr, "MISMATCH lane %d: GPU %d, CPU %d\n", lane, value[lane], want);
      ++failures;
    }
  }
  return wb::finish(failures, "lanes differ from the CPU inclusive scan");
}
