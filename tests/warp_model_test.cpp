// Unit tests of common/warp_model.h against the CUDA Programming Guide's rules and the values
// the source material published (002's width experiments, 001's legacy shuffles).
#include "warp_model.h"

#include "unit_test.h"

using namespace warp_model;

namespace {
Warp<int> msvc_rand_mod101() {  // 001's data: MSVC rand() from seed 1, then % 101
  Warp<int> w{};
  uint32_t x = 1;
  for (int i = 0; i < kWarpSize; ++i) {
    x = x * 214013u + 2531011u;
    w[i] = static_cast<int>((x >> 16) & 0x7fff) % 101;
  }
  return w;
}
const Warp<int> k001Input = {41, 85, 72, 38, 80, 69, 65, 68, 96, 22, 49, 67, 51, 61, 63, 87,
                             66, 24, 80, 83, 71, 60, 64, 52, 90, 60, 49, 31, 23, 99, 94, 11};
}  // namespace

TEST(ShflSync, WidthSixteenSrcLaneFive) {  // 002 §1.2: 5 for lanes 0-15, 21 for lanes 16-31
  auto r = values(shfl_sync(kFullMask, lane_ids<int>(), 5, 16));
  for (int l = 0; l < 32; ++l) EXPECT_EQ(r[l], l < 16 ? 5 : 21) << "lane " << l;
}

TEST(ShflSync, SrcLaneModuloWidth) {  // 002 §1.3: srcLane 17, width 16 gives 1 and 17
  auto r = values(shfl_sync(kFullMask, lane_ids<int>(), 17, 16));
  for (int l = 0; l < 32; ++l) EXPECT_EQ(r[l], l < 16 ? 1 : 17) << "lane " << l;
}

TEST(ShflSync, FullWidthBroadcast) {
  auto r = values(shfl_sync(kFullMask, lane_ids<int>(), 5));
  for (int l = 0; l < 32; ++l) EXPECT_EQ(r[l], 5);
}

TEST(ShflSync, SrcLaneUsesLowFiveBits) {  // srcLane 37 is lane 5; -1 is lane 31
  auto a = values(shfl_sync(kFullMask, lane_ids<int>(), 37));
  auto b = values(shfl_sync(kFullMask, lane_ids<int>(), -1));
  for (int l = 0; l < 32; ++l) {
    EXPECT_EQ(a[l], 5);
    EXPECT_EQ(b[l], 31);
  }
}

TEST(ShflUp, KeepsOwnValueBelowDeltaInEachSubgroup) {  // 002 §2: up by 2, width 16
  auto r = values(shfl_up_sync(kFullMask, lane_ids<int>(), 2, 16));
  for (int l = 0; l < 32; ++l) EXPECT_EQ(r[l], (l % 16) < 2 ? l : l - 2) << "lane " << l;
}

TEST(ShflDown, KeepsOwnValuePastSubgroupEnd) {
  auto r = values(shfl_down_sync(kFullMask, lane_ids<int>(), 3, 8));
  for (int l = 0; l < 32; ++l) EXPECT_EQ(r[l], (l % 8) + 3 < 8 ? l + 3 : l) << "lane " << l;
}

TEST(ShflXor, ButterflyFullWidth) {
  auto r = values(shfl_xor_sync(kFullMask, lane_ids<int>(), 3));
  for (int l = 0; l < 32; ++l) EXPECT_EQ(r[l], l ^ 3);
}

TEST(ShflXor, NarrowWidthReadsEarlierSubgroupNeverLater) {
  // width 8, laneMask 8: lanes 8-15 read lanes 0-7 (an earlier sub-group); lanes 0-7 would read
  // 8-15 (a later one) and keep their own value.
  auto r = values(shfl_xor_sync(kFullMask, lane_ids<int>(), 8, 8));
  for (int l = 0; l < 32; ++l) {
    int partner = l ^ 8;
    int seg_end = (l & ~7) + 7;
    EXPECT_EQ(r[l], partner <= seg_end ? partner : l) << "lane " << l;
  }
  EXPECT_EQ(r[0], 0);
  EXPECT_EQ(r[8], 0);
  EXPECT_EQ(r[24], 16);
}

TEST(ShflXor, WithinSubgroupWhenMaskBelowWidth) {
  auto r = values(shfl_xor_sync(kFullMask, lane_ids<int>(), 1, 4));
  for (int l = 0; l < 32; ++l) EXPECT_EQ(r[l], l ^ 1);
}

TEST(Mask, LanesOutsideMaskDoNotExecute) {
  auto r = shfl_sync(0x0000ffffu, lane_ids<int>(), 3);
  for (int l = 0; l < 16; ++l) EXPECT_EQ(r[l], 3);
  for (int l = 16; l < 32; ++l) EXPECT_FALSE(r[l].has_value());
}

TEST(Mask, ReadingANonParticipatingLaneIsUndefined) {
  auto r = shfl_sync(0x0000ffffu, lane_ids<int>(), 20);  // srcLane 20 is outside the mask
  for (int l = 0; l < 32; ++l) EXPECT_FALSE(r[l].has_value());
}

TEST(Width, NonPowerOfTwoIsRejected) {
  EXPECT_THROW(shfl_sync(kFullMask, lane_ids<int>(), 0, 12), std::invalid_argument);
  EXPECT_THROW(shfl_sync(kFullMask, lane_ids<int>(), 0, 64), std::invalid_argument);
}

TEST(Source001, MsvcRandReproducesThePublishedInput) {
  EXPECT_EQ(msvc_rand_mod101(), k001Input);
}

TEST(Source001, PublishedXor8LineIsLaneMask16) {
  const Warp<int> published = {66, 24, 80, 83, 71, 60, 64, 52, 90, 60, 49, 31, 23, 99, 94, 11,
                               41, 85, 72, 38, 80, 69, 65, 68, 96, 22, 49, 67, 51, 61, 63, 87};
  EXPECT_EQ(values(shfl_xor_sync(kFullMask, k001Input, 16)), published);
  EXPECT_NE(values(shfl_xor_sync(kFullMask, k001Input, 8)), published);
}

TEST(Source001, PublishedUpAndDownByThree) {
  const Warp<int> up = {41, 85, 72, 41, 85, 72, 38, 80, 69, 65, 68, 96, 22, 49, 67, 51,
                        61, 63, 87, 66, 24, 80, 83, 71, 60, 64, 52, 90, 60, 49, 31, 23};
  const Warp<int> down = {38, 80, 69, 65, 68, 96, 22, 49, 67, 51, 61, 63, 87, 66, 24, 80,
                          83, 71, 60, 64, 52, 90, 60, 49, 31, 23, 99, 94, 11, 99, 94, 11};
  EXPECT_EQ(values(shfl_up_sync(kFullMask, k001Input, 3)), up);
  EXPECT_EQ(values(shfl_down_sync(kFullMask, k001Input, 3)), down);
}
