// Checker of exercise stencilHalo (chapter 09): every output, exactly, for N = 1, 3, 5, 127, 128, 129,
// 1000, 65539 and 1000003 (a multiple of the block only at 128), with NaN past the valid input and
// NaN written into shared memory before each launch (stencil_check.h says what that can and cannot
// catch). racecheck and synccheck are declared in CMakeLists.txt. Times the exercise against the
// chapter's stencil_1d (its grid-stride loop over tiles of 32).
#include "exercise.h"
constexpr int RADIUS = 4;
constexpr int BDIM = 128;
__constant__ float coef[RADIUS + 1];
#include WB_EXERCISE_FILE

#include "stencil_check.h"

// The chapter's stencil_1d: blocks of 32, a block-uniform loop over tiles, two barriers per tile.
__global__ void stencil_1d(const float* in, float* out, int N) {
  constexpr int B = 32;
  __shared__ float smem[B + 2 * RADIUS];
  const int sidx = threadIdx.x + RADIUS;
  for (int base = blockIdx.x * B; base < N; base += gridDim.x * B) {
    const int idx = base + threadIdx.x;
    if (idx < N + RADIUS) smem[sidx] = in[idx];
    if (threadIdx.x < RADIUS) {
      smem[sidx - RADIUS] = in[idx - RADIUS];
      if (idx + B < N + RADIUS) smem[sidx + B] = in[idx + B];
    }
    __syncthreads();
    if (idx < N) {
      float tmp = 0.0f;
      for (int i = 1; i <= RADIUS; i++) tmp += coef[i] * (smem[sidx + i] - smem[sidx - i]);
      out[idx] = tmp;
    }
    __syncthreads();
  }
}

int main(int argc, char** argv) {
  wb::ex::Checker ck(argc, argv, WB_EXERCISE_ATTEMPTED);
  const cudaDeviceProp prop = ck.require_device();
  const std::vector<float> c = {0, 3, -2, 5, -1};  // integers: every sum exact
  CUDA_CHECK(cudaMemcpyToSymbol(coef, c.data(), sizeof(float) * (RADIUS + 1)));
  const SharedNaN nan_shared(prop, ck.quick());
  for (int n : {1, 3, 5, 127, 128, 129, 1000, 65539, 1000003}) {
    if (ck.quick() && n > 65539) continue;
    const std::vector<float> h = padded_input(n, RADIUS);
    wb::ex::DeviceArray<float> d_in(h), d_out(n);
    const float* in = d_in.ptr + kGuard + RADIUS;
    nan_shared();
    stencilHalo<<<(n + BDIM - 1) / BDIM, BDIM>>>(in, d_out.ptr, n);
    ck.launched();
    ck.expect("N = " + std::to_string(n) + ", out[i]", d_out.download(), cpu_stencil(h, n, RADIUS, c));
    if (n == 1000003)
      ck.time([&] { stencilHalo<<<(n + BDIM - 1) / BDIM, BDIM>>>(in, d_out.ptr, n); },
              "stencil_1d (chapter 09, tiles of 32)", [&] { stencil_1d<<<(n + 31) / 32, 32>>>(in, d_out.ptr, n); });
  }
  return ck.finish();
}
