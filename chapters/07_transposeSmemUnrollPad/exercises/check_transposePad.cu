// Checker of exercise transposePad (chapter 07): every element of every chapter shape, exactly;
// with --bank-model, tile_index in the chapter's bank model (no GPU). Nsight Compute's bank
// conflicts and racecheck are declared in CMakeLists.txt. See transpose_check.h.
#include "exercise.h"
#include WB_EXERCISE_FILE
#define EX_KERNEL transposePad
#include "transpose_check.h"

int main(int argc, char** argv) { return run_checker(argc, argv); }
