// Checker of exercise stencilRadius (chapter 09): every output, exactly, for R = 1, 4, 16, 40 with
// blocks of 32 and 128 threads, on N that are not multiples of the block, with NaN past the valid
// input and NaN written into shared memory before each launch (stencil_check.h says what that can
// and cannot catch). racecheck and synccheck are declared in
// CMakeLists.txt. Times R = 4 on 128 threads against exercise stencilHalo's solution's shape, the
// chapter's one-halo-element-per-thread tile.
#include "exercise.h"
constexpr int kMaxRadius = 64;
__constant__ float coef[kMaxRadius + 1];
#include WB_EXERCISE_FILE

#include "stencil_check.h"

// The chapter's tile for R = 4 (the first R threads load the halo), one tile per block of 128.
__global__ void stencilTile4(const float* in, float* out, int N) {
  constexpr int R = 4, B = 128;
  __shared__ float smem[B + 2 * R];
  const int idx = blockIdx.x * B + threadIdx.x, sidx = threadIdx.x + R;
  if (idx < N + R) smem[sidx] = in[idx];
  if (threadIdx.x < R) {
    smem[sidx - R] = in[idx - R];
    if (idx + B < N + R) smem[sidx + B] = in[idx + B];
  }
  __syncthreads();
  if (idx < N) {
    float tmp = 0.0f;
    for (int k = 1; k <= R; ++k) tmp += coef[k] * (smem[sidx + k] - smem[sidx - k]);
    out[idx] = tmp;
  }
}

template <int R>
void run_radius(wb::ex::Checker& ck, const SharedNaN& nan_shared, const std::vector<float>& c) {
  for (int block : {32, 128}) {
    for (int n : {1, 33, 1000, 100003}) {
      if (ck.quick() && n > 1000) continue;
      const std::vector<float> h = padded_input(n, R);
      wb::ex::DeviceArray<float> d_in(h), d_out(n);
      const float* in = d_in.ptr + kGuard + R;
      const size_t smem = size_t(block + 2 * R) * sizeof(float);
      nan_shared();
      stencilRadius<R><<<(n + block - 1) / block, block, smem>>>(in, d_out.ptr, n);
      ck.launched();
      ck.expect("R = " + std::to_string(R) + ", blockDim.x = " + std::to_string(block) + ", N = " + std::to_string(n) +
                    ", out[i]",
                d_out.download(), cpu_stencil(h, n, R, c));
      if (R == 4 && block == 128 && n == 100003)
        ck.time([&] { stencilRadius<R><<<(n + block - 1) / block, block, smem>>>(in, d_out.ptr, n); },
                "the chapter's tile for R = 4", [&] { stencilTile4<<<(n + 127) / 128, 128>>>(in, d_out.ptr, n); });
    }
  }
}

int main(int argc, char** argv) {
  wb::ex::Checker ck(argc, argv, WB_EXERCISE_ATTEMPTED);
  const cudaDeviceProp prop = ck.require_device();
  std::vector<float> c(kMaxRadius + 1, 0.0f);
  for (int k = 1; k <= kMaxRadius; ++k) c[k] = float(k % 5 + 1) * (k % 2 ? 1.0f : -1.0f);
  CUDA_CHECK(cudaMemcpyToSymbol(coef, c.data(), sizeof(float) * c.size()));
  const SharedNaN nan_shared(prop, ck.quick());
  run_radius<1>(ck, nan_shared, c);
  run_radius<4>(ck, nan_shared, c);
  run_radius<16>(ck, nan_shared, c);
  run_radius<40>(ck, nan_shared, c);
  return ck.finish();
}
