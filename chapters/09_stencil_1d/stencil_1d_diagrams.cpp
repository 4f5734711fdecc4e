// Chapter 09's pictures: `stencil_1d_diagrams OUTDIR` writes OUTDIR/<name>.svg.
//  * tile_halo: one block's shared tile, from the kernel's own RADIUS and BDIM (stencil_lesson.h),
//    and which thread loads each element (stencil_body's rule: every thread its own element, the
//    first RADIUS threads one halo element on each side).
//  * vec4_windows: stencil_1d_vec4's three aligned float4 loads per thread, in[4q - RADIUS ..
//    4q + 3 + RADIUS], for three neighbouring threads, and how they overlap (RADIUS from
//    stencil_lesson.h; 4 outputs per thread: one float4).
//  * race_chunks: the source's grid-stride loop (stencil_1d_race_demo.cu) on a grid that loops:
//    in chunk k the last RADIUS threads still read the tile's right halo (smem[sidx + i]) while the
//    first RADIUS threads, already in chunk k+1, overwrite it (smem[sidx + BDIM]); from RADIUS and
//    BDIM (stencil_lesson.h).
//  * constant_divergence: the divergence cases of constant_divergence.cu (constant_divergence_cases.h):
//    the word each lane reads, and how many constant-cache reads that makes.
#include <algorithm>
#include <string>

#include "constant_divergence_cases.h"
#include "stencil_lesson.h"
#include "svg.h"

using namespace wb;
using lesson::BDIM;
using lesson::RADIUS;

