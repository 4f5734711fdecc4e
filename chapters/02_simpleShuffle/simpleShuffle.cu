// Chapter 02 — simpleShuffle: the seven shuffle patterns of 003 §5.6.2, and a shuffle explorer that
// shows, lane by lane, which lane the hardware reads for any op, power-of-two width (1 to 32) and
// non-zero mask, with one srcLane/delta/laneMask (0 to 32) for all 32 lanes.
//
// Run:    ./build/bin/simpleShuffle                 (expected stdout: expected_outputs/simpleShuffle.txt)
//         ./build/bin/simpleShuffle --op xor --arg 8 --width 8 [--mask 0x0000ffff] [--svg xor8.svg]
//             one shuffle on a full warp, as a 32-row table: what each lane got, and from which lane;
//             --svg also draws it, from the lanes the GPU read
//         ./build/bin/simpleShuffle --explore-all   every op x width (1, 2, 4, 8, 16, 32) x arg (0..32), one line each
//         ./build/bin/simpleShuffle --full-mask     003's kernels with a full mask 0xffffffff on 16 threads,
//                                               as a direct port of 003's mask-less __shfl would pass
// Build without CMake, in this folder:
//   nvcc -std=c++17 -O3 -arch=native -I../../common -o simpleShuffle simpleShuffle.cu
// Each run has a CPU twin: ./build/bin/simpleShuffle_model with the same options prints the same
// stdout from the rules alone (common/warp_model.h), with no GPU.
//
// Kernels (the source's names; 003 §5.6.2, the book's simpleShuffle.cu, ported to the _sync forms):
//   1. test_shfl_broadcast      — __shfl_sync: every lane reads lane srcLane (2)
//   2. test_shfl_up             — __shfl_up_sync by delta 2: lanes 0, 1 keep their own values
//   3. test_shfl_down           — __shfl_down_sync by delta 2: lanes 14, 15 keep their own values
//   4. test_shfl_wrap           — __shfl_sync with srcLane = threadIdx.x + offset: a rotation, because
//                                 srcLane is taken modulo the width (also run on 32 threads, section 2)
//   5. test_shfl_xor            — __shfl_xor_sync with laneMask 1: the butterfly, neighbours swap
//   6. test_shfl_xor_array      — the same on each element of a 4-int register array (4 threads)
//   7. test_shfl_xor_array_swap — element 0 of even threads and element 3 of odd threads change
//                                 places, with one shuffle and two local swaps
//   8. explore                  — ours: one block per shuffle case, lane l passes 100 + l
//
// Masks: the source launches 16 threads (BDIMX) or 4 (BDIMX / SEGM). Each of the source's seven
// kernels takes the member mask as its first parameter, and the host passes exactly the lanes that
// run (lanes_that_run), unless --full-mask asks for 0xffffffff, as a direct port of 003's
// mask-less __shfl would pass (see the README's errata).
//
// Self-check: every line of sections 1 and 2 against plain CPU loops (exit 1 on a mismatch);
// every explorer table against the rules of common/warp_model.h. Outputs are poisoned (-1) before
// each launch, so a kernel that writes nothing fails.
#include <cstdio>
#include <vector>

#include "check.h"
#include "report.h"
#include "simpleShuffle_lesson.h"

using namespace simple_shuffle;

// ---------------------------------------------------------------------------------------------
// The source's kernels. `lanes` is the shuffle's member mask: the lanes that run (each calls the
// shuffle), or 0xffffffff under --full-mask, which also names lanes never launched (erratum 1).
// ---------------------------------------------------------------------------------------------
__global__ void test_shfl_broadcast(unsigned lanes, int* d_out, const int* d_in, int const srcLane) {
  int value = d_in[threadIdx.x];
  value = __shfl_sync(lanes, value, srcLane, BDIMX);
  d_out[threadIdx.x] = value;
}

__global__ void test_shfl_up(unsigned lanes, int* d_out, const int* d_in, unsigned int const delta) {
  int value = d_in[threadIdx.x];
  value = __shfl_up_sync(lanes, value, delta, BDIMX);  // no lane delta below: keep own value
  d_out[threadIdx.x] = value;
}

