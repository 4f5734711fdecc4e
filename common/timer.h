// common/timer.h — the workbook's one timer (CUDA events), built so that a table measures the
// kernel: not the launch, not a warm L2.
//
//   wb::Timing t = wb::time_cuda(launch, warmup, reps);            // cold: L2 flushed before each run
//   wb::Timing t = wb::time_cuda(launch, {warmup, reps, wb::Cache::Warm});  // back-to-back batches
//   wb::Timing t = wb::time_cuda(setup, launch, {warmup, reps});   // setup before each run, untimed
//
// `launch` enqueues one complete run of the thing being timed (one or more kernel launches, CUB or
// cuBLAS calls) on the default stream and checks its launches. It must not synchronise with the
// host (no cudaMemcpy to the host, no cudaDeviceSynchronize, no cudaMalloc): see "held" below.
//
// How it measures:
//  * Held queue. Every batch of runs is enqueued behind wb_hold, a one-thread kernel that spins until
//    the host has enqueued the whole batch (nvbench's "blocking kernel"). The GPU then runs the batch
//    back to back, so the host's launch cost (a few microseconds per launch, as long as a small
//    kernel itself) is never inside an event pair. One unheld run comes first, so that every kernel
//    is loaded before any hold (a lazily loaded kernel may wait for an idle GPU). If a hold is not
//    released within 50 ms (a launch that waits for the host, or a tool that serialises launches),
//    the timer stops holding for the rest of the program, says so once on stderr, and times the
//    batch again. With warmup 0 (one-run smoke tests) nothing is held.
//  * Cold (Cache::Cold, the default): before each run, outside its events, wb_flush reads a buffer of
//    twice the L2's size, which evicts the previous run's data (llm.c and nvbench flush L2 with a
//    buffer of its size too; a read rather than their memset leaves the L2 clean, so the timed run
//    does not pay for writing the flush's dirty lines back). A run then reads its input from device
//    memory even when it fits in L2. Each run has its own event pair, except runs shorter than
//    10 us: those are timed in batches of up to 64 back to back after one flush (a batch spans about
//    50 us), so that a kernel's fixed cost on the GPU and the events' resolution (about 0.5 us) do
//    not dominate. A streaming kernel that short touches less than the L2 holds (at 3 TB/s, 10 us
//    is 30 MB; the H100's L2 is 50 MB), and the tables mark such sizes in_l2: a batch reads them
//    from L2 after its first run.
//  * Warm (Cache::Warm): `batch` runs back to back per event pair (batch chosen so that a pair
//    spans at least ~0.2 ms), no flush: for kernels that never touch device memory on purpose
//    (shared-memory and fence loops), where a flush means nothing and a microsecond kernel would
//    otherwise sit at the events' resolution (about 0.5 us).
//  * Spread: the median run (time_ms in the tables), the fastest and the slowest.
//  * Clock: right after the last run, inside the same held batch, wb_clock_probe spins one thread
//    for 2^18 SM cycles (clock64) between its own events: cycles over time is the SM clock the GPU
//    ran at (sm_mhz), without NVML.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "check.h"

namespace wb {

enum class Cache { Cold, Warm };

struct TimeOptions {
  int warmup = 3;
  int reps = 20;
  Cache cache = Cache::Cold;
};

struct Timing {
  double median_ms = 0, min_ms = 0, max_ms = 0;  // of one run
  int reps = 0;
  int batch = 1;        // runs per event pair: Warm, or cold runs under 10 us (one flush per batch)
  bool cold = true;     // L2 flushed before each run (each batch)
  double sm_mhz = 0;    // measured after the runs, 0 if unknown
};

// Effective bandwidth in GB/s (GB = 1e9 bytes): bytes read plus written over time.
inline double gbps(double bytes, double ms) { return bytes / (ms * 1e-3) / 1e9; }

// Device memory the timer takes for itself (the flush buffer: twice the L2), for memory checks.
inline size_t timer_device_bytes(const cudaDeviceProp& prop) {
  return std::max<size_t>(size_t(2) * static_cast<size_t>(prop.l2CacheSize), size_t(1) << 20) + 4096;
}

// The median of a list of times (the middle one, or the mean of the two middle ones).
inline double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

inline Timing summarize(std::vector<double> ms) {
  Timing r;
  r.reps = static_cast<int>(ms.size());
  if (ms.empty()) return r;
  r.median_ms = median_of(ms);
  r.min_ms = *std::min_element(ms.begin(), ms.end());
  r.max_ms = *std::max_element(ms.begin(), ms.end());
  return r;
}

#ifdef __CUDACC__

// Spins until the host writes *release != 0, or until 50 ms have passed (then *timed_out = 1).
// %globaltimer is in nanoseconds on every GPU CUDA 13 supports.
static __global__ void wb_hold(const volatile int* release, volatile int* timed_out) {
  unsigned long long t0, t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  while (*release == 0) {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    if (t - t0 > 50ull * 1000 * 1000) {
      *timed_out = 1;
      return;
    }
    __nanosleep(1000);
  }
}

// Reads n 16-byte words (the flush buffer, all zero); the store never happens but keeps the loads.
static __global__ void wb_flush(const uint4* __restrict__ buf, size_t n, unsigned* sink) {
  unsigned acc = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    const uint4 v = buf[i];
    acc |= v.x | v.y | v.z | v.w;
  }
  if (acc == 0xdeadbeefu) *sink = acc;
}

