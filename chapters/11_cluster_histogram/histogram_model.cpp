// CPU model of chapter 11: the histogram of the same hashed input, counted on the CPU, predicts
// every number cluster_histogram prints, and which methods apply. It assumes sm_90's shared memory
// per block (232448 bytes opt-in, H100 and H200), which decides where smem_private is n/a.
#include "histogram_lesson.h"

int main() {
  constexpr size_t kSmemPerBlock = 232448;
  std::printf("== histograms of %llu hashed ints per case; values outside [0, bins) clamp to the end bins ==\n",
              (unsigned long long)lesson::kLessonN);
  for (const auto& c : lesson::kCases) {
    lesson::print_case(c, lesson::kLessonN, lesson::cpu_histogram(lesson::kLessonN, c.bins, true));
    const bool fits = size_t(c.bins) * 4 <= kSmemPerBlock;
    int pass_bins = 1;  // the widest power-of-two range one block holds: 32768 bins on sm_90
    while (size_t(2 * pass_bins) * 4 <= kSmemPerBlock) pass_bins *= 2;
    for (const char* name : {"clusterHist_kernel", "histVec4"}) lesson::print_check(name, true, "clamped");
    if (c.bins > pass_bins) lesson::print_check("histVec4_multipass", true, "clamped");
    else lesson::print_not_applicable("histVec4_multipass");
    lesson::print_check("global_atomics", true, "clamped");
    if (fits) lesson::print_check("smem_private", true, "clamped");
    else lesson::print_not_applicable("smem_private");
    lesson::print_check("cub_HistogramEven", true, "out-of-range dropped");
  }
  return 0;
}
