// check_transposePad.cu — judges exercise 07.1 (chapters/07_transposeSmemUnrollPad/exercises/
// transposePad.cu, or the file WB_EXERCISE_FILE names): the output on every shape, and with
// --bank-model the tile's layout in the chapter's bank model. See transpose_check.h.
#include "exercise_check.h"
#include WB_EXERCISE_FILE
#define EX_KERNEL transposePad
#define EX_NAME "transposePad"
#define EX_FILE "chapters/07_transposeSmemUnrollPad/exercises/transposePad.cu"
#include "transpose_check.h"

int main(int argc, char** argv) { return run_checker(argc, argv); }
