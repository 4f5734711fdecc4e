// Unit test of common/exercise_picture.h, the picture an exercise checker writes when it rejects
// wrong values, on the CPU: the wrong answer of exercise scan_exclusive8 (chapter 03, the guard
// `(lane & 7) >= d` left out) is run on the warp model and judged against the right exclusive scan,
// as check_scan_exclusive8.cu judges the GPU's result. The SVG must appear, hold a <title>, mark the
// wrong elements, and the checker's line must name the file.
#include "exercise_picture.h"

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "unit_test.h"
#include "warp_model.h"

#ifndef WB_PICTURE_TEST_DIR
#define WB_PICTURE_TEST_DIR "exercise_picture_test"
#endif

namespace {
const std::string kDir = WB_PICTURE_TEST_DIR;

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// The checker's input: (i * 37) % 101 + 1, never 0.
std::vector<int> input(int n) {
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 37) % 101 + 1;
  return in;
}

// The right answer: an exclusive scan in each group of 8.
std::vector<int> exclusive8(const std::vector<int>& in) {
  std::vector<int> want(in.size());
  for (size_t g = 0; g < in.size(); g += 8) {
    int sum = 0;
    for (size_t i = g; i < in.size() && i < g + 8; ++i) {
      want[i] = sum;
      sum += in[i];
    }
  }
  return want;
}

// exercises/wrong/scan_exclusive8.cu on the warp model: every lane adds what __shfl_up_sync gives,
// so a lane below d adds its own value again. Lanes past n carry 0.
std::vector<int> wrong_scan_exclusive8(const std::vector<int>& in) {
  const int n = static_cast<int>(in.size());
  std::vector<int> out(in.size());
  for (int w = 0; w < n; w += 32) {
    warp_model::Warp<int> own{}, value{};
    for (int l = 0; l < 32; ++l) own[l] = value[l] = w + l < n ? in[w + l] : 0;
    for (int d = 1; d <= 4; d *= 2) {
      const auto up = warp_model::values(warp_model::shfl_up_sync(warp_model::kFullMask, value, d, 8));
      for (int l = 0; l < 32; ++l) value[l] += up[l];
    }
    for (int l = 0; l < 32 && w + l < n; ++l) out[w + l] = value[l] - own[l];
  }
  return out;
}

int count(const std::string& s, const std::string& what) {
  int c = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++c;
  return c;
}
}  // namespace

TEST(ExercisePicture, WrongScanIsDrawn) {
  const auto in = input(100);
  const auto want = exclusive8(in), got = wrong_scan_exclusive8(in);
  const std::string path = kDir + "/scan_exclusive8_mistake.svg";
  std::remove(path.c_str());
  const auto p = wb::ex::draw_mistake(path, "scan_exclusive8", "n = 100", got, want);
  EXPECT_TRUE(p.written) << p.line;
  EXPECT_TRUE(p.full);
  EXPECT_EQ(p.first, 0u);  // lane 0 adds its own value at every step: 8 x in[0] - in[0]
  EXPECT_EQ(p.start, 0u);
  EXPECT_NE(p.line.find(path), std::string::npos) << p.line;  // the message names the file
  const std::string svg = slurp(path);
  EXPECT_NE(svg.find("<title>scan_exclusive8, n = 100: elements 0 to 31"), std::string::npos) << svg.substr(0, 300);
  // Every wrong element of the window is marked (vermillion, thicker frame), and the picture counts
  // them: the own value added again spreads to every lane but lane 7 of each group of 8.
  int wrong = 0;
  for (int l = 0; l < 32; ++l) wrong += got[l] != want[l];
  EXPECT_EQ(wrong, 28);
  EXPECT_NE(svg.find(std::to_string(wrong) + " of 32 lanes differ"), std::string::npos);
  EXPECT_EQ(count(svg, "stroke-width=\"1.5\" data-lane"), wrong);
}

TEST(ExercisePicture, WindowOfTheLastWarpStaysInsideTheArray) {
  std::vector<int> want(100, 5), got(100, 5);
  got[98] = 6;
  const auto p = wb::ex::draw_mistake(kDir + "/tail.svg", "x", "n = 100", got, want);
  EXPECT_TRUE(p.written);
  EXPECT_TRUE(p.full);
  EXPECT_EQ(p.first, 98u);
  EXPECT_EQ(p.start, 68u);  // elements 68-99: every box a real element
}

TEST(ExercisePicture, ShortArrayIsPaddedAndSaysSo) {
  const auto in = input(5);
  const auto p = wb::ex::draw_mistake(kDir + "/short.svg", "scan_exclusive8", "n = 5", wrong_scan_exclusive8(in),
                                      exclusive8(in));
  EXPECT_TRUE(p.written);
  EXPECT_FALSE(p.full);
  EXPECT_NE(slurp(kDir + "/short.svg").find("no element after 4 (0 in both rows)"), std::string::npos);
}

TEST(ExercisePicture, NoPictureWithoutADifferenceOrAPath) {
  const std::vector<unsigned long long> a(40, 7);
  EXPECT_FALSE(wb::ex::draw_mistake(kDir + "/same.svg", "x", "n = 40", a, a).written);
  EXPECT_FALSE(wb::ex::draw_mistake("", "x", "n = 40", a, std::vector<unsigned long long>(40, 8)).written);
  EXPECT_FALSE(wb::ex::draw_mistake(kDir + "/float.svg", "x", "n = 1", std::vector<float>{1}, std::vector<float>{2}).written);
}
