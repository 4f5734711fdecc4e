// common/args.h — strict command-line parsing. Bad input exits 2 with a clear message;
// nothing falls back silently.
//
//   wb::Args args(argc, argv, "usage: prog [--n N] [--bench]");
//   bool bench   = args.flag("--bench");
//   uint64_t n   = args.count("--n", 1 << 20, 1, uint64_t(1) << 40);
//   std::string d = args.text("--csv-dir", "");
//   args.only_with("--bench", {"--n", "--csv-dir"});   // they need --bench beside them: exit 2
//   args.finish();                 // any argument left over is unknown: exit 2
//
// Numbers are plain decimal digits or a power of two written 2^K. "--n=5" and "--n 5" both work.
// Refused with exit 2: an option given twice, a value that is itself an option ("--csv-dir --bench"),
// an empty value ("--csv-dir="), and an output folder that cannot be created and written (checked
// here, before any GPU work, by out_dir()).
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <string>
#include <vector>

namespace wb {

class Args {
 public:
  Args(int argc, char** argv, std::string usage) : usage_(std::move(usage)) {
    for (int i = 1; i < argc; ++i) {
      std::string a = argv[i];
      if (a == "--help" || a == "-h") {
        std::printf("%s\n", usage_.c_str());
        std::exit(0);
      }
      auto eq = a.find('=');
      if (a.rfind("--", 0) == 0 && eq != std::string::npos) {
        tokens_.push_back(a.substr(0, eq));
        tokens_.push_back(a.substr(eq + 1));
      } else {
        tokens_.push_back(a);
      }
    }
    used_.assign(tokens_.size(), false);
  }

  // Was the option given at all (with or without a value)?
  bool given(const std::string& name) const {
    for (const auto& t : tokens_)
      if (t == name) return true;
    return false;
  }

  // Options that only mean something beside `flag` (e.g. the benchmark's, beside --bench):
  // exit 2 when one is given without it.
  void only_with(const std::string& flag, std::initializer_list<const char*> options) const {
    if (given(flag)) return;
    for (const char* o : options)
      if (given(o)) fail(std::string(o) + " only applies with " + flag);
  }

  bool flag(const std::string& name) {
    bool seen = false;
    for (size_t i = 0; i < tokens_.size(); ++i) {
      if (used_[i] || tokens_[i] != name) continue;
      if (seen) fail(name + " is given twice");
      used_[i] = seen = true;
    }
    return seen;
  }

  // A folder to write results into: created now, and a file written and removed in it, so that an
  // unwritable path is bad input before any work rather than a failure after it. "" if not given.
  std::string out_dir(const std::string& name) {
    std::string dir;
    if (!value(name, &dir)) return "";
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec || !fs::is_directory(dir))
      fail(name + " " + dir + ": cannot create the folder" + (ec ? " (" + ec.message() + ")" : std::string()));
    const fs::path probe = fs::path(dir) / ".wb_write_test";
    bool ok = static_cast<bool>(std::ofstream(probe) << "x");
    fs::remove(probe, ec);
    if (!ok) fail(name + " " + dir + ": the folder is not writable");
    return dir;
  }

  std::string text(const std::string& name, const std::string& fallback) {
    std::string v;
    return value(name, &v) ? v : fallback;
  }

  // A whole number in [lo, hi].
  uint64_t count(const std::string& name, uint64_t fallback, uint64_t lo, uint64_t hi) {
    std::string v;
    if (!value(name, &v)) return fallback;
    uint64_t x = 0;
    if (!parse(v, &x)) fail(name + " expects a positive whole number (digits or 2^K), got '" + v + "'");
    if (x < lo || x > hi)
      fail(name + " " + v + " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    return x;
  }

  void finish() const {
    for (size_t i = 0; i < tokens_.size(); ++i)
      if (!used_[i]) fail("unknown argument '" + tokens_[i] + "'");
  }

 private:
  bool value(const std::string& name, std::string* out) {
    bool seen = false;
    for (size_t i = 0; i < tokens_.size(); ++i) {
      if (used_[i] || tokens_[i] != name) continue;
      if (seen) fail(name + " is given twice");
      if (i + 1 >= tokens_.size()) fail(name + " needs a value");
      if (tokens_[i + 1].empty()) fail(name + " needs a value, not an empty one");
      if (tokens_[i + 1].rfind("--", 0) == 0)
        fail(name + " needs a value, not the option '" + tokens_[i + 1] + "'");
      used_[i] = used_[i + 1] = true;
      *out = tokens_[i + 1];
      seen = true;
    }
    return seen;
  }

  static bool digits(const std::string& s, uint64_t* out) {
    if (s.empty() || s.size() > 19) return false;
    uint64_t x = 0;
    for (char c : s) {
      if (c < '0' || c > '9') return false;
      x = x * 10 + static_cast<uint64_t>(c - '0');
    }
    *out = x;
    return true;
  }

  static bool parse(const std::string& s, uint64_t* out) {
    auto caret = s.find('^');
    if (caret == std::string::npos) return digits(s, out);
    uint64_t exp = 0;
    if (s.substr(0, caret) != "2" || !digits(s.substr(caret + 1), &exp) || exp > 62) return false;
    *out = uint64_t(1) << exp;
    return true;
  }

  [[noreturn]] void fail(const std::string& msg) const {
    std::fprintf(stderr, "error: %s\n%s\n", msg.c_str(), usage_.c_str());
    std::exit(2);
  }

  std::string usage_;
  std::vector<std::string> tokens_;
  std::vector<bool> used_;
};

}  // namespace wb
