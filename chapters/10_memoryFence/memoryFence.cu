// Chapter 10 — memoryFence: memory fences, scopes and Hopper's memory synchronization domains,
// shown working.
//
// Run:    ./build/bin/memoryFence                  (expected stdout: expected_outputs/memoryFence.txt)
//         ./build/bin/memoryFence --host-memory pinned    the same with mapped pinned host memory
//         ./build/bin/memoryFence --bench [--n 2^28] [--reps 50] [--fence-iters 4096] [--kernel NAME]
//                                 [--csv-dir DIR]
//             what a fence costs, the one-pass sums against copy, cudaMemcpy and CUB, and a
//             fence-heavy kernel beside a store-heavy one in the same and in different domains
//             (with --kernel, only the tables that time NAME, and there NAME with its references).
//             Tables go to stderr and, with --csv-dir, to DIR/<gpu>/memoryFence.csv,
//             memoryFence_reduce.csv and memoryFence_domains.csv. Never to stdout.
// Build without CMake, in this folder:
//   nvcc -std=c++17 -O3 -arch=native -I../../common -o memoryFence memoryFence.cu
//
// Kernels, one idea per file (included below; this file is the host side):
//   threeThreads.cuh
//   1. threeThreads       004's example: thread 1 is block 0, thread 2 is block 1 (one cooperative
//                         launch, so both blocks are resident together); the host is thread 3
//   threadFenceReduction.cuh
//   2. sumThreadfence     one-pass sum: store the block's partial, __threadfence(), atomicAdd a
//                         ticket; the last block adds the partials (the Programming Guide's
//                         one-pass sum, fenced on both sides)
//   3. sumReleaseAcquire  the same with ticket.fetch_add(1, acq_rel) at device scope, no fence call
//   4. sumNoFence         --bench only: the fences removed, to price them (formally racy; its sum
//                         is reported, not trusted)
//   5. sumPartials + sumFinal  --bench only: two launches; the kernel boundary orders the partials
//   6. cub::DeviceReduce::Sum  the library peer;  7. copy and cudaMemcpy (common/copy.cuh), the
//                         bandwidth references
//   fence_kernels.cuh
//   8. loopNoFence, loopThreadfenceBlock, loopThreadfence, loopThreadfenceSystem,
//      loopFenceAcqRelDevice, loopFenceAcqRelSystem: a store and a fence, in a loop (the cost)
//   domains.cuh
//   9. streamWrite        a store-heavy neighbour for the domain experiment
//  10. tinyStore          one store per launch: the kernel boundary, launched many times
//
// The --bench harness is memoryFence_bench.cuh.
//
// Self-checks (exit 1): every value each thread of the example read; every sum but sumNoFence's (a
// mismatch of it is a note) against an exact CPU sum, outputs poisoned first; the copy, byte for byte.
// Every spin-wait is bounded (10 s on the GPU, 20 s on the host): a bug fails, it never hangs.
#include <cub/device/device_reduce.cuh>
#include <cuda/atomic>

#include <algorithm>
#include <chrono>
#include <cmath>
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
#include "memoryFence_lesson.h"
#include "report.h"
#include "timer.h"

// The kernels, one idea per file:
#include "globaltimer.cuh"           // globaltimer_ns(), kGpuSpinLimitNs
#include "threeThreads.cuh"          // 1. the three-thread example
#include "threadFenceReduction.cuh"  // 2. one-pass sums: partial, fence, ticket, last block
#include "fence_kernels.cuh"         // 3. a store and a fence in a loop
#include "domains.cuh"               // 4. streamWrite and tinyStore, for the domain experiment

constexpr double kHostSpinLimitS = 20.0;  // longer than the GPU's: the GPU gives up and reports first

// ---------------------------------------------------------------------------------------------
// Host
// ---------------------------------------------------------------------------------------------

static int g_failures = 0;

