// Chapter 07's tile constants for bank_model_cli, from the chapter's own lesson header (a separate
// translation unit: chapters 05 and 07 both name their header's namespace `lesson`).
#include "transpose_lesson.h"

namespace ch07 {
int bdimx() { return lesson::BDIMX; }
int bdimy() { return lesson::BDIMY; }
int pad() { return lesson::PAD; }
int tiled_tile() { return lesson::TILED_TILE; }
int tiled_rows() { return lesson::TILED_ROWS; }
}  // namespace ch07
