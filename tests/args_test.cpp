// Unit test of common/args.h: every rule the chapter programs share, tested once here instead of
// in each chapter. A refused command line exits 2 with a message (Args calls std::exit), so each
// case runs in a child process (POSIX fork) and the test reads its exit code and stderr.
#include "args.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "unit_test.h"

namespace {

struct Outcome {
  int code;            // exit code; -1 if the child did not exit normally
  std::string err;     // what it wrote to stderr
};

// Runs parse(args) in a child; the child exits 0 if parse returns normally.
Outcome run(std::vector<std::string> words, const std::function<void(wb::Args&)>& parse) {
  int fds[2];
  if (pipe(fds) != 0) return {-1, "pipe failed"};
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 2);
    close(fds[0]);
    close(fds[1]);
    if (!freopen("/dev/null", "w", stdout)) _exit(99);
    std::vector<char*> argv{const_cast<char*>("prog")};
    for (auto& w : words) argv.push_back(&w[0]);
    argv.push_back(nullptr);
    wb::Args args(static_cast<int>(argv.size()) - 1, argv.data(), "usage: prog [options]");
    parse(args);
    std::fflush(nullptr);
    _exit(0);
  }
  close(fds[1]);
  std::string err;
  char buf[512];
  ssize_t got;
  while ((got = read(fds[0], buf, sizeof buf)) > 0) err.append(buf, static_cast<size_t>(got));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, err};
}

bool has(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

// What a typical chapter does: a bench flag, options that need it, a count and a folder.
void typical(wb::Args& a) {
  a.flag("--bench");
  a.count("--n", 1024, 1, uint64_t(1) << 40);
  a.count("--reps", 5, 1, 1000);
  a.only_with("--bench", {"--n", "--reps", "--csv-dir"});
  a.out_dir("--csv-dir");
  a.finish();
}

uint64_t g_value = 0;
void count_n(wb::Args& a) {
  g_value = a.count("--n", 7, 1, uint64_t(1) << 40);
  a.finish();
  if (g_value != 1234 && g_value != (uint64_t(1) << 20) && g_value != 7) _exit(3);  // a wrong value read
}

}  // namespace

TEST(Args, AcceptsAGoodCommandLine) {
  auto r = run({"--bench", "--n", "2^20", "--reps=3"}, typical);
  EXPECT_EQ(r.code, 0) << r.err;
}

TEST(Args, ReadsTheValueBothWays) {
  EXPECT_EQ(run({"--n", "1234"}, count_n).code, 0);
  EXPECT_EQ(run({"--n=1234"}, count_n).code, 0);
  EXPECT_EQ(run({"--n", "2^20"}, count_n).code, 0);
  EXPECT_EQ(run({}, count_n).code, 0);  // the fallback
}

TEST(Args, UnknownArgument) {
  auto r = run({"--frobnicate"}, typical);
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.err, "unknown argument '--frobnicate'")) << r.err;
  EXPECT_TRUE(has(r.err, "usage: prog")) << r.err;
  r = run({"stray"}, typical);
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.err, "unknown argument 'stray'")) << r.err;
}

TEST(Args, BenchOptionWithoutBench) {
  auto r = run({"--csv-dir", "out"}, typical);
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.err, "--csv-dir only applies with --bench")) << r.err;
  r = run({"--n", "1024"}, typical);
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.err, "--n only applies with --bench")) << r.err;
}

TEST(Args, MalformedNumbers) {
  for (const char* bad : {"abc", "-5", "1.5", "0x10", "3^4", "2^63", "2^", "12345678901234567890", "1e6"}) {
    auto r = run({"--bench", "--n", bad}, typical);
    EXPECT_EQ(r.code, 2) << "--n " << bad;
    EXPECT_TRUE(has(r.err, "--n expects a positive whole number")) << "--n " << bad << ": " << r.err;
  }
}

TEST(Args, OutOfRange) {
  auto r = run({"--bench", "--n", "0"}, typical);
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.err, "--n 0 is out of range [1, 1099511627776]")) << r.err;
  r = run({"--bench", "--n", "2^41"}, typical);
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.err, "is out of range")) << r.err;
  r = run({"--bench", "--reps", "0"}, typical);
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.err, "--reps 0 is out of range")) << r.err;
}

TEST(Args, MissingValue) {
  auto r = run({"--bench", "--n"}, typical);
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.err, "--n needs a value")) << r.err;
}

TEST(Args, OptionAsValue) {
  auto r = run({"--csv-dir", "--bench"}, typical);
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.err, "--csv-dir needs a value, not the option '--bench'")) << r.err;
}

TEST(Args, EmptyValue) {
  auto r = run({"--bench", "--csv-dir="}, typical);
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.err, "--csv-dir needs a value, not an empty one")) << r.err;
  r = run({"--bench", "--csv-dir", ""}, typical);
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.err, "--csv-dir needs a value, not an empty one")) << r.err;
}

TEST(Args, RepeatedOption) {
  auto r = run({"--bench", "--bench"}, typical);
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.err, "--bench is given twice")) << r.err;
  r = run({"--bench", "--n", "4", "--n=8"}, typical);
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.err, "--n is given twice")) << r.err;
}

TEST(Args, UnwritableFolder) {
  auto r = run({"--bench", "--csv-dir", "/proc/wb_forbidden/x"}, typical);
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.err, "cannot create the folder")) << r.err;
}

TEST(Args, WritableFolderIsCreated) {
  char tmpl[] = "/tmp/wb_args_test_XXXXXX";
  const char* base = mkdtemp(tmpl);
  EXPECT_TRUE(base != nullptr);
  if (!base) return;
  const std::string dir = std::string(base) + "/a/b";
  auto r = run({"--bench", "--csv-dir", dir}, typical);
  EXPECT_EQ(r.code, 0) << r.err;
  std::error_code ec;
  EXPECT_TRUE(std::filesystem::is_directory(dir));
  EXPECT_FALSE(std::filesystem::exists(dir + "/.wb_write_test"));  // the probe file is removed
  std::filesystem::remove_all(base, ec);
}

TEST(Args, HelpExitsZero) {
  auto r = run({"--help"}, typical);
  EXPECT_EQ(r.code, 0);
}
