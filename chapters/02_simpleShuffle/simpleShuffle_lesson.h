// What chapter 02 runs, how it reads its command line and how it prints: shared by simpleShuffle.cu
// and simpleShuffle_model.cpp, so that the two can differ only in the values they compute.
//
// The CPU references here are the patterns as 003 §5.6.2 describes them, written as plain loops
// over the input. The shuffle explorer's predictions come from common/warp_model.h instead.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "args.h"
#include "lanes_svg.h"
#include "report.h"
#include "warp_model.h"

namespace simple_shuffle {

using warp_model::Mode;

// ---------------------------------------------------------------------------------------------
// The source's program: its constants (003 §5.6.2 and the book's simpleShuffle.cu)
// ---------------------------------------------------------------------------------------------
constexpr int BDIMX = 16;  // threads launched for the one-value kernels, and the shuffle width
constexpr int SEGM = 4;    // elements per thread in the register-array kernels (BDIMX / SEGM threads)
constexpr int kSrcLane = 2;   // test_shfl_broadcast
constexpr int kDelta = 2;     // test_shfl_up, test_shfl_down
constexpr int kOffset = 2;    // test_shfl_wrap ("shfl wrap left")
constexpr int kXorMask = 1;   // test_shfl_xor, test_shfl_xor_array, test_shfl_xor_array_swap
constexpr int kFirstIdx = 0;  // test_shfl_xor_array_swap: the two array indices it swaps
constexpr int kSecondIdx = 3;
constexpr int kLessonLanes = 32;  // the input holds 0..31; the source's lines use the first 16

// The shuffle's member mask for a one-warp block of `threads` threads: exactly the lanes that run.
inline uint32_t lanes_that_run(int threads) {
  return threads >= 32 ? warp_model::kFullMask : (uint32_t{1} << threads) - 1u;
}

inline std::vector<int> initial_data() {
  std::vector<int> in(kLessonLanes);
  for (int i = 0; i < kLessonLanes; ++i) in[i] = i;
  return in;
}

// One printed line of section 1, with the CPU's expectation for it.
struct SourceLine {
  const char* label;  // as the source prints it
  std::vector<int> want;
};

// The source's seven kernels, in 003's order, with what each should produce on the 16-element
// input (plain loops: the patterns as the text describes them).
inline std::vector<SourceLine> source_lines(const std::vector<int>& in) {
  const int n = BDIMX;
  std::vector<int> bcast(n), up(n), down(n), wrap(n), xr(n), arr(n), swp(in.begin(), in.begin() + n);
  for (int i = 0; i < n; ++i) {
    bcast[i] = in[kSrcLane];                           // every lane gets lane 2's value
    up[i] = i < kDelta ? in[i] : in[i - kDelta];       // lanes 0, 1 keep their own
    down[i] = i + kDelta < n ? in[i + kDelta] : in[i]; // lanes 14, 15 keep their own
    wrap[i] = in[(i + kOffset) % n];                   // a rotation by 2
    xr[i] = in[i ^ kXorMask];                          // neighbours swap
  }
  // Register arrays: thread t owns elements t*SEGM .. t*SEGM+3.
  for (int t = 0; t < n / SEGM; ++t)
    for (int k = 0; k < SEGM; ++k) arr[t * SEGM + k] = in[(t ^ kXorMask) * SEGM + k];  // arrays swap
  for (int t = 0; t < n / SEGM; t += 2) {  // pairs (t, t+1): t's [0] and t+1's [3] change places
    swp[t * SEGM + kFirstIdx] = in[(t + 1) * SEGM + kSecondIdx];
    swp[(t + 1) * SEGM + kSecondIdx] = in[t * SEGM + kFirstIdx];
  }
  return {{"shfl bcast", bcast},   {"shfl up", up},          {"shfl down", down},
          {"shfl wrap left", wrap}, {"shfl xor 1", xr},      {"shfl array", arr},
          {"shfl array swap", swp}};
}

// The source's format (003's text): the label padded to 24 columns, ": ", then "%2d " per value.
inline void print_source_line(const char* label, const int* v, int n) {
  std::printf("%-24s: ", label);
  for (int i = 0; i < n; ++i) std::printf("%2d ", v[i]);
  std::printf("\n");
}

inline void print_section1_header(uint32_t mask16, uint32_t mask4) {
  std::printf("== 1. simpleShuffle (003, section 5.6.2): BDIMX %d threads, width %d ==\n", BDIMX, BDIMX);
  std::printf("shuffle mask: 0x%08x for the 16-thread kernels, 0x%08x for the %d-thread array kernels\n",
              mask16, mask4, BDIMX / SEGM);
}

// Section 2: test_shfl_wrap on a full warp, width still BDIMX. srcLane = lane + offset goes past
// the width (and below 0): the hardware keeps its low log2(width) bits, inside the caller's own
// sub-group.
struct WrapCase {
  int offset;
  const char* label;
};
constexpr WrapCase kWrapCases[] = {
    {2, "offset 2 (srcLane 2..33)"},
    {18, "offset 18 (srcLane 18..49)"},
    {-2, "offset -2 (srcLane -2..29)"},
};
inline std::vector<int> wrap_reference(const std::vector<int>& in, int offset) {
  std::vector<int> out(kLessonLanes);
  for (int l = 0; l < kLessonLanes; ++l) {
    const int segment_start = l / BDIMX * BDIMX;
    // ((l + offset) mod BDIMX), as a mathematician's mod: always in [0, BDIMX).
    const int logical = (((l + offset) % BDIMX) + BDIMX) % BDIMX;
    out[l] = in[segment_start + logical];
  }
  return out;
}

inline void print_section2_header(const std::vector<int>& in) {
  std::printf("\n== 2. srcLane past the width: test_shfl_wrap on 32 threads, width %d ==\n", BDIMX);
  std::printf("'|' separates the two sub-groups of %d lanes; each wraps inside itself\n", BDIMX);
  wb::print_lanes("initialData (32 lanes)", in.data(), BDIMX);
}

// ---------------------------------------------------------------------------------------------
// The shuffle explorer
// ---------------------------------------------------------------------------------------------
constexpr int kValueBase = 100;  // lane l passes var = 100 + l: the value received names its lane

struct Shuffle {
  Mode op;
  int arg;  // srcLane, delta or laneMask
  int width;
  uint32_t mask;
};

inline const char* op_name(Mode m) {
  switch (m) {
    case Mode::Idx: return "idx";
    case Mode::Up: return "up";
    case Mode::Down: return "down";
    case Mode::Xor: return "xor";
  }
  return "?";
}
inline const char* intrinsic(Mode m) {
  switch (m) {
    case Mode::Idx: return "__shfl_sync";
    case Mode::Up: return "__shfl_up_sync";
    case Mode::Down: return "__shfl_down_sync";
    case Mode::Xor: return "__shfl_xor_sync";
  }
  return "?";
}
inline const char* arg_name(Mode m) {
  switch (m) {
    case Mode::Idx: return "srcLane";
    case Mode::Up:
    case Mode::Down: return "delta";
    case Mode::Xor: return "laneMask";
  }
  return "?";
}

// What one lane did in one shuffle.
enum class Lane { NotInMask, Undefined, Read };
struct LaneResult {
  Lane state = Lane::NotInMask;
  int src = -1;  // the lane it read from (Undefined: the lane it would read, outside the mask)
};

// The lesson's explorer example (section 3): all four kinds of row in one table.
constexpr Shuffle kExample = {Mode::Down, 4, 16, 0x00ffffffu};
constexpr const char* kExampleHeading =
    "3. the shuffle explorer: simpleShuffle --op down --arg 4 --width 16 --mask 0x00ffffff";
constexpr const char* kExplorerHeading = "shuffle explorer";

// `heading`: "shuffle explorer", or the lesson's section title.
inline void print_table(const char* heading, const Shuffle& s, const LaneResult* r) {
  std::printf("== %s ==\n", heading);
  std::printf("%s(0x%08x, var, %d, %d): %s %d, %d sub-group%s of %d lane%s\n", intrinsic(s.op), s.mask,
              s.arg, s.width, arg_name(s.op), s.arg, 32 / s.width, s.width < 32 ? "s" : "", s.width,
              s.width > 1 ? "s" : "");
  std::printf("Every lane passes var = %d + its lane id, so the value it gets names the lane it read from.\n",
              kValueBase);
  std::printf("'-': not in mask, does not call the shuffle.  '?': reads a lane outside mask: undefined.\n");
  std::printf("lane  sub-group  logical lane  var  got  read from\n");
  for (int l = 0; l < 32; ++l) {
    std::printf("%4d  %9d  %12d  %3d  ", l, l / s.width, l % s.width, kValueBase + l);
    switch (r[l].state) {
      case Lane::NotInMask: std::printf("  -  not in mask: does not call the shuffle\n"); break;
      case Lane::Undefined:
        std::printf("  ?  lane %2d, which is not in mask: undefined\n", r[l].src);
        break;
      case Lane::Read:
        std::printf("%3d  lane %2d%s\n", kValueBase + r[l].src, r[l].src, r[l].src == l ? " (itself)" : "");
        break;
    }
  }
}

// The rules' prediction (common/warp_model.h), lane by lane.
inline void predict(const Shuffle& s, LaneResult* r) {
  for (int l = 0; l < 32; ++l) {
    if (!(s.mask >> l & 1u)) {
      r[l] = {Lane::NotInMask, -1};
      continue;
    }
    const int src = warp_model::source_lane(s.op, l, static_cast<unsigned>(s.arg), s.width);
    r[l] = {(s.mask >> src & 1u) ? Lane::Read : Lane::Undefined, src};
  }
}

// The explorer's picture (--svg FILE): one shuffle panel drawn from `r`, the lanes each lane read.
// The program passes what the GPU did (its table's rows), the model its prediction; when the two
// agree the files are identical byte for byte.
inline wb::svg::Doc explorer_svg(const Shuffle& s, const LaneResult* r) {
  int src[32];
  for (int l = 0; l < 32; ++l) src[l] = r[l].state == Lane::NotInMask ? -1 : r[l].src;
  const auto reads = wb::lanes_svg::observed_reads(s.op, s.mask, static_cast<unsigned>(s.arg), s.width, src);
  const std::string call = wb::lanes_svg::call_text(s.op, s.mask, static_cast<unsigned>(s.arg), s.width);
  wb::svg::Doc d(wb::lanes_svg::kWidth, wb::lanes_svg::kPanelH + wb::lanes_svg::kLegendH + 6,
                 call + ": the lane each of the 32 lanes read from; lane l passes var = " +
                     std::to_string(kValueBase) + " + l");
  wb::lanes_svg::shuffle_panel(d, 0, reads, call, [](int l) { return kValueBase + l; });
  wb::lanes_svg::shuffle_legend(d, wb::lanes_svg::kPanelH + 4);
  return d;
}

// Writes the picture and says so on stdout; false (and a message on stderr) if it cannot.
inline bool write_explorer_svg(const std::string& file, const Shuffle& s, const LaneResult* r) {
  if (!explorer_svg(s, r).write(file)) return false;
  std::printf("wrote %s (the table above as a picture)\n", file.c_str());
  return true;
}

// --explore-all: every op x width x arg, full mask.
constexpr int kWidths[] = {1, 2, 4, 8, 16, 32};
constexpr int kMaxArg = 32;
inline std::vector<Shuffle> all_cases() {
  std::vector<Shuffle> cases;
  for (Mode op : {Mode::Idx, Mode::Up, Mode::Down, Mode::Xor})
    for (int w : kWidths)
      for (int a = 0; a <= kMaxArg; ++a) cases.push_back({op, a, w, warp_model::kFullMask});
  return cases;
}

inline void print_explore_all_header(size_t n) {
  std::printf("== every shuffle: 4 ops x %zu widths x %d args = %zu cases, full mask ==\n",
              sizeof(kWidths) / sizeof(kWidths[0]), kMaxArg + 1, n);
  std::printf("each line: the lane each of the 32 lanes read from ('|' separates sub-groups)\n");
}

// One case as one line: the lane each lane read from.
inline void print_case_line(const Shuffle& s, const int* src) {
  char label[40];
  std::snprintf(label, sizeof label, "%-4s arg %2d width %2d", op_name(s.op), s.arg, s.width);
  wb::print_lanes(label, src, s.width);
}

// ---------------------------------------------------------------------------------------------
// The command line (the program and its model read it alike, and refuse the same input the same way)
// ---------------------------------------------------------------------------------------------
constexpr const char* kUsage =
    "usage: simpleShuffle                      the lesson: 003's simpleShuffle, the errata, an explorer table\n"
    "       simpleShuffle --full-mask          003's kernels with the full mask 0xffffffff on 16 threads\n"
    "       simpleShuffle --op OP --arg K [--width W] [--mask M] [--svg FILE]\n"
    "                                          the shuffle explorer: OP idx|up|down|xor, K in [0, 32],\n"
    "                                          W a power of two in [1, 32] (default 32),\n"
    "                                          M 0x followed by 1-8 hex digits, or decimal (default 0xffffffff),\n"
    "                                          FILE: also draw the table as an SVG picture\n"
    "       simpleShuffle --explore-all        every op x width (1, 2, 4, 8, 16, 32) x arg (0..32), one line each";

enum class Run { Lesson, FullMask, Explore, ExploreAll };
struct Options {
  Run run = Run::Lesson;
  Shuffle shuffle{Mode::Idx, 0, 32, warp_model::kFullMask};
  std::string svg;  // --svg FILE, or ""
};

[[noreturn]] inline void refuse(const std::string& msg) {
  std::fprintf(stderr, "error: %s\n%s\n", msg.c_str(), kUsage);
  std::exit(2);
}

// "0x" + 1..8 hex digits, or decimal digits below 2^32.
inline bool parse_mask(const std::string& t, uint32_t* out) {
  uint64_t v = 0;
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
    if (t.size() > 10) return false;
    for (size_t i = 2; i < t.size(); ++i) {
      const char c = t[i];
      int d = (c >= '0' && c <= '9') ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10
              : (c >= 'A' && c <= 'F') ? c - 'A' + 10 : -1;
      if (d < 0) return false;
      v = v * 16 + static_cast<uint64_t>(d);
    }
  } else {
    if (t.empty() || t.size() > 10) return false;
    for (char c : t) {
      if (c < '0' || c > '9') return false;
      v = v * 10 + static_cast<uint64_t>(c - '0');
    }
    if (v > 0xffffffffu) return false;
  }
  *out = static_cast<uint32_t>(v);
  return true;
}