// One thread counts `cycles` SM clock cycles; the caller times it with events.
static __global__ void wb_clock_probe(long long cycles, long long* sink) {
  const long long t0 = clock64();
  long long t = t0;
  while (t - t0 < cycles) t = clock64();
  *sink = t - t0;  // a store, so the loop is not removed
}

namespace detail {

constexpr long long kProbeCycles = 1ll << 18;

// State shared by every timing in the program: the flush buffer, the hold flags, the probe's sink.
struct TimerState {
  void* flush = nullptr;
  size_t flush_bytes = 0;
  int* flags = nullptr;       // mapped pinned host memory: [0] release, [1] timed out
  int* d_flags = nullptr;
  long long* sink = nullptr;
  int flush_blocks = 0;
  bool hold = true;           // false after a hold timed out once
  std::vector<cudaEvent_t> events;

  static TimerState& get() {
    static TimerState s;
    return s;
  }
  // Freed at exit (before the runtime's own teardown, which was registered earlier), so that
  // compute-sanitizer's leak check sees nothing left; errors at that point are of no use.
  ~TimerState() {
    if (!sink) return;
    for (cudaEvent_t e : events) (void)cudaEventDestroy(e);
    (void)cudaFree(flush);
    (void)cudaFreeHost(flags);
    (void)cudaFree(sink);
  }
  void init() {
    if (sink) return;
    int dev = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    int l2 = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
    flush_bytes = std::max<size_t>(size_t(2) * static_cast<size_t>(l2), size_t(1) << 20);
    CUDA_CHECK(cudaMalloc(&flush, flush_bytes));
    CUDA_CHECK(cudaMemset(flush, 0, flush_bytes));  // read by every flush
    int sms = 0, per_sm = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, wb_flush, 256, 0));
    flush_blocks = std::max(1, per_sm) * sms;
    CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&flags), 2 * sizeof(int), cudaHostAllocMapped));
    CUDA_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&d_flags), flags, 0));
    CUDA_CHECK(cudaMalloc(&sink, sizeof(long long)));
    // Load the timer's kernels now: with lazy loading, a kernel's first launch may wait for the
    // GPU to be idle, which it never is while a hold spins.
    flags[0] = 1;
    wb_hold<<<1, 1>>>(d_flags, d_flags + 1);
    CUDA_CHECK_LAUNCH();
    wb_clock_probe<<<1, 1>>>(0, sink);
    CUDA_CHECK_LAUNCH();
    flush_l2();
    CUDA_CHECK(cudaDeviceSynchronize());
  }
  // At least `count` events, created once.
  cudaEvent_t* need_events(size_t count) {
    while (events.size() < count) {
      cudaEvent_t e;
      CUDA_CHECK(cudaEventCreate(&e));
      events.push_back(e);
    }
    return events.data();
  }
  void flush_l2() {
    wb_flush<<<flush_blocks, 256>>>(static_cast<const uint4*>(flush), flush_bytes / 16, reinterpret_cast<unsigned*>(sink));
    CUDA_CHECK_LAUNCH();
  }
  // Enqueue the hold (if holding and allowed); returns whether it was enqueued.
  bool begin_hold(bool allowed) {
    if (!hold || !allowed) return false;
    flags[0] = 0;
    flags[1] = 0;
    wb_hold<<<1, 1>>>(d_flags, d_flags + 1);
    CUDA_CHECK_LAUNCH();
    return true;
  }
  // Release the hold and wait for the batch; false if the hold had timed out (time it again).
  bool end_hold(bool held, cudaEvent_t last) {
    if (held) reinterpret_cast<volatile int*>(flags)[0] = 1;
    CUDA_CHECK(cudaEventSynchronize(last));
    if (held && reinterpret_cast<volatile int*>(flags)[1]) {
      hold = false;
      std::fprintf(stderr,
                   "note: the timer's hold timed out (a launch that waits for the host, or a tool that "
                   "serialises launches); timing without it from here on, launch latency included\n");
      return false;
    }
    return true;
  }
};

