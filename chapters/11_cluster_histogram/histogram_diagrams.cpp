// Chapter 11's pictures: `cluster_histogram_diagrams OUTDIR` writes OUTDIR/<name>.svg.
//  - cluster_bins: one printed case of clusterHist_kernel (histogram_lesson.h: its bins, cluster size
//    and block size, and the generated input the golden test checks), the bins each block of the
//    cluster owns and where the first values of one block's threads are added.
//  - packed_carry: histPacked's 16- and 8-bit counter words at an overflow; the carry is computed by
//    running the kernel's own carry_out (kernels/packed_counter.cuh) on the CPU.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "histogram_lesson.h"
#include "svg.h"

// kernels/packed_counter.cuh is CUDA only through its qualifiers and atomicAdd: on the host the
// qualifiers mean nothing, and atomicAdd is a plain add that also records each global update so that
// the picture can show it. One thread, one step: the same arithmetic as the GPU's atomic.
namespace {
struct GlobalAdd {
  const unsigned* where;
  unsigned value;
};
std::vector<GlobalAdd> g_adds;
unsigned atomicAdd(unsigned* p, unsigned v) {
  g_adds.push_back({p, v});
  const unsigned old = *p;
  *p = old + v;
  return old;
}
}  // namespace
#define __host__
#define __device__
#define __noinline__
#include "kernels/packed_counter.cuh"
#undef __host__
#undef __device__
#undef __noinline__

using namespace wb;

