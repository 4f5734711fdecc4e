// common/timer.h — CUDA-event timing: warm up, time each repetition with its own event pair,
// report the median (and min, max). The median resists the odd slow run; at least 20 runs.
#pragma once

#include <algorithm>
#include <vector>

#include "check.h"

namespace wb {

struct Timing {
  double median_ms = 0, min_ms = 0, max_ms = 0;
  int reps = 0;
};

// `launch` enqueues one complete run of the thing being timed (one or more kernel launches)
// on the default stream and checks its launches.
template <class Launch>
Timing time_cuda(Launch&& launch, int warmup = 3, int reps = 20) {
  for (int i = 0; i < warmup; ++i) launch();
  CUDA_CHECK(cudaDeviceSynchronize());
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  std::vector<double> ms(static_cast<size_t>(reps));
  for (int i = 0; i < reps; ++i) {
    CUDA_CHECK(cudaEventRecord(start));
    launch();
    CUDA_CHECK(cudaEventRecord(stop));
    CUDA_CHECK(cudaEventSynchronize(stop));
    float t = 0;
    CUDA_CHECK(cudaEventElapsedTime(&t, start, stop));
    ms[static_cast<size_t>(i)] = t;
  }
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  std::sort(ms.begin(), ms.end());
  Timing r;
  r.reps = reps;
  r.min_ms = ms.front();
  r.max_ms = ms.back();
  size_t h = ms.size() / 2;
  r.median_ms = ms.size() % 2 ? ms[h] : 0.5 * (ms[h - 1] + ms[h]);
  return r;
}

// Effective bandwidth in GB/s (GB = 1e9 bytes): bytes read plus written over time.
inline double gbps(double bytes, double ms) { return bytes / (ms * 1e-3) / 1e9; }

}  // namespace wb