int main(int argc, char** argv) {
  svg::Writer out;
  if (!svg::parse_outdir(argc, argv, out)) return 2;

  // One block's tile: smem[j] holds in[base - RADIUS + j], j = 0 .. BDIM + 2 * RADIUS - 1.
  {
    constexpr int kTile = BDIM + 2 * RADIUS;
    const double cw = 20, x0 = 40, y_in = 58, y_sm = 150, ch = 22;
    svg::Doc d(x0 * 2 + cw * kTile, 262,
               "One block's shared tile in stencil_1d: " + std::to_string(BDIM) + " elements plus a halo of RADIUS " +
                   std::to_string(RADIUS) + " on each side; thread t loads smem[t + " + std::to_string(RADIUS) +
                   "], and threads 0 to " + std::to_string(RADIUS - 1) + " also load one halo element on each side");
    d.text(x0, 20, "in[] (global memory, padded by RADIUS on both ends)", 13, "start", svg::kBlack, true);
    d.text(x0 - 6, y_in + 15, "in", 11, "end");
    d.text(x0 - 6, y_sm + 15, "smem", 11, "end");
    for (int j = 0; j < kTile; ++j) {
      const bool halo = j < RADIUS || j >= RADIUS + BDIM;
      // stencil_body: thread t stores smem[t + RADIUS]; thread t < RADIUS also stores smem[t] and
      // smem[t + RADIUS + BDIM].
      const int thread = j < RADIUS ? j : (j < RADIUS + BDIM ? j - RADIUS : j - RADIUS - BDIM);
      const char* colour = halo ? svg::kOrange : svg::kSky;
      const double x = x0 + j * cw;
      d.rect(x, y_in, cw - 2, ch, svg::kLight, svg::kBlack, 0.5);
      const int offset = j - RADIUS;  // in[base + offset]
      if (j % 4 == 0 || j == kTile - 1)
        d.text(x + cw / 2 - 1, y_in - 4, offset == 0 ? "base" : "base" + std::string(offset > 0 ? "+" : "") + std::to_string(offset), 9);
      d.arrow(x + cw / 2 - 1, y_in + ch + 1, x + cw / 2 - 1, y_sm - 2, halo ? svg::kVermillion : svg::kBlue, 1.2);
      d.rect(x, y_sm, cw - 2, ch, colour, svg::kBlack, 0.5);
      d.text(x + cw / 2 - 1, y_sm + 15, std::to_string(thread), 9);
    }
    d.text(x0 + cw * kTile / 2, y_sm + ch + 16, "the number in each smem cell: the thread (threadIdx.x) that loads it", 11);
    const double xl = x0, xr = x0 + (RADIUS + BDIM) * cw;
    d.line(xl, y_sm + ch + 26, xl + RADIUS * cw - 2, y_sm + ch + 26, svg::kBlack, 1);
    d.text(xl + RADIUS * cw / 2, y_sm + ch + 40, "left halo", 11);
    d.line(xr, y_sm + ch + 26, xr + RADIUS * cw - 2, y_sm + ch + 26, svg::kBlack, 1);
    d.text(xr + RADIUS * cw / 2, y_sm + ch + 40, "right halo", 11);
    d.legend(x0, 232, {{svg::kSky, "the block's own " + std::to_string(BDIM) + " elements: one per thread"},
                       {svg::kOrange, "halo: threads 0-" + std::to_string(RADIUS - 1) + " load 3 elements each"}});
    out("tile_halo", d);
  }

  // The source's race: two chunks of one block, time going down. Chunk k: thread t reads
  // smem[t + RADIUS - i .. t + RADIUS + i]; the last RADIUS threads' reads reach the right halo,
  // smem[BDIM + RADIUS ..]. Chunk k+1: thread t < RADIUS writes smem[t + RADIUS + BDIM] (the next
  // chunk's right halo), with no barrier after chunk k's reads.
  {
    constexpr int kTile = BDIM + 2 * RADIUS;
    const double cw = 20, x0 = 150, ch = 20;
    const double y_k = 64, y_k1 = 64 + 30 + RADIUS * 16 + 56;
    const int first_reader = BDIM - RADIUS, halo0 = BDIM + RADIUS;
    svg::Doc d(x0 + cw * kTile + 20, y_k1 + ch + RADIUS * 16 + 84,
               "The race in the source's grid-stride loop when a block loops: in chunk k threads " +
                   std::to_string(first_reader) + "\u2013" + std::to_string(BDIM - 1) +
                   " still read the tile's last words (smem[sidx + i]) while threads 0\u2013" +
                   std::to_string(RADIUS - 1) + ", already in chunk k+1, overwrite those words with the next "
                   "chunk's right halo (smem[sidx + BDIM]): no barrier separates them");
    d.text(12, 18, "One block's tile smem[0.." + std::to_string(kTile - 1) + "] (BDIM " + std::to_string(BDIM) +
                       ", RADIUS " + std::to_string(RADIUS) + "), two chunks of its loop; time runs down",
           12.5, "start", svg::kBlack, true);
    auto tile = [&](double y, const std::string& label, const std::string& sub) {
      d.text(x0 - 8, y + 14, label, 11.5, "end", svg::kBlack, true);
      d.text(x0 - 8, y + 28, sub, 10, "end");
      for (int j = 0; j < kTile; ++j) {
        const bool hot = j >= halo0;
        d.rect(x0 + j * cw, y, cw - 2, ch, j < RADIUS || j >= halo0 ? svg::kOrange : svg::kSky,
               hot ? svg::kVermillion : svg::kBlack, hot ? 2.2 : 0.5);
        if (j % 4 == 0 || j == kTile - 1) d.text(x0 + j * cw + cw / 2 - 1, y - 4, std::to_string(j), 9, "middle", svg::kGrey);
      }
    };
    tile(y_k, "chunk k", "all threads");
    // Chunk k, line 31 (the stencil sum): threads BDIM-RADIUS .. BDIM-1 read smem[sidx - RADIUS ..
    // sidx + RADIUS], sidx = t + RADIUS.
    for (int t = first_reader; t < BDIM; ++t) {
      const double y = y_k + ch + 8 + (t - first_reader) * 16;
      const int lo = t, hi = t + 2 * RADIUS;  // sidx - RADIUS .. sidx + RADIUS
      d.line(x0 + lo * cw + 2, y + 5, x0 + std::min(hi, halo0 - 1) * cw + cw - 4, y + 5, svg::kBlue, 3);
      if (hi >= halo0) d.line(x0 + halo0 * cw + 2, y + 5, x0 + hi * cw + cw - 4, y + 5, svg::kVermillion, 3);
      d.text(x0 + lo * cw - 4, y + 9, "thread " + std::to_string(t) + " reads", 10, "end");
    }
    const double ygap = y_k + ch + 8 + RADIUS * 16 + 6;
    d.line(x0 - 140, ygap + 10, x0 + kTile * cw, ygap + 10, svg::kGrey, 1, "4 3");
    d.text(x0 + kTile * cw / 2, ygap + 26, "idx += gridDim.x * blockDim.x: the next chunk, with no __syncthreads() "
                                           "after the reads above", 11, "middle");
    tile(y_k1, "chunk k+1", "the halo loads");
    // Chunk k+1, line 26: thread t < RADIUS writes smem[t + RADIUS + BDIM].
    for (int t = 0; t < RADIUS; ++t) {
      const int w = t + RADIUS + BDIM;
      const double y = y_k1 + ch + 8 + t * 16;
      d.arrow(x0 + w * cw + cw / 2 - 1, y + 10, x0 + w * cw + cw / 2 - 1, y_k1 + ch + 2, svg::kVermillion, 1.4);
      d.line(x0 + (BDIM - 2 * RADIUS) * cw, y + 10, x0 + w * cw + cw / 2 - 1, y + 10, svg::kVermillion, 1, "2 2");
      d.text(x0 + (BDIM - 2 * RADIUS) * cw - 4, y + 14, "thread " + std::to_string(t) + " writes smem[" +
                                                          std::to_string(w) + "]", 10, "end");
    }
    const double ly = y_k1 + ch + RADIUS * 16 + 26;
    d.legend(12, ly, {{svg::kSky, "the chunk's own elements"}, {svg::kOrange, "halo"}}, 11);
    d.line(330, ly + 6, 354, ly + 6, svg::kBlue, 3);
    d.text(360, ly + 10, "read by the stencil sum (line 31)", 11, "start");
    d.line(560, ly + 6, 584, ly + 6, svg::kVermillion, 3);
    d.text(590, ly + 10, "words read in chunk k and rewritten in chunk k+1", 11, "start");
    d.arrow(12, ly + 30, 36, ly + 30, svg::kVermillion, 1.4);
    d.text(42, ly + 34, "smem[sidx + BDIM] = in[idx + BDIM] (line 26): the next chunk's right halo; a thread that "
                        "gets there first overwrites words a neighbour still reads", 11, "start");
    out("race_chunks", d);
  }

  // stencil_1d_vec4: thread q makes out[4q .. 4q+3] from in[4q - RADIUS .. 4q + 3 + RADIUS].
  {
    constexpr int kOut = 4;  // outputs per thread: one float4
    static_assert(RADIUS % kOut == 0, "the float4 loads are aligned only when RADIUS is a multiple of 4");
    constexpr int kLoads = (kOut + 2 * RADIUS) / kOut;  // float4 loads per thread
    constexpr int kThreads = 3;                          // threads drawn: q = 0, 1, 2
    const int first = -RADIUS, last = kOut * (kThreads - 1) + kOut - 1 + RADIUS;  // in[] drawn
    const int cells = last - first + 1;
    const double cw = 28, x0 = 170, y_in = 62, row_h = 40, ch = 22;
    const char* col[kThreads] = {svg::kSky, svg::kOrange, svg::kGreen};
    const double y_rows = y_in + ch + 22, y_out = y_rows + kThreads * row_h + 14;
    auto xc = [&](int i) { return x0 + (i - first) * cw; };  // left edge of in[i] / out[i]
    svg::Doc d(x0 + cells * cw + 30, y_out + ch + 84,
               "stencil_1d_vec4: thread q makes out[4q .. 4q+3] from " + std::to_string(kLoads) +
                   " aligned float4 loads, in[4q-" + std::to_string(RADIUS) + " .. 4q+" + std::to_string(kOut - 1 + RADIUS) +
                   "]; each float4 is loaded by " + std::to_string(kLoads) +
                   " neighbouring threads, so a cache must serve the repeats for DRAM to see each input once");
    d.text(x0 - 10, 20, "three neighbouring threads of stencil_1d_vec4 (RADIUS " + std::to_string(RADIUS) + ")", 13, "start",
           svg::kBlack, true);
    d.text(x0 - 10, y_in + 15, "in[]", 12, "end");
    for (int i = first; i <= last; ++i) {
      d.rect(xc(i), y_in, cw - 2, ch, svg::kLight, svg::kBlack, 0.5);
      d.text(xc(i) + cw / 2 - 1, y_in + 15, std::to_string(i), 10);
    }
    // The float4 that all drawn threads load: in[4 .. 7] for threads 0, 1, 2 (as r, m, l).
    const int shared4 = kOut * (kThreads / 2);
    d.rect(xc(shared4) - 3, y_in - 6, kOut * cw + 4, y_rows + kThreads * row_h - y_in, svg::kNone, svg::kBlack, 1.2);
    d.text(xc(shared4) + kOut * cw / 2, y_in - 10, "loaded by all three", 11);
    for (int q = 0; q < kThreads; ++q) {
      const double y = y_rows + q * row_h;
      d.text(x0 - 10, y + 15, "thread q = " + std::to_string(q) + ": " + std::to_string(kLoads) + " loads", 12, "end");
      for (int l = 0; l < kLoads; ++l) {
        const int lo = kOut * q - RADIUS + kOut * l;  // this float4 is in[lo .. lo + 3]
        d.rect(xc(lo) + 1, y, kOut * cw - 4, ch, col[q], svg::kBlack, 0.75);
        d.text(xc(lo) + kOut * cw / 2 - 1, y + 15,
               "in[" + std::to_string(lo) + ".." + std::to_string(lo + kOut - 1) + "]", 11);
      }
    }
    d.text(x0 - 10, y_out + 15, "out[]", 12, "end");
    for (int q = 0; q < kThreads; ++q)
      for (int j = 0; j < kOut; ++j) {
        const int i = kOut * q + j;
        d.rect(xc(i), y_out, cw - 2, ch, col[q], svg::kBlack, 0.5);
        d.text(xc(i) + cw / 2 - 1, y_out + 15, std::to_string(i), 10);
      }
    d.text(20, y_out + ch + 24,
           "Thread q loads in[4q-" + std::to_string(RADIUS) + " .. 4q+" + std::to_string(kOut - 1 + RADIUS) +
               "] as " + std::to_string(kLoads) + " float4s and stores out[4q .. 4q+3] as one float4.",
           12, "start");
    d.text(20, y_out + ch + 44,
           "Each float4 of in[] is requested by " + std::to_string(kLoads) +
               " threads; which cache (L1 or L2) serves the repeats is not measured.",
           12, "start");
    d.legend(20, y_out + ch + 58,
             {{col[0], "thread 0's loads and outputs"}, {col[1], "thread 1's"}, {col[2], "thread 2's"}});
    out("vec4_windows", d);
  }

  // constant_divergence: lane l reads word start_word(l, k, 4); one row per case k.
  {
    constexpr int kRows = sizeof(cd_cases::kDistinct) / sizeof(cd_cases::kDistinct[0]);
    const double cw = 18, x0 = 70, row_h = 40, y0 = 50, slot = 5, xs = x0 + cd_cases::kLanes * cw + 24;
    svg::Doc d(xs + slot * 32 + 150, y0 + kRows * row_h + 50,
               "constant memory: a warp read whose 32 lanes ask for one word is one constant-cache read, broadcast; "
               "with k distinct words it is k reads, one after another (the cases of constant_divergence)");
    d.text(x0, 18, "word each lane reads (lane 0 left, lane 31 right)", 13, "start", svg::kBlack, true);
    d.text(xs, 18, "constant-cache reads", 13, "start", svg::kBlack, true);
    d.text(xs, 34, "(one after another)", 11, "start");
    for (int r = 0; r < kRows; ++r) {
      const int k = cd_cases::kDistinct[r];
      const double y = y0 + r * row_h;
      d.text(x0 - 8, y + 15, "k = " + std::to_string(k), 12, "end");
      for (int l = 0; l < cd_cases::kLanes; ++l) {
        const unsigned w = cd_cases::start_word(l, k, 4);
        const std::string fill = k == 1 ? svg::kSky : svg::cyclic(static_cast<int>(w));
        d.rect(x0 + l * cw, y, cw - 2, 22, fill, svg::kBlack, 0.5);
        const bool dark = fill == svg::kBlue || fill == svg::kVermillion;  // white digits stay legible there
        d.text(x0 + l * cw + cw / 2 - 1, y + 15, std::to_string(w), 9, "middle", dark ? svg::kWhite : svg::kBlack);
      }
      for (int i = 0; i < k; ++i) d.rect(xs + i * slot, y + 3, slot - 1, 16, svg::kGrey, svg::kNone);
      d.text(xs + k * slot + 6, y + 15, k == 1 ? "1 read, broadcast" : std::to_string(k) + " reads", 11, "start");
    }
    d.text(x0, y0 + kRows * row_h + 14,
           "Each cell: the word index, word = lane mod k (the 4-bytes-apart case; the 256-bytes-apart case multiplies it by 64).",
           11, "start");
    d.text(x0, y0 + kRows * row_h + 32, "Colours only separate neighbouring words; the number is the word.", 11, "start");
    out("constant_divergence", d);
  }
  return out.rc;
}
