// Chapter 11: what the cluster kernels (kernels/clusterHist.cuh, kernels/histVec4.cuh) share: the
// cooperative-groups cluster API and the guard that lets the program build for every architecture.
#pragma once

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

// Thread-block clusters (cluster_group, map_shared_rank, cluster.sync) exist from sm_90 on. The
// kernels that use them compile to an empty body for older targets, so the program builds for every
// architecture; main() exits 77 on such a GPU before any of them could launch.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define WB_NO_CLUSTERS 1
#endif
