// CPU model of chapter 11: the histograms of the same generated inputs, counted on the CPU, predict
// every number cluster_histogram prints, and which methods apply. It assumes no GPU: the rules for
// what applies and for which counters must overflow are the lesson's constants
// (histogram_lesson.h), not a device's shared memory.
#include <iterator>

#include "args.h"
#include "histogram_lesson.h"

int main(int argc, char** argv) {
  // --bins B [--cluster C]: the one case cluster_histogram --bins B [--cluster C] prints (cluster 1
  // unless given: what the program picks on any GPU with clusters for B <= 16384 bins).
  wb::Args args(argc, argv, "usage: histogram_model [--bins B [--cluster C]]");
  const int bins = static_cast<int>(args.count("--bins", 0, 2, 1 << 24));
  const int cluster = static_cast<int>(args.count("--cluster", 1, 1, 16));
  args.only_with("--bins", {"--cluster"});
  args.finish();
  std::vector<lesson::Case> cases(std::begin(lesson::kCases), std::end(lesson::kCases));
  if (bins) cases = {{bins, cluster, lesson::kSource}};

  std::printf("== histograms of %llu generated ints per case; values outside [0, bins) clamp to the end bins ==\n",
              (unsigned long long)lesson::kLessonN);
  std::printf("== histPacked runs on %d blocks here, so a bin with over %d x 65535 in-range hits must overflow ==\n",
              lesson::kLessonBlocks, lesson::kLessonBlocks);
  for (const auto& c : cases) {
    const lesson::CpuHist h = lesson::cpu_histogram(lesson::kLessonN, c.bins, c.dist);
    lesson::print_case(c, lesson::kLessonN, h.clamped, h.dropped);
    for (const char* name : {"clusterHist_kernel", "histVec4"}) lesson::print_check(name, true, "clamped");
    for (int bits : lesson::kPackedBits) lesson::print_packed_check(bits, true, lesson::must_wrap(h.dropped, bits));
    lesson::print_check("global_atomics", true, "clamped");
    if (lesson::private_applies(c.bins)) lesson::print_check("smem_private", true, "clamped");
    else lesson::print_not_applicable("smem_private");
    lesson::print_check("cub_HistogramEven", true, "out-of-range dropped");
  }
  return 0;
}