namespace {

std::string with_commas(long long v) {
  std::string s = std::to_string(v < 0 ? -v : v), o;
  for (size_t i = 0; i < s.size(); ++i) {
    if (i && (s.size() - i) % 3 == 0) o += ',';
    o += s[i];
  }
  return v < 0 ? "-" + o : o;
}

std::string hex(unsigned v, int digits) {
  static const char* k = "0123456789ABCDEF";
  std::string s;
  for (int i = digits - 1; i >= 0; --i) s += k[(v >> (4 * i)) & 15];
  return "0x" + s;
}

// ---- cluster_bins -----------------------------------------------------------------------------

void cluster_bins(svg::Writer& out) {
  // The printed case with a cluster of 4: small enough to draw every block, large enough to need it.
  const lesson::Case* cs = nullptr;
  for (const auto& c : lesson::kCases)
    if (c.cluster == 4 && !cs) cs = &c;
  const lesson::Case c = *cs;
  const int bpb = c.bins / c.cluster;  // clusterHist_kernel's bins_per_block (Hist::source)
  const int threads_shown = 8;
  // Thread t of block rank r reads element r * 512 + t in the first step of the grid-stride loop
  // (blockIdx.x * blockDim.x + threadIdx.x; the first cluster is blocks 0 .. cluster - 1). Its bin's
  // owner is rank bin / bins_per_block, at offset bin % bins_per_block (the kernel's dst_block_rank,
  // dst_offset).
  auto bin_of = [&](int r, int t) {
    return lesson::clamp_bin(lesson::value_at(uint64_t(r) * lesson::kSourceThreads + t, c.bins, c.dist), c.bins);
  };
  // The first block whose first threads add both into their own block and into others.
  int shown_block = 0;
  for (int r = c.cluster - 1; r >= 0; --r) {
    int local = 0;
    for (int t = 0; t < threads_shown; ++t) local += bin_of(r, t) / bpb == r;
    if (local > 0 && local < threads_shown) shown_block = r;
  }

  const double W = 860, H = 420;
  svg::Doc d(W, H,
             "clusterHist_kernel, " + with_commas(c.bins) + " bins in a cluster of " + std::to_string(c.cluster) +
                 " blocks: each block's shared memory holds " + with_commas(bpb) +
                 " bins, and a thread adds each value into the block that owns its bin");
  d.text(W / 2, 22,
         with_commas(c.bins) + " bins, a cluster of " + std::to_string(c.cluster) + " blocks of " +
             std::to_string(lesson::kSourceThreads) + " threads: " + with_commas(c.bins) + " / " +
             std::to_string(c.cluster) + " = " + with_commas(bpb) + " int bins (" + std::to_string(bpb * 4 / 1024) +
             " KB) in each block",
         13.5, "middle", svg::kBlack, true);

  // The cluster: one box per block, its shared memory a bar of bins.
  const double cx = 20, cw = W - 40, cy = 218, ch = 136, gap = 12;
  const double bw = (cw - gap * (c.cluster + 1)) / c.cluster;
  const double bar_y = cy + 40, bar_h = 34;
  d.rect(cx, cy, cw, ch, svg::kNone, svg::kGrey, 1.5, "stroke-dasharray=\"6 4\" rx=\"8\"");
  d.text(cx + 10, cy + ch - 10,
         "one cluster: its blocks run at the same time and read, write and atomicAdd each other's shared memory",
         11.5, "start", svg::kBlack);
  auto block_x = [&](int r) { return cx + gap + r * (bw + gap); };
  for (int r = 0; r < c.cluster; ++r) {
    const double x = block_x(r);
    d.rect(x, cy + 10, bw, ch - 36, r == shown_block ? "#EEF6FC" : svg::kWhite, svg::kBlack, 1, "rx=\"5\"");
    d.text(x + bw / 2, cy + 29, "block rank " + std::to_string(r), 13, "middle", svg::kBlack, true);
    d.rect(x + 8, bar_y, bw - 16, bar_h, r == shown_block ? svg::kSky : svg::kLight, svg::kBlack, 0.75);
    d.text(x + bw / 2, bar_y + 22, "bins " + with_commas(long(r) * bpb) + " .. " + with_commas(long(r + 1) * bpb - 1),
           12);
    d.text(x + bw / 2, bar_y + bar_h + 16, "its smem[0 .. " + with_commas(bpb - 1) + "]", 11.5);
  }

  const double ty = 62, tw = 96, th = 66;
  const double tx0 = (W - threads_shown * tw - (threads_shown - 1) * 6) / 2;
  d.text(W / 2, ty - 12,
         "block rank " + std::to_string(shown_block) + ", threads 0-" + std::to_string(threads_shown - 1) +
             ", first step of the grid-stride loop: elements " +
             with_commas(long(shown_block) * lesson::kSourceThreads) + "-" +
             with_commas(long(shown_block) * lesson::kSourceThreads + threads_shown - 1) + " of the source input",
         12);
  for (int t = 0; t < threads_shown; ++t) {
    const int v = lesson::value_at(uint64_t(shown_block) * lesson::kSourceThreads + t, c.bins, c.dist);
    const int bin = bin_of(shown_block, t);
    const int owner = bin / bpb, offset = bin % bpb;
    const double x = tx0 + t * (tw + 6);
    const bool local = owner == shown_block;
    const char* colour = local ? svg::kBlue : svg::kVermillion;
    d.rect(x, ty, tw, th, svg::kWhite, colour, 1.5, "rx=\"4\"");
    d.text(x + tw / 2, ty + 15, "thread " + std::to_string(t), 11.5, "middle", svg::kBlack, true);
    d.text(x + tw / 2, ty + 30, "value " + with_commas(v), 11);
    d.text(x + tw / 2, ty + 44, v == bin ? "bin " + with_commas(bin) : "bin " + with_commas(bin) + " (clamped)", 11);
    d.text(x + tw / 2, ty + 58, "rank " + std::to_string(owner) + ", [" + with_commas(offset) + "]", 11);
    const double bx = block_x(owner) + 8 + (bw - 16) * (offset + 0.5) / bpb;
    d.arrow(x + tw / 2, ty + th, bx, bar_y - 1, colour, 1.6, local ? "" : "5 3");
  }
  d.legend(cx + 4, H - 42,
           {{svg::kBlue, "atomicAdd into its own block's shared memory"},
            {svg::kVermillion, "into another block's, through cluster.map_shared_rank (dashed)"}},
           11.5);
  d.text(cx + 4, H - 12,
         "rank = bin / " + with_commas(bpb) + ", [offset] = bin % " + with_commas(bpb) +
             "; cluster.sync() before (every block zeroed and running) and after (none exits early)",
         11.5, "start");
  out("cluster_bins", d);
}

// ---- packed_carry -----------------------------------------------------------------------------

// One shared word of kBits-bit counters: `before` is its value, `bin` the bin a thread counts. Runs
// histPacked's add (kernels/histPacked.cuh: field = b % kPer, atomicAdd(&word, 1u << field * kBits),
// a wrap when that field of the old word is all ones) and, on a wrap, the kernel's carry_out. Draws the
// word before and after and the global updates; checks that every bin's count comes out exact.
template <int kBits>
int packed_panel(svg::Doc& d, double y0, int word, unsigned before, int bin, const std::string& note) {
  constexpr int kPer = 32 / kBits;
  constexpr unsigned kMax = (1u << kBits) - 1;
  const int word_bin = word * kPer;
  const int field = bin % kPer, shift = field * kBits;
  unsigned shared_word = before;
  g_adds.clear();
  const unsigned old = atomicAdd(&shared_word, 1u << shift);  // the shared add, not a global update
  g_adds.clear();
  std::vector<unsigned> global(word_bin + kPer, 0);  // this word's bins in global memory, from 0
  unsigned wraps = 0;
  const bool wrapped = ((old >> shift) & kMax) == kMax;
  if (wrapped) carry_out<kBits>(global.data(), word_bin, word_bin + kPer, field, old, &wraps);
  g_adds.pop_back();  // the last add was to `wraps`, the lesson's counter, not a bin

  const double x0 = 130, ww = 500, fh = 40;
  auto field_of = [&](unsigned w, int f) { return (w >> (f * kBits)) & kMax; };
  // Before: the field counted. After: the fields the step changed, wrapped to 0 or carried into.
  auto colour = [&](int f, bool after) -> const char* {
    if (!after) return f == field ? svg::kSky : svg::kLight;
    if (field_of(old, f) == field_of(shared_word, f)) return svg::kLight;
    return field_of(shared_word, f) == 0 ? svg::kVermillion : svg::kOrange;
  };
  auto draw_word = [&](double y, unsigned w, const std::string& label, bool bins_above) {
    d.text(x0 - 10, y + fh / 2 + 5, label, 12.5, "end", svg::kBlack, true);
    for (int f = 0; f < kPer; ++f) {
      const double fw = ww / kPer, x = x0 + (kPer - 1 - f) * fw;  // bit 31 on the left
      d.rect(x, y, fw, fh, colour(f, !bins_above), svg::kBlack, 1);
      const unsigned v = field_of(w, f);
      d.text(x + fw / 2, y + 17, hex(v, kBits / 4), 12.5, "middle", svg::kBlack, true);
      d.text(x + fw / 2, y + 33, "= " + with_commas(v), 11.5);
      if (bins_above)
        d.text(x + fw / 2, y - 6,
               "bin " + std::to_string(word_bin + f) + " (bits " + std::to_string(f * kBits + kBits - 1) + "-" +
                   std::to_string(f * kBits) + ")",
               11.5);
    }
  };
  d.text(20, y0, std::to_string(kBits) + "-bit counters, " + std::to_string(kPer) + " per word: bin b is field b % " +
                     std::to_string(kPer) + " of word b / " + std::to_string(kPer) + note,
         13, "start", svg::kBlack, true);
  draw_word(y0 + 30, old, "hist[" + std::to_string(word) + "] before", true);
  d.text(x0 + ww + 10, y0 + 44, "a thread counts bin " + std::to_string(bin) + ":", 11.5, "start");
  d.text(x0 + ww + 10, y0 + 60, "atomicAdd(&hist[" + std::to_string(word) + "], 1u << " + std::to_string(shift) + ")",
         11.5, "start");
  draw_word(y0 + 80, shared_word, "after", false);
  d.text(x0 + ww + 10, y0 + 94, wrapped ? "field was " + hex(kMax, kBits / 4) + ": it wrapped" : "no wrap", 11.5,
         "start");
  // The carry ran out of the top field when every field above the counted one was all ones.
  bool out_of_word = wrapped;
  for (int f = field + 1; f < kPer; ++f) out_of_word = out_of_word && field_of(old, f) == kMax;
  d.text(x0 + ww + 10, y0 + 110, !wrapped ? "" : out_of_word ? "and the carry left the word" : "and carried 1 upward",
         11.5, "start");

  // carry_out's global updates, as the kernel makes them.
  std::string line = "carry_out (the thread that saw the wrap):";
  for (const auto& a : g_adds) {
    const int delta = static_cast<int>(a.value);  // 0xFFFFFFFF is -1
    const long b = a.where - global.data();
    line += std::string(&a == &g_adds.front() ? " " : "; ") + "bins[" + std::to_string(b) + "] " +
            (delta < 0 ? "-= " : "+= ") + with_commas(delta < 0 ? -delta : delta) +
            (b == word_bin + field ? " (its wrap)"
             : delta < 0            ? " (the carry is no hit)"
                                    : " (wrapped by the carry: " + with_commas(kMax + 1) + " - 1)");
  }
  d.text(20, y0 + 146, line, 12, "start");

  // Exact: at read-out each bin is its global corrections plus its field; it must equal its hits
  // (the field before, plus the one counted).
  std::string sums = "after the pass, bins[b] + field b:";
  int bad = 0;
  for (int f = 0; f < kPer; ++f) {
    const int b = word_bin + f;
    const long long got = static_cast<long long>(static_cast<int>(global[b])) + field_of(shared_word, f);
    const long long truth = static_cast<long long>(field_of(old, f)) + (f == field ? 1 : 0);
    if (got != truth) ++bad;
    sums += std::string(f ? "; " : " ") + "bin " + std::to_string(b) + " = " + with_commas(got);
  }
  d.text(20, y0 + 166, sums + (bad ? "  (NOT EXACT)" : ": each its hits, exact"), 12, "start");
  return bad;
}

int packed_carry(svg::Writer& out) {
  // kernels/histPacked.cuh's narrower widths, in the printed order (lesson::kPackedBits = 32, 16, 8).
  constexpr int k16 = lesson::kPackedBits[1], k8 = lesson::kPackedBits[2];
  // The hot inputs' hottest bin (the printed hot case): the bin whose counters overflow in the lesson.
  const lesson::Case* hot = nullptr;
  for (const auto& c : lesson::kCases)
    if (c.dist == lesson::kHot && !hot) hot = &c;
  const lesson::CpuHist h = lesson::cpu_histogram(lesson::kLessonN, hot->bins, hot->dist);
  // Its two fullest bins (2 and 3 by construction of kHot); b is the lower one, so that the carry out
  // of b's counter lands in the other hot bin's.
  int b1 = 0, b2 = 1;
  if (h.dropped[b2] > h.dropped[b1]) std::swap(b1, b2);
  for (int i = 2; i < hot->bins; ++i) {
    if (h.dropped[i] > h.dropped[b1]) {
      b2 = b1;
      b1 = i;
    } else if (h.dropped[i] > h.dropped[b2]) {
      b2 = i;
    }
  }
  const int b = std::min(b1, b2);

  const double W = 860, H = 440;
  svg::Doc d(W, H,
             "histPacked's packed counters: an atomicAdd that takes a " + std::to_string(k16) + "- or " +
                 std::to_string(k8) + "-bit field from all ones to 0 carries 1 into the next field; the thread "
                 "that made it moves the overflow to global memory and takes the carry back there");
  const int w16 = b / (32 / k16), w8 = b / (32 / k8);
  // Example states just before bin b's counter wraps: its field all ones, its neighbours arbitrary
  // (16-bit: the next field half full; 8-bit: the next field all ones too, so the carry goes on).
  unsigned s16 = 0, s8 = 0;
  for (int f = 0; f < 32 / k16; ++f) {
    const int bin = w16 * (32 / k16) + f;
    const unsigned v = bin == b ? (1u << k16) - 1 : bin == b + 1 ? 40000u : 1234u;
    s16 |= v << (f * k16);
  }
  for (int f = 0; f < 32 / k8; ++f) {
    const int bin = w8 * (32 / k8) + f;
    const unsigned v = bin == b ? (1u << k8) - 1 : bin == b + 1 ? (1u << k8) - 1 : 18u + 16u * f;
    s8 |= v << (f * k8);
  }
  int bad = packed_panel<k16>(d, 24, w16, s16, b,
                              " (bins " + std::to_string(b) + ", " + std::to_string(b + 1) + ": the hot input's)");
  bad += packed_panel<k8>(d, 220, w8, s8, b, " (here bin " + std::to_string(b + 1) + " is full too)");
  d.legend(20, H - 26,
           {{svg::kSky, "the field counted"}, {svg::kVermillion, "wrapped to 0"}, {svg::kOrange, "received the carry"},
            {svg::kLight, "unchanged"}},
           11.5);
  out("packed_carry", d);
  if (bad) std::fprintf(stderr, "packed_carry: carry_out did not make every bin exact\n");
  return bad ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  svg::Writer out;
  if (!svg::parse_outdir(argc, argv, out)) return 2;
  cluster_bins(out);
  const int bad = packed_carry(out);
  return bad ? 1 : out.rc;
}
