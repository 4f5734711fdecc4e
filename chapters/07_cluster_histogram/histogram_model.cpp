// CPU model of chapter 07: the histogram of the same hashed input, counted on the CPU, predicts
// every number cluster_histogram prints, and which methods apply. It assumes sm_90's shared memory
// per block (232448 bytes opt-in, H100 and H200), which decides where smem_private is n/a.
#include "histogram_lesson.h"

int main() {
  constexpr size_t kSmemPerBlock = 232448;
  std::printf("== histograms of %llu hashed ints per case; values outside [0, bins) clamp to the end bins ==\n",
              (unsigned long long)lesson::kLessonN);
  for (const auto& c : lesson::kCases) {
    lesson::print_case(c, lesson::kLessonN, lesson::cpu_histogram(lesson::kLessonN, c.bins, true));
    for (const char* name : {"clusterHist_kernel", "histVec4", "global_atomics"}) lesson::print_check(name, true, "clamped");
    if (size_t(c.bins) * 4 <= kSmemPerBlock) lesson::print_check("smem_private", true, "clamped");
    else std::printf("  %-22s n/a (the bins do not fit in one block's shared memory)\n", "smem_private");
    lesson::print_check("cub_HistogramEven", true, "out-of-range dropped");
  }
  return 0;
}
