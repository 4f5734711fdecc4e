// Checker of exercise shift_zero (chapter 02): exact output against a CPU reference for every width,
// several deltas, sizes with a partial last warp; memcheck; SASS rules in shift_zero.sass. Times the
// exercise against the chapter's shift down (test_shfl_down's __shfl_down_sync) over the same array.
#include <vector>

#include "exercise.h"
#include WB_EXERCISE_FILE

__global__ void shiftDownReference(const int* in, int* out, int n, int delta, int width) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int value = i < n ? in[i] : 0;
  value = __shfl_down_sync(0xffffffffu, value, static_cast<unsigned>(delta), width);
  if (i < n) out[i] = value;
}

int main(int argc, char** argv) {
  wb::ex::Checker ck(argc, argv, WB_EXERCISE_ATTEMPTED);
  ck.require_device();
  constexpr int kBlock = 128;
  for (int n : {1, 31, 100, 1000, 4099, (1 << 22) + 3}) {
    if (ck.quick() && n > 4099) break;
    std::vector<int> in(n);
    for (int i = 0; i < n; ++i) in[i] = 5 * i + 1;  // never 0: a kept value shows
    wb::ex::DeviceArray<int> d_in(in), d_out(n);
    const int blocks = (n + kBlock - 1) / kBlock;
    for (int width : {4, 8, 16, 32}) {
      for (int delta : {1, 3, width - 1}) {
        if (delta >= width) continue;
        std::vector<int> want(n);
        for (int i = 0; i < n; ++i)
          want[i] = (i % width + delta < width && i + delta < n) ? in[i + delta] : 0;
        d_out.poison();
        shift_zero<<<blocks, kBlock>>>(d_in.ptr, d_out.ptr, n, delta, width);
        ck.launched();
        ck.expect("n = " + std::to_string(n) + ", delta = " + std::to_string(delta) + ", width = " +
                      std::to_string(width),
                  d_out.download(), want);
      }
    }
    if (n > 4099)
      ck.time([&] { shift_zero<<<blocks, kBlock>>>(d_in.ptr, d_out.ptr, n, 2, 16); }, "shiftDownReference",
              [&] { shiftDownReference<<<blocks, kBlock>>>(d_in.ptr, d_out.ptr, n, 2, 16); });
  }
  return ck.finish();
}
