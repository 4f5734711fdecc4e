// common/exercise_check.h — what every exercise checker (chapters/*/exercises/check_*.cu) shares:
// the command line, the "not attempted" skip, the exact comparison that names the first wrong
// element, poisoning, and the time against the chapter's reference kernel (stderr only).
//
// Exit codes (common/check.h): 0 right, 1 wrong, 2 bad arguments, 77 no GPU or not attempted.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "check.h"
#include "timer.h"

namespace ex {

// The learner's file still has its `#define WB_NOT_ATTEMPTED` line.
[[noreturn]] inline void not_attempted(const char* file) {
  std::printf("not attempted: edit %s\n", file);
  std::exit(wb::kSkip);
}

// The checker's options: --bank-model (host only, where the chapter's checker has one) and
// --reps N (how many times the randomised or racy cases are repeated). Anything else exits 2.
struct Options {
  bool bank_model = false;
  int reps = 1;
};
inline Options parse(int argc, char** argv, bool has_bank_model) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    if (has_bank_model && std::strcmp(argv[i], "--bank-model") == 0) {
      o.bank_model = true;
    } else if (std::strcmp(argv[i], "--reps") == 0 && i + 1 < argc) {
      char* end = nullptr;
      long v = std::strtol(argv[++i], &end, 10);
      if (*end != '\0' || v < 1 || v > 100000) wb::bad_input(std::string("--reps expects 1..100000, not '") + argv[i] + "'");
      o.reps = static_cast<int>(v);
    } else {
      wb::bad_input(std::string("unknown argument '") + argv[i] + "'" +
                    (has_bank_model ? " (options: --bank-model, --reps N)" : " (options: --reps N)"));
    }
  }
  return o;
}

inline std::string show(int v) { return std::to_string(v); }
inline std::string show(unsigned v) { return std::to_string(v); }
inline std::string show(long long v) { return std::to_string(v); }
inline std::string show(unsigned long long v) { return std::to_string(v); }
inline std::string show(float v) {
  char b[64];
  std::snprintf(b, sizeof b, "%.9g", static_cast<double>(v));
  return b;
}

// Exact comparison. On a mismatch prints the case, the first wrong element with expected and got,
// and how many are wrong, and returns false. Floats compare bit for bit (the exercises use inputs
// whose results are exact).
template <class T>
bool same(const std::string& what, const std::vector<T>& expected, const std::vector<T>& got) {
  size_t wrong = 0, first = 0;
  for (size_t i = 0; i < expected.size(); ++i) {
    if (std::memcmp(&expected[i], &got[i], sizeof(T)) != 0) {
      if (wrong++ == 0) first = i;
    }
  }
  if (wrong == 0) return true;
  std::printf("WRONG: %s: first wrong element [%zu]: expected %s, got %s (%zu of %zu elements wrong)\n",
              what.c_str(), first, show(expected[first]).c_str(), show(got[first]).c_str(), wrong,
              expected.size());
  return false;
}

// Device buffer poisoned with 0xFF bytes (-1, or a NaN for floats), so an element the kernel
// never writes cannot pass.
template <class T>
T* device_poisoned(size_t count) {
  T* p = nullptr;
  CUDA_CHECK(cudaMalloc(&p, count * sizeof(T) + 1));
  CUDA_CHECK(cudaMemset(p, 0xFF, count * sizeof(T) + 1));
  return p;
}
template <class T>
std::vector<T> to_host(const T* d, size_t count) {
  std::vector<T> h(count);
  CUDA_CHECK(cudaMemcpy(h.data(), d, count * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

// The exercise's time against the chapter's reference kernel, to stderr (never judged).
template <class Mine, class Ref>
void report_time(const char* mine_name, Mine&& mine, const char* ref_name, Ref&& ref, double bytes) {
  wb::Timing a = wb::time_cuda(mine, 2, 20), b = wb::time_cuda(ref, 2, 20);
  std::fprintf(stderr, "time: %s %.4f ms (%.0f GB/s), %s %.4f ms (%.0f GB/s): %.2fx the reference (not judged)\n",
               mine_name, a.median_ms, wb::gbps(bytes, a.median_ms), ref_name, b.median_ms,
               wb::gbps(bytes, b.median_ms), b.median_ms / a.median_ms);
}

// A small deterministic generator for inputs (the same inputs on every run).
struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 1) {}
  uint32_t next() {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return static_cast<uint32_t>(s >> 16);
  }
};

}  // namespace ex