static void expect(bool ok, const std::string& what) {
  if (!ok) {
    std::fprintf(stderr, "MISMATCH: %s\n", what.c_str());
    ++g_failures;
  }
}

struct Mailbox {  // 004's x and b, plus thread 2's y: memory the host reads while the kernel runs
  int x, y, b;
};

// 1. Thread 3 is this host thread: it launches threads 1 and 2, then waits for b (asking
// cudaStreamQuery every 4096 loads, only to give up early if the kernel ended without writing b).
static void run_three_threads(bool managed) {
  Mailbox* box = nullptr;  // host pointer
  Mailbox* d_box = nullptr;  // the same memory as the GPU addresses it
  if (managed) {
    CUDA_CHECK(cudaMallocManaged(&box, sizeof(Mailbox)));
    d_box = box;
  } else {
    CUDA_CHECK(cudaHostAlloc(&box, sizeof(Mailbox), cudaHostAllocMapped));
    CUDA_CHECK(cudaHostGetDevicePointer(&d_box, box, 0));
  }
  int* d_report = nullptr;
  CUDA_CHECK(cudaMalloc(&d_report, 2 * sizeof(int)));
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

  lesson::ThreeThreads last;
  int t2_ok = 0, t3_ok = 0;
  long long min_spins = -1, max_spins = 0;
  for (int run = 0; run < lesson::kRuns; ++run) {
    box->x = box->y = box->b = 0;  // nothing runs on the GPU now: plain host stores
    CUDA_CHECK(cudaMemsetAsync(d_report, 0x7f, 2 * sizeof(int), stream));  // poison: 0x7f7f7f7f, neither 1 nor -1
    int* x = &d_box->x;
    int* y = &d_box->y;
    int* bw = &d_box->b;
    void* args[] = {&x, &y, &bw, &d_report};
    // Thread 2 spins until thread 1 has run: a cooperative launch is refused unless both blocks can
    // be resident at once, so the spin cannot wait for a block that is queued behind it.
    CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(threeThreads), dim3(2), dim3(1), args, 0, stream));
    CUDA_CHECK_LAUNCH();

    // Thread 3: wait for b while the kernel runs, bounded, and give up early if the kernel is
    // over and b never came. Only loads here and one store on the GPU, no read-modify-write: in
    // mapped pinned memory libcu++ counts an aligned 4-byte load or store as atomic at system scope
    // even where cudaDevAttrHostNativeAtomicSupported is 0 (its memory model, "Atomicity").
    cuda::atomic_ref<int, cuda::thread_scope_system> b(box->b);
    const auto t0 = std::chrono::steady_clock::now();
    long long spins = 0;
    bool got_b = true;
    while (b.load(cuda::memory_order_acquire) != 1) {
      if (++spins % 4096 == 0) {
        const bool kernel_done = cudaStreamQuery(stream) != cudaErrorNotReady;
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if ((kernel_done && b.load(cuda::memory_order_acquire) != 1) || s > kHostSpinLimitS) {
          got_b = false;
          break;
        }
      }
    }
    lesson::ThreeThreads seen;
    if (got_b) {
      seen.t3_x = box->x;  // ordered after the acquire of b: must be thread 1's 42
      seen.t3_y = box->y;
    }
    CUDA_CHECK(cudaStreamSynchronize(stream));
    int report[2];
    CUDA_CHECK(cudaMemcpy(report, d_report, sizeof report, cudaMemcpyDeviceToHost));
    if (report[0] != 1) {
      std::fprintf(stderr, "FAIL: thread 2 %s\n", report[0] == -1 ? "timed out waiting for a" : "did not report");
      ++g_failures;
      break;
    }
    if (!got_b) {
      std::fprintf(stderr, "FAIL: the host never saw b == 1\n");
      ++g_failures;
      break;
    }
    seen.t2_x = report[1];
    t2_ok += seen.t2_x == lesson::kX;
    t3_ok += seen.t3_x == lesson::kX && seen.t3_y == lesson::kX + 1;
    last = seen;
    min_spins = min_spins < 0 ? spins : std::min(min_spins, spins);
    max_spins = std::max(max_spins, spins);
  }
  std::fprintf(stderr, "three threads: the host polled b %lld to %lld times per run\n", min_spins, max_spins);
  lesson::print_three_threads(last, t2_ok, t3_ok);
  expect(t2_ok == lesson::kRuns, "thread 2 did not always see x == 42");
  expect(t3_ok == lesson::kRuns, "thread 3 did not always see x == 42 and y == 43");

  CUDA_CHECK(cudaStreamDestroy(stream));
  CUDA_CHECK(cudaFree(d_report));
  if (managed) CUDA_CHECK(cudaFree(box));
  else CUDA_CHECK(cudaFreeHost(box));
}

