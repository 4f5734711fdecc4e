// Checker of exercise rotate16 (chapter 01): exact output against a CPU reference for sizes whose
// last 16-lane group is short (all but n = 16, one full group), and several k; SASS rules in
// rotate16.sass (the sanitizers it runs under are listed in CMakeLists.txt). Times the exercise
// against a one-shuffle width-16 wrap (one __shfl_sync, srcLane threadIdx.x + k, width 16).
#include <vector>

#include "exercise.h"
#include WB_EXERCISE_FILE

// A one-shuffle width-16 wrap over an array: srcLane (lane + k) modulo 16, full 16-lane groups only.
__global__ void wrapReference(const int* in, int* out, int n, int k) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int value = i < n ? in[i] : 0;
  value = __shfl_sync(0xffffffffu, value, static_cast<int>(threadIdx.x) + k, 16);
  if (i < n) out[i] = value;
}

int main(int argc, char** argv) {
  wb::ex::Checker ck(argc, argv, WB_EXERCISE_ATTEMPTED);
  ck.require_device();
  constexpr int kBlock = 128;
  for (int n : {1, 5, 16, 17, 100, 1000, 4099, (1 << 20) + 7}) {
    if (ck.quick() && n > 4099) break;
    std::vector<int> in(n);
    for (int i = 0; i < n; ++i) in[i] = 7 * i + 1;  // never 0: a lane past n shows
    wb::ex::DeviceArray<int> d_in(in), d_out(n);
    const int blocks = (n + kBlock - 1) / kBlock;
    for (int k : {0, 1, 5, 15}) {
      std::vector<int> want(n);
      for (int g = 0; g < n; g += 16) {
        const int len = n - g < 16 ? n - g : 16;
        for (int j = 0; j < len; ++j) want[g + j] = in[g + (j + k) % len];
      }
      d_out.poison();
      rotate16<<<blocks, kBlock>>>(d_in.ptr, d_out.ptr, n, k);
      ck.launched();
      ck.expect("n = " + std::to_string(n) + ", k = " + std::to_string(k), d_out.download(), want);
    }
    if (n > 4099)
      ck.time([&] { rotate16<<<blocks, kBlock>>>(d_in.ptr, d_out.ptr, n, 5); }, "wrapReference",
              [&] { wrapReference<<<blocks, kBlock>>>(d_in.ptr, d_out.ptr, n, 5); });
  }
  return ck.finish();
}