__global__ void test_shfl_down(unsigned lanes, int* d_out, const int* d_in, unsigned int const delta) {
  int value = d_in[threadIdx.x];
  value = __shfl_down_sync(lanes, value, delta, BDIMX);  // no lane delta above: keep own value
  d_out[threadIdx.x] = value;
}

__global__ void test_shfl_wrap(unsigned lanes, int* d_out, const int* d_in, int const offset) {
  int value = d_in[threadIdx.x];
  // srcLane runs past the width (and below 0 for a negative offset): PTX shfl.sync keeps its low
  // log2(BDIMX) bits inside the caller's sub-group, so it wraps there (Part 2 shows it on the GPU).
  value = __shfl_sync(lanes, value, threadIdx.x + offset, BDIMX);
  d_out[threadIdx.x] = value;
}

__global__ void test_shfl_xor(unsigned lanes, int* d_out, const int* d_in, int const mask) {
  int value = d_in[threadIdx.x];
  value = __shfl_xor_sync(lanes, value, mask, BDIMX);
  d_out[threadIdx.x] = value;
}

__global__ void test_shfl_xor_array(unsigned lanes, int* d_out, const int* d_in, int const mask) {
  int idx = threadIdx.x * SEGM;
  int value[SEGM];  // fully unrolled: four registers, not local memory
#pragma unroll
  for (int i = 0; i < SEGM; i++) value[i] = d_in[idx + i];
  // One SHFL instruction moves one 32-bit register: a 4-int array takes one shuffle per element.
#pragma unroll
  for (int i = 0; i < SEGM; i++) value[i] = __shfl_xor_sync(lanes, value[i], mask, BDIMX);
#pragma unroll
  for (int i = 0; i < SEGM; i++) d_out[idx + i] = value[i];
}

// One shuffle swaps value[srcIdx] of the even lanes with value[dstIdx] of their odd partners.
// srcIdx and dstIdx arrive at run time: the PTX puts the array in a local depot indexed by them,
// and ptxas still keeps it in registers (0-byte stack frame, no LDL/STL in the SASS).
__global__ void test_shfl_xor_array_swap(unsigned lanes, int* d_out, const int* d_in, int const mask,
                                         int srcIdx, int dstIdx) {
  int idx = threadIdx.x * SEGM;
  int value[SEGM];
#pragma unroll
  for (int i = 0; i < SEGM; i++) value[i] = d_in[idx + i];

  // The source's test: it picks the even threads for mask 1 (the only mask it is run with).
  bool pred = ((threadIdx.x & 1) != mask);
  // Even threads move element srcIdx into slot dstIdx, so that one shuffle of slot dstIdx sends
  // it to the odd partner and brings back the partner's element dstIdx ...
  if (pred) {
    int tmp = value[srcIdx];
    value[srcIdx] = value[dstIdx];
    value[dstIdx] = tmp;
  }
  // Every launched lane executes this one shuffle, whatever pred is: it sits outside both `if (pred)` blocks.
  value[dstIdx] = __shfl_xor_sync(lanes, value[dstIdx], mask, BDIMX);
  // ... and the second swap puts the received element in slot srcIdx and restores slot dstIdx.
  if (pred) {
    int tmp = value[srcIdx];
    value[srcIdx] = value[dstIdx];
    value[dstIdx] = tmp;
  }
#pragma unroll
  for (int i = 0; i < SEGM; i++) d_out[idx + i] = value[i];
}

// ---------------------------------------------------------------------------------------------
// The explorer: block b runs cases[b] on one full warp. Lane l passes 100 + l, so the value it
// gets names the lane it read from. Lanes outside the case's mask do not call the shuffle and
// write nothing (their output stays poisoned).
// ---------------------------------------------------------------------------------------------
__global__ void explore(const Shuffle* cases, int* got) {
  const Shuffle c = cases[blockIdx.x];
  const int lane = threadIdx.x;
  if (!(c.mask >> lane & 1u)) return;
  const int var = kValueBase + lane;
  int r = 0;
  switch (c.op) {  // the same case for the whole block: all of its lanes take the same branch
    case Mode::Idx: r = __shfl_sync(c.mask, var, c.arg, c.width); break;
    case Mode::Up: r = __shfl_up_sync(c.mask, var, static_cast<unsigned>(c.arg), c.width); break;
    case Mode::Down: r = __shfl_down_sync(c.mask, var, static_cast<unsigned>(c.arg), c.width); break;
    case Mode::Xor: r = __shfl_xor_sync(c.mask, var, c.arg, c.width); break;
  }
  got[blockIdx.x * 32 + lane] = r;
}

