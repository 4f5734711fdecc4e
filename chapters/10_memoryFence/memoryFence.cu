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
// Kernels:
//   1. threeThreads       004's example: thread 1 is block 0, thread 2 is block 1 (one cooperative
//                         launch, so both blocks are resident together); the host is thread 3
//   2. sumThreadfence     one-pass sum: store the block's partial, __threadfence(), atomicAdd a
//                         ticket; the last block adds the partials (the Programming Guide's
//                         __threadfence() example, fenced on both sides)
//   3. sumReleaseAcquire  the same with ticket.fetch_add(1, acq_rel) at device scope, no fence call
//   4. sumNoFence         --bench only: the fences removed, to price them (formally racy; its sum
//                         is reported, not trusted)
//   5. sumPartials + sumFinal  --bench only: two launches; the kernel boundary orders the partials
//   6. cub::DeviceReduce::Sum  the library peer;  7. copy and cudaMemcpy (common/copy.cuh), the
//                         bandwidth references
//   8. loopNoFence, loopThreadfenceBlock, loopThreadfence, loopThreadfenceSystem,
//      loopFenceAcqRelDevice, loopFenceAcqRelSystem: a store and a fence, in a loop (the cost)
//   9. streamWrite        a store-heavy neighbour for the domain experiment
//  10. tinyStore          one store per launch: the kernel boundary's flush, launched many times
//
// Self-checks (exit 1): every value each thread of the example read; every sum against an exact
// CPU sum (outputs poisoned first); the sums launched in the remote domain; the copy, byte for byte.
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


__device__ __forceinline__ unsigned long long globaltimer_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
constexpr unsigned long long kGpuSpinLimitNs = 10'000'000'000ull;  // 10 s
constexpr double kHostSpinLimitS = 20.0;  // longer than the GPU's: the GPU gives up and reports first

// ---------------------------------------------------------------------------------------------
// 1. The three-thread example
// ---------------------------------------------------------------------------------------------

// 004's declaration, verbatim: a device-scope atomic in device memory.
__device__ cuda::atomic<int, cuda::thread_scope_device> a(0);

// What thread 2 reports: [0] 1 if a == 1 was seen, -1 on timeout; [1] the x it read.
// x, y and b live in memory the host can read while the kernel runs (managed or mapped pinned).
__global__ void threeThreads(int* x, int* y, int* b_word, int* report) {
  if (blockIdx.x == 0) {  // thread 1
    *x = lesson::kX;                          // a plain store...
    a.store(1, cuda::memory_order_release);   // ...ordered before a = 1 for all threads of the GPU
  } else {                // thread 2
    const unsigned long long t0 = globaltimer_ns();
    while (a.load(cuda::memory_order_acquire) != 1) {
      if (globaltimer_ns() - t0 > kGpuSpinLimitNs) {
        report[0] = -1;  // thread 1 never ran: report, do not hang
        return;
      }
    }
    const int seen_x = *x;  // the acquire above makes thread 1's x = 42 visible here
    *y = seen_x + 1;
    report[0] = 1;
    report[1] = seen_x;
    a.store(0, cuda::memory_order_relaxed);  // thread 1 is done with a: ready for the next launch
    // System scope, and cumulative: the host that acquires b sees y AND thread 1's x, although
    // thread 1 only ever released at device scope.
    cuda::atomic_ref<int, cuda::thread_scope_system> b(*b_word);
    b.store(1, cuda::memory_order_release);
  }
}

// ---------------------------------------------------------------------------------------------
// 2. One-pass sums: publish a partial, take a ticket, the last block finishes
// ---------------------------------------------------------------------------------------------

constexpr int kThreads = 256;

__global__ void fill_input(int* a_in, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    a_in[i] = lesson::input(i);
}

