// Checker of exercise scan_exclusive8 (chapter 03): exact output against a CPU loop over each group
// of 8, sizes that end in a short group and a partial warp; compute-sanitizer memcheck and
// synccheck; SASS rules in scan_exclusive8.sass. Times the exercise against scan4's inclusive scan
// over the same array.
#include <vector>

#include "exercise.h"
#include WB_EXERCISE_FILE

// scan4's kernel over an array: inclusive, groups of 8.
__global__ void scan4Reference(const int* in, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int value = i < n ? in[i] : 0;
  for (int d = 1; d <= 4; d *= 2) {
    const int up = __shfl_up_sync(0xffffffffu, value, d, 8);
    if ((threadIdx.x & 7) >= d) value += up;
  }
  if (i < n) out[i] = value;
}

int main(int argc, char** argv) {
  wb::ex::Checker ck(argc, argv, WB_EXERCISE_ATTEMPTED);
  ck.require_device();
  constexpr int kBlock = 128;
  for (int n : {1, 7, 9, 100, 1000, 4099, (1 << 22) + 5}) {
    if (ck.quick() && n > 4099) break;
    std::vector<int> in(n), want(n);
    for (int i = 0; i < n; ++i) in[i] = (i * 37) % 101 + 1;  // never 0: an extra own value shows
    for (int g = 0; g < n; g += 8) {
      int sum = 0;
      for (int i = g; i < n && i < g + 8; ++i) {
        want[i] = sum;
        sum += in[i];
      }
    }
    wb::ex::DeviceArray<int> d_in(in), d_out(n);
    const int blocks = (n + kBlock - 1) / kBlock;
    scan_exclusive8<<<blocks, kBlock>>>(d_in.ptr, d_out.ptr, n);
    ck.launched();
    ck.expect("n = " + std::to_string(n), d_out.download(), want);
    if (n > 4099)
      ck.time([&] { scan_exclusive8<<<blocks, kBlock>>>(d_in.ptr, d_out.ptr, n); }, "scan4Reference",
              [&] { scan4Reference<<<blocks, kBlock>>>(d_in.ptr, d_out.ptr, n); });
  }
  return ck.finish();
}
