// check_reduceSmemTree.cu — judges exercise 06.1 (chapters/06_reduceInteger/exercises/reduceSmemTree.cu,
// or its solution or wrong answer, whichever WB_EXERCISE_FILE names): every block's sum against
// the CPU on sizes around the block, exactly. The racecheck and synccheck runs (declared in
// CMakeLists.txt) judge the barriers. The time against the chapter's reduceSmem tree goes to stderr.
#include "exercise_check.h"

constexpr unsigned DIM = 256;
#include WB_EXERCISE_FILE

// The reference for the time: the same one-element-per-thread tree, written by the chapter.
__global__ void reduceSmemRef(const unsigned* g_idata, unsigned* g_odata, size_t n) {
  __shared__ unsigned smem[DIM];
  const unsigned tid = threadIdx.x;
  const size_t idx = blockIdx.x * size_t(DIM) + tid;
  smem[tid] = idx < n ? g_idata[idx] : 0u;
  __syncthreads();
  for (unsigned s = DIM / 2; s > 0; s /= 2) {
    if (tid < s) smem[tid] += smem[tid + s];
    __syncthreads();
  }
  if (tid == 0) g_odata[blockIdx.x] = smem[0];
}

int main(int argc, char** argv) {
  const ex::Options opt = ex::parse(argc, argv, false);
#ifdef WB_NOT_ATTEMPTED
  (void)opt;
  ex::not_attempted("chapters/06_reduceInteger/exercises/reduceSmemTree.cu");
#else
  wb::require_device();
  const size_t sizes[] = {1, 37, DIM - 1, DIM, DIM + 1, 3 * DIM + 100, 1000003, (1u << 20) + 5};
  bool ok = true;
  for (int rep = 0; rep < opt.reps && ok; ++rep) {
    for (size_t n : sizes) {
      ex::Rng rng(n + 7919u * rep);
      std::vector<unsigned> h(n);
      for (auto& v : h) v = rng.next() * 2654435761u;  // full 32-bit values: the sums wrap
      const size_t blocks = (n + DIM - 1) / DIM;
      std::vector<unsigned> expect(blocks, 0u);
      for (size_t i = 0; i < n; ++i) expect[i / DIM] += h[i];
      unsigned* d_in = nullptr;
      CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(unsigned)));
      CUDA_CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
      unsigned* d_out = ex::device_poisoned<unsigned>(blocks);
      reduceSmemTree<<<static_cast<unsigned>(blocks), DIM>>>(d_in, d_out, n);
      CUDA_CHECK_LAUNCH();
      CUDA_CHECK(cudaDeviceSynchronize());
      ok = ex::same("reduceSmemTree, n = " + std::to_string(n) + ", block sums", expect, ex::to_host(d_out, blocks));
      if (ok && n == sizes[7] && rep == 0) {
        const unsigned ref_blocks = static_cast<unsigned>((n + DIM - 1) / DIM);
        unsigned* d_ref = ex::device_poisoned<unsigned>(ref_blocks);
        ex::report_time("reduceSmemTree", [&] { reduceSmemTree<<<static_cast<unsigned>(blocks), DIM>>>(d_in, d_out, n); CUDA_CHECK_LAUNCH(); },
                        "reduceSmem (chapter 06)", [&] { reduceSmemRef<<<ref_blocks, DIM>>>(d_in, d_ref, n); CUDA_CHECK_LAUNCH(); },
                        double(n) * sizeof(unsigned));
        CUDA_CHECK(cudaFree(d_ref));
      }
      CUDA_CHECK(cudaFree(d_in));
      CUDA_CHECK(cudaFree(d_out));
      if (!ok) break;
    }
  }
  if (!ok) return wb::kFail;
  std::printf("reduceSmemTree: every block sum right on %zu sizes\n", sizeof sizes / sizeof sizes[0]);
  return wb::kPass;
#endif
}