// This thread's share of the sum: 16-byte loads, four in flight, over a grid-stride loop. The four
// ints of one load sum in int: inputs are in [-512, 511], so 16 of them stay far from overflow.
__device__ long long thread_sum(const int* __restrict__ in, size_t n) {
  const int4* in4 = reinterpret_cast<const int4*>(in);  // cudaMalloc memory is 256-byte aligned
  const size_t n4 = n / 4, stride = size_t(gridDim.x) * kThreads;
  size_t i = blockIdx.x * size_t(kThreads) + threadIdx.x;
  long long s = 0;
  for (; i + 3 * stride < n4; i += 4 * stride) {
    const int4 p = in4[i], q = in4[i + stride], r = in4[i + 2 * stride], t = in4[i + 3 * stride];
    s += (p.x + p.y + p.z + p.w) + (q.x + q.y + q.z + q.w) + (r.x + r.y + r.z + r.w) + (t.x + t.y + t.z + t.w);
  }
  for (; i < n4; i += stride) {
    const int4 p = in4[i];
    s += p.x + p.y + p.z + p.w;
  }
  const size_t tail = n4 * 4 + blockIdx.x * size_t(kThreads) + threadIdx.x;  // the last n % 4
  if (tail < n) s += in[tail];
  return s;
}

// Sums over the block (valid in thread 0) are common/block_reduce.cuh's: shuffles within warps, one
// shared word per warp; exact in long long.
using wb::block_sum;

enum class Publish { Threadfence, ReleaseAcquire, None };

// Without ordering, the ticket (an atomic in L2) can be counted before the partial (a plain store
// on its way to another L2 slice) lands, and the last block would add a stale partial. Each variant
// differs only in how thread 0 orders "my partial is stored" before "I took a ticket", and "every
// ticket before mine" before "I read the partials".
template <Publish P>
__device__ void one_pass_sum(const int* __restrict__ in, size_t n, long long* partials, unsigned* ticket,
                             long long* out) {
  const long long s = block_sum<kThreads>(thread_sum(in, n));
  __shared__ bool is_last;
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = s;
    if constexpr (P == Publish::Threadfence) {
      __threadfence();                                  // release side: partial before ticket
      is_last = atomicAdd(ticket, 1u) == gridDim.x - 1;  // a relaxed read-modify-write
      if (is_last) __threadfence();                     // acquire side: tickets before the reads
    } else if constexpr (P == Publish::ReleaseAcquire) {
      // Both sides in one instruction. The chain of read-modify-writes on the ticket carries every
      // earlier block's release to the last block's acquire.
      cuda::atomic_ref<unsigned, cuda::thread_scope_device> t(*ticket);
      is_last = t.fetch_add(1u, cuda::memory_order_acq_rel) == gridDim.x - 1;
    } else {
      is_last = atomicAdd(ticket, 1u) == gridDim.x - 1;  // no ordering at all: a data race
    }
  }
  __syncthreads();  // is_last, and thread 0's acquire, reach every thread of the block
  if (!is_last) return;  // uniform across the block: no barrier below is skipped by some threads
  long long total = 0;
  for (unsigned blk = threadIdx.x; blk < gridDim.x; blk += kThreads) total += partials[blk];
  total = block_sum<kThreads>(total);
  if (threadIdx.x == 0) {
    *out = total;
    *ticket = 0;  // every block has taken its ticket: the next launch starts from 0
  }
}

__global__ void __launch_bounds__(kThreads)
sumThreadfence(const int* __restrict__ in, size_t n, long long* partials, unsigned* ticket, long long* out) {
  one_pass_sum<Publish::Threadfence>(in, n, partials, ticket, out);
}
__global__ void __launch_bounds__(kThreads)
sumReleaseAcquire(const int* __restrict__ in, size_t n, long long* partials, unsigned* ticket, long long* out) {
  one_pass_sum<Publish::ReleaseAcquire>(in, n, partials, ticket, out);
}
__global__ void __launch_bounds__(kThreads)
sumNoFence(const int* __restrict__ in, size_t n, long long* partials, unsigned* ticket, long long* out) {
  one_pass_sum<Publish::None>(in, n, partials, ticket, out);
}

// Two launches, no fence: everything a kernel wrote is visible to the next kernel in the stream.
__global__ void __launch_bounds__(kThreads) sumPartials(const int* __restrict__ in, size_t n, long long* partials) {
  const long long s = block_sum<kThreads>(thread_sum(in, n));
  if (threadIdx.x == 0) partials[blockIdx.x] = s;
}
__global__ void __launch_bounds__(kThreads) sumFinal(const long long* partials, unsigned count, long long* out) {
  long long total = 0;
  for (unsigned blk = threadIdx.x; blk < count; blk += kThreads) total += partials[blk];
  total = block_sum<kThreads>(total);
  if (threadIdx.x == 0) *out = total;
}

