// CPU model of chapter 06: the six source kernels re-enacted block by block on the host (shared-memory
// trees as arrays, shuffles on common/warp_model.h), the two errata kernels as far as the program
// prints them; on 004's data; prints what the GPU program prints.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "reduceInteger_lesson.h"
#include "warp_model.h"

using namespace warp_model;
using lesson::DIM;

namespace {

std::vector<unsigned> x;  // the input

unsigned at(size_t i) { return i < x.size() ? x[i] : 0u; }  // threads past the end add 0

// The book's shared-memory tree over DIM values, thread by thread as the lesson header describes
// it (the steps down to 64 with `tid < s`, then the last warp's 32 .. 1 on all 32 lanes of warp 0):
// every thread that runs a step reads both operands, then all of them write (the kernel's barrier,
// or __syncwarp() in the last warp).
unsigned tree(std::vector<unsigned> s) {
  std::vector<unsigned> next(DIM);
  for (unsigned step = DIM / 2; step > 0; step /= 2) {
    for (unsigned t = 0; t < DIM; ++t) next[t] = lesson::tree_runs(t, step) ? s[t] + s[t + step] : s[t];
    std::copy(next.begin(), next.end(), s.begin());
  }
  return s[0];
}

Warp<unsigned> butterfly(Warp<unsigned> v) {
  for (int mask = 16; mask > 0; mask /= 2) {
    const Warp<unsigned> other = values(shfl_xor_sync(kFullMask, v, mask));
    for (int l = 0; l < kWarpSize; ++l) v[l] += other[l];
  }
  return v;
}

// Thread t's first value in block b: one element, or 4 elements DIM apart (unrolled kernels).
unsigned first_value(size_t b, unsigned t, bool unrolled) {
  if (!unrolled) return at(b * DIM + t);
  const size_t idx = b * 4 * DIM + t;
  return at(idx) + at(idx + DIM) + at(idx + 2 * DIM) + at(idx + 3 * DIM);
}

// Per-block partials of the tree kernels (reduceGmem, reduceSmem, reduceSmemUnroll[Dyn]).
std::vector<unsigned> tree_kernel(bool unrolled) {
  const size_t per = unrolled ? 4 * DIM : DIM, grid = (x.size() + per - 1) / per;
  std::vector<unsigned> partials(grid);
  std::vector<unsigned> s(DIM);
  for (size_t b = 0; b < grid; ++b) {
    for (unsigned t = 0; t < DIM; ++t) s[t] = first_value(b, t, unrolled);
    partials[b] = tree(s);
  }
  return partials;
}

// reduceShfl: a butterfly per warp, the DIM / 32 warp sums into warp 0, a butterfly there.
std::vector<unsigned> shfl_kernel() {
  const size_t grid = (x.size() + DIM - 1) / DIM;
  std::vector<unsigned> partials(grid);
  for (size_t b = 0; b < grid; ++b) {
    Warp<unsigned> slots{};
    for (unsigned w = 0; w < DIM / 32; ++w) {
      Warp<unsigned> v{};
      for (int l = 0; l < kWarpSize; ++l) v[l] = at(b * DIM + w * 32 + l);
      slots[w] = butterfly(v)[0];
    }
    partials[b] = butterfly(slots)[0];
  }
  return partials;
}

// reduceSmemUnrollShfl: unroll 4, the tree down to 32 values, a butterfly over them.
std::vector<unsigned> smem_unroll_shfl_kernel() {
  const size_t grid = (x.size() + 4 * DIM - 1) / (4 * DIM);
  std::vector<unsigned> partials(grid);
  std::vector<unsigned> s(DIM);
  for (size_t b = 0; b < grid; ++b) {
    for (unsigned t = 0; t < DIM; ++t) s[t] = first_value(b, t, true);
    for (unsigned step = DIM / 2; step >= 32; step /= 2)
      for (unsigned t = 0; t < step; ++t) s[t] += s[t + step];
    Warp<unsigned> v{};
    std::copy(s.begin(), s.begin() + 32, v.begin());
    partials[b] = butterfly(v)[0];
  }
  return partials;
}

unsigned total(const std::vector<unsigned>& p) {
  unsigned s = 0;
  for (unsigned v : p) s += v;
  return s;
}

}  // namespace

int main() {
  const uint64_t n = lesson::kSourceN;
  x.resize(n);
  lesson::GlibcRand rng;
  for (auto& v : x) v = lesson::source_value(rng);
  unsigned cpu = 0;
  for (unsigned v : x) cpu += v;
  lesson::print_header(n, cpu);

  // Section 1: each kernel's partials, compared with the plain sum of the elements each block covers.
  lesson::print_section("1. the source's kernels; each writes one partial per block, which the host adds up, as the book does");
  struct K {
    const char* name;
    bool unrolled;
    unsigned dyn;
    std::vector<unsigned> partials;
  };
  const K kernels[] = {
      {"reduceGmem", false, 0, tree_kernel(false)},
      {"reduceSmem", false, 0, tree_kernel(false)},
      {"reduceSmemUnroll", true, 0, tree_kernel(true)},
      {"reduceSmemUnrollDyn", true, DIM * 4, tree_kernel(true)},
      {"reduceShfl", false, 0, shfl_kernel()},
      {"reduceSmemUnrollShfl", true, 0, smem_unroll_shfl_kernel()},
  };
  for (const K& k : kernels) {
    const size_t per = k.unrolled ? 4 * DIM : DIM;
    bool ok = true;
    for (size_t b = 0; b < k.partials.size(); ++b) {
      unsigned want = 0;
      for (size_t i = b * per; i < std::min<size_t>(n, (b + 1) * per); ++i) want += x[i];
      ok = ok && k.partials[b] == want;
    }
    lesson::print_book_kernel(k.name, k.partials.size(), k.dyn, total(k.partials), cpu, ok);
  }

  // Section 2: a whole sum on the device equals the CPU's sum; here, the sum in another order
  // (from the end), as a parallel sum's order differs from the CPU loop's.
  lesson::print_section("2. the whole sum on the device, one value");
  unsigned backwards = 0;
  for (size_t i = n; i-- > 0;) backwards += x[i];
  lesson::print_whole("reduceUnrollShflVec + reduceFinal (ours)", backwards, cpu);
  lesson::print_whole("cub::DeviceReduce::Sum", backwards, cpu);

  // Section 3: the errata kernels, thread by thread.
  lesson::print_section("3. the source's errors, run on the GPU");
  {
    const size_t grid = (n + 4 * DIM - 1) / (4 * DIM);
    std::vector<bool> read(n, false);
    unsigned sum = 0;
    for (size_t b = 0; b < grid; ++b)
      for (unsigned t = 0; t < DIM; ++t) {
        const size_t idx = b * 4 * DIM + t;
        if (idx + 4 * DIM <= n) {  // the book's guard
          for (unsigned k = 0; k < 4; ++k) {
            sum += x[idx + k * DIM];
            read[idx + k * DIM] = true;
          }
        }
      }
    lesson::print_book_guard(grid, sum, cpu, static_cast<uint64_t>(std::count(read.begin(), read.end(), false)));
  }
  {
    // Block 0 of 003's listing: localSum holds each thread's warp sum; warp 0 reduces it again.
    Warp<unsigned> v{};
    for (int l = 0; l < kWarpSize; ++l) v[l] = at(l);
    const Warp<unsigned> warp0 = butterfly(v);
    const unsigned written = butterfly(warp0)[0];
    unsigned block0 = 0;
    for (unsigned i = 0; i < DIM; ++i) block0 += at(i);
    lesson::print_003_block_step(written, warp0[0], block0);
  }
  return 0;
}
