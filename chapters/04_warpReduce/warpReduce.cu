// Chapter 04 — warpReduce: reductions with __shfl_xor_sync, from one warp to a whole array.
// (The book's block-level reductions, reduceSmem, reduceShfl and the rest, are chapter 06.)
//
// Run:    ./build/bin/warpReduce                       (expected stdout: expected_outputs/warpReduce.txt)
//         ./build/bin/warpReduce --bench [--n 2^28] [--reps 50] [--kernel NAME] [--csv-dir DIR]
//             times a full-array sum of n unsigned ints; the table goes to stderr and, with
//             --csv-dir, to DIR/<gpu>/warpReduce.csv. Never to stdout.
// Build without CMake, in this folder:
//   nvcc -std=c++17 -O3 -arch=native -I../../common -o warpReduce warpReduce.cu
//
// Kernels (lesson, printed):
//   1. warpReduce         — the Programming Guide's butterfly (source 000, section 3.3)
//   2. test_shfl_xor, test_shfl, test_shfl_up, test_shfl_down
//                         — source 001's legacy-shuffle demos, modernised to the _sync forms
//   3. test__shfl_xor     — 001's kernel (its name) around the templated subgroup_min<32>
//   4. reduce_sum_kernel  — source 002's warp_reduce_sum + one atomicAdd per warp
// Kernels (benchmark, --bench): a full sum of n unsigned ints into one value
//   5. reduceVec4                — ours: 16-byte loads, 4 in flight, persistent grid, one launch;
//                                  warp sums by butterfly (common/block_reduce.cuh)
//   6. cub::DeviceReduce::Sum    — the library peer
//   7. copy, cudaMemcpy          — common/copy.cuh: the best copy kernel, the bandwidth reference,
//                                  and the driver's device-to-device copy beside it
//
// Self-checks (exit 1 on any mismatch): lesson values against the CPU (plain loops and the
// warp model); every benchmark kernel's sum against an exact CPU sum, and the copy byte for byte.
// Benchmark sums are unsigned, i.e. modulo 2^32: wrap-around is defined for unsigned ints and
// independent of the order of additions, so every kernel must produce the same bits.
#include <cub/device/device_reduce.cuh>
#include <cuda/atomic>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "args.h"
#include "bench.h"
#include "block_reduce.cuh"
#include "check.h"
#include "copy.cuh"
#include "csv.h"
#include "hash.h"
#include "report.h"
#include "timer.h"
#include "warpReduce_lesson.h"
#include "warp_model.h"

constexpr unsigned kFull = 0xffffffffu;

// ---------------------------------------------------------------------------------------------
// Lesson kernels
// ---------------------------------------------------------------------------------------------

__global__ void warpReduce(int* out) {
  int laneId = threadIdx.x & 0x1f;
  // Seed starting value as inverse lane ID
  int value = 31 - laneId;
  // Use XOR mode to perform butterfly reduction: after the step with laneMask i, lane l holds
  // the sum over the 32/i lanes whose low log2(i) bits equal l's (after 16: l and l^16), so after
  // 16, 8, 4, 2, 1 all lanes hold the warp's total (not only lane 0, as a shift-down reduction
  // would). butterfly_lanes.cpp prints these sets.
#pragma unroll
  for (int s = 0; s < lesson::kButterflySteps; ++s) value += __shfl_xor_sync(kFull, value, lesson::butterfly_mask(s), 32);
  out[threadIdx.x] = value;
}