using SumKernel = void (*)(const int*, size_t, long long*, unsigned*, long long*);

struct SumBuffers {
  int* in = nullptr;
  long long* partials = nullptr;
  unsigned* ticket = nullptr;
  long long* out = nullptr;
  size_t n = 0;
  int max_grid = 0;
};

static SumBuffers alloc_sum(size_t n, int max_grid, const cudaDeviceProp& prop) {
  SumBuffers s;
  s.n = n;
  s.max_grid = max_grid;
  CUDA_CHECK(cudaMalloc(&s.in, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&s.partials, size_t(max_grid) * sizeof(long long)));
  CUDA_CHECK(cudaMalloc(&s.ticket, sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&s.out, sizeof(long long)));
  // The ticket counts blocks, so its start value is part of the algorithm: 0, not poison. After
  // that, only the kernels write it: each block's atomic increment, and the last block's reset to 0.
  CUDA_CHECK(cudaMemset(s.ticket, 0, sizeof(unsigned)));
  fill_input<<<4 * prop.multiProcessorCount, 256>>>(s.in, n);
  CUDA_CHECK_LAUNCH();
  return s;
}

static void free_sum(SumBuffers& s) {
  for (void* p : {(void*)s.in, (void*)s.partials, (void*)s.ticket, (void*)s.out}) CUDA_CHECK(cudaFree(p));
}

static long long cpu_sum(size_t n) {
  long long s = 0;
  for (size_t i = 0; i < n; ++i) s += lesson::input(i);
  return s;
}

// Launch with cudaLaunchKernelEx and the given attributes (none: an ordinary launch).
static void launch_sum(SumKernel k, const SumBuffers& s, int grid, const std::vector<cudaLaunchAttribute>& attrs,
                       cudaStream_t stream = 0) {
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(grid);
  cfg.blockDim = dim3(kThreads);
  cfg.stream = stream;
  cfg.attrs = const_cast<cudaLaunchAttribute*>(attrs.data());
  cfg.numAttrs = static_cast<unsigned>(attrs.size());
  CUDA_CHECK(cudaLaunchKernelEx(&cfg, k, static_cast<const int*>(s.in), s.n, s.partials, s.ticket, s.out));
  CUDA_CHECK_LAUNCH();
}

static long long poisoned_run(SumKernel k, const SumBuffers& s, int grid, const std::vector<cudaLaunchAttribute>& attrs) {
  CUDA_CHECK(cudaMemset(s.out, 0xff, sizeof(long long)));
  CUDA_CHECK(cudaMemset(s.partials, 0xff, size_t(s.max_grid) * sizeof(long long)));
  launch_sum(k, s, grid, attrs);
  long long got = 0;
  CUDA_CHECK(cudaMemcpy(&got, s.out, sizeof got, cudaMemcpyDeviceToHost));
  return got;
}

