// Checker of exercise publishPartial (chapter 10): the chapter's one-pass sum with the exercise's
// publishing step, exactly, over many launches and grid sizes (a wrong value would mean a partial
// read before it landed, or a wrong "last" verdict). A missing fence need not change the sum:
// the SASS rules (publishPartial.sass) on publishOnly, a kernel that is nothing but the exercise's
// function, decide. Times the sum against the chapter's two-pass sum (no fence, two launches).
#include <cuda/atomic>

#include "exercise.h"
#include WB_EXERCISE_FILE

constexpr int kThreads = 256;
constexpr unsigned kFull = 0xffffffffu;

// For the SASS rules only: the exercise's function alone.
__global__ void publishOnly(long long s, long long* partials, unsigned* ticket, int* last) {
  *last = publishPartial(s, partials, ticket);
}

// The chapter's block_sum: shuffles within warps, one shared word per warp; valid in thread 0.
__device__ long long block_sum(long long v) {
  __shared__ long long warp_sums[kThreads / 32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  for (int m = 16; m > 0; m >>= 1) v += __shfl_xor_sync(kFull, v, m);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  v = threadIdx.x < kThreads / 32 ? warp_sums[threadIdx.x] : 0;
  if (warp == 0)
    for (int m = 16; m > 0; m >>= 1) v += __shfl_xor_sync(kFull, v, m);
  __syncthreads();  // warp_sums is reused by the last block's second block_sum
  return v;
}
__device__ long long thread_sum(const int* in, size_t n) {
  long long s = 0;
  for (size_t i = blockIdx.x * size_t(kThreads) + threadIdx.x; i < n; i += size_t(gridDim.x) * kThreads) s += in[i];
  return s;
}

// The chapter's sumThreadfence with the publishing step replaced by the exercise's.
__global__ void __launch_bounds__(kThreads)
sumLastBlock(const int* in, size_t n, long long* partials, unsigned* ticket, long long* out) {
  const long long s = block_sum(thread_sum(in, n));
  __shared__ bool is_last;
  if (threadIdx.x == 0) {
    is_last = publishPartial(s, partials, ticket);
    if (is_last) __threadfence();  // the acquire side: every ticket before the partials are read
  }
  __syncthreads();
  if (!is_last) return;
  long long total = 0;
  for (unsigned blk = threadIdx.x; blk < gridDim.x; blk += kThreads) total += partials[blk];
  total = block_sum(total);
  if (threadIdx.x == 0) {
    *out = total;
    *ticket = 0;  // every block has its ticket: the next launch starts from 0
  }
}

// The chapter's two-pass sum: the kernel boundary orders the partials (the reference for the time).
__global__ void __launch_bounds__(kThreads) sumPartials(const int* in, size_t n, long long* partials) {
  const long long s = block_sum(thread_sum(in, n));
  if (threadIdx.x == 0) partials[blockIdx.x] = s;
}
__global__ void __launch_bounds__(kThreads) sumFinal(const long long* partials, unsigned count, long long* out) {
  long long total = 0;
  for (unsigned blk = threadIdx.x; blk < count; blk += kThreads) total += partials[blk];
  total = block_sum(total);
  if (threadIdx.x == 0) *out = total;
}

int main(int argc, char** argv) {
  wb::ex::Checker ck(argc, argv, WB_EXERCISE_ATTEMPTED);
  ck.require_device();
  const size_t n = (size_t(1) << 22) + 3;
  std::vector<int> in(n);
  long long want = 0;
  for (size_t i = 0; i < n; ++i) {
    in[i] = static_cast<int>((i * 2654435761ull >> 7) % 1023) - 511;
    want += in[i];
  }
  wb::ex::DeviceArray<int> d_in(in);
  wb::ex::DeviceArray<unsigned> d_ticket(std::vector<unsigned>{0u});
  const int launches = ck.quick() ? 2 : 100;
  for (unsigned blocks : {1u, 7u, 1000u, 4096u}) {
    wb::ex::DeviceArray<long long> d_partials(blocks), d_out(1);
    bool ok = true;
    for (int l = 0; l < launches && ok; ++l) {
      d_out.poison();  // a launch in which no block (or the wrong one) finishes shows
      sumLastBlock<<<blocks, kThreads>>>(d_in.ptr, n, d_partials.ptr, d_ticket.ptr, d_out.ptr);
      ck.launched();
      ok = ck.expect(std::to_string(blocks) + " blocks, launch " + std::to_string(l + 1) + " of " +
                         std::to_string(launches) + ", the sum",
                     d_out.download(), std::vector<long long>{want});
    }
    if (blocks == 4096u)
      ck.time([&] { sumLastBlock<<<blocks, kThreads>>>(d_in.ptr, n, d_partials.ptr, d_ticket.ptr, d_out.ptr); },
              "the two-pass sum (chapter 10's sumPartials + sumFinal)", [&] {
                sumPartials<<<blocks, kThreads>>>(d_in.ptr, n, d_partials.ptr);
                sumFinal<<<1, kThreads>>>(d_partials.ptr, blocks, d_out.ptr);
              });
  }
  return ck.finish();
}