// 001's four demos. 001 used __shfl_xor(best, 8) etc.: the pre-CUDA-9 intrinsics without a mask,
// removed for sm_70 and later. The _sync forms name the participating lanes.
__global__ void test_shfl_xor(int A[], const int B[], int laneMask) {
  A[threadIdx.x] = __shfl_xor_sync(kFull, B[threadIdx.x], laneMask);
}
__global__ void test_shfl(int A[], const int B[], int srcLane) {
  A[threadIdx.x] = __shfl_sync(kFull, B[threadIdx.x], srcLane);
}
__global__ void test_shfl_up(int A[], const int B[], int delta) {
  A[threadIdx.x] = __shfl_up_sync(kFull, B[threadIdx.x], static_cast<unsigned>(delta));
}
__global__ void test_shfl_down(int A[], const int B[], int delta) {
  A[threadIdx.x] = __shfl_down_sync(kFull, B[threadIdx.x], static_cast<unsigned>(delta));
}

// 001's templated butterfly minimum over GROUP_SIZE lanes: STEP halves at each level, the
// specialisation for STEP 1 ends the recursion at compile time.
template <typename T, unsigned GROUP_SIZE, unsigned STEP>
struct subgroup_min_impl {
  static __device__ T call(T x, uint32_t mask) {
    x = min(x, __shfl_xor_sync(mask, x, STEP / 2, GROUP_SIZE));
    return subgroup_min_impl<T, GROUP_SIZE, STEP / 2>::call(x, mask);
  }
};
template <typename T, unsigned GROUP_SIZE>
struct subgroup_min_impl<T, GROUP_SIZE, 1u> {
  static __device__ T call(T x, uint32_t) { return x; }
};
template <unsigned GROUP_SIZE, typename T>
__device__ inline T subgroup_min(T x, uint32_t mask) {
  return subgroup_min_impl<T, GROUP_SIZE, GROUP_SIZE>::call(x, mask);
}

__global__ void test__shfl_xor(int A[], const int B[], int /*unused: one signature for all demos*/) {
  A[threadIdx.x] = subgroup_min<32>(B[threadIdx.x], kFull);
}

// 002 §4 ("allreduce": the all-reduce is the warp step, every lane gets the warp's sum). The
// template parameter was called warpSize in 002, shadowing the built-in variable of that name;
// it is kWidth here.
template <typename T, int kWidth = 32>
__device__ __forceinline__ T warp_reduce_sum(T val) {
#pragma unroll
  for (int mask = kWidth / 2; mask > 0; mask >>= 1) val += __shfl_xor_sync(kFull, val, mask, kWidth);
  return val;
}

template <typename T>
__global__ void reduce_sum_kernel(T* dst, const T* src, int n) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  // Threads past the end contribute 0 and still take part in the shuffles. That is safe, and
  // stricter than the Programming Guide, which requires "all non-exited threads named in mask" to
  // execute the same intrinsic with the same mask: lanes that returned early do not by themselves
  // make the call undefined. What is required is that no lane that stays reads one that has
  // exited: "Threads may only read data from another thread which is actively participating in
  // the __shfl_sync() command." A full-mask butterfly reads every lane, so with early returns each
  // lane's partners (the lanes it reads) would have to be limited to the lanes that reach the
  // shuffle; the mask may still name the lanes that exited.
  T val = (tid < n) ? src[tid] : static_cast<T>(0);
  val = warp_reduce_sum(val);
  if ((threadIdx.x & 31) == 0) atomicAdd(dst, val);
}

// ---------------------------------------------------------------------------------------------
// Benchmark kernels: the sum of n unsigned ints
// ---------------------------------------------------------------------------------------------

