// Checker of exercise warp_sum64 (chapter 04): exact per-warp sums against a CPU loop, for small
// and for large elements (whose sums need 64 bits) and a partial last warp; memcheck; SASS rules in
// warp_sum64.sass. Times the exercise against the chapter's 32-bit butterfly over the same array.
#include <vector>

#include "exercise.h"
#include WB_EXERCISE_FILE

// The chapter's warp reduction (warpReduce's butterfly), 32-bit sums, lane 0 writes.
__global__ void butterflyReference(const unsigned* in, unsigned long long* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned sum = i < n ? in[i] : 0u;
  for (int mask = 16; mask >= 1; mask /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, mask);
  if ((threadIdx.x & 31) == 0 && i < n) out[i / 32] = sum;
}

int main(int argc, char** argv) {
  wb::ex::Checker ck(argc, argv, WB_EXERCISE_ATTEMPTED);
  ck.require_device();
  constexpr int kBlock = 128;
  for (int n : {1, 33, 1000, 4099, (1 << 24) + 3}) {
    if (ck.quick() && n > 4099) break;
    const int warps = (n + 31) / 32;
    const int blocks = (n + kBlock - 1) / kBlock;
    wb::ex::DeviceArray<unsigned> d_in(n);
    wb::ex::DeviceArray<unsigned long long> d_out(warps);
    for (int large = 0; large < 2; ++large) {
      std::vector<unsigned> in(n);
      for (int i = 0; i < n; ++i)
        in[i] = large ? 0xF0000000u + static_cast<unsigned>(i) * 2654435761u % 0x0FFFFFFFu
                      : static_cast<unsigned>(i % 1000);
      std::vector<unsigned long long> want(warps, 0);
      for (int i = 0; i < n; ++i) want[i / 32] += in[i];
      d_in.upload(in);
      d_out.poison();
      warp_sum64<<<blocks, kBlock>>>(d_in.ptr, d_out.ptr, n);
      ck.launched();
      ck.expect("n = " + std::to_string(n) + (large ? ", elements near 2^32" : ", small elements"),
                d_out.download(), want);
    }
    if (n > 4099)
      ck.time([&] { warp_sum64<<<blocks, kBlock>>>(d_in.ptr, d_out.ptr, n); }, "butterflyReference",
              [&] { butterflyReference<<<blocks, kBlock>>>(d_in.ptr, d_out.ptr, n); });
  }
  return ck.finish();
}
