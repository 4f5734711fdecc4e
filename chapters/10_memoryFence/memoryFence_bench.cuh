// Chapter 10 — memoryFence --bench: the timing harness (fence costs, the sums against copy and CUB,
// the domain experiment). Part of memoryFence.cu, which includes it after its own host code: it
// uses g_failures, alloc_sum, launch_sum and the kernels of the .cuh files above.
#pragma once

// ---------------------------------------------------------------------------------------------
// Benchmark
// ---------------------------------------------------------------------------------------------

struct LoopVariant {
  const char* kernel;
  const char* fence;
  LoopKernel k;
};
static const LoopVariant kLoops[] = {
    {"loopNoFence", "none", loopNoFence},
    {"loopThreadfenceBlock", "__threadfence_block", loopThreadfenceBlock},
    {"loopThreadfence", "__threadfence", loopThreadfence},
    {"loopThreadfenceSystem", "__threadfence_system", loopThreadfenceSystem},
    {"loopFenceAcqRelDevice", "atomic_thread_fence acq_rel device", loopFenceAcqRelDevice},
    {"loopFenceAcqRelSystem", "atomic_thread_fence acq_rel system", loopFenceAcqRelSystem},
};

// One run of `launch` on the default stream, in ms (after one untimed run).
static double time_once(const std::function<void()>& launch) {
  launch();
  const wb::Timing t = wb::time_cuda(launch, 0, 1);
  return t.median_ms;
}

// Fewer iterations when one run at `iters` would take longer than target_ms: keeps the whole
// benchmark within seconds whatever a fence costs on this GPU. The tables say what was used.
static int fit_iters(int iters, double target_ms, const std::function<void(int)>& launch) {
  const double ms = time_once([&] { launch(iters); });
  if (ms <= target_ms) return iters;
  return std::max(1, static_cast<int>(iters * target_ms / ms));
}

static void bench_fence_cost(const cudaDeviceProp& prop, int reps, int iters, const std::string& csv_dir,
                             const wb::KernelPick& pick) {
  const int warmup = std::min(3, reps);
  const int full_blocks = wb::full_grid(loopThreadfence, kThreads, prop);
  unsigned* d_out = nullptr;
  CUDA_CHECK(cudaMalloc(&d_out, size_t(full_blocks) * kThreads * sizeof(unsigned)));
  std::vector<std::string> cols{"kernel", "fence", "config", "threads", "iterations", "time_ms", "ns_per_iteration",
                                "extra_ns_vs_none", "gfences_per_s"};
  for (const auto& c : wb::timing_columns()) cols.push_back(c);
  wb::CsvTable t(cols);
  struct Config {
    const char* name;
    int blocks, threads, iters;
  };
  const Config configs[] = {{"1 warp", 1, 32, iters}, {"full GPU", full_blocks, kThreads, std::max(1, iters / 16)}};
  for (const Config& c : configs) {
    double none_ns = 0;
    for (const LoopVariant& v : kLoops) {
      if (!pick(v.kernel) && v.k != loopNoFence) continue;  // loopNoFence: every row's baseline
      auto launch = [&](int it) {
        v.k<<<c.blocks, c.threads>>>(d_out, it, nullptr);
        CUDA_CHECK_LAUNCH();
      };
      const int it = fit_iters(c.iters, 10.0, launch);
      // Warm: a fence loop stores one word per thread (128 B for one warp, 4 B per thread of the
      // full grid: about 1 MiB on the H100 and the H200), which fits in L2; a flush would mean nothing.
      const wb::Timing tm = wb::time_cuda([&] { launch(it); }, wb::TimeOptions{warmup, reps, wb::Cache::Warm});
      const double ns = tm.median_ms * 1e6 / it;  // per iteration of one thread
      if (v.k == loopNoFence) none_ns = ns;
      const double total = double(c.blocks) * c.threads * it;
      std::vector<std::string> row{v.kernel, v.fence, c.name, std::to_string(c.blocks * c.threads), std::to_string(it),
                                   wb::fmt(tm.median_ms, 4), wb::fmt(ns, 1), wb::fmt(ns - none_ns, 1),
                                   wb::fmt(v.k == loopNoFence ? 0.0 : total / (tm.median_ms * 1e6), 3)};
      for (const auto& cell : wb::timing_cells(tm, 4.0 * c.blocks * c.threads, prop)) row.push_back(cell);
      t.add(row);
    }
  }
  t.report(std::string("memoryFence: a store and a fence per iteration, on ") + prop.name + " (median of " +
               std::to_string(reps) + " runs)",
           csv_dir, prop, "memoryFence");
  CUDA_CHECK(cudaFree(d_out));
}