// 5. Ours. The sum is bound by reading n*4 bytes, so the kernel's job is to keep enough bytes in
// flight: each thread issues four independent 16-byte loads per iteration over a grid sized to
// fill the GPU once (no tail of half-empty waves). Block sums are warp butterflies, one shared
// slot per warp, then warp 0 (common/block_reduce.cuh). Block partials are combined in the same
// launch: the last block to finish (counted with a device-scope acq_rel atomic, which orders the
// partials written before it) adds them up, then resets the counter for the next launch.
constexpr int kVecThreads = 256;
__global__ void __launch_bounds__(kVecThreads)
reduceVec4(const unsigned* __restrict__ in, size_t n, unsigned* partials, unsigned* counter, unsigned* out) {
  const uint4* in4 = reinterpret_cast<const uint4*>(in);  // cudaMalloc memory is 256-byte aligned
  const size_t n4 = n / 4;
  const size_t stride = size_t(gridDim.x) * kVecThreads;
  size_t i = blockIdx.x * size_t(kVecThreads) + threadIdx.x;
  unsigned sum = 0;
  for (; i + 3 * stride < n4; i += 4 * stride) {
    uint4 a = in4[i], b = in4[i + stride], c = in4[i + 2 * stride], d = in4[i + 3 * stride];
    sum += (a.x + a.y + a.z + a.w) + (b.x + b.y + b.z + b.w) + (c.x + c.y + c.z + c.w) +
           (d.x + d.y + d.z + d.w);
  }
  for (; i < n4; i += stride) {
    uint4 a = in4[i];
    sum += a.x + a.y + a.z + a.w;
  }
  const size_t tail = n4 * 4 + blockIdx.x * size_t(kVecThreads) + threadIdx.x;  // the last n % 4
  if (tail < n) sum += in[tail];
  sum = wb::block_sum<kVecThreads>(sum);

  __shared__ bool is_last;
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = sum;
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> done(*counter);
    is_last = done.fetch_add(1, cuda::memory_order_acq_rel) == gridDim.x - 1;
  }
  __syncthreads();
  if (!is_last) return;  // uniform across the block: no barrier below is skipped by some threads
  unsigned s = 0;
  for (unsigned b = threadIdx.x; b < gridDim.x; b += kVecThreads) s += __ldcg(&partials[b]);
  s = wb::block_sum<kVecThreads>(s);
  if (threadIdx.x == 0) {
    *out = s;
    *counter = 0;
  }
}

// ---------------------------------------------------------------------------------------------
// Host
// ---------------------------------------------------------------------------------------------

static int g_failures = 0;

static void expect(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "MISMATCH: %s\n", what);
    ++g_failures;
  }
}

static lesson::Lanes run32(int* d_a, const int* d_b, void (*kernel)(int*, const int*, int), int arg) {
  CUDA_CHECK(cudaMemset(d_a, 0xff, 32 * sizeof(int)));  // poison
  kernel<<<1, 32>>>(d_a, d_b, arg);
  CUDA_CHECK_LAUNCH();
  lesson::Lanes r{};
  CUDA_CHECK(cudaMemcpy(r.data(), d_a, 32 * sizeof(int), cudaMemcpyDeviceToHost));
  return r;
}

