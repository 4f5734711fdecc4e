// Chapter 06's input, the source's published numbers, and the output format: shared by
// reduceInteger.cu and reduceInteger_model.cpp, so that the two differ only in how they compute.
#pragma once

#include <cstdint>
#include <cstdio>

namespace lesson {

constexpr uint64_t kSourceN = uint64_t(1) << 24;  // 004's "Array Size: 16777216"
constexpr unsigned kSourceCpuSum = 206464799;      // 004's "cpu_sum: 206464799"
constexpr unsigned DIM = 128;                      // the book's block size (#define DIM 128)

// The book's tree over DIM values (reduceGmem in global memory, reduceSmem and reduceSmemUnroll in
// shared memory): "interleaved" pairs, thread t adds element t + s and the stride halves.
//  * shared-memory steps, s = DIM / 2 down to 2 * kLastWarpStep: `if (tid < s)`, then a barrier;
//  * the last warp's steps, s = kLastWarpStep down to 1: every lane of warp 0 runs them (the book's
//    "unrolling warp" has no `tid < s` test); lanes >= s add too, but what they write is never read
//    on the way to element 0.
constexpr unsigned kWarpSize = 32;
constexpr unsigned kLastWarpStep = 32;  // the last warp's first step: smem[tid] += smem[tid + 32]
constexpr bool tree_runs(unsigned t, unsigned s) { return s >= 2 * kLastWarpStep ? t < s : t < kWarpSize; }
constexpr bool tree_feeds_sum(unsigned t, unsigned s) { return t < s; }  // the pairs that reach element 0

// For contrast only, not a kernel of this chapter: the book's chapter 3 (reduceNeighbored) pairs
// neighbours, stride 1, 2, 4 .. DIM / 2, and thread t adds element t + stride where
// t % (2 * stride) == 0. The same sums, spread over every warp of the block until the last steps.
constexpr bool neighbored_adds(unsigned t, unsigned stride) { return t % (2 * stride) == 0; }

// glibc's rand() after srand(1) (also its state when srand is never called): the additive
// feedback generator r[i] = r[i-3] + r[i-31] (mod 2^32) over a table seeded by Park-Miller
// (16807 * r mod 2^31 - 1), the first 310 outputs discarded, each output r >> 1. The same on every
// machine, which the real rand() is not.
class GlibcRand {
 public:
  GlibcRand() {
    int32_t w = 1;
    s_[0] = 1;
    for (int k = 1; k < 31; ++k) {  // Schrage's method, as glibc writes it: no 64-bit overflow
      const int32_t hi = w / 127773, lo = w % 127773;
      w = 16807 * lo - 2836 * hi;
      if (w < 0) w += 2147483647;
      s_[k] = static_cast<uint32_t>(w);
    }
    for (int k = 0; k < 310; ++k) next();
  }
  int next() {
    s_[f_] += s_[b_];
    const int r = static_cast<int>(s_[f_] >> 1);
    f_ = f_ == 30 ? 0 : f_ + 1;
    b_ = b_ == 30 ? 0 : b_ + 1;
    return r;
  }

 private:
  uint32_t s_[31];
  int f_ = 3, b_ = 0;
};

// 004's initializeData<int>: ptr[i] = (int)(rand() & 0xFF) / 10.f, stored into an int, i.e.
// truncated: 0 .. 25. (For 0 .. 255 the float quotient x / 10.f is exact where it is a whole number
// and elsewhere at least 0.1 from one, far more than its rounding error, so truncating it gives
// x / 10 in integers.)
inline unsigned source_value(GlibcRand& g) { return static_cast<unsigned>(g.next() & 0xFF) / 10u; }

// What the program prints. Every sum is unsigned (modulo 2^32); with 004's data they stay far
// below 2^31, so they read as the book's ints.
inline void print_header(uint64_t n, unsigned cpu_sum) {
  std::printf("== reduceInteger: the sum of %llu ints ==\n", static_cast<unsigned long long>(n));
  std::printf("data: (rand() & 0xFF) / 10 from glibc's rand() after srand(1), 004's initializeData: 0 .. 25\n");
  std::printf("cpu sum: %u", cpu_sum);
  if (n == kSourceN)
    std::printf(" (004 printed cpu_sum: %u for the same data: %s)", kSourceCpuSum,
                cpu_sum == kSourceCpuSum ? "equal" : "DIFFERENT");
  std::printf("\n");
}

inline void print_section(const char* title) { std::printf("\n%s\n", title); }

inline void print_book_kernel(const char* name, uint64_t grid, unsigned dyn_smem, unsigned gpu_sum,
                              unsigned cpu_sum, bool partials_ok) {
  char launch[64];
  if (dyn_smem)
    std::snprintf(launch, sizeof launch, "<<<%llu, %u, %u>>>", static_cast<unsigned long long>(grid), DIM, dyn_smem);
  else
    std::snprintf(launch, sizeof launch, "<<<%llu, %u>>>", static_cast<unsigned long long>(grid), DIM);
  std::printf("  %-22s %-22s gpu_sum: %-10u %s; each block's partial %s\n", name, launch, gpu_sum,
              gpu_sum == cpu_sum ? "= cpu sum" : "!= cpu sum", partials_ok ? "= its CPU sum" : "WRONG");
}

inline void print_whole(const char* what, unsigned gpu_sum, unsigned cpu_sum) {
  std::printf("  %-45s gpu_sum: %-10u %s\n", what, gpu_sum, gpu_sum == cpu_sum ? "= cpu sum" : "!= cpu sum");
}

inline void print_book_guard(uint64_t grid, unsigned gpu_sum, unsigned cpu_sum, uint64_t lost) {
  std::printf("  a. the book's reduceSmemUnroll, guard `idx + 4 * blockDim.x <= n`, <<<%llu, %u>>>:\n",
              static_cast<unsigned long long>(grid), DIM);
  std::printf("     gpu_sum %u, short of the cpu sum by %u: %llu values never read (004's per-load guards read all)\n",
              gpu_sum, cpu_sum - gpu_sum, static_cast<unsigned long long>(lost));
}

inline void print_003_block_step(unsigned block0, unsigned warp0_sum, unsigned block0_sum) {
  std::printf("  b. 003 section 5.6.3's block step as printed (warp sums read into mySum, localSum reduced):\n");
  std::printf("     block 0 writes %u; 32 x its warp 0's sum = %u; the block's sum = %u\n", block0,
              32u * warp0_sum, block0_sum);
}

}  // namespace lesson
