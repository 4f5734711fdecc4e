// Unit test of common/check.h's architecture floor (host code; no GPU): which compiled image may run
// a chapter whose code needs sm_NN. The case that motivated it: cluster_histogram (MIN_SM 90) built
// with -DCMAKE_CUDA_ARCHITECTURES=75-virtual runs on an H100 from compute_75 PTX, JIT-compiled to
// sm_90, with its cluster kernels compiled out.
#include "check.h"

#include "unit_test.h"

TEST(Floor, AnyImageRunsAChapterWithoutAFloor) {
  EXPECT_EQ(wb::image_below_floor(75, 90, 0), "");
  EXPECT_EQ(wb::image_below_floor(75, 75, 0), "");
  EXPECT_EQ(wb::image_below_floor(0, 90, 0), "");
}

TEST(Floor, PtxBelowTheFloorIsRefusedEvenWhenTheMachineCodeIsNewEnough) {
  const std::string why = wb::image_below_floor(75, 90, 90);  // 75-virtual JIT-compiled on an H100
  EXPECT_NE(why, "");
  EXPECT_TRUE(why.find("compute_75") != std::string::npos) << why;
  EXPECT_TRUE(why.find("sm_90") != std::string::npos) << why;
  EXPECT_TRUE(why.find("-DCMAKE_CUDA_ARCHITECTURES=native") != std::string::npos) << why;
  EXPECT_NE(wb::image_below_floor(89, 90, 90), "");
  EXPECT_NE(wb::image_below_floor(86, 86, 90), "");
}

TEST(Floor, ImagesAtOrAboveTheFloorRun) {
  EXPECT_EQ(wb::image_below_floor(90, 90, 90), "");   // sm_90 machine code (75-virtual;90 on an H100)
  EXPECT_EQ(wb::image_below_floor(90, 100, 90), "");  // compute_90 PTX JIT-compiled on a newer GPU
  EXPECT_EQ(wb::image_below_floor(120, 120, 90), "");
}

TEST(Floor, UnknownPtxVersionIsRefusedWhereThereIsAFloor) {
  EXPECT_NE(wb::image_below_floor(0, 90, 90), "");
}