// ---------------------------------------------------------------------------------------------
// 3. What a fence costs: a store, then a fence, in a loop
// ---------------------------------------------------------------------------------------------

enum class Fence { None, Block, Device, System, AcqRelDevice, AcqRelSystem };

template <Fence F>
__device__ __forceinline__ void fence() {
  if constexpr (F == Fence::None) asm volatile("" ::: "memory");  // keeps every store, orders nothing
  if constexpr (F == Fence::Block) __threadfence_block();
  if constexpr (F == Fence::Device) __threadfence();
  if constexpr (F == Fence::System) __threadfence_system();
  if constexpr (F == Fence::AcqRelDevice) cuda::atomic_thread_fence(cuda::memory_order_acq_rel, cuda::thread_scope_device);
  if constexpr (F == Fence::AcqRelSystem) cuda::atomic_thread_fence(cuda::memory_order_acq_rel, cuda::thread_scope_system);
}

// Each thread stores to its own word and fences, iters times: the fence has a store to wait for.
// out == nullptr: fences alone, with no store of their own to wait for.
// window (may be null): thread 0 records the kernel's start and end on the GPU's global timer.
template <Fence F>
__device__ void fence_loop(unsigned* out, int iters, unsigned long long* window) {
  if (window && threadIdx.x == 0 && blockIdx.x == 0) window[0] = globaltimer_ns();
  unsigned* p = out ? out + blockIdx.x * size_t(blockDim.x) + threadIdx.x : nullptr;
  unsigned v = threadIdx.x;
  for (int i = 0; i < iters; ++i) {
    if (p) *p = v;
    fence<F>();
    v = v * 1664525u + 1013904223u;
  }
  if (window && threadIdx.x == 0 && blockIdx.x == 0) window[1] = globaltimer_ns();
}

using LoopKernel = void (*)(unsigned*, int, unsigned long long*);
__global__ void loopNoFence(unsigned* o, int n, unsigned long long* w) { fence_loop<Fence::None>(o, n, w); }
__global__ void loopThreadfenceBlock(unsigned* o, int n, unsigned long long* w) { fence_loop<Fence::Block>(o, n, w); }
__global__ void loopThreadfence(unsigned* o, int n, unsigned long long* w) { fence_loop<Fence::Device>(o, n, w); }
__global__ void loopThreadfenceSystem(unsigned* o, int n, unsigned long long* w) { fence_loop<Fence::System>(o, n, w); }
__global__ void loopFenceAcqRelDevice(unsigned* o, int n, unsigned long long* w) { fence_loop<Fence::AcqRelDevice>(o, n, w); }
__global__ void loopFenceAcqRelSystem(unsigned* o, int n, unsigned long long* w) { fence_loop<Fence::AcqRelSystem>(o, n, w); }

// The store-heavy neighbour: 16-byte stores over n words, `passes` times. Block 0's thread 0
// records start and end (every block is resident at once, so they all end together).
__global__ void streamWrite(uint4* out, size_t n4, int passes, unsigned long long* window) {
  if (threadIdx.x == 0 && blockIdx.x == 0) window[0] = globaltimer_ns();
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  for (int p = 0; p < passes; ++p)
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n4; i += stride)
      out[i] = make_uint4(p, unsigned(i), 0u, 0u);
  if (threadIdx.x == 0 && blockIdx.x == 0) window[1] = globaltimer_ns();
}

// One store, and the kernel ends. A kernel boundary is a fence too: at its end a kernel flushes
// its writes for whatever waits on it. Launched many times in a row, its cost per launch shows
// that flush. stamp: the time it ran.
__global__ void tinyStore(unsigned* out, unsigned long long* stamp) {
  *out = 1u;
  *stamp = globaltimer_ns();
}

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

