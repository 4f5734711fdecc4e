// Chapter 10 — memoryFence, idea 1: the memory model's three-thread example (004), run for real.
// Thread 1 is block 0, thread 2 is block 1 of one cooperative launch; thread 3 is the host
// (memoryFence.cu: run_three_threads). Included by memoryFence.cu.
#pragma once

#include <cuda/atomic>

#include "globaltimer.cuh"
#include "memoryFence_lesson.h"

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
    a.store(1, cuda::memory_order_release);   // ...ordered before a = 1 at device scope: for the
                                              // GPU's threads in this launch's domain
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
