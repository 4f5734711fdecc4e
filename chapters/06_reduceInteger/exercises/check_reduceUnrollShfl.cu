// Checker of exercise reduceUnrollShfl (chapter 06): every block sum, exactly, on sizes that end
// in the first and in the second half of a block's 2 * DIM elements. racecheck and the SASS rules
// (reduceUnrollShfl.sass: shuffles, no spill) are declared in CMakeLists.txt. Times the exercise
// against reduceSmemRef (reduce_check.h: a reduceSmem-like tree, one element per thread, no
// unrolling, no shuffles).
#include "exercise.h"
constexpr unsigned DIM = 256;
#include WB_EXERCISE_FILE

#define EX_KERNEL reduceUnrollShfl
#define EX_PER_BLOCK (2 * DIM)
#include "reduce_check.h"

int main(int argc, char** argv) {
  wb::ex::Checker ck(argc, argv, WB_EXERCISE_ATTEMPTED);
  return run_checker(ck, {1, 37, DIM, DIM + 1, 2 * DIM - 1, 2 * DIM, 5 * DIM + 3, 65537, 1000003, (1u << 22) + 5});
}
