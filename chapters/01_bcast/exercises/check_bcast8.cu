// Checker of exercise bcast8 (chapter 01): exact output against a CPU reference on sizes that end
// in a partial warp and a partial block (all but n = 1 << 20, which fills both); SASS rules in
// bcast8.sass. Times the exercise against the chapter's full-warp broadcast (bcast's
// __shfl_sync(mask, value, 0)) over the same array.
#include <vector>

#include "exercise.h"
#include WB_EXERCISE_FILE

// The chapter's broadcast over an array: lane 0 of each warp to its 31 others.
__global__ void bcastReference(const int* in, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int value = i < n ? in[i] : 0;
  value = __shfl_sync(0xffffffffu, value, 0);
  if (i < n) out[i] = value;
}

int main(int argc, char** argv) {
  wb::ex::Checker ck(argc, argv, WB_EXERCISE_ATTEMPTED);
  ck.require_device();
  constexpr int kBlock = 128;
  for (int n : {8, 40, 1000, 4104, 1 << 20}) {
    if (ck.quick() && n > 4104) break;
    std::vector<int> in(n), want(n);
    for (int i = 0; i < n; ++i) in[i] = static_cast<int>(1000003LL * (i + 1) % 9973) + i;  // distinct neighbours
    for (int i = 0; i < n; ++i) want[i] = in[i / 8 * 8 + 3];
    wb::ex::DeviceArray<int> d_in(in), d_out(n);
    const int blocks = (n + kBlock - 1) / kBlock;
    bcast8<<<blocks, kBlock>>>(d_in.ptr, d_out.ptr, n);
    ck.launched();
    ck.expect("n = " + std::to_string(n), d_out.download(), want);
    if (n == 1 << 20)
      ck.time([&] { bcast8<<<blocks, kBlock>>>(d_in.ptr, d_out.ptr, n); }, "bcastReference",
              [&] { bcastReference<<<blocks, kBlock>>>(d_in.ptr, d_out.ptr, n); });
  }
  return ck.finish();
}
