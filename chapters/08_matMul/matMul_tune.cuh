// Chapter 08's --tune: the run that times every shape of kTuneKernels (matMul.cu), among them sgemmTuned's
// (matMul_lesson.h's kTunedSmall and kTunedLarge, set by hand). Part of matMul.cu, which includes it after
// its harness (Runner, Square, launch_tiled) and before main; not a header of its own.
#pragma once

static std::string cfg_name(const lesson::TileCfg& c) {
  char b[96];
  std::snprintf(b, sizeof b, "%dx%dx%d_w%dx%d_t%dx%d_s%d_b%d_g%d%s", c.bm, c.bn, c.bk, c.wm, c.wn, 4 * c.rm,
                4 * c.rn, c.stages, c.minb, c.group, c.pf ? "_pf" : "");
  return b;
}

// --tune: every shape of kTuneKernels in every block order of kTuneGroups, checked against the
// FP64 reference and timed beside cuBLAS, at each size; then the 4 fastest at the largest size
// (and at each size's best) again at `final_n` (0: none). Every row records the SM clock
// (sm_mhz: one reading, right after its runs), so that a row timed at a lower clock shows it; one
// reading does not separate clock from shape (README, The tune). Table: DIR/<gpu>/sgemm_tune.csv.
static void run_tune(Runner& run, const cudaDeviceProp& prop, int reps, const std::vector<int>& sizes, int final_n,
                     const std::string& csv_dir) {
  wb::CsvTable table({"config", "bm", "bn", "bk", "wm", "wn", "tm", "tn", "stages", "minb", "group", "pf", "threads",
                      "regs", "smem_bytes", "n", "time_ms", "tflops", "pct_of_cublas", "min_ms", "max_ms", "sm_mhz"});
  const int warmup = std::min(3, reps);
  struct Result {
    size_t kernel;
    int group;
    double ms;
  };
  std::vector<Result> finalists;
  auto one_size = [&](int n, const std::vector<Result>* subset) {
    Square sq(n);
    const double flop = 2.0 * n * double(n) * n;
    const wb::Timing tc = wb::time_cuda([&] { run.launch(lesson::Cublas, sq.A, sq.B, sq.C, n, n, n); }, warmup, reps);
    table.add({"cublasSgemm", "", "", "", "", "", "", "", "", "", "", "", "", "", "", std::to_string(n),
               wb::fmt(tc.median_ms, 4), wb::fmt(flop / (tc.median_ms * 1e-3) / 1e12, 2), "100.0",
               wb::fmt(tc.min_ms, 4), wb::fmt(tc.max_ms, 4), wb::fmt(tc.sm_mhz, 0)});
    std::vector<Result> results;
    for (size_t i = 0; i < std::size(kTuneKernels); ++i)
      for (int g : kTuneGroups) {
        if (subset && std::none_of(subset->begin(), subset->end(),
                                   [&](const Result& r) { return r.kernel == i && r.group == g; }))
          continue;
        const TiledKernel& k = kTuneKernels[i];
        lesson::TileCfg c = k.cfg;
        c.group = g;
        cudaFuncAttributes attr{};
        CUDA_CHECK(cudaFuncGetAttributes(&attr, reinterpret_cast<const void*>(k.full)));
        auto go = [&] { return launch_tiled(k, g, run.smem_optin, sq.A, sq.B, sq.C, n, n, n); };
        // checked first: a shape that computes a wrong C fails the run
        CUDA_CHECK(cudaMemset(sq.C, 0xff, size_t(n) * n * sizeof(float)));
        if (!go()) {
          std::fprintf(stderr, "SKIP %s: %d bytes of shared memory per block do not fit this GPU\n",
                       cfg_name(c).c_str(), k.smem_bytes);
          continue;
        }
        CUDA_CHECK_LAUNCH();
        float worst = 0;
        const unsigned long long bad = sq.count_outside(&worst);
        if (bad) {
          std::fprintf(stderr, "MISMATCH: %s at n = %d: %llu elements outside the tolerance\n", cfg_name(c).c_str(),
                       n, bad);
          ++g_failures;
          continue;
        }
        const wb::Timing t = wb::time_cuda([&] { go(); }, warmup, reps);
        results.push_back({i, g, t.median_ms});
        table.add({cfg_name(c), std::to_string(c.bm), std::to_string(c.bn), std::to_string(c.bk),
                   std::to_string(c.wm), std::to_string(c.wn), std::to_string(4 * c.rm), std::to_string(4 * c.rn),
                   std::to_string(c.stages), std::to_string(c.minb), std::to_string(g), std::to_string(c.pf),
                   std::to_string(c.threads()),
                   std::to_string(attr.numRegs), std::to_string(k.smem_bytes), std::to_string(n),
                   wb::fmt(t.median_ms, 4), wb::fmt(flop / (t.median_ms * 1e-3) / 1e12, 2),
                   wb::fmt(100.0 * tc.median_ms / t.median_ms, 1), wb::fmt(t.min_ms, 4), wb::fmt(t.max_ms, 4),
                   wb::fmt(t.sm_mhz, 0)});
        std::fprintf(stderr, "tune n %d %-40s %3d regs %6.2f TFLOP/s %5.1f%% of cuBLAS, %4.0f MHz\n", n,
                     cfg_name(c).c_str(), attr.numRegs, flop / (t.median_ms * 1e-3) / 1e12,
                     100.0 * tc.median_ms / t.median_ms, t.sm_mhz);
      }
    std::sort(results.begin(), results.end(), [](const Result& a, const Result& b) { return a.ms < b.ms; });
    return results;
  };
  for (int n : sizes) {
    std::vector<Result> r = one_size(n, nullptr);
    const size_t keep = n == sizes.back() ? 4 : 1;
    for (size_t i = 0; i < std::min(keep, r.size()); ++i)
      if (std::none_of(finalists.begin(), finalists.end(),
                       [&](const Result& f) { return f.kernel == r[i].kernel && f.group == r[i].group; }))
        finalists.push_back(r[i]);
  }
  if (final_n && !finalists.empty()) one_size(final_n, &finalists);
  std::fprintf(stderr, "\nsgemm tune on %s (FP32, median of %d runs)\n", prop.name, reps);
  table.print(stderr);
  if (!csv_dir.empty()) table.write(wb::csv_path(csv_dir, prop, "sgemm_tune"));
}
