// Chapter 08's picture of sgemmTuned's tiling, computed from the types the kernel is instantiated
// with (matMul_tiles.h: TunedLargeTiles = Tiles<lesson::kTunedLarge ...>), so that it cannot drift
// from the code: `matMul_diagrams OUTDIR` writes OUTDIR/<name>.svg. ladder_tiles draws the shared-memory
// MatMulKernel's tile walk (BLOCK_SIZE) and the elements of C one thread owns in sgemmRegTile and
// sgemmVec4 (kBM, kBN, kThreads, kVec4Step), from the same constants the kernels use (matMul_tiles.h);
// sgemmSetMaxNReg_registers the registers per thread of step 9's and step 10's warps (matMul_lesson.h).
#include <string>
#include <vector>

#include "matMul_tiles.h"
#include "svg.h"

using namespace wb;

namespace {

std::string n(int v) { return std::to_string(v); }

// v with thousands separators (50176 -> "50,176").
std::string grouped(int v) {
  std::string s = std::to_string(v), o;
  for (size_t i = 0; i < s.size(); ++i) {
    if (i && (s.size() - i) % 3 == 0) o += ',';
    o += s[i];
  }
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  svg::Writer out;
  if (!svg::parse_outdir(argc, argv, out)) return 2;

  // sgemmTuned at the shape it runs from 4096^2 outputs on; kTunedSmall differs only in the block
  // order (row by row), which this picture does not show.
  {
    using T = TunedLargeTiles;
    constexpr lesson::TileCfg c = lesson::kTunedLarge, small = lesson::kTunedSmall;
    static_assert(small.bm == c.bm && small.bn == c.bn && small.bk == c.bk && small.wm == c.wm && small.wn == c.wn &&
                      small.rm == c.rm && small.rn == c.rn && small.stages == c.stages && small.minb == c.minb &&
                      small.pf == c.pf,
                  "the picture says the two tuned shapes differ only in the block order");
    constexpr int kWarpsN = T::BN / T::WN, kWarps = (T::BM / T::WM) * kWarpsN;
    const double s = 2.5;                        // pixels per element
    const double cx = 70, cy = 118;              // C's block tile
    const double ax = cx - T::BK * s - 12;       // A's k-tile, left of it
    const double by = cy - T::BK * s - 12;       // B's k-tile, above it
    const double rx = cx + T::BN * s + 40;       // the stages, right of it
    svg::Doc d(880, 380,
               "sgemmTuned's tiling: a " + n(T::BM) + " x " + n(T::BN) + " block tile of C in " + n(kWarps) +
                   " warps of " + n(T::WM) + " x " + n(T::WN) + ", each thread " + n(4 * T::RM) + " x " +
                   n(4 * T::RN) + " sums in " + n(T::RM) + " x " + n(T::RN) + " blocks of 4 x 4, and the K loop's " +
                   n(T::STAGES) + " shared stages of a " + n(T::BK) + "-deep k-tile filled by cp.async");

    d.text(ax, 22, "one block: " + n(T::kThreads) + " threads (" + n(kWarps) + " warps), at most " + n(T::MINB) +
                       " blocks per SM", 14, "start", svg::kBlack, true);

    // A's and B's k-tiles, with the rows and columns that lane 0 of warp 0 reads for each k.
    d.rect(ax, cy, T::BK * s, T::BM * s, svg::kLight, svg::kBlack, 1);
    d.rect(cx, by, T::BN * s, T::BK * s, svg::kLight, svg::kBlack, 1);
    for (int r = 0; r < T::RM; ++r)
      d.rect(ax, cy + r * (T::WM / T::RM) * s, T::BK * s, 4 * s, svg::kOrange, svg::kBlack, 0.5);
    for (int r = 0; r < T::RN; ++r)
      d.rect(cx + r * (T::WN / T::RN) * s, by, 4 * s, T::BK * s, svg::kOrange, svg::kBlack, 0.5);
    d.text(ax + T::BK * s / 2, cy + T::BM * s + 16, "A: " + n(T::BM) + " x " + n(T::BK), 12);
    d.text(cx, by - 6, "B: " + n(T::BK) + " x " + n(T::BN), 12, "start");

    // C's block tile: the warps' tiles, warp 0's lanes' 4 x 4 blocks, lane 0's in orange.
    d.rect(cx, cy, T::BN * s, T::BM * s, svg::kWhite, svg::kBlack, 1.5);
    for (int i = 0; i < T::WM / 4; ++i)
      for (int j = 0; j < T::WN / 4; ++j) {
        // the lane that owns this 4 x 4 block of warp 0 (sgemm_async_body's a0, b0)
        const int ty = (i % (T::WM / T::RM / 4)), tx = (j % (T::WN / T::RN / 4)), lane = ty * T::WTX + tx;
        d.rect(cx + j * 4 * s, cy + i * 4 * s, 4 * s, 4 * s, lane == 0 ? svg::kOrange : svg::kSky, svg::kWhite,
               0.5);
      }
    for (int w = 0; w < kWarps; ++w) {
      const double x = cx + (w % kWarpsN) * T::WN * s, y = cy + (w / kWarpsN) * T::WM * s;
      d.rect(x, y, T::WN * s, T::WM * s, svg::kNone, svg::kBlack, 1.5);
      d.text(x + T::WN * s / 2, y + T::WM * s / 2 + 5, "warp " + n(w), 14, "middle", svg::kBlack, w > 0);
    }
    d.text(cx + T::BN * s / 2, cy + T::BM * s + 16, "C: " + n(T::BM) + " x " + n(T::BN) + " block tile, warp tiles " +
                                                       n(T::WM) + " x " + n(T::WN), 12);
    d.legend(ax, cy + T::BM * s + 30,
             {{svg::kSky, "warp 0's 32 lanes (" + n(T::WTY) + " x " + n(T::WTX) + "): each cell a 4 x 4 block, " + n(T::RM * T::RN) +
                            " per lane"}});
    d.legend(ax, cy + T::BM * s + 50,
             {{svg::kOrange, "lane 0: " + n(T::RM) + " x " + n(T::RN) + " blocks = " + n(4 * T::RM) + " x " +
                                 n(4 * T::RN) + " sums; its A rows, B columns"}});
    d.text(ax, cy + T::BM * s + 84,
           "per k a thread loads " + n(T::RM) + " + " + n(T::RN) + " float4 (LDS.128) and does " +
               n(16 * T::RM * T::RN) + " FMAs",
           12, "start");

    // The K loop's ring of stages, at iteration kt = 5: stage s holds the tile t in
    // [kt, kt + STAGES - 1] with t % STAGES == s (sgemm_async_body's copy_tile and its loop).
    const int kt = 5;
    const double bw = 88, bh = 54, gap = 14;
    d.text(rx, 68, n(T::STAGES) + " shared stages, " + grouped(T::kSmemBytes) + " bytes per block", 13, "start",
           svg::kBlack, true);
    d.text(rx, 86, "a stage: A " + n(T::BK) + " x (" + n(T::BM) + " + " + n(T::kPadA) + ") and B " + n(T::BK) +
                       " x " + n(T::BN) + " floats",
           12, "start");
    d.text(rx, 104, "iteration kt = " + n(kt) + " of the K loop (tile t in stage t % " + n(T::STAGES) + "):", 12,
           "start");
    for (int st = 0; st < T::STAGES; ++st) {
      int t = kt;
      while (t % T::STAGES != st) ++t;
      const bool now = t == kt, refill = t == kt + T::STAGES - 1;
      const char* fill = now ? svg::kGreen : refill ? svg::kYellow : svg::kSky;
      const double x = rx + st * (bw + gap), y = 118;
      d.rect(x, y, bw, bh, fill, svg::kBlack, 1);
      d.text(x + bw / 2, y + 20, "stage " + n(st), 12, "middle", now ? svg::kWhite : svg::kBlack);
      d.text(x + bw / 2, y + 40, "tile " + n(t), 13, "middle", now ? svg::kWhite : svg::kBlack, true);
    }
    double ly = 190;
    d.rect(rx, ly, 12, 12, svg::kGreen, svg::kBlack, 0.75);
    d.text(rx + 16, ly + 10, "tile kt: landed, the FMAs read it", 12, "start");
    ly += 20;
    d.rect(rx, ly, 12, 12, svg::kSky, svg::kBlack, 0.75);
    d.text(rx + 16, ly + 10, "tiles kt+1 .. kt+" + n(T::STAGES - 2) + ": copied earlier, in flight or landed", 12, "start");
    ly += 20;
    d.rect(rx, ly, 12, 12, svg::kYellow, svg::kBlack, 0.75);
    d.text(rx + 16, ly + 10, "tile kt+" + n(T::STAGES - 1) + ": copies issued now, into tile kt-1's stage", 12,
           "start");
    ly += 34;
    d.text(rx, ly, "each iteration: cp.async.wait_group " + n(T::STAGES - 2) + ", one barrier,", 12, "start");
    d.text(rx, ly + 18, "copy tile kt+" + n(T::STAGES - 1) + ", then " + n(T::BK) + " k of FMAs on tile kt", 12,
           "start");
    d.text(rx, ly + 46,
           "blocks walk C in groups of " + n(c.group) + " tile rows from " + n(int(lesson::kTunedLargeFrom / 4096)) +
               " x 4096 outputs on,",
           12, "start");
    d.text(rx, ly + 64, "row by row below (the same shape otherwise)", 12, "start");
    out("sgemmTuned_tiling", d);
  }

  // The ladder's first tiles. Left: smem::MatMulKernel, block (blockRow, blockCol) of a C of 3 x 3
  // tiles, K of kSteps tiles: at step m it loads A's tile (blockRow, m) and B's tile (m, blockCol)
  // (GetSubMatrix(A, blockRow, m), GetSubMatrix(B, m, blockCol)). Right: the elements of C that
  // threads 0 and 1 own in a block's kBM x kBN tile: sgemmRegTile, thread (ty, tx) = (tid / 16,
  // tid % 16), rows ty * 8 + i and columns tx * 8 + j; sgemmVec4, rows ty * 4 + i (+ kVec4Step) and
  // columns tx * 4 + j (+ kVec4Step), i, j < 4.
  {
    constexpr int kTilesM = 3, kTilesN = 3, kSteps = 4, blockRow = 1, blockCol = 2;
    constexpr int kGridSide = kBM / 8;  // threads per side of the block: 8 outputs per thread per side
    static_assert(kGridSide * kGridSide == kThreads, "a 16 x 16 grid of threads");
    const double ts = 26;  // one 16 x 16 tile
    const double ax = 30, bx = ax + kSteps * ts + 30, by = 36, cy = by + kSteps * ts + 12;
    svg::Doc d(866, 390,
               "Left: smem::MatMulKernel's walk: the block that computes C tile (" + n(blockRow) + ", " + n(blockCol) +
                   ") loads A tile (" + n(blockRow) + ", m) and B tile (m, " + n(blockCol) + ") into shared memory at "
                   "each step m, " + n(BLOCK_SIZE) + " x " + n(BLOCK_SIZE) + " each. Right: the elements of C that "
                   "threads 0 and 1 own in a " + n(kBM) + " x " + n(kBN) + " block tile: sgemmRegTile one 8 x 8 block, "
                   "sgemmVec4 four 4 x 4 blocks " + n(kVec4Step) + " apart");
    d.text(12, 18, "smem::MatMulKernel", 12.5, "start", svg::kBlack, true);
    d.text(12, 34, n(BLOCK_SIZE) + " x " + n(BLOCK_SIZE) + " tiles", 11, "start");
    auto grid = [&](double x, double y, int rows, int cols, const std::string& name, auto colour_of) {
      for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
          const int m = colour_of(r, c);
          d.rect(x + c * ts, y + r * ts, ts, ts, m < 0 ? svg::kLight : svg::cyclic(m), svg::kBlack, 0.6);
          if (m >= 0 && name != "C") d.text(x + c * ts + ts / 2, y + r * ts + ts / 2 + 4, n(m), 10.5);
        }
      if (name == "B") d.text(x + cols * ts + 8, y + rows * ts / 2 + 4, name, 12, "start", svg::kBlack, true);
      else d.text(x + cols * ts / 2, y + rows * ts + 14, name, 12, "middle", svg::kBlack, true);
    };
    grid(ax, cy, kTilesM, kSteps, "A", [&](int r, int c) { return r == blockRow ? c : -1; });
    grid(bx, by, kSteps, kTilesN, "B", [&](int r, int c) { return c == blockCol ? r : -1; });
    grid(bx, cy, kTilesM, kTilesN, "C", [&](int r, int c) { return r == blockRow && c == blockCol ? -1 : -2; });
    d.rect(bx + blockCol * ts, cy + blockRow * ts, ts, ts, svg::kBlue, svg::kBlack, 1.5);
    d.text(ax, cy + kTilesM * ts + 34, "number m: loaded at step m", 11, "start");
    d.text(ax, cy + kTilesM * ts + 50, "(one element per thread per tile),", 11, "start");
    d.text(ax, cy + kTilesM * ts + 66, "then " + n(BLOCK_SIZE) + " FMAs per thread; dark: the C tile", 11, "start");
    d.text(ax, cy + kTilesM * ts + 82, "of the block (one element per thread)", 11, "start");

    // One thread's elements in a kBM x kBN tile.
    const double es = 2, panel = kBM * es;
    // Consecutive indices as runs [first, last]: one rectangle per run pair, no seams.
    auto runs = [](const std::vector<int>& v) {
      std::vector<std::pair<int, int>> r;
      for (int i : v)
        if (!r.empty() && r.back().second + 1 == i) r.back().second = i;
        else r.push_back({i, i});
      return r;
    };
    const int kShown[] = {0, 1, kGridSide};  // thread 0, its neighbour in x, its neighbour in y
    const char* kShownColour[] = {svg::kVermillion, svg::kBlue, svg::kGreen};
    auto owned = [&](double x, double y, const std::string& caption, auto rows_cols) {
      d.text(x, 18, caption, 12.5, "start", svg::kBlack, true);
      d.rect(x, y, panel, panel, svg::kWhite, svg::kBlack, 0.8);
      for (int g = 16; g < kBM; g += 16) {
        d.line(x + g * es, y, x + g * es, y + panel, svg::kLight, 0.6);
        d.line(x, y + g * es, x + panel, y + g * es, svg::kLight, 0.6);
      }
      for (int k = 0; k < 3; ++k) {
        const int tid = kShown[k], ty = tid / kGridSide, tx = tid % kGridSide;
        std::vector<int> rows, cols;
        rows_cols(ty, tx, rows, cols);
        for (const auto& [r0, r1] : runs(rows))
          for (const auto& [c0, c1] : runs(cols))
            d.rect(x + c0 * es, y + r0 * es, (c1 - c0 + 1) * es, (r1 - r0 + 1) * es, kShownColour[k], svg::kBlack, 0.4);
      }
      d.text(x + panel / 2, y + panel + 14, n(kBM) + " x " + n(kBN) + " tile of C (grid: 16)", 10.5);
    };
    const double ox = 298, oy = 30;
    owned(ox, oy, "sgemmRegTile", [](int ty, int tx, std::vector<int>& rows, std::vector<int>& cols) {
      for (int i = 0; i < 8; ++i) rows.push_back(ty * 8 + i), cols.push_back(tx * 8 + i);
    });
    owned(ox + panel + 40, oy, "sgemmVec4", [](int ty, int tx, std::vector<int>& rows, std::vector<int>& cols) {
      for (int i = 0; i < 8; ++i) rows.push_back(ty * 4 + (i / 4) * kVec4Step + i % 4),
                                  cols.push_back(tx * 4 + (i / 4) * kVec4Step + i % 4);
    });
    const double ly = oy + panel + 24;
    d.legend(ox, ly, {{svg::kVermillion, "thread 0"}, {svg::kBlue, "thread 1 (tx = 1)"},
                      {svg::kGreen, "thread " + n(kGridSide) + " (ty = 1)"}}, 11);
    d.text(ox, ly + 30, "Each thread owns 64 elements of C. sgemmRegTile: thread (ty, tx) an 8 x 8 block;", 11, "start");
    d.text(ox, ly + 46, "sgemmVec4: four 4 x 4 blocks, " + n(kVec4Step) + " rows and columns apart, so that its 8 values", 11, "start");
    d.text(ox, ly + 62, "of A and of B per k are two float4 each.", 11, "start");
    out("ladder_tiles", d);
  }

