// Checker of exercise tile_pad_double (chapter 05): the transposed output, the chapter's bank model on
// tile_index (--bank-model, no GPU), and Nsight Compute's bank-conflict counters (NCU_BANK).
// Times the exercise against the chapter's unpadded tile (setRowReadCol's column read, on doubles).
#include "exercise.h"
#include WB_EXERCISE_FILE

// setRowReadCol on doubles: 32-wide rows, column loads conflict (16-way per half-warp, in the
// workbook's bank model).
__global__ void transposeTileDoubleUnpadded(const double* in, double* out) {
  __shared__ double tile[32][32];
  const size_t base = size_t(blockIdx.x) * 32 * 32;
  tile[threadIdx.y][threadIdx.x] = in[base + threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[base + threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

#include "tile_double_check.h"

int main(int argc, char** argv) {
  wb::ex::Checker ck(argc, argv, WB_EXERCISE_ATTEMPTED, /*has_bank_model=*/true);
  if (ck.bank_model()) return tile_double::bank_model(ck);
  ck.require_device();
  tile_double::check_output(ck);
  return ck.finish();
}