static void bench_sums(const cudaDeviceProp& prop, size_t n, int reps, const std::string& csv_dir,
                       const wb::KernelPick& pick) {
  const int warmup = std::min(3, reps);
  const int full = wb::full_grid(sumThreadfence, kThreads, prop);
  SumBuffers s = alloc_sum(n, full, prop);
  unsigned* d_copy = nullptr;
  CUDA_CHECK(cudaMalloc(&d_copy, n * sizeof(unsigned)));
  const long long expected = cpu_sum(n);

  size_t cub_bytes = 0;
  CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, cub_bytes, s.in, s.out, n));
  void* d_cub = nullptr;
  CUDA_CHECK(cudaMalloc(&d_cub, cub_bytes));

  struct Variant {
    const char* name;
    bool must_be_exact;
    std::function<void()> launch;
  };
  const Variant variants[] = {
      {"sumThreadfence", true, [&] { launch_sum(sumThreadfence, s, full, {}); }},
      {"sumReleaseAcquire", true, [&] { launch_sum(sumReleaseAcquire, s, full, {}); }},
      {"sumNoFence", false, [&] { launch_sum(sumNoFence, s, full, {}); }},
      {"sumTwoPass", true, [&] {
         sumPartials<<<full, kThreads>>>(s.in, n, s.partials);
         CUDA_CHECK_LAUNCH();
         sumFinal<<<1, kThreads>>>(s.partials, unsigned(full), s.out);
         CUDA_CHECK_LAUNCH();
       }},
      {"cub_DeviceReduce_Sum", true, [&] {
         CUDA_CHECK(cub::DeviceReduce::Sum(d_cub, cub_bytes, s.in, s.out, n));
         CUDA_CHECK_LAUNCH();
       }},
  };
  wb::BandwidthTable table({"size"}, {"exact"});
  for (const Variant& v : variants) {
    if (!pick(v.name) && std::string(v.name) != "cub_DeviceReduce_Sum") continue;  // CUB: the peer
    CUDA_CHECK(cudaMemset(s.out, 0xff, sizeof(long long)));  // poison, then check one run
    v.launch();
    long long got = 0;
    CUDA_CHECK(cudaMemcpy(&got, s.out, sizeof got, cudaMemcpyDeviceToHost));
    if (got != expected) {
      std::fprintf(stderr, "%s: %s sum %lld, CPU %lld (n = %zu)\n", v.must_be_exact ? "MISMATCH" : "note (no fence)",
                   v.name, got, expected, n);
      if (v.must_be_exact) ++g_failures;
    }
    auto& row = table.add(v.name, {std::to_string(n)}, 4.0 * n + 8, wb::time_cuda(v.launch, warmup, reps));
    row.extra[0] = got == expected ? "yes" : "no";
  }
  auto& row = table.add("copy", {std::to_string(n)}, 8.0 * n,
                        wb::time_copy(reinterpret_cast<const unsigned*>(s.in), d_copy, n, prop, warmup, reps, &g_failures));
  row.extra[0] = "";
  table.add("cudaMemcpy", {std::to_string(n)}, 8.0 * n,
            wb::time_memcpy(reinterpret_cast<const unsigned*>(s.in), d_copy, n, warmup, reps, &g_failures));
  table.report(csv_dir, prop, "memoryFence_reduce");
  CUDA_CHECK(cudaFree(d_cub));
  CUDA_CHECK(cudaFree(d_copy));
  free_sum(s);
}