inline Options parse_options(int argc, char** argv) {
  wb::Args args(argc, argv, kUsage);
  const bool full_mask = args.flag("--full-mask");
  const bool explore_all = args.flag("--explore-all");
  const bool has_op = args.given("--op");
  const bool has_arg = args.given("--arg");
  const std::string op = args.text("--op", "");
  const uint64_t arg = args.count("--arg", 0, 0, kMaxArg);
  const uint64_t width = args.count("--width", 32, 1, 32);
  const std::string mask_text = args.text("--mask", "");
  const std::string svg = args.text("--svg", "");
  args.finish();
  args.only_with("--op", {"--arg", "--width", "--mask", "--svg"});

  Options o;
  if (int(full_mask) + int(explore_all) + int(has_op) > 1)
    refuse("--full-mask, --explore-all and --op are separate runs: give one of them");
  if (full_mask) o.run = Run::FullMask;
  if (explore_all) o.run = Run::ExploreAll;
  if (!has_op) return o;

  o.run = Run::Explore;
  if (op == "idx") o.shuffle.op = Mode::Idx;
  else if (op == "up") o.shuffle.op = Mode::Up;
  else if (op == "down") o.shuffle.op = Mode::Down;
  else if (op == "xor") o.shuffle.op = Mode::Xor;
  else refuse("--op must be idx, up, down or xor, not '" + op + "'");
  if (!has_arg) refuse("--op needs --arg K (the srcLane, delta or laneMask, 0 to 32)");
  o.shuffle.arg = static_cast<int>(arg);
  if (!warp_model::valid_width(static_cast<int>(width)))
    refuse("--width " + std::to_string(width) + " is not a power of two (1, 2, 4, 8, 16 or 32)");
  o.shuffle.width = static_cast<int>(width);
  if (!mask_text.empty()) {
    if (!parse_mask(mask_text, &o.shuffle.mask))
      refuse("--mask expects 0x and 1 to 8 hex digits, or a decimal number below 2^32, got '" +
             mask_text + "'");
    if (o.shuffle.mask == 0) refuse("--mask 0 names no lane: no lane would call the shuffle");
  }
  if (!svg.empty()) {  // an unwritable file is bad input, found before the GPU
    std::FILE* old = std::fopen(svg.c_str(), "rb");
    if (old) std::fclose(old);
    std::FILE* f = std::fopen(svg.c_str(), "ab");  // append: an existing file is left as it is
    if (!f) refuse("--svg: cannot write '" + svg + "'");
    std::fclose(f);
    if (!old) std::remove(svg.c_str());
    o.svg = svg;
  }
  return o;
}

}  // namespace simple_shuffle
