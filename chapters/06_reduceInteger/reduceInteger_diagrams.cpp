// Chapter 06's picture, computed from reduceInteger_lesson.h (the tree's steps that the kernels and
// the CPU model use; the model prints the same output as the GPU program: tests reduceInteger.golden
// and reduceInteger.model compare both with expected_outputs/reduceInteger.txt):
// `reduceInteger_diagrams OUTDIR` writes OUTDIR/<name>.svg.
//
// The block's tree over DIM = 128 values, thread by thread: at each step, which threads add a pair
// that reaches the block's sum, which run the step for nothing, which are idle, and how many of the
// block's warps have any work. Beside it, for contrast, the neighboured pairing of the book's
// chapter 3. Before drawing, both pairings are run on block 0 of 004's data and must give its sum.
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "reduceInteger_lesson.h"
#include "svg.h"

using namespace wb;
using lesson::DIM;
using lesson::kWarpSize;

namespace {

struct Step {
  unsigned s;
  std::vector<int> state;  // per thread: 2 adds a pair that reaches the sum, 1 runs for nothing, 0 idle
  int busy_warps;
};

std::vector<Step> steps(bool interleaved) {
  std::vector<Step> out;
  for (unsigned k = 0, s = interleaved ? DIM / 2 : 1; k < 7; ++k, s = interleaved ? s / 2 : s * 2) {
    Step st{s, std::vector<int>(DIM, 0), 0};
    for (unsigned t = 0; t < DIM; ++t) {
      if (interleaved)
        st.state[t] = lesson::tree_feeds_sum(t, s) ? 2 : lesson::tree_runs(t, s) ? 1 : 0;
      else
        st.state[t] = lesson::neighbored_adds(t, s) ? 2 : 0;
    }
    for (unsigned w = 0; w < DIM / kWarpSize; ++w) {
      bool any = false;
      for (unsigned l = 0; l < kWarpSize; ++l) any = any || st.state[w * kWarpSize + l] != 0;
      st.busy_warps += any;
    }
    out.push_back(st);
  }
  return out;
}

// Runs a pairing on the DIM values: every thread that adds reads both operands, then all write.
unsigned run(const std::vector<Step>& ss, std::vector<unsigned> v) {
  for (const Step& st : ss) {
    std::vector<unsigned> next = v;
    for (unsigned t = 0; t < DIM; ++t)
      if (st.state[t] != 0 && t + st.s < DIM) next[t] = v[t] + v[t + st.s];
    v = next;
  }
  return v[0];
}

constexpr double kLeft = 96, kCell = 5, kGap = 6, kRowH = 17, kRight = 120;
constexpr double kWidth = kLeft + DIM * kCell + 3 * kGap + kRight;

double col_x(unsigned t) { return kLeft + t * kCell + (t / kWarpSize) * kGap; }

// One panel; returns the y below it.
double panel(svg::Doc& d, double y, const std::string& title, const std::vector<Step>& ss, const char* step_name) {
  d.text(8, y + 14, title, 13, "start", svg::kBlack, true);
  y += 24;
  for (unsigned w = 0; w < DIM / kWarpSize; ++w)
    d.text(col_x(w * kWarpSize) + kWarpSize * kCell / 2, y + 11, "warp " + std::to_string(w), 11);
  d.text(kWidth - kRight + 12, y + 11, "busy warps", 11, "start");
  y += 16;
  int total = 0;
  for (const Step& st : ss) {
    d.text(kLeft - 8, y + kRowH - 5, std::string(step_name) + " = " + std::to_string(st.s), 11, "end");
    for (unsigned t = 0; t < DIM; ++t) {
      const char* fill = st.state[t] == 2 ? svg::kBlue : st.state[t] == 1 ? svg::kSky : svg::kLight;
      d.rect(col_x(t), y + 1, kCell - 0.5, kRowH - 2, fill);
    }
    d.text(kWidth - kRight + 40, y + kRowH - 5, std::to_string(st.busy_warps) + " of " + std::to_string(DIM / kWarpSize),
           11, "middle", svg::kBlack, true);
    total += st.busy_warps;
    y += kRowH;
  }
  d.text(kWidth - kRight + 40, y + 13, std::to_string(total) + " warp-steps", 11, "middle");
  d.text(kLeft, y + 13, "threads 0 .. " + std::to_string(DIM - 1) + " of the block, left to right", 11, "start");
  return y + 22;
}

}  // namespace

int main(int argc, char** argv) {
  svg::Writer out;
  if (!svg::parse_outdir(argc, argv, out)) return 2;

  const std::vector<Step> inter = steps(true), neigh = steps(false);

  // Both pairings must sum block 0 of 004's data, as the kernels do (the model's check, here for
  // the drawn pairings).
  std::vector<unsigned> block(DIM);
  lesson::GlibcRand rng;
  unsigned want = 0;
  for (auto& v : block) want += (v = lesson::source_value(rng));
  if (run(inter, block) != want || run(neigh, block) != want) {
    std::fprintf(stderr, "reduceInteger_diagrams: a drawn pairing does not sum the block\n");
    return 1;
  }

  {
    svg::Doc d(kWidth, 396,
               "The block's tree over 128 values, step by step: with this chapter's interleaved pairs "
               "(thread t adds t + s) the work stays in warps 0 and 1, then in warp 0 alone; with neighboured "
               "pairs (thread t adds t + stride where t % 2·stride = 0) all 4 warps stay busy until the last steps");
    double y = 4;
    y = panel(d, y, "This chapter: interleaved pairs (reduceGmem, reduceSmem, reduceSmemUnroll)", inter, "s");
    y = panel(d, y + 6, "For contrast, the book's chapter 3 reduceNeighbored: neighboured pairs", neigh, "stride");
    d.legend(8, y + 4,
             {{svg::kBlue, "adds a pair that reaches the sum"},
              {svg::kSky, "runs the step, result unused (last warp)"},
              {svg::kLight, "idle"}},
             11);
    out("tree_steps", d);
  }
  return out.rc;
}
