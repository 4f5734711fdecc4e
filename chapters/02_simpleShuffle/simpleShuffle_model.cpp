// CPU model of chapter 02: predicts simpleShuffle's stdout, for every option the program takes,
// without a GPU. Sections 1 and 2 print the CPU references (plain loops over the input); the
// explorer tables (and their --svg pictures) come from the rules of common/warp_model.h. Refuses bad input exactly as the
// program does (the same parser, the same message, exit 2).
#include "simpleShuffle_lesson.h"

using namespace simple_shuffle;

namespace {

void source_program(bool full_mask, bool with_errata) {
  const std::vector<int> in = initial_data();
  const uint32_t m16 = full_mask ? warp_model::kFullMask : lanes_that_run(BDIMX);
  const uint32_t m4 = full_mask ? warp_model::kFullMask : lanes_that_run(BDIMX / SEGM);
  print_section1_header(m16, m4);
  print_source_line("initialData", in.data(), BDIMX);
  for (const auto& line : source_lines(in)) print_source_line(line.label, line.want.data(), BDIMX);
  if (with_errata) {
    print_section2_header(in);
    for (const auto& c : kWrapCases) wb::print_lanes(c.label, wrap_reference(in, c.offset).data(), BDIMX);
  }
}

// Returns false if the picture (--svg) cannot be written.
bool explorer_table(const char* heading, const Shuffle& s, const std::string& svg = "") {
  LaneResult r[32];
  predict(s, r);
  print_table(heading, s, r);
  return svg.empty() || write_explorer_svg(svg, s, r);
}

void explore_all() {
  const auto cases = all_cases();
  print_explore_all_header(cases.size());
  for (const auto& c : cases) {
    LaneResult r[32];
    predict(c, r);
    int src[32];
    for (int l = 0; l < 32; ++l) src[l] = r[l].src;
    print_case_line(c, src);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const Options opt = parse_options(argc, argv);
  switch (opt.run) {
    case Run::Lesson:
      source_program(false, true);
      std::printf("\n");
      explorer_table(kExampleHeading, kExample);
      break;
    case Run::FullMask: source_program(true, false); break;
    case Run::Explore:
      if (!explorer_table(kExplorerHeading, opt.shuffle, opt.svg)) return 1;
      break;
    case Run::ExploreAll: explore_all(); break;
  }
  std::printf("\nPASS: every value matches the CPU reference\n");
  return 0;
}
