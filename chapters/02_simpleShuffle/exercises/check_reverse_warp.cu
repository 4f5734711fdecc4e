// Checker of exercise reverse_warp (chapter 02): exact output against a CPU reference; memcheck;
// SASS rules in reverse_warp.sass (one shuffle, no shared memory). Times the exercise against the
// chapter's butterfly (test_shfl_xor's __shfl_xor_sync with laneMask 1) over the same array.
#include <vector>

#include "exercise.h"
#include WB_EXERCISE_FILE

__global__ void butterflyReference(const int* in, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int value = i < n ? in[i] : 0;
  value = __shfl_xor_sync(0xffffffffu, value, 1);
  if (i < n) out[i] = value;
}

int main(int argc, char** argv) {
  wb::ex::Checker ck(argc, argv, WB_EXERCISE_ATTEMPTED);
  ck.require_device();
  constexpr int kBlock = 128;
  for (int n : {32, 160, 4128, 1 << 22}) {
    if (ck.quick() && n > 4128) break;
    std::vector<int> in(n), want(n);
    for (int i = 0; i < n; ++i) in[i] = 3 * i + 1;
    for (int i = 0; i < n; ++i) want[i] = in[i / 32 * 32 + 31 - i % 32];
    wb::ex::DeviceArray<int> d_in(in), d_out(n);
    const int blocks = (n + kBlock - 1) / kBlock;
    reverse_warp<<<blocks, kBlock>>>(d_in.ptr, d_out.ptr, n);
    ck.launched();
    ck.expect("n = " + std::to_string(n), d_out.download(), want);
    if (n > 4128)
      ck.time([&] { reverse_warp<<<blocks, kBlock>>>(d_in.ptr, d_out.ptr, n); }, "butterflyReference",
              [&] { butterflyReference<<<blocks, kBlock>>>(d_in.ptr, d_out.ptr, n); });
  }
  return ck.finish();
}
