// Checker of exercise reduceSmemTree (chapter 06): every block sum, exactly, for nine sizes from 1
// to 2^22 + 5 (partial blocks, a single element). racecheck (a missing barrier between steps) and
// synccheck (a barrier in divergent code), both in CMakeLists.txt, judge the barriers: a tree
// without them can sum right by luck. Times the exercise against reduceSmemRef
// (reduce_check.h): the chapter's reduceSmem tree with DIM = 256 and a __syncthreads() at every step.
#include "exercise.h"
constexpr unsigned DIM = 256;
#include WB_EXERCISE_FILE

#define EX_KERNEL reduceSmemTree
#define EX_PER_BLOCK DIM
#include "reduce_check.h"

int main(int argc, char** argv) {
  wb::ex::Checker ck(argc, argv, WB_EXERCISE_ATTEMPTED);
  return run_checker(ck, {1, 37, DIM - 1, DIM, DIM + 1, 3 * DIM + 100, 65537, 1000003, (1u << 22) + 5});
}
