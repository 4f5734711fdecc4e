// Step 8: step 7's body at another tile shape, stage count and block order, set by hand.
#pragma once

#include "07_sgemmAsync.cuh"  // sgemm_async_body

// 8. The same body at the shape, register tile, stage count and block order of matMul_lesson.h's
// kTunedSmall and kTunedLarge, set by hand; where --tune ranks them: the README (from
// plots/data/<gpu>/sgemm_tune.csv).
template <class T, bool kFull>
__global__ void __launch_bounds__(T::kThreads, T::MINB) sgemmTuned(const float* __restrict__ A,
                                                                   const float* __restrict__ B, float* __restrict__ C,
                                                                   int M, int N, int K, int group) {
  sgemm_async_body<T, kFull>(A, B, C, M, N, K, group);
}
