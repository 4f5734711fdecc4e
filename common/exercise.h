// common/exercise.h — what every exercise checker shares (chapters/NN_x/exercises/check_<name>.cu).
//
// A checker judges the file the build chose (the learner's, a solution or a wrong answer; see
// cmake/Exercises.cmake) against a CPU reference:
//
//   #include "exercise.h"
//   #include WB_EXERCISE_FILE            // the kernel(s) under test
//
//   int main(int argc, char** argv) {
//     wb::ex::Checker ck(argc, argv, WB_EXERCISE_ATTEMPTED);   // exits 77 if not attempted
//     ck.require_device();                                     // exits 77 without a GPU
//     wb::ex::DeviceArray<int> d_out(n);                       // poisoned: unwritten shows
//     kernel<<<...>>>(d_out.ptr, ...); ck.launched();
//     ck.expect("n = 33", d_out.download(), want);             // first wrong element, expected vs got
//     ck.time([&] { kernel<<<...>>>(...); }, "chapter's reference", [&] { ref<<<...>>>(...); });
//     return ck.finish();
//   }
//
// Exit codes: 0 every case right, 1 a wrong value (or a CUDA error), 2 bad arguments, 77 no GPU or
// not attempted ("not attempted: edit <file>"). A wrong value also draws the mistake: 32 elements,
// expected against got, into WB_EXERCISE_PICTURE (build/exercises/<name>_mistake.svg, set by
// cmake/Exercises.cmake; common/exercise_picture.h), and the verdict names that file.
// Options: --quick (no timing, no picture: the runs under the sanitizers and ncu), --bank-model
// (checkers that declare BANK_MODEL: the host-only bank check).
// Timings go to stderr and never decide anything.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "args.h"
#include "bank_model.h"
#include "check.h"
#include "exercise_picture.h"
#include "timer.h"

#ifndef WB_EXERCISE_FILE
#error "WB_EXERCISE_FILE is set by workbook_exercise() in cmake/Exercises.cmake"
#endif
#ifndef WB_EXERCISE_LEARNER_FILE
#define WB_EXERCISE_LEARNER_FILE WB_EXERCISE_FILE
#endif
#ifndef WB_EXERCISE_NAME
#define WB_EXERCISE_NAME "exercise"
#endif
#ifndef WB_EXERCISE_PICTURE
#define WB_EXERCISE_PICTURE ""  // no picture
#endif

// True once the learner has deleted `#define WB_NOT_ATTEMPTED` from their file. Evaluated where it
// is used (after `#include WB_EXERCISE_FILE`): the macro, defined empty, stringizes to "" (size 1);
// undefined, it stays its own name.
#define WB_EX_STR2(x) #x
#define WB_EX_STR(x) WB_EX_STR2(x)
#define WB_EXERCISE_ATTEMPTED (sizeof(WB_EX_STR(WB_NOT_ATTEMPTED)) != 1)

