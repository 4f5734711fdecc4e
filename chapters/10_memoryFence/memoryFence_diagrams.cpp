// Chapter 10's pictures: `memoryFence_diagrams OUTDIR` writes OUTDIR/<name>.svg.
//  * three_threads: the memory model's example as a timeline, from memoryFence_lesson.h's kSteps
//    (program order, the release -> acquire edges, and the happens-before they give thread 3).
//  * ticket: the one-pass sum's publish / fence / ticket / last-block pattern (sumThreadfence in
//    threadFenceReduction.cuh) on the golden run's small grid, lesson::kSmallGrid blocks.
// One colour key for both pictures: sky-blue box = an atomic, light grey box = a plain memory
// access, orange box = a fence; vermillion arrow = release -> acquire, purple arrow = the chain of
// atomics on one variable, green dashed = the happens-before the edges imply.
#include <string>
#include <vector>

#include "memoryFence_lesson.h"
#include "svg.h"

using namespace wb;

int main(int argc, char** argv) {
  svg::Writer out;
  if (!svg::parse_outdir(argc, argv, out)) return 2;

  // The three threads: one row per thread, one column per step (steps in time order).
  {
    constexpr int kN = sizeof(lesson::kSteps) / sizeof(lesson::kSteps[0]);
    const double x0 = 150, col = 122, bw = 114, bh = 40, y0 = 44, row = 78;
    svg::Doc d(x0 + kN * col + 10, y0 + 3 * row + 70,
               "The memory model's three threads as run by memoryFence: thread 1's release of a synchronizes with "
               "thread 2's acquire, thread 2's release of b with the host's acquire; so x = " +
                   std::to_string(lesson::kX) + " happens before the host reads x, though thread 1 released only at "
                   "device scope");
    const char* who[] = {"thread 1", "thread 2", "thread 3"};
    const char* where[] = {"GPU, block 0", "GPU, block 1", "the host thread"};
    auto bx = [&](int i) { return x0 + i * col; };
    auto by = [&](int t) { return y0 + (t - 1) * row; };
    for (int t = 1; t <= 3; ++t) {
      d.text(x0 - 12, by(t) + 17, who[t - 1], 12, "end", svg::kBlack, true);
      d.text(x0 - 12, by(t) + 32, where[t - 1], 11, "end");
      d.line(x0 - 4, by(t) + bh / 2, x0 + kN * col, by(t) + bh / 2, svg::kLight, 1);
    }
    d.text(x0, 18, "time →", 12, "start");
    int prev[4] = {-1, -1, -1, -1};
    for (int i = 0; i < kN; ++i) {
      const auto& s = lesson::kSteps[i];
      const bool atomic = s.scope[0] != '\0';
      d.rect(bx(i), by(s.thread), bw, bh, atomic ? svg::kSky : svg::kLight, svg::kBlack, 0.75);
      d.text(bx(i) + bw / 2, by(s.thread) + (atomic ? 17 : 24), s.what, 10.5);
      if (atomic) d.text(bx(i) + bw / 2, by(s.thread) + 32, std::string(s.scope) + " scope", 10);
      if (prev[s.thread] >= 0)
        d.arrow(bx(prev[s.thread]) + bw, by(s.thread) + bh / 2, bx(i) - 1, by(s.thread) + bh / 2, svg::kGrey, 1.5);
      prev[s.thread] = i;
    }
    for (int i = 0; i < kN; ++i) {
      const auto& s = lesson::kSteps[i];
      if (s.release_to < 0) continue;
      const auto& a = lesson::kSteps[s.release_to];
      d.arrow(bx(i) + bw * 0.7, by(s.thread) + bh, bx(s.release_to) + bw * 0.3, by(a.thread) - 1, svg::kVermillion, 2);
    }
    // The happens-before that cumulativity gives: thread 1's x reaches the host's read.
    d.path("M" + svg::num(bx(0) + bw / 2) + "," + svg::num(by(1) + bh) + " C" + svg::num(bx(0) + bw / 2) + "," +
               svg::num(by(3) + 10) + " " + svg::num(bx(kN - 1) - 120) + "," + svg::num(by(3) + bh + 30) + " " +
               svg::num(bx(kN - 1) + bw / 2) + "," + svg::num(by(3) + bh + 1),
           svg::kGreen, svg::kNone, 1.5, true, "5 3");
    const double ly = y0 + 3 * row + 24;
    d.legend(x0 - 130, ly, {{svg::kSky, "atomic (with its scope)"}, {svg::kLight, "plain access"},
                            {svg::kGrey, "program order"}});
    d.legend(x0 - 130, ly + 20, {{svg::kVermillion, "release → acquire that reads it (synchronizes-with)"},
                                 {svg::kGreen, "happens-before it implies: x reaches the host"}});
    out("three_threads", d);
  }

  // The ticket pattern, on kSmallGrid blocks, in one arrival order (0, 1, 2): the last ticket
  // (gridDim.x - 1) makes its block the one that sums.
  {
    constexpr int kB = lesson::kSmallGrid;
    const double x0 = 110, col = 150, bw = 138, bh = 36, y0 = 40, row = 60;
    const std::vector<std::string> steps = {"partials[b] = block sum", "__threadfence()", "atomicAdd(ticket, 1)"};
    const std::vector<std::string> last = {"__threadfence()", "sum partials[0.." + std::to_string(kB - 1) + "]",
                                           "ticket = 0"};
    svg::Doc d(x0 + 6 * col + 10, y0 + kB * row + 86,
               "sumThreadfence on " + std::to_string(kB) + " blocks: each block stores its partial, fences, and takes "
               "a ticket; the block that draws ticket " + std::to_string(kB - 1) +
                   " (gridDim.x - 1) fences again, adds every partial and resets the ticket");
    d.text(x0, 18, "thread 0 of each block after the block sum (the last block sums with all its threads); time →, one arrival order", 12, "start",
           svg::kBlack, true);
    for (int b = 0; b < kB; ++b) {
      const double y = y0 + b * row;
      const int ticket = b;  // arrival order 0, 1, 2
      const bool is_last = ticket == kB - 1;
      d.text(x0 - 10, y + 22, "block " + std::to_string(b), 12, "end", svg::kBlack, true);
      for (int s = 0; s < 3; ++s) {
        const double x = x0 + (s + b * 0.0) * col;
        const char* fill = s == 1 ? svg::kOrange : (s == 2 ? svg::kSky : svg::kLight);
        d.rect(x, y, bw, bh, fill, svg::kBlack, 0.75);
        d.text(x + bw / 2, y + (s == 2 ? 15 : 22), steps[s], 10.5);
        if (s == 2) d.text(x + bw / 2, y + 30, "returns " + std::to_string(ticket) + (is_last ? ": last" : ""), 10.5,
                           "middle", svg::kBlack, is_last);
        if (s > 0) d.arrow(x - col + bw, y + bh / 2, x - 1, y + bh / 2, svg::kGrey, 1.2);
      }
      if (b > 0) d.arrow(x0 + 2 * col + bw / 2, y - row + bh, x0 + 2 * col + bw / 2, y - 1, svg::kPurple, 1.5);
      if (!is_last) {
        d.text(x0 + 3 * col + 4, y + 22, "not last: the block exits", 11, "start", svg::kGrey);
        continue;
      }
      for (int s = 0; s < 3; ++s) {
        const double x = x0 + (3 + s) * col;
        d.rect(x, y, bw, bh, s == 0 ? svg::kOrange : svg::kLight, svg::kBlack, 0.75);
        d.text(x + bw / 2, y + 22, last[s], 10.5);
        d.arrow(x - col + bw, y + bh / 2, x - 1, y + bh / 2, svg::kGrey, 1.2);
      }
    }
    const double ly = y0 + kB * row + 14;
    d.legend(x0 - 90, ly, {{svg::kLight, "plain access"}, {svg::kOrange, "fence: __threadfence()"},
                           {svg::kSky, "atomic"}, {svg::kPurple, "the ticket's chain of atomics"}});
    d.text(x0 - 90, ly + 34,
           "Each block's fence orders its partial before its ticket; the chain of atomics on the ticket carries that", 11,
           "start");
    d.text(x0 - 90, ly + 50, "order to the last block, whose own fence orders it before its reads of the partials.", 11,
           "start");
    out("ticket", d);
  }
  return out.rc;
}