// 1. Thread 3 is this host thread: it launches threads 1 and 2, then waits for b before it
// synchronizes with anything.
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
    CUDA_CHECK(cudaMemsetAsync(d_report, 0xff, 2 * sizeof(int), stream));  // poison
    int* x = &d_box->x;
    int* y = &d_box->y;
    int* bw = &d_box->b;
    void* args[] = {&x, &y, &bw, &d_report};
    // Thread 2 spins until thread 1 has run: a cooperative launch is refused unless both blocks can
    // be resident at once, so the spin cannot wait for a block that is queued behind it.
    CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(threeThreads), dim3(2), dim3(1), args, 0, stream));
    CUDA_CHECK_LAUNCH();

    // Thread 3: wait for b while the kernel runs, bounded, and give up early if the kernel is
    // over and b never came.
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
  // that, only the kernels' last blocks write it.
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

// ---------------------------------------------------------------------------------------------
// Benchmark
// ---------------------------------------------------------------------------------------------

struct LoopVariant {
  const char* kernel;
  const char* fence;
  LoopKernel k;
};
static const LoopVariant kLoops[] = {
    {"loopNoFence", "none", loopNoFence},
    {"loopThreadfenceBlock", "__threadfence_block", loopThreadfenceBlock},
    {"loopThreadfence", "__threadfence", loopThreadfence},
    {"loopThreadfenceSystem", "__threadfence_system", loopThreadfenceSystem},
    {"loopFenceAcqRelDevice", "atomic_thread_fence acq_rel device", loopFenceAcqRelDevice},
    {"loopFenceAcqRelSystem", "atomic_thread_fence acq_rel system", loopFenceAcqRelSystem},
};

// One run of `launch` on the default stream, in ms (after one untimed run).
static double time_once(const std::function<void()>& launch) {
  launch();
  const wb::Timing t = wb::time_cuda(launch, 0, 1);
  return t.median_ms;
}

// Fewer iterations when one run at `iters` would take longer than target_ms: keeps the whole
// benchmark within seconds whatever a fence costs on this GPU. The tables say what was used.
static int fit_iters(int iters, double target_ms, const std::function<void(int)>& launch) {
  const double ms = time_once([&] { launch(iters); });
  if (ms <= target_ms) return iters;
  return std::max(1, static_cast<int>(iters * target_ms / ms));
}

static void bench_fence_cost(const cudaDeviceProp& prop, int reps, int iters, const std::string& csv_dir,
                             const wb::KernelPick& pick) {
  const int warmup = std::min(3, reps);
  const int full_blocks = wb::full_grid(loopThreadfence, kThreads, prop);
  unsigned* d_out = nullptr;
  CUDA_CHECK(cudaMalloc(&d_out, size_t(full_blocks) * kThreads * sizeof(unsigned)));
  std::vector<std::string> cols{"kernel", "fence", "config", "threads", "iterations", "time_ms", "ns_per_iteration",
                                "extra_ns_vs_none", "gfences_per_s"};
  for (const auto& c : wb::timing_columns()) cols.push_back(c);
  wb::CsvTable t(cols);
  struct Config {
    const char* name;
    int blocks, threads, iters;
  };
  const Config configs[] = {{"1 warp", 1, 32, iters}, {"full GPU", full_blocks, kThreads, std::max(1, iters / 16)}};
  for (const Config& c : configs) {
    double none_ns = 0;
    for (const LoopVariant& v : kLoops) {
      if (!pick(v.kernel) && v.k != loopNoFence) continue;  // loopNoFence: every row's baseline
      auto launch = [&](int it) {
        v.k<<<c.blocks, c.threads>>>(d_out, it, nullptr);
        CUDA_CHECK_LAUNCH();
      };
      const int it = fit_iters(c.iters, 10.0, launch);
      // Warm: a fence loop touches a few KB of global memory; a flush would mean nothing here.
      const wb::Timing tm = wb::time_cuda([&] { launch(it); }, wb::TimeOptions{warmup, reps, wb::Cache::Warm});
      const double ns = tm.median_ms * 1e6 / it;  // per iteration of one thread
      if (v.k == loopNoFence) none_ns = ns;
      const double total = double(c.blocks) * c.threads * it;
      std::vector<std::string> row{v.kernel, v.fence, c.name, std::to_string(c.blocks * c.threads), std::to_string(it),
                                   wb::fmt(tm.median_ms, 4), wb::fmt(ns, 1), wb::fmt(ns - none_ns, 1),
                                   wb::fmt(v.k == loopNoFence ? 0.0 : total / (tm.median_ms * 1e6), 3)};
      for (const auto& cell : wb::timing_cells(tm, 4.0 * c.blocks * c.threads, prop)) row.push_back(cell);
      t.add(row);
    }
  }
  t.report(std::string("memoryFence: a store and a fence per iteration, on ") + prop.name + " (median of " +
               std::to_string(reps) + " runs)",
           csv_dir, prop, "memoryFence");
  CUDA_CHECK(cudaFree(d_out));
}