// ---------------------------------------------------------------------------------------------
// Host
// ---------------------------------------------------------------------------------------------
namespace {

int g_failures = 0;

// Poison d_out, run `launch`, copy n ints back.
template <class Launch>
std::vector<int> run(int* d_out, int n, Launch&& launch) {
  CUDA_CHECK(cudaMemset(d_out, 0xff, n * sizeof(int)));  // -1 everywhere: unwritten shows
  launch();
  CUDA_CHECK_LAUNCH();
  std::vector<int> h(n);
  CUDA_CHECK(cudaMemcpy(h.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
  return h;
}

void check_line(const char* label, const std::vector<int>& got, const std::vector<int>& want) {
  for (size_t i = 0; i < want.size(); ++i) {
    if (got[i] != want[i]) {
      std::fprintf(stderr, "MISMATCH %s element %zu: GPU %d, CPU reference %d\n", label, i, got[i], want[i]);
      ++g_failures;
    }
  }
}

// Sections 1 and 2: the source's program, on 16 (and 4) threads; then test_shfl_wrap on 32.
void source_program(bool full_mask, bool with_errata) {
  const std::vector<int> in = initial_data();
  int *d_in = nullptr, *d_out = nullptr;
  CUDA_CHECK(cudaMalloc(&d_in, kLessonLanes * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_out, kLessonLanes * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_in, in.data(), kLessonLanes * sizeof(int), cudaMemcpyHostToDevice));

  const int block = BDIMX, array_block = BDIMX / SEGM;
  const unsigned m16 = full_mask ? warp_model::kFullMask : lanes_that_run(block);
  const unsigned m4 = full_mask ? warp_model::kFullMask : lanes_that_run(array_block);
  print_section1_header(m16, m4);
  print_source_line("initialData", in.data(), BDIMX);

  std::vector<std::vector<int>> got;
  got.push_back(run(d_out, BDIMX, [&] { test_shfl_broadcast<<<1, block>>>(m16, d_out, d_in, kSrcLane); }));
  got.push_back(run(d_out, BDIMX, [&] { test_shfl_up<<<1, block>>>(m16, d_out, d_in, kDelta); }));
  got.push_back(run(d_out, BDIMX, [&] { test_shfl_down<<<1, block>>>(m16, d_out, d_in, kDelta); }));
  got.push_back(run(d_out, BDIMX, [&] { test_shfl_wrap<<<1, block>>>(m16, d_out, d_in, kOffset); }));
  got.push_back(run(d_out, BDIMX, [&] { test_shfl_xor<<<1, block>>>(m16, d_out, d_in, kXorMask); }));
  got.push_back(run(d_out, BDIMX, [&] { test_shfl_xor_array<<<1, array_block>>>(m4, d_out, d_in, kXorMask); }));
  got.push_back(run(d_out, BDIMX, [&] {
    test_shfl_xor_array_swap<<<1, array_block>>>(m4, d_out, d_in, kXorMask, kFirstIdx, kSecondIdx);
  }));

  const auto lines = source_lines(in);
  for (size_t k = 0; k < lines.size(); ++k) {
    print_source_line(lines[k].label, got[k].data(), BDIMX);
    check_line(lines[k].label, got[k], lines[k].want);
  }

  if (with_errata) {
    print_section2_header(in);
    const unsigned m32 = lanes_that_run(kLessonLanes);
    for (const auto& c : kWrapCases) {
      auto g = run(d_out, kLessonLanes, [&] { test_shfl_wrap<<<1, kLessonLanes>>>(m32, d_out, d_in, c.offset); });
      wb::print_lanes(c.label, g.data(), BDIMX);
      check_line(c.label, g, wrap_reference(in, c.offset));
    }
  }
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
}

// Run `cases` (one block each); returns 32 values per case.
std::vector<int> run_cases(const std::vector<Shuffle>& cases) {
  const int n = static_cast<int>(cases.size()) * 32;
  Shuffle* d_cases = nullptr;
  int* d_got = nullptr;
  CUDA_CHECK(cudaMalloc(&d_cases, cases.size() * sizeof(Shuffle)));
  CUDA_CHECK(cudaMalloc(&d_got, n * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_cases, cases.data(), cases.size() * sizeof(Shuffle), cudaMemcpyHostToDevice));
  auto got = run(d_got, n, [&] { explore<<<static_cast<unsigned>(cases.size()), 32>>>(d_cases, d_got); });
  CUDA_CHECK(cudaFree(d_cases));
  CUDA_CHECK(cudaFree(d_got));
  return got;
}

// One explorer table. Which lane each lane reads from is what the hardware does with the full
// mask (block 0: every read is defined). Block 1 runs the requested mask: a lane whose source is
// outside it gets an undefined value, printed as '?' (the raw value goes to stderr only).
// svg: a file to draw the table into (--svg), from what the GPU did (hw), not from the rules.
void explorer_table(const char* heading, const Shuffle& s, const std::string& svg = "") {
  Shuffle full = s;
  full.mask = warp_model::kFullMask;
  const auto got = run_cases({full, s});
  LaneResult hw[32], rules[32];
  predict(s, rules);
  for (int l = 0; l < 32; ++l) {
    const int src = got[l] - kValueBase;  // block 0, full mask
    const int v = got[32 + l];            // block 1, the requested mask
    if (!(s.mask >> l & 1u)) {
      hw[l] = {Lane::NotInMask, -1};
      if (v != -1) {
        std::fprintf(stderr, "MISMATCH lane %d is not in mask but wrote %d\n", l, v);
        ++g_failures;
      }
    } else if (src < 0 || src >= 32) {
      std::fprintf(stderr, "MISMATCH lane %d got %d with the full mask: no lane passes that value\n", l, got[l]);
      hw[l] = {Lane::Undefined, src};
      ++g_failures;
    } else if (!(s.mask >> src & 1u)) {
      hw[l] = {Lane::Undefined, src};
      std::fprintf(stderr, "lane %d read lane %d, outside the mask: undefined; this GPU returned %d\n", l, src, v);
    } else {
      hw[l] = {Lane::Read, src};
      if (v != kValueBase + src) {
        std::fprintf(stderr, "MISMATCH lane %d: %d with the full mask, %d with mask 0x%08x\n", l,
                     got[l], v, s.mask);
        ++g_failures;
      }
    }
    if (hw[l].state != rules[l].state || hw[l].src != rules[l].src) {
      std::fprintf(stderr, "MISMATCH lane %d: the GPU read lane %d, the rules say lane %d\n", l, hw[l].src,
                   rules[l].src);
      ++g_failures;
    }
  }
  print_table(heading, s, hw);
  if (!svg.empty() && !write_explorer_svg(svg, s, hw)) ++g_failures;
}

void explore_all() {
  const auto cases = all_cases();
  print_explore_all_header(cases.size());
  const auto got = run_cases(cases);
  int cases_differing = 0;
  for (size_t c = 0; c < cases.size(); ++c) {
    LaneResult rules[32];
    predict(cases[c], rules);
    int src[32];
    bool same = true;
    for (int l = 0; l < 32; ++l) {
      src[l] = got[c * 32 + l] - kValueBase;
      same = same && src[l] == rules[l].src;
    }
    print_case_line(cases[c], src);
    if (!same) {
      std::fprintf(stderr, "MISMATCH %s arg %d width %d differs from the rules\n", op_name(cases[c].op),
                   cases[c].arg, cases[c].width);
      ++cases_differing;
    }
  }
  g_failures += cases_differing;
}

}  // namespace

int main(int argc, char** argv) {
  const Options opt = parse_options(argc, argv);  // bad input exits 2 here, before the GPU
  wb::require_device();

  switch (opt.run) {
    case Run::Lesson:
      source_program(false, true);
      std::printf("\n");
      explorer_table(kExampleHeading, kExample);
      break;
    case Run::FullMask: source_program(true, false); break;
    case Run::Explore: explorer_table(kExplorerHeading, opt.shuffle, opt.svg); break;
    case Run::ExploreAll: explore_all(); break;
  }

  return wb::finish(g_failures, "mismatches with the CPU reference (MISMATCH lines on stderr)",
                    "\nPASS: every value matches the CPU reference");
}