  // sgemmWarpSpecialized (kernels/09_sgemmWarpSpecialized.cuh) at its tiles (WB_TILES of
  // lesson::kWarpSpecialized): the producer warps, the ring of stages at the consumers' k-tile
  // kt = 5, the consumer warps on the block tile of C, and which mbarrier each side waits on.
  {
    using T = WB_TILES(lesson::kWarpSpecialized);
    constexpr int P = lesson::kProducerWarps, NP = 32 * P, NC = T::kThreads;
    constexpr int kWarpsN = T::BN / T::WN, kConsumers = NC / 32;
    svg::Doc d(900, 470,
               "sgemmWarpSpecialized: " + n(P) + " producer warps copy k-tiles into a ring of " + n(T::STAGES) +
                   " shared stages; " + n(kConsumers) + " consumer warps each compute a " + n(T::WM) + " x " +
                   n(T::WN) + " tile of the " + n(T::BM) + " x " + n(T::BN) +
                   " block tile; per stage, mbarrier full[s] completes when the copies have landed and empty[s] "
                   "when every consumer has read it");
    d.text(20, 24, "one block: " + n(P) + " producer warps + " + n(kConsumers) + " consumer warps = " + n(NC + NP) +
                       " threads; no block-wide barrier in the K loop",
           13, "start", svg::kBlack, true);
    // producers, left
    const double px = 20, py0 = 96, pw = 130, ph = 30;
    d.text(px, 80, "producers", 12, "start", svg::kBlack, true);
    for (int w = 0; w < P; ++w) {
      d.rect(px, py0 + w * (ph + 8), pw, ph, svg::kOrange, svg::kBlack, 1);
      d.text(px + pw / 2, py0 + w * (ph + 8) + 20, "warp " + n(kConsumers + w), 12, "middle");
    }
    // the ring, centre: stage st holds the tile t >= kt with t % STAGES == st
    const int kt = 5;
    const double rx = 250, ry0 = 96, bw = 120, bh = 58, gap = 12;
    d.text(rx, 80, "the ring while consumers compute on k-tile " + n(kt), 12, "start", svg::kBlack, true);
    for (int st = 0; st < T::STAGES; ++st) {
      int t = kt;
      while (t % T::STAGES != st) ++t;
      const bool now = t == kt, refill = t == kt + T::STAGES - 1;
      const char* fill = now ? svg::kGreen : refill ? svg::kYellow : svg::kLight;
      const double x = rx + (st % 2) * (bw + gap), y = ry0 + (st / 2) * (bh + gap);
      d.rect(x, y, bw, bh, fill, svg::kBlack, 1);
      d.text(x + bw / 2, y + 20, "stage " + n(st), 12, "middle", now ? svg::kWhite : svg::kBlack);
      d.text(x + bw / 2, y + 40, "tile " + n(t), 13, "middle", now ? svg::kWhite : svg::kBlack, true);
    }
    const double ringR = rx + 2 * bw + gap, ringB = ry0 + 2 * bh + gap;
    // consumers, right: their tiles of C
    const double cx = 620, cy = 96;  // one unit per element of C
    d.text(cx, 80, "consumers on the " + n(T::BM) + " x " + n(T::BN) + " tile of C", 12, "start", svg::kBlack, true);
    for (int w = 0; w < kConsumers; ++w) {
      const double x = cx + (w % kWarpsN) * T::WN, y = cy + (w / kWarpsN) * T::WM;
      d.rect(x, y, T::WN, T::WM, svg::kSky, svg::kBlack, 1);
      d.text(x + T::WN / 2.0, y + T::WM / 2.0 + 5, "warp " + n(w), 12, "middle");
    }
    // the four hand-offs
    const double mid = ry0 + bh / 2;
    d.arrow(px + pw + 6, mid, rx - 6, mid, svg::kGreen, 2);
    d.text((px + pw + rx) / 2, mid - 8, "copy, arrive", 11, "middle");
    d.arrow(ringR + 6, mid, cx - 6, mid, svg::kGreen, 2);
    d.text((ringR + cx) / 2, mid - 8, "wait full[s]", 11, "middle");
    const double low = ringB - bh / 2;
    d.arrow(cx - 6, low, ringR + 6, low, svg::kVermillion, 2);
    d.text((ringR + cx) / 2, low + 18, "arrive empty[s]", 11, "middle");
    d.arrow(rx - 6, low, px + pw + 6, low, svg::kVermillion, 2);
    d.text((px + pw + rx) / 2, low + 18, "wait empty[s]", 11, "middle");
    // the counts
    double ty = 290;
    d.text(20, ty, "full[s] expects " + n(NP) + " arrivals, one per producer thread: cp.async.mbarrier.arrive.noinc makes "
                   "the hardware count it", 12, "start");
    d.text(20, ty + 18, "when that thread's copies into stage s have landed (" + n(T::kALoads * NC / NP) +
                            " 4-byte copies of A, transposed, and " + n(T::kBLoads16 * NC / NP) +
                            " 16-byte copies of B per k-tile).",
           12, "start");
    d.text(20, ty + 36, "A consumer waits on full[s] for parity (kt / " + n(T::STAGES) +
                            ") & 1: the phase flips once per use of the stage.",
           12, "start");
    d.text(20, ty + 62, "empty[s] expects " + n(NC) + " arrivals, one per consumer thread after its last read of the "
                        "stage (mbarrier.arrive).",
           12, "start");
    d.text(20, ty + 80, "A producer waits on it before it refills the stage with the k-tile " + n(T::STAGES) +
                            " further on.",
           12, "start");
    d.legend(20, 420, {{svg::kGreen, "k-tile kt: the consumers read it"}, {svg::kLight, "next k-tiles: landed or in flight"},
                       {svg::kYellow, "refilled once empty[s] completes"}}, 11);
    out("sgemmWarpSpecialized_ring", d);
  }