static void bench_sums(const cudaDeviceProp& prop, size_t n, int reps, const std::string& csv_dir,
                       const wb::KernelPick& pick) {
  const int warmup = std::min(3, reps);
  const int full = wb::full_grid(sumThreadfence, kThreads, prop);
  SumBuffers s = alloc_sum(n, full, prop);
  unsigned* d_copy = nullptr;
  CUDA_CHECK(cudaMalloc(&d_copy, n * sizeof(unsigned)));
  const long long expected = cpu_sum(n);

  size_t cub_bytes = 0;
  CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, cub_bytes, s.in, s.out, n));
  void* d_cub = nullptr;
  CUDA_CHECK(cudaMalloc(&d_cub, cub_bytes));

  struct Variant {
    const char* name;
    bool must_be_exact;
    std::function<void()> launch;
  };
  const Variant variants[] = {
      {"sumThreadfence", true, [&] { launch_sum(sumThreadfence, s, full, {}); }},
      {"sumReleaseAcquire", true, [&] { launch_sum(sumReleaseAcquire, s, full, {}); }},
      {"sumNoFence", false, [&] { launch_sum(sumNoFence, s, full, {}); }},
      {"sumTwoPass", true, [&] {
         sumPartials<<<full, kThreads>>>(s.in, n, s.partials);
         CUDA_CHECK_LAUNCH();
         sumFinal<<<1, kThreads>>>(s.partials, unsigned(full), s.out);
         CUDA_CHECK_LAUNCH();
       }},
      {"cub_DeviceReduce_Sum", true, [&] {
         CUDA_CHECK(cub::DeviceReduce::Sum(d_cub, cub_bytes, s.in, s.out, n));
         CUDA_CHECK_LAUNCH();
       }},
  };
  wb::BandwidthTable table({"size"}, {"exact"});
  for (const Variant& v : variants) {
    if (!pick(v.name) && std::string(v.name) != "cub_DeviceReduce_Sum") continue;  // CUB: the peer
    CUDA_CHECK(cudaMemset(s.out, 0xff, sizeof(long long)));  // poison, then check one run
    v.launch();
    long long got = 0;
    CUDA_CHECK(cudaMemcpy(&got, s.out, sizeof got, cudaMemcpyDeviceToHost));
    if (got != expected) {
      std::fprintf(stderr, "%s: %s sum %lld, CPU %lld (n = %zu)\n", v.must_be_exact ? "MISMATCH" : "note (no fence)",
                   v.name, got, expected, n);
      if (v.must_be_exact) ++g_failures;
    }
    auto& row = table.add(v.name, {std::to_string(n)}, 4.0 * n + 8, wb::time_cuda(v.launch, warmup, reps));
    row.extra[0] = got == expected ? "yes" : "no";
  }
  auto& row = table.add("copy", {std::to_string(n)}, 8.0 * n,
                        wb::time_copy(reinterpret_cast<const unsigned*>(s.in), d_copy, n, prop, warmup, reps, &g_failures));
  row.extra[0] = "";
  table.add("cudaMemcpy", {std::to_string(n)}, 8.0 * n,
            wb::time_memcpy(reinterpret_cast<const unsigned*>(s.in), d_copy, n, warmup, reps, &g_failures));
  table.report(csv_dir, prop, "memoryFence_reduce");
  CUDA_CHECK(cudaFree(d_cub));
  CUDA_CHECK(cudaFree(d_copy));
  free_sum(s);
}