static void run_sums_and_domains(const cudaDeviceProp& prop) {
  const int full = wb::full_grid(sumThreadfence, kThreads, prop);
  SumBuffers s = alloc_sum(lesson::kLessonN, std::max(full, lesson::kSmallGrid), prop);
  const long long expected = cpu_sum(lesson::kLessonN);
  lesson::print_sum_header(expected);

  struct {
    const char* name;
    const char* how;
    SumKernel k;
  } const variants[] = {
      {"sumThreadfence", "partial; __threadfence(); atomicAdd(ticket)", sumThreadfence},
      {"sumReleaseAcquire", "partial; ticket.fetch_add(1, acq_rel) device", sumReleaseAcquire},
  };
  for (const auto& v : variants) {
    int exact = 0;
    long long got = 0;
    for (int grid : {full, lesson::kSmallGrid})
      for (int l = 0; l < lesson::kLaunchesPerGrid; ++l) {
        got = poisoned_run(v.k, s, grid, {});
        exact += got == expected;
      }
    const int launches = 2 * lesson::kLaunchesPerGrid;
    lesson::print_sum(v.name, v.how, got, exact, launches);
    expect(exact == launches, std::string(v.name) + " sum differs from the CPU's");
  }

  // 3. Domains. The count depends on the GPU: stderr. A launch may name a logical domain (default
  // or remote) and a map from logical to physical domains, each below the count.
  int domains = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&domains, cudaDevAttrMemSyncDomainCount, 0));
  std::fprintf(stderr, "cudaDevAttrMemSyncDomainCount = %d on %s\n", domains, prop.name);
  lesson::print_domain_header();
  cudaLaunchAttribute remote{};
  remote.id = cudaLaunchAttributeMemSyncDomain;
  remote.val.memSyncDomain = cudaLaunchMemSyncDomainRemote;
  cudaLaunchAttribute map{};
  map.id = cudaLaunchAttributeMemSyncDomainMap;
  map.val.memSyncDomainMap.default_ = 0;
  map.val.memSyncDomainMap.remote = static_cast<unsigned char>(domains - 1);
  std::fprintf(stderr, "domain map of the second launch: default -> 0, remote -> %d\n", domains - 1);
  // Within one domain a device-scope release/acquire is enough: all blocks of a launch share it.
  long long got = poisoned_run(sumReleaseAcquire, s, full, {remote});
  lesson::print_domain("sumReleaseAcquire", "domain = remote (default map)", got, got == expected);
  expect(got == expected, "sumReleaseAcquire in the remote domain");
  got = poisoned_run(sumThreadfence, s, full, {remote, map});
  lesson::print_domain("sumThreadfence", "domain = remote, map remote -> last physical", got, got == expected);
  expect(got == expected, "sumThreadfence in the remote domain, mapped to the last physical domain");
  free_sum(s);
}

#include "memoryFence_bench.cuh"  // --bench: bench_fence_cost, bench_sums, bench_domains