// Enqueue `count` runs, each: setup, [flush], start event, `batch` launches, stop event; then the
// clock probe between two more events if `probe`. All of it behind a hold when `hold` (and the
// holds have not been given up). Returns the per-run times (ms per launch) and sets *mhz. Repeats
// the whole batch when the hold timed out.
template <class Setup, class Launch>
std::vector<double> timed_batch(Setup& setup, Launch& launch, int count, int batch, bool cold, bool probe,
                                double* mhz, bool hold = true) {
  TimerState& st = TimerState::get();
  for (;;) {
    cudaEvent_t* ev = st.need_events(2 * size_t(count) + 2);
    const bool held = st.begin_hold(hold);
    for (int i = 0; i < count; ++i) {
      setup();
      if (cold) st.flush_l2();
      CUDA_CHECK(cudaEventRecord(ev[2 * i]));
      for (int b = 0; b < batch; ++b) launch();
      CUDA_CHECK(cudaEventRecord(ev[2 * i + 1]));
    }
    cudaEvent_t last = ev[2 * count - 1];
    if (probe) {
      CUDA_CHECK(cudaEventRecord(ev[2 * count]));
      wb_clock_probe<<<1, 1>>>(kProbeCycles, st.sink);
      CUDA_CHECK_LAUNCH();
      CUDA_CHECK(cudaEventRecord(ev[2 * count + 1]));
      last = ev[2 * count + 1];
    }
    if (!st.end_hold(held, last)) continue;
    std::vector<double> ms(static_cast<size_t>(count));
    for (int i = 0; i < count; ++i) {
      float t = 0;
      CUDA_CHECK(cudaEventElapsedTime(&t, ev[2 * i], ev[2 * i + 1]));
      ms[static_cast<size_t>(i)] = double(t) / batch;
    }
    if (probe) {
      float t = 0;
      CUDA_CHECK(cudaEventElapsedTime(&t, ev[2 * count], ev[2 * count + 1]));
      *mhz = t > 0 ? double(kProbeCycles) / (double(t) * 1e3) : 0.0;
    }
    return ms;
  }
}

}  // namespace detail

namespace detail {

template <class Setup, class Launch>
Timing time_impl(Setup& setup, Launch& launch, const TimeOptions& opt, bool can_batch) {
  detail::TimerState& st = detail::TimerState::get();
  st.init();
  const bool cold = opt.cache == Cache::Cold;
  const int reps = std::max(1, opt.reps);
  double mhz = 0;
  // Warm-up: one run on its own (it loads every kernel it launches: see init()), then `warmup` held
  // runs, the fastest of which sizes a warm batch. Without warm-up (a one-run smoke test, e.g. under
  // the sanitizers) nothing is held, so nothing waits on a kernel's first load.
  const bool hold = opt.warmup > 0;
  int batch = 1;
  if (hold) {
    setup();
    launch();
    CUDA_CHECK(cudaDeviceSynchronize());
    const std::vector<double> w = detail::timed_batch(setup, launch, opt.warmup, 1, cold, false, &mhz);
    const double fastest = *std::min_element(w.begin(), w.end());
    if (!cold && fastest > 0) batch = static_cast<int>(std::clamp(0.2 / fastest, 1.0, 64.0));
    if (cold && can_batch && fastest > 0 && fastest < 0.010)
      batch = static_cast<int>(std::clamp(std::ceil(0.050 / fastest), 1.0, 64.0));
  }
  // Timed runs, in held groups of at most 32 event pairs and about 500 launches, so that the launch
  // queue stays far from full (a full one would block the host behind the hold, and the hold would
  // time out); the clock probe follows the last group.
  const int per_group = std::clamp(480 / (batch + 3), 1, 32);
  std::vector<double> ms;
  for (int done = 0; done < reps;) {
    const int count = std::min(per_group, reps - done);
    const bool last = done + count == reps;
    const std::vector<double> part = detail::timed_batch(setup, launch, count, batch, cold, last, &mhz, hold);
    ms.insert(ms.end(), part.begin(), part.end());
    done += count;
  }
  Timing r = summarize(ms);
  r.batch = batch;
  r.cold = cold;
  r.sm_mhz = mhz;
  return r;
}

}  // namespace detail

// The timer. `setup` runs before every run (warm-up and timed), outside the events, e.g. to restore
// an input that the kernel overwrites; it must enqueue asynchronous work only. Runs with a setup
// are never batched.
template <class Setup, class Launch>
Timing time_cuda(Setup&& setup, Launch&& launch, const TimeOptions& opt) {
  return detail::time_impl(setup, launch, opt, false);
}

template <class Launch>
Timing time_cuda(Launch&& launch, const TimeOptions& opt) {
  auto nothing = [] {};
  return detail::time_impl(nothing, launch, opt, true);
}

// The SM clock now, in MHz: the clock probe alone, for timings the timer does not take itself.
inline double sm_mhz_now() {
  detail::TimerState::get().init();
  auto nothing = [] {};
  double mhz = 0;
  detail::timed_batch(nothing, nothing, 1, 1, false, true, &mhz);
  return mhz;
}

// The form every chapter has used: cold runs, one per event pair.
template <class Launch>
Timing time_cuda(Launch&& launch, int warmup = 3, int reps = 20) {
  return time_cuda(launch, TimeOptions{warmup, reps, Cache::Cold});
}

#endif  // __CUDACC__

}  // namespace wb
