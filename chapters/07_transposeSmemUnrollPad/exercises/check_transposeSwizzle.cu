// Checker of exercise transposeSwizzle (chapter 07): every element of every chapter shape, exactly;
// with --bank-model, the swizzled tile_index in the chapter's bank model (no GPU). Nsight Compute's
// bank conflicts and racecheck are declared in CMakeLists.txt. See transpose_check.h.
#include "exercise.h"
[[maybe_unused]] constexpr int kTileWords = 32 * 32;  // no padding: the point of the exercise
#include WB_EXERCISE_FILE
#define EX_KERNEL transposeSwizzle
#include "transpose_check.h"

int main(int argc, char** argv) { return run_checker(argc, argv); }
