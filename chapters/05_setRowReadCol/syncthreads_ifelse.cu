// Chapter 05 — syncthreads_ifelse: source 003's counter-example of section 5.1.5.2, a
// __syncthreads() in each branch of an if/else, run for real, beside the barrier where it belongs.
//
// Run:    ./build/bin/syncthreads_ifelse                 (the correct kernel only; exit 1 if wrong)
//         ./build/bin/syncthreads_ifelse --kernel all    (also the two if/else kernels: a demo)
//         ./build/bin/syncthreads_ifelse --kernel lane   (barrierHoisted, then one if/else kernel;
//                                     or warp)            one at a time, for compute-sanitizer)
//         cmake --build build --target syncthreads_ifelse_demo_check
//             --kernel lane and --kernel warp under compute-sanitizer synccheck (a demo, not a test)
// Build without CMake, in this folder:
//   nvcc -std=c++17 -O3 -arch=native -I../../common -o syncthreads_ifelse syncthreads_ifelse.cu
//
// Every kernel does the same exchange: thread t writes s[t], waits at a barrier, then reads
// s[(t + 32) % blockDim.x], a value written by a thread of the next warp.
// Kernels:
//   1. barrierHoisted       one __syncthreads() that every thread reaches (correct)
//   2. barrierIfElseLane    003's code: if (threadIdx.x % 2 == 0) __syncthreads(); else
//                           __syncthreads(); the branch splits every warp
//   3. barrierIfElseWarp    the same with a condition that is uniform in each warp but not in the
//                           block: (threadIdx.x / 32) % 2
// The Programming Guide allows __syncthreads() in conditional code "only if the conditional
// evaluates identically across the entire thread block, otherwise the code execution is likely to
// hang or produce unintended side effects"; 2 and 3 break that rule, so nothing is promised about
// what they do: this program reports what they did on this GPU (to stderr), and judges only kernel 1.
// A kernel that hangs is given up after 5 s and reported; the program then exits 1.
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "args.h"
#include "check.h"

constexpr int kThreads = 256;
constexpr int kBlocks = 64;

__device__ __forceinline__ int value_of(int block, int t) { return block * 1000 + t * 7 + 1; }

__global__ void barrierHoisted(int* out) {
  __shared__ int s[kThreads];
  const int t = threadIdx.x;
  s[t] = value_of(blockIdx.x, t);
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = s[(t + 32) % blockDim.x];
}

__global__ void barrierIfElseLane(int* out) {
  __shared__ int s[kThreads];
  const int t = threadIdx.x;
  s[t] = value_of(blockIdx.x, t);
  if (t % 2 == 0) {  // source 003, section 5.1.5.2, as printed (threadId there)
    __syncthreads();
  } else {
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + t] = s[(t + 32) % blockDim.x];
}

__global__ void barrierIfElseWarp(int* out) {
  __shared__ int s[kThreads];
  const int t = threadIdx.x;
  s[t] = value_of(blockIdx.x, t);
  if ((t / 32) % 2 == 0) {
    __syncthreads();
  } else {
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + t] = s[(t + 32) % blockDim.x];
}

namespace {

enum class Outcome { kRight, kWrong, kHung };

// Launch, wait at most 5 s, check every value. A hung kernel cannot be stopped from here: the
// caller exits, and the driver tears the context down.
Outcome run(const char* name, void (*kernel)(int*), int* d_out) {
  const int n = kThreads * kBlocks;
  CUDA_CHECK(cudaMemset(d_out, 0xff, n * sizeof(int)));  // poison: -1 is no value_of
  kernel<<<kBlocks, kThreads>>>(d_out);
  CUDA_CHECK_LAUNCH();
  const auto start = std::chrono::steady_clock::now();
  cudaError_t q;
  while ((q = cudaStreamQuery(0)) == cudaErrorNotReady) {
    if (std::chrono::steady_clock::now() - start > std::chrono::seconds(5)) {
      std::fprintf(stderr, "%-18s did not finish within 5 s: it hangs\n", name);
      return Outcome::kHung;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  CUDA_CHECK(q);
  std::vector<int> h(n);
  CUDA_CHECK(cudaMemcpy(h.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int b = 0; b < kBlocks; ++b)
    for (int t = 0; t < kThreads; ++t) {
      const int want = b * 1000 + ((t + 32) % kThreads) * 7 + 1;
      if (h[b * kThreads + t] != want) ++wrong;
    }
  std::fprintf(stderr, "%-18s %d of %d values wrong\n", name, wrong, n);
  return wrong ? Outcome::kWrong : Outcome::kRight;
}

}  // namespace

int main(int argc, char** argv) {
  wb::Args args(argc, argv,
                "usage: syncthreads_ifelse [--kernel hoisted|lane|warp|all]\n"
                "  lane, warp, all also run source 003's __syncthreads() in if/else (undefined; reported, not judged)");
  const std::string which = args.text("--kernel", "hoisted");
  args.finish();
  if (which != "hoisted" && which != "lane" && which != "warp" && which != "all")
    wb::bad_input("--kernel must be hoisted, lane, warp or all, not '" + which + "'");

  wb::require_device();
  int* d_out = nullptr;
  CUDA_CHECK(cudaMalloc(&d_out, kThreads * kBlocks * sizeof(int)));
  const Outcome hoisted = run("barrierHoisted", barrierHoisted, d_out);
  if (hoisted != Outcome::kRight) {
    std::fprintf(stderr, "FAILED: barrierHoisted exchanged wrong values\n");
    return wb::kFail;
  }
  if (which == "all" || which == "lane")
    if (run("barrierIfElseLane", barrierIfElseLane, d_out) == Outcome::kHung) return wb::kFail;  // context lost
  if (which == "all" || which == "warp")
    if (run("barrierIfElseWarp", barrierIfElseWarp, d_out) == Outcome::kHung) return wb::kFail;
  CUDA_CHECK(cudaFree(d_out));
  std::printf("syncthreads_ifelse: barrierHoisted exchanged every value correctly\n");
  return wb::kPass;
}