static void run_lesson() {
  using namespace warp_model;
  int *d_a = nullptr, *d_b = nullptr;
  CUDA_CHECK(cudaMalloc(&d_a, 32 * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_b, 32 * sizeof(int)));

  // 1. Butterfly: every lane must hold 0 + 1 + ... + 31 = 496.
  CUDA_CHECK(cudaMemset(d_a, 0xff, 32 * sizeof(int)));
  warpReduce<<<1, 32>>>(d_a);
  CUDA_CHECK_LAUNCH();
  lesson::Lanes value{};
  CUDA_CHECK(cudaMemcpy(value.data(), d_a, sizeof value, cudaMemcpyDeviceToHost));
  lesson::print_butterfly(value.data());
  for (int v : value) expect(v == 496, "butterfly lane != 496");

  // 2. 001's demos, each checked against the warp model (the Programming Guide's rules).
  const lesson::Lanes in = lesson::msvc_rand_mod101();
  CUDA_CHECK(cudaMemcpy(d_b, in.data(), sizeof in, cudaMemcpyHostToDevice));
  lesson::Results001 r;
  r.xor8 = run32(d_a, d_b, test_shfl_xor, 8);
  r.xor16 = run32(d_a, d_b, test_shfl_xor, 16);
  r.shfl3 = run32(d_a, d_b, test_shfl, 3);
  r.up3 = run32(d_a, d_b, test_shfl_up, 3);
  r.down3 = run32(d_a, d_b, test_shfl_down, 3);
  r.min32 = run32(d_a, d_b, test__shfl_xor, 0);
  lesson::print_001(in, r);
  expect(r.xor8 == values(shfl_xor_sync(kFullMask, in, 8)), "001 xor 8");
  expect(r.xor16 == values(shfl_xor_sync(kFullMask, in, 16)), "001 xor 16");
  expect(r.shfl3 == values(shfl_sync(kFullMask, in, 3)), "001 shfl 3");
  expect(r.up3 == values(shfl_up_sync(kFullMask, in, 3u)), "001 up 3");
  expect(r.down3 == values(shfl_down_sync(kFullMask, in, 3u)), "001 down 3");
  for (int v : r.min32) expect(v == *std::min_element(in.begin(), in.end()), "subgroup_min");

  // 3. 002 §4's sum over 2^20 ints with 002's launch: blocks of 1024.
  const int n = lesson::kAllReduceN;
  std::vector<int> h(n);
  long long expected = 0;
  for (int i = 0; i < n; ++i) expected += h[i] = lesson::all_reduce_input(i);
  int *d_src = nullptr, *d_dst = nullptr;
  CUDA_CHECK(cudaMalloc(&d_src, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_dst, sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_src, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  // The sum accumulates with atomicAdd, so its start value is part of the algorithm: 0, not poison.
  CUDA_CHECK(cudaMemset(d_dst, 0, sizeof(int)));
  const int block = 1024;
  reduce_sum_kernel<int><<<(n + block - 1) / block, block>>>(d_dst, d_src, n);
  CUDA_CHECK_LAUNCH();
  int result = 0;
  CUDA_CHECK(cudaMemcpy(&result, d_dst, sizeof(int), cudaMemcpyDeviceToHost));
  lesson::print_all_reduce(n, result, expected);
  expect(result == expected, "002 all-reduce sum");

  for (void* p : {(void*)d_a, (void*)d_b, (void*)d_src, (void*)d_dst}) CUDA_CHECK(cudaFree(p));
}

// CUB's scratch for a sum of n unsigned ints (asked before any allocation, for the memory check).
static size_t cub_scratch_bytes(size_t n) {
  size_t bytes = 0;
  CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, bytes, static_cast<const unsigned*>(nullptr),
                                    static_cast<unsigned*>(nullptr), n));
  return bytes;
}

// Everything run_bench allocates on the device: input, copy target, partials, counter, result, CUB.
static size_t bench_device_bytes(size_t n, int vec_blocks) {
  return 2 * n * sizeof(unsigned) + (vec_blocks + 2) * sizeof(unsigned) + cub_scratch_bytes(n);
}