int main(int argc, char** argv) {
  wb::Args args(argc, argv,
                "usage: memoryFence [--host-memory auto|managed|pinned] [--bench [--n N] [--reps R]\n"
                "                   [--fence-iters I] [--kernel NAME] [--csv-dir DIR]]\n"
                "  (no options)   the three-thread example, the one-pass sums, the domain launches (golden output)\n"
                "  --host-memory  where x, y and b live for the three-thread example: managed (needs\n"
                "                 concurrentManagedAccess), mapped pinned host memory, or auto (managed if\n"
                "                 the GPU allows it, else pinned; the default)\n"
                "  --bench        also time the fences, the sums of N ints against copy and CUB, and the domains\n"
                "  --n N          ints for --bench: digits or 2^K, 1 <= N <= 2^40 (default 2^28)\n"
                "  --reps R       timed runs per kernel, median reported (default 50)\n"
                "  --fence-iters I  store+fence iterations per thread for one warp (default 4096; the\n"
                "                 full-GPU runs use I/16)\n"
                "  --kernel NAME  time only NAME (a kernel of the tables), in the tables that have it, with\n"
                "                 its references (loopNoFence; CUB, copy and cudaMemcpy)\n"
                "  --csv-dir DIR  write DIR/<gpu>/memoryFence.csv, memoryFence_reduce.csv, memoryFence_domains.csv");
  const std::string host_memory = args.text("--host-memory", "auto");
  const bool bench = args.flag("--bench");
  const size_t n = args.count("--n", size_t(1) << 28, 1, uint64_t(1) << 40);
  const int reps = static_cast<int>(args.count("--reps", 50, 1, 100000));
  const int fence_iters = static_cast<int>(args.count("--fence-iters", 4096, 1, 1 << 24));
  args.only_with("--bench", {"--n", "--reps", "--fence-iters", "--csv-dir"});
  const std::vector<std::string> loop_names{"loopNoFence", "loopThreadfenceBlock", "loopThreadfence",
                                            "loopThreadfenceSystem", "loopFenceAcqRelDevice", "loopFenceAcqRelSystem"};
  const std::vector<std::string> sum_names{"sumThreadfence", "sumReleaseAcquire", "sumNoFence", "sumTwoPass",
                                           "cub_DeviceReduce_Sum"};
  const std::vector<std::string> domain_names{"loopThreadfence", "loopThreadfenceSystem", "tinyStore"};
  std::vector<std::string> names = loop_names;
  names.insert(names.end(), sum_names.begin(), sum_names.end());
  names.push_back("tinyStore");
  const wb::KernelPick pick(args, names);
  auto has = [&](const std::vector<std::string>& v) {
    return pick.all() || std::find(v.begin(), v.end(), pick.name()) != v.end();
  };
  const std::string csv_dir = args.out_dir("--csv-dir");
  args.finish();
  if (host_memory != "auto" && host_memory != "managed" && host_memory != "pinned")
    wb::bad_input("--host-memory expects auto, managed or pinned, got '" + host_memory + "'");

  const cudaDeviceProp prop = wb::require_device();
  int coop = 0, concurrent_managed = 0, can_map = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, 0));
  CUDA_CHECK(cudaDeviceGetAttribute(&concurrent_managed, cudaDevAttrConcurrentManagedAccess, 0));
  CUDA_CHECK(cudaDeviceGetAttribute(&can_map, cudaDevAttrCanMapHostMemory, 0));
  if (!coop) wb::skip("the three-thread example needs cooperative launch (co-resident blocks); this GPU has none");
  if (host_memory == "managed" && !concurrent_managed)
    wb::skip("--host-memory managed needs concurrentManagedAccess (the host reading managed memory while a "
             "kernel runs); this GPU/OS reports 0");
  const bool managed = host_memory == "managed" || (host_memory == "auto" && concurrent_managed);
  if (!managed && !can_map) wb::skip("this GPU can neither share managed memory concurrently nor map host memory");
  std::fprintf(stderr, "three threads: x, y, b in %s (concurrentManagedAccess = %d, --host-memory %s)\n",
               managed ? "managed memory (cudaMallocManaged)" : "mapped pinned host memory (cudaHostAllocMapped)",
               concurrent_managed, host_memory.c_str());
  const size_t lesson_bytes = lesson::kLessonN * sizeof(int) + (16u << 20);
  wb::require_device_memory(bench ? std::max(lesson_bytes, 2 * n * sizeof(int) + wb::timer_device_bytes(prop) + (64u << 20))
                                  : lesson_bytes,
                            bench ? "--bench with --n " + std::to_string(n) : "the lesson");

  run_three_threads(managed);
  run_sums_and_domains(prop);
  if (bench) {
    if (has(loop_names)) bench_fence_cost(prop, reps, fence_iters, csv_dir, pick);
    if (has(sum_names)) bench_sums(prop, n, reps, csv_dir, pick);
    if (has(domain_names)) bench_domains(prop, n, reps, fence_iters, csv_dir, pick);
  }

  return wb::finish(g_failures, "checks against the CPU reference failed");
}
