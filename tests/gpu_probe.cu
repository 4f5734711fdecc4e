// workbook_probe — is there a CUDA device? Exit 0 and print its name and compute capability,
// or exit 77 with the reason. The test runner asks it before running compute-sanitizer, and
// update_expected asks it before recording golden files.
#include <cstdio>

#include "check.h"

int main() {
  cudaDeviceProp prop = wb::require_device();
  std::printf("%s sm_%d%d %s\n", prop.name, prop.major, prop.minor, wb::gpu_slug(prop).c_str());
  return 0;
}
