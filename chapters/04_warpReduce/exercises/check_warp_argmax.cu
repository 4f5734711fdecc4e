// Checker of exercise warp_argmax (chapter 04): exact (value, index) per warp against a CPU loop,
// for inputs with many ties, only negative values, INT_MIN, and partial last warps; memcheck; SASS
// rules in warp_argmax.sass. Times the exercise against a butterfly max without an index
// (maxReference below, the chapter's warpReduce with max).
#include <climits>
#include <vector>

#include "exercise.h"
#include WB_EXERCISE_FILE

__global__ void maxReference(const int* in, int* out_value, int* out_index, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int value = i < n ? in[i] : INT_MIN;
  for (int mask = 16; mask >= 1; mask /= 2) value = max(value, __shfl_xor_sync(0xffffffffu, value, mask));
  if ((threadIdx.x & 31) == 0 && i < n) out_value[i / 32] = value;
}

int main(int argc, char** argv) {
  wb::ex::Checker ck(argc, argv, WB_EXERCISE_ATTEMPTED);
  ck.require_device();
  constexpr int kBlock = 128;
  const char* kinds[] = {"many ties", "only negative", "INT_MIN everywhere", "random (few ties)"};
  for (int n : {1, 33, 1000, 4099, (1 << 22) + 9}) {
    if (ck.quick() && n > 4099) break;
    const int warps = (n + 31) / 32;
    const int blocks = (n + kBlock - 1) / kBlock;
    wb::ex::DeviceArray<int> d_in(n), d_value(warps), d_index(warps);
    for (int kind = 0; kind < 4; ++kind) {
      std::vector<int> in(n);
      uint32_t x = 777u + static_cast<uint32_t>(n);
      for (int i = 0; i < n; ++i) {
        x = x * 1664525u + 1013904223u;
        const int r = static_cast<int>(x >> 8);
        in[i] = kind == 0 ? r % 5 - 2 : kind == 1 ? -1 - r % 1000 : kind == 2 ? INT_MIN : r - (1 << 23);
      }
      std::vector<int> want_value(warps, INT_MIN), want_index(warps, -1);
      for (int i = 0; i < n; ++i) {
        const int w = i / 32;
        if (want_index[w] < 0 || in[i] > want_value[w]) {
          want_value[w] = in[i];
          want_index[w] = i;
        }
      }
      d_in.upload(in);
      d_value.poison();
      d_index.poison();
      warp_argmax<<<blocks, kBlock>>>(d_in.ptr, d_value.ptr, d_index.ptr, n);
      ck.launched();
      const std::string what = "n = " + std::to_string(n) + ", " + kinds[kind];
      ck.expect(what + ": out_value", d_value.download(), want_value);
      ck.expect(what + ": out_index", d_index.download(), want_index);
    }
    if (n > 4099)
      ck.time([&] { warp_argmax<<<blocks, kBlock>>>(d_in.ptr, d_value.ptr, d_index.ptr, n); }, "maxReference",
              [&] { maxReference<<<blocks, kBlock>>>(d_in.ptr, d_value.ptr, d_index.ptr, n); });
  }
  return ck.finish();
}
