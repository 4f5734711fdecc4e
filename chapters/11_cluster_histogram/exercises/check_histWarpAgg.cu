// Checker of exercise histWarpAgg (chapter 11): every bin, exactly, for uniform, one-hot-bin and
// 4-bin inputs of 33 to 2^22 + 3 values (never a multiple of 32), on a grid of up to two blocks per
// SM. racecheck and the SASS rules (histWarpAgg.sass: MATCH.ANY, ATOMS) are declared in
// CMakeLists.txt. Times the exercise against the chapter's smem_private on the last (4-bin) input,
// the most favourable to aggregation (at most 4 groups a warp). It need not win there: in the
// committed runs the solution took longer than smem_private (plots/data/<gpu>/logs/exercises.log).
#include <algorithm>

#include "exercise.h"
#include WB_EXERCISE_FILE

#define EX_KERNEL histWarpAgg
#define EX_SMEM_BYTES(nbins) (size_t(nbins) * sizeof(unsigned))
#define EX_FIXED_GRID 0
#include "hist_check.h"

int main(int argc, char** argv) {
  return run_checker(argc, argv,
                     {{256, 37, kUniform, 0},       {256, 1000, kUniform, 0},     {1024, 1000003, kUniform, 0},
                      {256, 33, kHotBin, 7},        {256, 1000003, kHotBin, 200}, {256, 65539, kFewBins, 0},
                      {4096, 4194307, kUniform, 0}, {256, 4194307, kFewBins, 0}});
}
