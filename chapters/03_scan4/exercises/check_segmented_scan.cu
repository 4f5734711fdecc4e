// Checker of exercise segmented_scan (chapter 03): exact output against a CPU loop, for head
// patterns none / all / random / every 5th and sizes with a partial warp; compute-sanitizer
// memcheck and synccheck; SASS rules in segmented_scan.sass. Times the exercise against scan4's
// loop over whole warps (no segments).
#include <vector>

#include "exercise.h"
#include WB_EXERCISE_FILE

__global__ void warpScanReference(const int* in, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int value = i < n ? in[i] : 0;
  for (int d = 1; d < 32; d *= 2) {
    const int up = __shfl_up_sync(0xffffffffu, value, d);
    if ((threadIdx.x & 31) >= d) value += up;
  }
  if (i < n) out[i] = value;
}

int main(int argc, char** argv) {
  wb::ex::Checker ck(argc, argv, WB_EXERCISE_ATTEMPTED);
  ck.require_device();
  constexpr int kBlock = 128;
  const char* patterns[] = {"no heads", "every element a head", "random heads", "every 5th a head"};
  for (int n : {1, 31, 33, 1000, 4099, (1 << 22) + 1}) {
    if (ck.quick() && n > 4099) break;
    std::vector<int> in(n);
    for (int i = 0; i < n; ++i) in[i] = (i * 29) % 97 + 1;
    wb::ex::DeviceArray<int> d_in(in), d_head(n), d_out(n);
    const int blocks = (n + kBlock - 1) / kBlock;
    for (int p = 0; p < 4; ++p) {
      std::vector<int> head(n), want(n);
      uint32_t x = 12345u + static_cast<uint32_t>(n);
      for (int i = 0; i < n; ++i) {
        x = x * 1664525u + 1013904223u;
        head[i] = p == 0 ? 0 : p == 1 ? 1 : p == 2 ? ((x >> 16) % 4 == 0) : (i % 5 == 0);
      }
      for (int i = 0; i < n; ++i)
        want[i] = (i % 32 == 0 || head[i]) ? in[i] : want[i - 1] + in[i];
      d_head.upload(head);
      d_out.poison();
      segmented_scan<<<blocks, kBlock>>>(d_in.ptr, d_head.ptr, d_out.ptr, n);
      ck.launched();
      ck.expect("n = " + std::to_string(n) + ", " + patterns[p], d_out.download(), want);
    }
    if (n > 4099)
      ck.time([&] { segmented_scan<<<blocks, kBlock>>>(d_in.ptr, d_head.ptr, d_out.ptr, n); },
              "warpScanReference", [&] { warpScanReference<<<blocks, kBlock>>>(d_in.ptr, d_out.ptr, n); });
  }
  return ck.finish();
}