  // Step 10: registers per thread of each warp of the block, step 9 against step 10. Step 9's 168 is
  // ptxas's cap for 12 warps by our reading (each of the SM's 4 sub-partitions has 16,384 registers
  // and holds up to 3 of the block's warps); step 10 moves (168 - 40) x 128 registers of the
  // producer warpgroup to the 256 consumer threads, (232 - 168) each.
  {
    constexpr int P = lesson::kProducerWarps, C = lesson::kWarpSpecialized.threads() / 32, W = P + C;
    constexpr int kSubRegs = 16384, kPerSub = (W + 3) / 4;                  // warps on the fullest sub-partition
    constexpr int kCap = kSubRegs / (kPerSub * 32) / 8 * 8;                // 168
    constexpr int kFreed = 32 * P * (kCap - lesson::kRegsProducer);        // 16,384
    constexpr int kTaken = 32 * C * (lesson::kRegsConsumer - kCap);        // 16,384
    static_assert(kTaken <= kFreed, "setmaxnreg.inc waits until the pool holds what it asks: the consumers may "
                                    "take no more than the producers free into it");
    static_assert(kTaken == kFreed, "the picture shows every freed register taken");
    svg::Doc d(880, 432,
               "sgemmSetMaxNReg: registers per thread of the " + n(W) + " warps of a block. Step 9: " + n(kCap) +
                   " in every warp. Step 10: the producer warpgroup drops to " + n(lesson::kRegsProducer) +
                   " (setmaxnreg.dec), giving " + grouped(kFreed) + " registers to the pool, and the two consumer "
                   "warpgroups rise to " + n(lesson::kRegsConsumer) + " (setmaxnreg.inc), taking them");
    const double x0 = 60, bw = 52, gap = 10, base1 = 170, base2 = 360, sc = 0.5;  // pixels per register
    auto row = [&](double base, const std::string& title, bool after) {
      d.text(20, base - 140, title, 13, "start", svg::kBlack, true);
      for (int w = 0; w < W; ++w) {
        const bool prod = w >= C;
        const int regs = after ? (prod ? lesson::kRegsProducer : lesson::kRegsConsumer) : kCap;
        const double x = x0 + w * (bw + gap), h = regs * sc;
        d.rect(x, base - h, bw, h, prod ? svg::kOrange : svg::kSky, svg::kBlack, 1);
        d.text(x + bw / 2, base - h - 5, n(regs), 12, "middle", svg::kBlack, true);
        d.text(x + bw / 2, base + 15, "warp " + n(w), 11, "middle");
      }
      d.line(x0 - 8, base - kCap * sc, x0 + W * (bw + gap), base - kCap * sc, svg::kBlack, 0.75);
    };
    row(base1, "step 9 (sgemmWarpSpecialized): one count for every thread, the cap for " + n(W) + " warps", false);
    row(base2, "step 10 (sgemmSetMaxNReg), after setmaxnreg: " + grouped(kTaken) +
                   " registers moved from the producers to the consumers", true);
    d.text(x0 + W * (bw + gap) + 4, base2 - kCap * sc + 4, n(kCap), 11, "start");
    d.text(20, 400, "128 producer threads x (" + n(kCap) + " - " + n(lesson::kRegsProducer) + ") = " + grouped(kFreed) +
                        " = " + n(32 * C) + " consumer threads x (" + n(lesson::kRegsConsumer) + " - " + n(kCap) +
                        "): each .inc waits until the pool has its share",
           12, "start");
    d.legend(x0, 418, {{svg::kSky, "consumer warps: 128 sums per thread, fragments, addresses"},
                       {svg::kOrange, "producer warps: copy addresses only"}}, 11);
    out("sgemmSetMaxNReg_registers", d);
  }
  return out.rc;
}
