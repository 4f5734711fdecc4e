// common/check.h — error checks and the workbook's exit-code contract.
//
//   0  pass          1  fail (a CUDA error or a failed self-check)
//   2  bad input     77 skip (no CUDA device, or the GPU lacks what the chapter needs)
//
// Every CUDA call goes through CUDA_CHECK; every launch is followed by CUDA_CHECK_LAUNCH(),
// which catches bad launch configurations at once (errors inside the kernel surface at the
// next synchronising call, which is checked too).
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <string>

// The chapter's floor, from workbook_chapter(... MIN_SM NN) in cmake/Workbook.cmake; 0 = any GPU
// that CUDA 13 supports. WB_MIN_SM_WHY says what needs it ("thread-block clusters").
#ifndef WB_MIN_SM
#define WB_MIN_SM 0
#endif
#ifndef WB_MIN_SM_WHY
#define WB_MIN_SM_WHY nullptr
#endif
#ifndef WB_CUDA_ARCHS  // what this program was built for (CMAKE_CUDA_ARCHITECTURES)
#define WB_CUDA_ARCHS "unknown"
#endif

namespace wb {

enum ExitCode : int { kPass = 0, kFail = 1, kBadInput = 2, kSkip = 77 };

[[noreturn]] inline void skip(const std::string& reason) {
  std::fprintf(stderr, "SKIP: %s\n", reason.c_str());
  std::exit(kSkip);
}

// Errors that mean "this build cannot run on this GPU or driver": a skip with what to do, not a
// failure of the lesson.
inline bool no_image_error(cudaError_t err) {
  return err == cudaErrorNoKernelImageForDevice || err == cudaErrorUnsupportedPtxVersion ||
         err == cudaErrorInvalidKernelImage;
}
[[noreturn]] inline void skip_no_image(cudaError_t err) {
  skip(std::string("this build has no kernel image this GPU can run (") + cudaGetErrorName(err) +
       "; built for CUDA architectures " WB_CUDA_ARCHS "): rebuild with -DCMAKE_CUDA_ARCHITECTURES=native");
}

[[noreturn]] inline void cuda_fail(cudaError_t err, const char* call, const char* file, int line) {
  if (no_image_error(err)) skip_no_image(err);
  std::fprintf(stderr, "%s:%d: CUDA error %s (%s) in %s\n", file, line, cudaGetErrorName(err),
               cudaGetErrorString(err), call);
  std::exit(kFail);
}

[[noreturn]] inline void bad_input(const std::string& message) {
  std::fprintf(stderr, "error: %s\n", message.c_str());
  std::exit(kBadInput);
}

}  // namespace wb