static void run_bench(size_t n, int reps, const std::string& csv_dir, const cudaDeviceProp& prop,
                      const wb::KernelPick& pick) {
  const unsigned seed = 2024;
  unsigned *d_in = nullptr, *d_copy = nullptr, *d_partials = nullptr, *d_counter = nullptr, *d_out = nullptr;
  const int vec_blocks = wb::full_grid(reduceVec4, kVecThreads, prop);
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&d_copy, n * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&d_partials, vec_blocks * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&d_counter, sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&d_out, sizeof(unsigned)));
  CUDA_CHECK(cudaMemset(d_counter, 0, sizeof(unsigned)));  // reduceVec4 leaves it at 0 again
  wb::fill_hash<<<4 * prop.multiProcessorCount, 256>>>(d_in, n, seed);
  CUDA_CHECK_LAUNCH();

  // The CPU's sum comes from the generator: no host copy of the input.
  unsigned expected = 0;  // modulo 2^32, like the kernels
  for (size_t i = 0; i < n; ++i) expected += wb::hash32(i, seed);

  size_t cub_bytes = cub_scratch_bytes(n);
  void* d_cub = nullptr;
  CUDA_CHECK(cudaMalloc(&d_cub, std::max<size_t>(cub_bytes, 1)));

  struct Variant {
    const char* name;
    bool peer;  // the library peer: timed whatever --kernel names
    std::function<void()> launch;
  };
  const Variant variants[] = {
      {"reduceVec4", false, [&] {
         reduceVec4<<<vec_blocks, kVecThreads>>>(d_in, n, d_partials, d_counter, d_out);
         CUDA_CHECK_LAUNCH();
       }},
      {"cub_DeviceReduce_Sum", true, [&] {
         CUDA_CHECK(cub::DeviceReduce::Sum(d_cub, cub_bytes, d_in, d_out, n));
         CUDA_CHECK_LAUNCH();
       }},
  };

  wb::BandwidthTable table({"size"});
  const int warmup = std::min(3, reps);
  for (const auto& v : variants) {
    if (!pick(v.name) && !v.peer) continue;
    CUDA_CHECK(cudaMemset(d_out, 0xab, sizeof(unsigned)));  // poison, then check one run
    v.launch();
    unsigned got = 0;
    CUDA_CHECK(cudaMemcpy(&got, d_out, sizeof got, cudaMemcpyDeviceToHost));
    if (got != expected) {
      std::fprintf(stderr, "MISMATCH: %s sum %u, CPU %u (n = %zu)\n", v.name, got, expected, n);
      ++g_failures;
    }
    table.add(v.name, {std::to_string(n)}, 4.0 * n + 4, wb::time_cuda(v.launch, warmup, reps));
  }

  table.add("copy", {std::to_string(n)}, 8.0 * n,
            wb::time_copy(d_in, d_copy, n, prop, warmup, reps, &g_failures));
  table.add("cudaMemcpy", {std::to_string(n)}, 8.0 * n, wb::time_memcpy(d_in, d_copy, n, warmup, reps, &g_failures));
  table.report(csv_dir, prop, "warpReduce");

  for (void* p : {(void*)d_in, (void*)d_copy, (void*)d_partials, (void*)d_counter, (void*)d_out, d_cub})
    CUDA_CHECK(cudaFree(p));
}

int main(int argc, char** argv) {
  wb::Args args(argc, argv,
                "usage: warpReduce [--bench [--n N] [--reps R] [--kernel NAME] [--csv-dir DIR]]\n"
                "  (no options)  print the lessons and check them (the golden output)\n"
                "  --bench       also time a full sum of N unsigned ints (default 2^28) and copy\n"
                "  --n N         element count for --bench: digits or 2^K, 1 <= N <= 2^40\n"
                "  --reps R      timed runs per kernel, median reported (default 50)\n"
                "  --kernel NAME time only NAME (reduceVec4 or cub_DeviceReduce_Sum) with the copy,\n"
                "                cudaMemcpy and CUB rows\n"
                "  --csv-dir DIR write the table to DIR/<gpu>/warpReduce.csv");
  const bool bench = args.flag("--bench");
  const size_t n = args.count("--n", size_t(1) << 28, 1, uint64_t(1) << 40);
  const int reps = static_cast<int>(args.count("--reps", 50, 1, 100000));
  args.only_with("--bench", {"--n", "--reps", "--csv-dir"});
  const wb::KernelPick pick(args, {"reduceVec4", "cub_DeviceReduce_Sum"});
  const std::string csv_dir = args.out_dir("--csv-dir");  // "--csv-dir --bench" is refused here
  args.finish();

  const cudaDeviceProp prop = wb::require_device();
  if (bench) {
    wb::require_device_memory(bench_device_bytes(n, wb::full_grid(reduceVec4, kVecThreads, prop)) +
                                  wb::timer_device_bytes(prop) + (64u << 20),
                              "--bench with --n " + std::to_string(n));
  }

  run_lesson();
  if (bench) run_bench(n, reps, csv_dir, prop, pick);

  return wb::finish(g_failures, "checks against the CPU reference failed");
}
