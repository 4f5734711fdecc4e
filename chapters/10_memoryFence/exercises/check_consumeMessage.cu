// Checker of exercise consumeMessage (chapter 10): a producer block (the checker's, correct) and a
// consumer block (the exercise's function) in one cooperative launch, passing 64 rounds of 1024
// ints through global memory, each round acknowledged before the next; every value of every round
// must arrive. Before each round the consumer loads data[] on purpose (plain loads, which the SM's
// L1 may keep); the producer may already be writing the round's values, so these warming loads
// race with it, and their values only feed sink. A consumer without an acquire may then read stale
// values; but it may also be lucky, so the SASS rules (consumeMessage.sass) on consumeOnly, a
// kernel that is nothing but the exercise's function, decide. The checker's own waits are bounded
// (10 s): a lost acknowledgement fails, it never hangs.
#include <cuda/atomic>

#include "exercise.h"
#include WB_EXERCISE_FILE

constexpr int kThreads = 256, kN = 1024, kRounds = 64;
constexpr unsigned long long kSpinLimitNs = 10'000'000'000ull;

__device__ __forceinline__ unsigned long long globaltimer_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// For the SASS rules only: the exercise's function alone.
__global__ void consumeOnly(const int* data, int* out, int n, int* flag, int round) {
  consumeMessage(data, out, n, flag, round);
}

__device__ int value_of(int round, int i) { return round * 1000003 + i; }

// Block 0 produces, block 1 consumes; out holds kRounds rows of kN. status[0]: the producer timed
// out waiting for an acknowledgement.
__global__ void messagePassing(int* data, int* flag, int* ack, int* out, int* sink, int* status) {
  cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag), a(*ack);
  if (blockIdx.x == 0) {  // the producer: correct by construction
    for (int r = 1; r <= kRounds; ++r) {
      if (threadIdx.x == 0) {
        const unsigned long long t0 = globaltimer_ns();
        while (a.load(cuda::memory_order_acquire) != r - 1) {
          if (globaltimer_ns() - t0 > kSpinLimitNs) {
            status[0] = 1;  // report; still publish, so that the consumer is not left waiting
            break;
          }
        }
      }
      __syncthreads();  // the previous round is consumed before its data is overwritten
      for (int i = threadIdx.x; i < kN; i += kThreads) data[i] = value_of(r, i);
      __syncthreads();
      if (threadIdx.x == 0) {
        __threadfence();                          // the block's data stores, then ...
        f.store(r, cuda::memory_order_release);   // ... the flag
      }
    }
  } else {  // the consumer: the exercise's function, after loading data[] (warming loads)
    int warm = 0;
    for (int r = 1; r <= kRounds; ++r) {
      for (int i = threadIdx.x; i < kN; i += kThreads) warm += data[i];
      consumeMessage(data, out + size_t(r - 1) * kN, kN, flag, r);
      __syncthreads();  // every thread has its copy
      if (threadIdx.x == 0) a.store(r, cuda::memory_order_release);
    }
    sink[threadIdx.x] = warm;  // keeps the warming loads
  }
}

int main(int argc, char** argv) {
  wb::ex::Checker ck(argc, argv, WB_EXERCISE_ATTEMPTED);
  ck.require_device();
  int coop = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, 0));
  if (!coop) wb::skip("this GPU has no cooperative launch (two blocks must run at the same time)");
  std::vector<int> want(size_t(kRounds) * kN);
  for (int r = 1; r <= kRounds; ++r)
    for (int i = 0; i < kN; ++i) want[size_t(r - 1) * kN + i] = r * 1000003 + i;
  const int launches = ck.quick() ? 1 : 20;
  for (int l = 0; l < launches; ++l) {
    wb::ex::DeviceArray<int> d_data(std::vector<int>(kN, 0)), d_flag(std::vector<int>{0}), d_ack(std::vector<int>{0}),
        d_out(want.size()), d_sink(kThreads), d_status(std::vector<int>{0});
    void* args[] = {&d_data.ptr, &d_flag.ptr, &d_ack.ptr, &d_out.ptr, &d_sink.ptr, &d_status.ptr};
    CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(messagePassing), dim3(2), dim3(kThreads), args, 0, 0));
    ck.launched();
    if (!ck.expect_true("launch " + std::to_string(l + 1), d_status.download()[0] == 0,
                        "the producer waited 10 s for an acknowledgement"))
      break;
    if (!ck.expect("launch " + std::to_string(l + 1) + ", out[(round - 1) * 1024 + i] = round * 1000003 + i",
                   d_out.download(), want))
      break;
  }
  return ck.finish();
}
