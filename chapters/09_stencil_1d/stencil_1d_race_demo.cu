// stencil_1d_race_demo — source 003's stencil_1d kernel exactly as printed (section 5.5.1), with
// only error checks added, so compute-sanitizer can show what is wrong with it. NOT a test, and
// not part of the workbook's passing programs: run it with
//     cmake --build build --target stencil_1d_race_demo_check
// which runs racecheck, synccheck and memcheck on it (what each reports: the README).
// The fixed kernel is stencil_1d in stencil_1d.cu.
// Build without CMake, in this folder:
//   nvcc -std=c++17 -O3 -arch=native -lineinfo -I../../common -o stencil_1d_race_demo stencil_1d_race_demo.cu
#include <cstdio>
#include <vector>

#include "check.h"

#define RADIUS 4
#define BDIM 32
__constant__ float coef[RADIUS + 1];

__global__ void stencil_1d(float *in, float *out, int N) {
  __shared__ float smem[BDIM + 2 * RADIUS];
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  while (idx < N) {  // a grid-stride loop whose trip count differs between threads
    int sidx = threadIdx.x + RADIUS;
    smem[sidx] = in[idx];
    if (threadIdx.x < RADIUS) {
      smem[sidx - RADIUS] = in[idx - RADIUS];
      smem[sidx + BDIM] = in[idx + BDIM];  // past the padded input in the last block
    }
    __syncthreads();  // not reached by threads that already left the loop
    float tmp = 0.0f;
#pragma unroll
    for (int i = 1; i <= RADIUS; i++) tmp += coef[i] * (smem[sidx + i] - smem[sidx - i]);
    out[idx] = tmp;
    idx += gridDim.x * blockDim.x;  // next chunk: smem is overwritten with no barrier first
  }
}

int main() {
  wb::require_device();
  const int N = 1000;  // not a multiple of BDIM; 4 blocks, so every block loops ~8 times
  const float h_coef[RADIUS + 1] = {0.0f, 0.8f, -0.2f, 0.03809f, -0.00357f};
  CUDA_CHECK(cudaMemcpyToSymbol(coef, h_coef, sizeof h_coef));
  std::vector<float> h_in(N + 2 * RADIUS, 1.0f);
  float *d_in = nullptr, *d_out = nullptr;
  CUDA_CHECK(cudaMalloc(&d_in, h_in.size() * sizeof(float)));  // padded by RADIUS on both sides
  CUDA_CHECK(cudaMalloc(&d_out, N * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_in, h_in.data(), h_in.size() * sizeof(float), cudaMemcpyHostToDevice));
  stencil_1d<<<4, BDIM>>>(d_in + RADIUS, d_out, N);
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaDeviceSynchronize());
  std::printf("source 003's stencil_1d ran; see compute-sanitizer's reports\n");
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  return 0;
}