#define CUDA_CHECK(call)                                              \
  do {                                                                \
    cudaError_t wb_err_ = (call);                                     \
    if (wb_err_ != cudaSuccess) wb::cuda_fail(wb_err_, #call, __FILE__, __LINE__); \
  } while (0)

#define CUDA_CHECK_LAUNCH() CUDA_CHECK(cudaGetLastError())

#ifdef __CUDACC__
// An empty kernel, compiled like every kernel of the program: if the runtime has no image of it
// for this GPU (no SASS for it and no PTX that JITs to it), neither has any other kernel.
static __global__ void wb_image_probe() {}
#endif

namespace wb {

inline std::string sm_of(const cudaDeviceProp& prop) {
  return "sm_" + std::to_string(prop.major * 10 + prop.minor);
}

// The architecture floor of the code that will run. Code under `#if __CUDA_ARCH__ >= NNN` is
// compiled per *virtual* architecture: a kernel built from compute_75 PTX has its sm_90 branch
// removed, and when the driver JIT-compiles that PTX for an sm_90 GPU the kernel runs, without
// error, doing nothing. cudaFuncGetAttributes tells which image the runtime picked for this GPU:
// ptxVersion is the virtual architecture it was compiled for (major * 10 + minor: 75 for
// compute_75, also for SASS built from it), binaryVersion the architecture of the machine code
// that runs (the GPU's own after a JIT). A chapter whose guarded code needs sm_NN (MIN_SM) must
// see ptxVersion >= NN. Returns "" when the image may run, else why not (a skip, exit 77).
// ptxVersion 0 ("unknown", documented for cubins older than CUDA 3.0) is refused for such a chapter.
inline std::string image_below_floor(int ptx_version, int binary_version, int min_sm) {
  if (min_sm <= 0 || ptx_version >= min_sm) return "";
  const std::string built = ptx_version > 0 ? "compute_" + std::to_string(ptx_version) : "an unknown architecture";
  return "this program's kernels were compiled for " + built + " (running as sm_" + std::to_string(binary_version) +
         " code), where the code that needs sm_" + std::to_string(min_sm) +
         " is compiled out; built for CUDA architectures " WB_CUDA_ARCHS ": rebuild with "
         "-DCMAKE_CUDA_ARCHITECTURES=native";
}


// Exit 77 with a one-line reason unless a CUDA device of at least compute capability
// min_major.min_minor is present and this build has a kernel image for it. The defaults are the
// chapter's own floor (MIN_SM). Prints what the device is to stderr (never to the checked stdout,
// which must not depend on the GPU model).
inline cudaDeviceProp require_device(int min_major = WB_MIN_SM / 10, int min_minor = WB_MIN_SM % 10,
                                     const char* why = WB_MIN_SM_WHY) {
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess)
    skip(std::string("no usable CUDA device or driver (cudaGetDeviceCount: ") + cudaGetErrorName(err) + ", " +
         cudaGetErrorString(err) + ")");
  if (count == 0) skip("no CUDA device");
  cudaDeviceProp prop{};
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  if (prop.major < min_major || (prop.major == min_major && prop.minor < min_minor)) {
    skip(std::string(why ? why : "this chapter") + " need" + (why ? "" : "s") + " sm_" +
         std::to_string(min_major * 10 + min_minor) + "; this GPU (" + prop.name + ") is " + sm_of(prop));
  }
#ifdef __CUDACC__
  cudaFuncAttributes attr{};
  err = cudaFuncGetAttributes(&attr, wb_image_probe);
  if (no_image_error(err)) skip_no_image(err);
  CUDA_CHECK(err);
  // The probe sits in the same translation unit as the chapter's kernels, so the runtime picks
  // the same image (architecture) for it as for them.
  const std::string below = image_below_floor(attr.ptxVersion, attr.binaryVersion, min_major * 10 + min_minor);
  if (!below.empty()) skip(below);
#endif
  std::fprintf(stderr, "device: %s, %s, %d SMs, %.1f GB, L2 %.0f MB, %zu bytes of shared memory per block (opt-in)\n",
               prop.name, sm_of(prop).c_str(), prop.multiProcessorCount, prop.totalGlobalMem / 1e9,
               prop.l2CacheSize / 1e6, static_cast<size_t>(prop.sharedMemPerBlockOptin));
  return prop;
}

// Exit 2 when `bytes` of device memory cannot be had; the caller names what it is for.
inline void require_device_memory(size_t bytes, const std::string& what) {
  size_t free_b = 0, total_b = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
  if (bytes > free_b) {
    bad_input(what + " needs " + std::to_string(bytes) + " bytes of device memory; the GPU has " +
              std::to_string(free_b) + " free of " + std::to_string(total_b));
  }
}

// A short, stable name for the GPU, used for result folders: "h100", "h200", ...
inline std::string gpu_slug(const cudaDeviceProp& prop) {
  std::string name;
  for (const char* p = prop.name; *p; ++p) {
    char c = *p;
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    name += c;
  }
  for (const char* known : {"gh200", "h100", "h200", "b200", "a100", "l40s", "l4"}) {
    if (name.find(known) != std::string::npos) return known;
  }
  std::string slug;
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (ok) slug += c;
    else if (!slug.empty() && slug.back() != '_') slug += '_';
  }
  while (!slug.empty() && slug.back() == '_') slug.pop_back();
  return slug.empty() ? "gpu" : slug;
}

}  // namespace wb
