// Chapter 10's inputs and output format: shared by memoryFence.cu and memoryFence_model.cpp, so the
// two differ only in how they compute what they print.
#pragma once

#include <cstdint>
#include <cstdio>

#include "hash.h"

namespace lesson {

// 1. The memory model's three-thread example (004), run kRuns times.
constexpr int kRuns = 100;
constexpr int kX = 42;  // thread 1's payload (004 writes 1; any value the memory did not hold works)

// The example's steps in program order, for the diagram (threeThreads.cuh runs threads 1 and 2,
// run_three_threads in memoryFence.cu is thread 3). release_to: the index of the acquire that reads
// this release's value (-1: none), i.e. the synchronizes-with edges.
struct Step {
  int thread;        // 1, 2 or 3
  const char* what;  // the operation ("x" stands for kX where a value is stored)
  const char* scope; // of the atomic, or "" for a plain access
  int release_to;
};
inline constexpr Step kSteps[] = {
    {1, "x = 42", "", -1},                      // a plain store (kX)
    {1, "a.store(1, release)", "device", 2},    // -> thread 2's acquire of a
    {2, "a.load(acquire) == 1", "device", -1},  // waits for thread 1
    {2, "read x; y = x + 1", "", -1},
    {2, "b.store(1, release)", "system", 5},    // -> the host's acquire of b
    {3, "b.load(acquire) == 1", "system", -1},  // the host waits for thread 2
    {3, "read x and y", "", -1},
};
static_assert(kX == 42, "kSteps spells thread 1's store as x = 42");

// What each thread saw in one run. Thread 2 and thread 3 each read after an acquire.
struct ThreeThreads {
  int t2_x = -1;            // x as read by thread 2 after a.load(acquire) == 1
  int t3_x = -1, t3_y = -1; // x and y as read by the host after b.load(acquire) == 1
};

// 2. The one-pass sums: n ints in [-512, 511] from the workbook's hash. Not a multiple of 4 (the
// vector loads' tail) nor of any block size.
constexpr uint64_t kLessonN = (uint64_t(1) << 24) + 3;
constexpr uint32_t kSeed = 2025;
constexpr int kSmallGrid = 3;         // a grid of 3 blocks: few partials, each block loops a lot
constexpr int kLaunchesPerGrid = 3;   // back to back: the last block must leave the ticket at 0

WB_HOST_DEVICE inline int input(uint64_t i) { return static_cast<int>(wb::hash32(i, kSeed) & 1023u) - 512; }

inline void print_three_threads(const ThreeThreads& last, int t2_ok, int t3_ok) {
  std::printf("== 1. The memory model's three threads (004), run for real ==\n");
  std::printf("thread 1 (GPU, block 0): x = %d; a.store(1, release)          a: device scope\n", kX);
  std::printf("thread 2 (GPU, block 1): wait a.load(acquire) == 1; read x; y = x + 1; b.store(1, release)"
              "   b: system scope\n");
  std::printf("thread 3 (host thread) : wait b.load(acquire) == 1; read x and y\n");
  std::printf("last run: thread 2 read x = %d; thread 3 read x = %d, y = %d\n", last.t2_x, last.t3_x, last.t3_y);
  std::printf("thread 2 saw x == %d in %d of %d runs; thread 3 saw x == %d and y == %d in %d of %d runs\n", kX,
              t2_ok, kRuns, kX, kX + 1, t3_ok, kRuns);
}

inline void print_sum_header(long long cpu) {
  std::printf("\n== 2. A fence that matters: one-pass sum of %llu ints in [-512, 511] ==\n",
              static_cast<unsigned long long>(kLessonN));
  std::printf("each block stores its partial sum, then takes a ticket; the block that draws the last\n");
  std::printf("ticket adds up the partials. %d launches on a grid that fills the GPU, %d on %d blocks.\n",
              kLaunchesPerGrid, kLaunchesPerGrid, kSmallGrid);
  std::printf("CPU sum (64-bit): %lld\n", cpu);
}

inline void print_sum(const char* kernel, const char* how, long long got, int exact, int launches) {
  std::printf("%-18s %-45s sum %lld, exact in %d of %d launches\n", kernel, how, got, exact, launches);
}

// The counts on the line below are the Programming Guide's (4 on Hopper, one domain before); only
// sm_90 GPUs (4 domains) were run. The count itself is printed on stderr.
inline void print_domain_header() {
  std::printf("\n== 3. Memory synchronization domains (cudaLaunchKernelEx launch attributes) ==\n");
  std::printf("(the GPU's domain count is on stderr: 4 on Hopper, 1 before)\n");
}

inline void print_domain(const char* kernel, const char* attrs, long long got, bool exact) {
  std::printf("%-18s %-45s sum %lld, %s\n", kernel, attrs, got, exact ? "exact" : "WRONG");
}

}  // namespace lesson