// Fence-heavy work (one warp, or a chain of one-thread kernels) beside a store-heavy kernel (half
// the GPU's thread slots, so the fence work finds room), with the fence work in the store kernel's
// domain or in the remote one. Timed alone, then beside the writer in each domain.
static void bench_domains(const cudaDeviceProp& prop, size_t n, int reps, int max_iters, const std::string& csv_dir,
                          const wb::KernelPick& pick) {
  const int warmup = std::min(2, reps);
  int domains = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&domains, cudaDevAttrMemSyncDomainCount, 0));
  const size_t n4 = std::max<size_t>(n / 4, 1);
  uint4* d_big = nullptr;
  unsigned* d_out = nullptr;
  unsigned long long* d_win = nullptr;  // [0,1] the writer's window, [2,3] the fence work's
  CUDA_CHECK(cudaMalloc(&d_big, n4 * sizeof(uint4)));
  CUDA_CHECK(cudaMalloc(&d_out, 32 * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&d_win, 4 * sizeof(unsigned long long)));
  CUDA_CHECK(cudaMemset(d_win, 0, 4 * sizeof(unsigned long long)));
  cudaStream_t s_write, s_fence;
  CUDA_CHECK(cudaStreamCreateWithFlags(&s_write, cudaStreamNonBlocking));
  CUDA_CHECK(cudaStreamCreateWithFlags(&s_fence, cudaStreamNonBlocking));
  cudaEvent_t e0, e1, w0, w1;
  for (cudaEvent_t* e : {&e0, &e1, &w0, &w1}) CUDA_CHECK(cudaEventCreate(e));
  const int write_blocks = 4 * prop.multiProcessorCount;  // 1024 of the SM's 2048 thread slots

  // cudaLaunchKernelEx with the domain as a launch attribute.
  auto launch_in = [](cudaStream_t st, cudaLaunchMemSyncDomain dom, int threads, auto kernel, auto... args) {
    cudaLaunchAttribute attr{};
    attr.id = cudaLaunchAttributeMemSyncDomain;
    attr.val.memSyncDomain = dom;
    cudaLaunchConfig_t cfg{};
    cfg.gridDim = dim3(1);
    cfg.blockDim = dim3(threads);
    cfg.stream = st;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    CUDA_CHECK(cudaLaunchKernelEx(&cfg, kernel, args...));
    CUDA_CHECK_LAUNCH();
  };
  struct Work {
    const char* kernel;
    const char* what;
    std::function<void(cudaStream_t, cudaLaunchMemSyncDomain, int)> launch;  // (stream, domain, count)
  };
  unsigned long long* win2 = d_win + 2;
  // The chain of tinyStore launches is captured into a CUDA graph (one per domain: capture copies
  // the launch attributes into the kernel nodes), so that one cudaGraphLaunch puts the whole chain
  // on the GPU at once and the time is the GPU's, not the host's launch rate.
  cudaGraphExec_t tiny_graphs[2] = {nullptr, nullptr};
  int tiny_count = -1;
  auto tiny_chain = [&](cudaStream_t st, cudaLaunchMemSyncDomain dom, int count) {
    for (int i = 0; i < count; ++i) launch_in(st, dom, 1, tinyStore, d_out, i == 0 ? d_win + 2 : d_win + 3);
  };
  auto tiny_graph = [&](cudaLaunchMemSyncDomain dom, int count) {
    if (count != tiny_count) {
      for (cudaGraphExec_t& g : tiny_graphs) {
        if (g) CUDA_CHECK(cudaGraphExecDestroy(g));
        g = nullptr;
      }
      tiny_count = count;
    }
    cudaGraphExec_t& g = tiny_graphs[dom == cudaLaunchMemSyncDomainRemote];
    if (!g) {
      cudaStream_t cs;
      CUDA_CHECK(cudaStreamCreateWithFlags(&cs, cudaStreamNonBlocking));
      CUDA_CHECK(cudaStreamBeginCapture(cs, cudaStreamCaptureModeThreadLocal));
      tiny_chain(cs, dom, count);
      cudaGraph_t graph;
      CUDA_CHECK(cudaStreamEndCapture(cs, &graph));
      CUDA_CHECK(cudaGraphInstantiate(&g, graph, 0));
      CUDA_CHECK(cudaGraphDestroy(graph));
      CUDA_CHECK(cudaStreamDestroy(cs));
    }
    return g;
  };
  const Work works[] = {
      {"loopThreadfence", "store + __threadfence", [&](cudaStream_t st, cudaLaunchMemSyncDomain dom, int it) {
         launch_in(st, dom, 32, loopThreadfence, d_out, it, win2); }},
      {"loopThreadfenceSystem", "store + __threadfence_system", [&](cudaStream_t st, cudaLaunchMemSyncDomain dom, int it) {
         launch_in(st, dom, 32, loopThreadfenceSystem, d_out, it, win2); }},
      {"loopThreadfence", "__threadfence only", [&](cudaStream_t st, cudaLaunchMemSyncDomain dom, int it) {
         launch_in(st, dom, 32, loopThreadfence, static_cast<unsigned*>(nullptr), it, win2); }},
      {"loopThreadfenceSystem", "__threadfence_system only", [&](cudaStream_t st, cudaLaunchMemSyncDomain dom, int it) {
         launch_in(st, dom, 32, loopThreadfenceSystem, static_cast<unsigned*>(nullptr), it, win2); }},
      {"tinyStore", "kernel boundary (graph of launches)", [&](cudaStream_t st, cudaLaunchMemSyncDomain dom, int it) {
         if (st == 0) tiny_chain(st, dom, it);  // the fit only: plain launches, no capture on the legacy stream
         else CUDA_CHECK(cudaGraphLaunch(tiny_graph(dom, it), st)); }},
  };
  auto elapsed = [](cudaEvent_t a0, cudaEvent_t a1) {
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, a0, a1));
    return double(ms);
  };
  auto median = wb::median_of;
  auto spread = [&](const std::vector<double>& v, std::vector<std::string>& row) {
    wb::Timing tm = wb::summarize(v);
    tm.sm_mhz = wb::sm_mhz_now();
    for (const auto& cell : wb::timing_cells(tm, 32.0 * sizeof(unsigned), prop)) row.push_back(cell);
  };

  // The writer alone, one pass: its rate, and how many passes outlast the fence work.
  std::vector<double> one_pass;
  for (int r = 0; r < warmup + reps; ++r) {
    CUDA_CHECK(cudaEventRecord(w0, s_write));
    streamWrite<<<write_blocks, kThreads, 0, s_write>>>(d_big, n4, 1, d_win);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaEventRecord(w1, s_write));
    CUDA_CHECK(cudaEventSynchronize(w1));
    if (r >= warmup) one_pass.push_back(elapsed(w0, w1));
  }
  const double pass_ms = median(one_pass);
  std::fprintf(stderr, "\nstreamWrite alone: %.4f ms per pass over %zu bytes, %.0f GB/s of stores\n", pass_ms,
               n4 * sizeof(uint4), n4 * sizeof(uint4) / (pass_ms * 1e6));

  // The writer runs about 30 ms, far longer than the fence work needs alone (about 0.5 ms), so a
  // slowdown shows as it is; fence work that ends only when the writer ends was held up by it.
  const int passes = static_cast<int>(std::min(256.0, std::max(1.0, std::ceil(30.0 / pass_ms))));
  const int dreps = std::min(reps, 20);
  std::vector<std::string> cols{"kernel", "work", "beside", "domain", "domain_count", "count", "time_ms", "ns_per_op",
                                "slowdown_vs_alone", "overlap_pct", "writer_ms", "writer_left_ms"};
  for (const auto& c : wb::timing_columns()) cols.push_back(c);
  wb::CsvTable t(cols);
  for (const Work& w : works) {
    if (!pick(w.kernel)) continue;
    // About 0.5 ms alone (the default stream, default domain, for the fit only).
    const int count = fit_iters(max_iters, 0.5, [&](int it) { w.launch(0, cudaLaunchMemSyncDomainDefault, it); });
    std::vector<double> alone;
    for (int r = 0; r < warmup + dreps; ++r) {
      CUDA_CHECK(cudaEventRecord(e0, s_fence));
      w.launch(s_fence, cudaLaunchMemSyncDomainDefault, count);
      CUDA_CHECK(cudaEventRecord(e1, s_fence));
      CUDA_CHECK(cudaEventSynchronize(e1));
      if (r >= warmup) alone.push_back(elapsed(e0, e1));
    }
    const double alone_ms = median(alone);
    std::vector<std::string> row{w.kernel, w.what, "none", "default", std::to_string(domains), std::to_string(count),
                                 wb::fmt(alone_ms, 4), wb::fmt(alone_ms * 1e6 / count, 1), "1.00", "", "", ""};
    spread(alone, row);
    t.add(row);
    for (cudaLaunchMemSyncDomain dom : {cudaLaunchMemSyncDomainDefault, cudaLaunchMemSyncDomainRemote}) {
      std::vector<double> beside, writer, left;
      double min_overlap = 100;
      for (int r = 0; r < warmup + dreps; ++r) {
        CUDA_CHECK(cudaMemsetAsync(d_win, 0, 4 * sizeof(unsigned long long), s_write));
        CUDA_CHECK(cudaEventRecord(w0, s_write));         // the fence work waits for the memset
        CUDA_CHECK(cudaStreamWaitEvent(s_fence, w0, 0));  // (not for the writer) before it writes
        streamWrite<<<write_blocks, kThreads, 0, s_write>>>(d_big, n4, passes, d_win);
        CUDA_CHECK_LAUNCH();
        CUDA_CHECK(cudaEventRecord(e0, s_fence));
        w.launch(s_fence, dom, count);
        CUDA_CHECK(cudaEventRecord(e1, s_fence));
        CUDA_CHECK(cudaDeviceSynchronize());
        unsigned long long win[4];
        CUDA_CHECK(cudaMemcpy(win, d_win, sizeof win, cudaMemcpyDeviceToHost));
        if (r < warmup) continue;
        beside.push_back(elapsed(e0, e1));
        writer.push_back((double(win[1]) - double(win[0])) * 1e-6);
        left.push_back((double(win[1]) - double(win[3])) * 1e-6);  // the writer's time after the fence work ended
        const double span = win[3] > win[2] ? double(win[3] - win[2]) : 0.0;
        const double both = double(std::min(win[1], win[3])) - double(std::max(win[0], win[2]));
        min_overlap = std::min(min_overlap, span > 0 ? 100.0 * std::max(0.0, both) / span : 0.0);
      }
      const double ms = median(beside);
      std::vector<std::string> brow{w.kernel, w.what, "streamWrite", dom == cudaLaunchMemSyncDomainDefault ? "default" : "remote",
                                    std::to_string(domains), std::to_string(count), wb::fmt(ms, 4), wb::fmt(ms * 1e6 / count, 1),
                                    wb::fmt(ms / alone_ms, 2), wb::fmt(min_overlap, 0), wb::fmt(median(writer), 2),
                                    wb::fmt(median(left), 2)};
      spread(beside, brow);
      t.add(brow);
    }
  }
  char title[512];
  std::snprintf(title, sizeof title,
                "memoryFence_domains: fence work alone and beside streamWrite (%d blocks of %d), on %s; "
                "%d domains; %d passes; median of %d runs; overlap = the least share of the fence work's time the writer ran",
                write_blocks, kThreads, prop.name, domains, passes, dreps);
  t.report(title, csv_dir, prop, "memoryFence_domains");

  for (cudaGraphExec_t g : tiny_graphs)
    if (g) CUDA_CHECK(cudaGraphExecDestroy(g));
  for (cudaEvent_t e : {e0, e1, w0, w1}) CUDA_CHECK(cudaEventDestroy(e));
  CUDA_CHECK(cudaStreamDestroy(s_write));
  CUDA_CHECK(cudaStreamDestroy(s_fence));
  for (void* p : {(void*)d_big, (void*)d_out, (void*)d_win}) CUDA_CHECK(cudaFree(p));
}

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