// Fence-heavy work (one warp, or a chain of one-thread kernels) beside a store-heavy kernel (on sm_90
// half the GPU's thread slots, so the fence work finds room), with the fence work in the store kernel's
// domain or in the remote one. Timed alone, then beside the writer in each domain.
static void bench_domains(const cudaDeviceProp& prop, size_t n, int reps, int max_iters, const std::string& csv_dir,
                          const wb::KernelPick& pick) {
  const int warmup = std::min(2, reps);
  int domains = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&domains, cudaDevAttrMemSyncDomainCount, 0));
  const size_t n4 = std::max<size_t>(n / 4, 1);
  uint4* d_big = nullptr;
  unsigned* d_out = nullptr;
  unsigned long long* d_win = nullptr;  // [0,1] the writer's window, [2,3] the fence work's
  CUDA_CHECK(cudaMalloc(&d_big, n4 * sizeof(uint4)));
  CUDA_CHECK(cudaMalloc(&d_out, 32 * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&d_win, 4 * sizeof(unsigned long long)));
  CUDA_CHECK(cudaMemset(d_win, 0, 4 * sizeof(unsigned long long)));
  cudaStream_t s_write, s_fence;
  CUDA_CHECK(cudaStreamCreateWithFlags(&s_write, cudaStreamNonBlocking));
  CUDA_CHECK(cudaStreamCreateWithFlags(&s_fence, cudaStreamNonBlocking));
  cudaEvent_t e0, e1, w0, w1;
  for (cudaEvent_t* e : {&e0, &e1, &w0, &w1}) CUDA_CHECK(cudaEventCreate(e));
  const int write_blocks = 4 * prop.multiProcessorCount;  // on sm_90: 1024 of the SM's 2048 thread slots

  // cudaLaunchKernelEx with the domain as a launch attribute.
  auto launch_in = [](cudaStream_t st, cudaLaunchMemSyncDomain dom, int threads, auto kernel, auto... args) {
    cudaLaunchAttribute attr{};
    attr.id = cudaLaunchAttributeMemSyncDomain;
    attr.val.memSyncDomain = dom;
    cudaLaunchConfig_t cfg{};
    cfg.gridDim = dim3(1);
    cfg.blockDim = dim3(threads);
    cfg.stream = st;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    CUDA_CHECK(cudaLaunchKernelEx(&cfg, kernel, args...));
    CUDA_CHECK_LAUNCH();
  };
  struct Work {
    const char* kernel;
    const char* what;
    std::function<void(cudaStream_t, cudaLaunchMemSyncDomain, int)> launch;  // (stream, domain, count)
  };
  unsigned long long* win2 = d_win + 2;
  // The chain of tinyStore launches is captured into a CUDA graph (one per domain; after capture each
  // kernel node's memory sync domain is read back and checked), so that one cudaGraphLaunch puts the
  // whole chain on the GPU at once and the time is the GPU's, not the host's launch rate.
  cudaGraphExec_t tiny_graphs[2] = {nullptr, nullptr};
  int tiny_count = -1;
  auto tiny_chain = [&](cudaStream_t st, cudaLaunchMemSyncDomain dom, int count) {
    for (int i = 0; i < count; ++i) launch_in(st, dom, 1, tinyStore, d_out, i == 0 ? d_win + 2 : d_win + 3);
  };
  auto tiny_graph = [&](cudaLaunchMemSyncDomain dom, int count) {
    if (count != tiny_count) {
      for (cudaGraphExec_t& g : tiny_graphs) {
        if (g) CUDA_CHECK(cudaGraphExecDestroy(g));
        g = nullptr;
      }
      tiny_count = count;
    }
    cudaGraphExec_t& g = tiny_graphs[dom == cudaLaunchMemSyncDomainRemote];
    if (!g) {
      cudaStream_t cs;
      CUDA_CHECK(cudaStreamCreateWithFlags(&cs, cudaStreamNonBlocking));
      CUDA_CHECK(cudaStreamBeginCapture(cs, cudaStreamCaptureModeThreadLocal));
      tiny_chain(cs, dom, count);
      cudaGraph_t graph;
      CUDA_CHECK(cudaStreamEndCapture(cs, &graph));
      size_t nn = 0;  // the domain must survive capture: read it back from every kernel node
      CUDA_CHECK(cudaGraphGetNodes(graph, nullptr, &nn));
      std::vector<cudaGraphNode_t> nodes(nn);
      CUDA_CHECK(cudaGraphGetNodes(graph, nodes.data(), &nn));
      for (cudaGraphNode_t nd : nodes) {
        cudaLaunchAttributeValue v{};
        CUDA_CHECK(cudaGraphKernelNodeGetAttribute(nd, cudaLaunchAttributeMemSyncDomain, &v));
        expect(v.memSyncDomain == dom, "a captured tinyStore node lost its memory sync domain");
      }
      CUDA_CHECK(cudaGraphInstantiate(&g, graph, 0));
      CUDA_CHECK(cudaGraphDestroy(graph));
      CUDA_CHECK(cudaStreamDestroy(cs));
    }
    return g;
  };
  const Work works[] = {
      {"loopThreadfence", "store + __threadfence", [&](cudaStream_t st, cudaLaunchMemSyncDomain dom, int it) {
         launch_in(st, dom, 32, loopThreadfence, d_out, it, win2); }},
      {"loopThreadfenceSystem", "store + __threadfence_system", [&](cudaStream_t st, cudaLaunchMemSyncDomain dom, int it) {
         launch_in(st, dom, 32, loopThreadfenceSystem, d_out, it, win2); }},
      {"loopThreadfence", "__threadfence only", [&](cudaStream_t st, cudaLaunchMemSyncDomain dom, int it) {
         launch_in(st, dom, 32, loopThreadfence, static_cast<unsigned*>(nullptr), it, win2); }},
      {"loopThreadfenceSystem", "__threadfence_system only", [&](cudaStream_t st, cudaLaunchMemSyncDomain dom, int it) {
         launch_in(st, dom, 32, loopThreadfenceSystem, static_cast<unsigned*>(nullptr), it, win2); }},
      {"tinyStore", "kernel boundary (graph of launches)", [&](cudaStream_t st, cudaLaunchMemSyncDomain dom, int it) {
         if (st == 0) tiny_chain(st, dom, it);  // the fit only: plain launches, no capture on the legacy stream
         else CUDA_CHECK(cudaGraphLaunch(tiny_graph(dom, it), st)); }},
  };
  auto elapsed = [](cudaEvent_t a0, cudaEvent_t a1) {
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, a0, a1));
    return double(ms);
  };
  auto median = wb::median_of;
  auto spread = [&](const std::vector<double>& v, std::vector<std::string>& row) {
    wb::Timing tm = wb::summarize(v);
    tm.sm_mhz = wb::sm_mhz_now();
    for (const auto& cell : wb::timing_cells(tm, 32.0 * sizeof(unsigned), prop)) row.push_back(cell);
  };

  // The writer alone, one pass: its rate, and how many passes outlast the fence work.
  std::vector<double> one_pass;
  for (int r = 0; r < warmup + reps; ++r) {
    CUDA_CHECK(cudaEventRecord(w0, s_write));
    streamWrite<<<write_blocks, kThreads, 0, s_write>>>(d_big, n4, 1, d_win);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaEventRecord(w1, s_write));
    CUDA_CHECK(cudaEventSynchronize(w1));
    if (r >= warmup) one_pass.push_back(elapsed(w0, w1));
  }
  const double pass_ms = median(one_pass);
  std::fprintf(stderr, "\nstreamWrite alone: %.4f ms per pass over %zu bytes, %.0f GB/s of stores\n", pass_ms,
               n4 * sizeof(uint4), n4 * sizeof(uint4) / (pass_ms * 1e6));

  // The writer runs about 30 ms, far longer than the fence work needs alone (about 0.5 ms for a fence loop, 0.1 ms
  // for the tinyStore graph), so a slowdown shows as it is; fence work that ends only when the writer ends was held up by it.
  const int passes = static_cast<int>(std::min(256.0, std::max(1.0, std::ceil(30.0 / pass_ms))));
  const int dreps = std::min(reps, 20);
  std::vector<std::string> cols{"kernel", "work", "beside", "domain", "domain_count", "count", "time_ms", "ns_per_op",
                                "slowdown_vs_alone", "overlap_pct", "writer_ms", "writer_left_ms"};
  for (const auto& c : wb::timing_columns()) cols.push_back(c);
  wb::CsvTable t(cols);
  for (const Work& w : works) {
    if (!pick(w.kernel)) continue;
    // About 0.5 ms alone (the default stream, default domain, for the fit only).
    const int count = fit_iters(max_iters, 0.5, [&](int it) { w.launch(0, cudaLaunchMemSyncDomainDefault, it); });
    std::vector<double> alone;
    for (int r = 0; r < warmup + dreps; ++r) {
      CUDA_CHECK(cudaEventRecord(e0, s_fence));
      w.launch(s_fence, cudaLaunchMemSyncDomainDefault, count);
      CUDA_CHECK(cudaEventRecord(e1, s_fence));
      CUDA_CHECK(cudaEventSynchronize(e1));
      if (r >= warmup) alone.push_back(elapsed(e0, e1));
    }
    const double alone_ms = median(alone);
    std::vector<std::string> row{w.kernel, w.what, "none", "default", std::to_string(domains), std::to_string(count),
                                 wb::fmt(alone_ms, 4), wb::fmt(alone_ms * 1e6 / count, 1), "1.00", "", "", ""};
    spread(alone, row);
    t.add(row);
    for (cudaLaunchMemSyncDomain dom : {cudaLaunchMemSyncDomainDefault, cudaLaunchMemSyncDomainRemote}) {
      std::vector<double> beside, writer, left;
      double min_overlap = 100;
      for (int r = 0; r < warmup + dreps; ++r) {
        CUDA_CHECK(cudaMemsetAsync(d_win, 0, 4 * sizeof(unsigned long long), s_write));
        CUDA_CHECK(cudaEventRecord(w0, s_write));         // the fence work waits for the memset
        CUDA_CHECK(cudaStreamWaitEvent(s_fence, w0, 0));  // (not for the writer) before it writes
        streamWrite<<<write_blocks, kThreads, 0, s_write>>>(d_big, n4, passes, d_win);
        CUDA_CHECK_LAUNCH();
        CUDA_CHECK(cudaEventRecord(e0, s_fence));
        w.launch(s_fence, dom, count);
        CUDA_CHECK(cudaEventRecord(e1, s_fence));
        CUDA_CHECK(cudaDeviceSynchronize());
        unsigned long long win[4];
        CUDA_CHECK(cudaMemcpy(win, d_win, sizeof win, cudaMemcpyDeviceToHost));
        if (r < warmup) continue;
        beside.push_back(elapsed(e0, e1));
        writer.push_back((double(win[1]) - double(win[0])) * 1e-6);
        left.push_back((double(win[1]) - double(win[3])) * 1e-6);  // the writer's time after the fence work ended
        const double span = win[3] > win[2] ? double(win[3] - win[2]) : 0.0;
        const double both = double(std::min(win[1], win[3])) - double(std::max(win[0], win[2]));
        min_overlap = std::min(min_overlap, span > 0 ? 100.0 * std::max(0.0, both) / span : 0.0);
      }
      const double ms = median(beside);
      std::vector<std::string> brow{w.kernel, w.what, "streamWrite", dom == cudaLaunchMemSyncDomainDefault ? "default" : "remote",
                                    std::to_string(domains), std::to_string(count), wb::fmt(ms, 4), wb::fmt(ms * 1e6 / count, 1),
                                    wb::fmt(ms / alone_ms, 2), wb::fmt(min_overlap, 0), wb::fmt(median(writer), 2),
                                    wb::fmt(median(left), 2)};
      spread(beside, brow);
      t.add(brow);
    }
  }
  char title[512];
  std::snprintf(title, sizeof title,
                "memoryFence_domains: fence work alone and beside streamWrite (%d blocks of %d), on %s; "
                "%d domains; %d passes; median of %d runs; overlap = the least share of the fence work's time the writer ran",
                write_blocks, kThreads, prop.name, domains, passes, dreps);
  t.report(title, csv_dir, prop, "memoryFence_domains");

  for (cudaGraphExec_t g : tiny_graphs)
    if (g) CUDA_CHECK(cudaGraphExecDestroy(g));
  for (cudaEvent_t e : {e0, e1, w0, w1}) CUDA_CHECK(cudaEventDestroy(e));
  CUDA_CHECK(cudaStreamDestroy(s_write));
  CUDA_CHECK(cudaStreamDestroy(s_fence));
  for (void* p : {(void*)d_big, (void*)d_out, (void*)d_win}) CUDA_CHECK(cudaFree(p));
}
