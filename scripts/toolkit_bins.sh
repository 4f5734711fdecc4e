#!/usr/bin/env bash
# The programs of another toolkit's build, gathered for scripts/gpu_check.sh's step `toolkits`:
# copies every program that has a golden file (expected_outputs/<name>.txt) from BUILD_DIR/bin into
# DEST/bin-TOOLKIT/, and writes DEST/bin-TOOLKIT/VERSION from the build's nvcc (`nvcc --version`) and
# its cuBLAS. Run it where the build was made (.ci/toolkits makes such builds: /b124 in the Debian 13
# root, <work>/bnewest), then carry DEST to the GPU machine and run
#   TOOLKIT_BINS=DEST STEPS=toolkits bash scripts/gpu_check.sh
# usage: scripts/toolkit_bins.sh BUILD_DIR TOOLKIT DEST   (TOOLKIT: a name, e.g. 12.4 or newest)
set -euo pipefail
build=${1:?usage: toolkit_bins.sh BUILD_DIR TOOLKIT DEST}; toolkit=${2:?}; dest=${3:?}
root=$(cd "$(dirname "$0")/.." && pwd)
nvcc=$(sed -n 's/^CMAKE_CUDA_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
out="$dest/bin-$toolkit"
rm -rf "$out" && mkdir -p "$out"
for golden in "$root"/expected_outputs/*.txt; do
  name=$(basename "$golden" .txt)
  cp "$build/bin/$name" "$out/"
done
cublas=$(sed -n 's/^CUDA_cublas_LIBRARY:[A-Z]*=//p' "$build/CMakeCache.txt")
echo "nvcc $("$nvcc" --version | sed -n 's/.*release [0-9.]*, V\([0-9.]*\).*/\1/p'), linked against $(readlink -f "$cublas" | xargs basename)" \
  > "$out/VERSION"
echo "$out: $(ls "$out" | grep -vc VERSION) programs; $(cat "$out/VERSION")"