namespace wb {
namespace ex {

inline std::string show(long long v) { return std::to_string(v); }
inline std::string show(unsigned long long v) { return std::to_string(v); }
inline std::string show(int v) { return std::to_string(v); }
inline std::string show(unsigned v) { return std::to_string(v); }
inline std::string show(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "%.17g", v);
  return b;
}
inline std::string show(float v) { return show(static_cast<double>(v)); }

// Device memory of n elements, filled with 0xAB bytes when made and by poison(): a value the
// kernel never wrote shows as a wrong element, never as a right one left over from a run before.
template <class T>
struct DeviceArray {
  T* ptr = nullptr;
  size_t n = 0;
  explicit DeviceArray(size_t count) : n(count) {
    CUDA_CHECK(cudaMalloc(&ptr, (n ? n : 1) * sizeof(T)));
    poison();
  }
  DeviceArray(const std::vector<T>& host) : DeviceArray(host.size()) { upload(host); }
  ~DeviceArray() { cudaFree(ptr); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  void poison() { CUDA_CHECK(cudaMemset(ptr, 0xAB, (n ? n : 1) * sizeof(T))); }
  void upload(const std::vector<T>& host) {
    CUDA_CHECK(cudaMemcpy(ptr, host.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  }
  std::vector<T> download() const {
    std::vector<T> h(n);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(h.data(), ptr, n * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
  }
};

// Shared-memory wavefronts of one warp access, and the fewest possible: the bank model of chapters
// 05 and 07 (common/bank_model.h).
using wb::bank::ideal_wavefronts;
using wb::bank::wavefronts;

class Checker {
 public:
  Checker(int argc, char** argv, bool attempted, bool has_bank_model = false)
      : args_(argc, argv, std::string("usage: ex_") + WB_EXERCISE_NAME +
                              " [--quick]" + (has_bank_model ? " [--bank-model]" : "") +
                              "\n  judges " + WB_EXERCISE_FILE) {
    quick_ = args_.flag("--quick");
    bank_model_ = args_.flag("--bank-model");
    args_.finish();
    if (bank_model_ && !has_bank_model) bad_input("this exercise has no --bank-model check");
    if (!attempted) {
      std::printf("not attempted: edit %s (delete its WB_NOT_ATTEMPTED line and write the TODO)\n",
                  WB_EXERCISE_LEARNER_FILE);
      std::fflush(stdout);
      std::exit(kSkip);
    }
    std::fprintf(stderr, "judging %s\n", WB_EXERCISE_FILE);
    // The full run draws the mistake and first removes an old picture; the runs under the tools
    // (--quick) and --bank-model leave it alone.
    if (!quick_ && !bank_model_) {
      picture_path_ = WB_EXERCISE_PICTURE;
      if (!picture_path_.empty()) std::remove(picture_path_.c_str());
    }
  }

  bool quick() const { return quick_; }
  bool bank_model() const { return bank_model_; }

  cudaDeviceProp require_device() { return prop_ = wb::require_device(); }

  // After every launch: a bad configuration fails here, an error inside the kernel at the next sync.
  void launched() {
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaDeviceSynchronize());
  }

  // Compares element by element; on a difference prints the case, the first wrong index with the
  // expected and the got value, and how many differ. Returns whether all matched.
  template <class T>
  bool expect(const std::string& what, const std::vector<T>& got, const std::vector<T>& want) {
    ++cases_;
    if (got.size() != want.size()) {
      std::printf("FAIL %s: %zu elements, expected %zu\n", what.c_str(), got.size(), want.size());
      ++failed_;
      return false;
    }
    size_t wrong = 0, first = 0;
    for (size_t i = 0; i < got.size(); ++i) {
      if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0) {
        if (!wrong) first = i;
        ++wrong;
      }
    }
    if (!wrong) return true;
    ++failed_;
    std::printf("FAIL %s: element %zu: expected %s, got %s (%zu of %zu elements wrong)\n", what.c_str(),
                first, show(want[first]).c_str(), show(got[first]).c_str(), wrong, got.size());
    // The first wrong case is drawn, unless it has fewer than 32 elements and a later one has more.
    if (!picture_.written || (!picture_.full && got.size() >= 32)) {
      Picture p = draw_mistake(picture_path_, WB_EXERCISE_NAME, what, got, want);
      if (p.written) picture_ = p;
      if (!p.line.empty()) std::printf("  %s\n", p.line.c_str());
    }
    return false;
  }

  // A failed condition that is not an element comparison (a count, a flag).
  bool expect_true(const std::string& what, bool ok, const std::string& detail) {
    ++cases_;
    if (ok) return true;
    ++failed_;
    std::printf("FAIL %s: %s\n", what.c_str(), detail.c_str());
    return false;
  }

  // The exercise's time against the chapter's reference kernel, on stderr only (not under --quick).
  template <class A, class B>
  void time(A&& exercise, const char* reference_name, B&& reference) {
    if (quick_) return;
    Timing a = time_cuda([&] { exercise(); CUDA_CHECK_LAUNCH(); });
    Timing b = time_cuda([&] { reference(); CUDA_CHECK_LAUNCH(); });
    std::fprintf(stderr, "time (median of %d): exercise %.2f us, %s %.2f us (%.2fx); never judged\n",
                 a.reps, a.median_ms * 1e3, reference_name, b.median_ms * 1e3,
                 b.median_ms > 0 ? a.median_ms / b.median_ms : 0.0);
  }

  // The verdict: exit code 0 or 1, with one line that the runner shows.
  int finish() {
    if (failed_) {
      if (picture_.written) std::printf("%s\n", picture_.line.c_str());
      std::printf("FAIL: %s: %d of %d cases wrong%s\n", WB_EXERCISE_NAME, failed_, cases_,
                  picture_.written ? ("; picture: " + picture_path_).c_str() : "");
      return kFail;
    }
    std::printf("PASS: %s: %d cases, every element equals the CPU reference\n", WB_EXERCISE_NAME, cases_);
    return kPass;
  }

  // The verdict of --bank-model: the wavefronts the model gives against the fewest possible.
  int finish_bank(const std::string& what, int wavefronts_total, int ideal_total) {
    std::printf("bank model %s: %d wavefronts, %d without conflicts: %d extra (bank conflicts)\n",
                what.c_str(), wavefronts_total, ideal_total, wavefronts_total - ideal_total);
    if (wavefronts_total != ideal_total) {
      std::printf("FAIL: %s: bank conflicts in the model\n", WB_EXERCISE_NAME);
      return kFail;
    }
    std::printf("PASS: %s: no bank conflict in the model\n", WB_EXERCISE_NAME);
    return kPass;
  }

 private:
  Args args_;
  bool quick_ = false, bank_model_ = false;
  int cases_ = 0, failed_ = 0;
  std::string picture_path_;  // empty: no picture (the runs under the tools, --bank-model)
  Picture picture_;
  cudaDeviceProp prop_{};
};

}  // namespace ex
}  // namespace wb
