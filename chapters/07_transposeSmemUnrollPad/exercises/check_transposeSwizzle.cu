// check_transposeSwizzle.cu — judges exercise 07.2 (chapters/07_transposeSmemUnrollPad/exercises/
// transposeSwizzle.cu, or the file WB_EXERCISE_FILE names): the output on every shape, and with
// --bank-model the swizzled layout in the chapter's bank model. See transpose_check.h.
#include "exercise_check.h"
[[maybe_unused]] constexpr int kTileWords = 32 * 32;  // no padding: the whole point of the exercise
#include WB_EXERCISE_FILE
#define EX_KERNEL transposeSwizzle
#define EX_NAME "transposeSwizzle"
#define EX_FILE "chapters/07_transposeSmemUnrollPad/exercises/transposeSwizzle.cu"
#include "transpose_check.h"

int main(int argc, char** argv) { return run_checker(argc, argv); }
