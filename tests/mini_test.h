// tests/mini_test.h — the few GoogleTest macros the workbook's unit tests use (TEST, EXPECT_EQ,
// EXPECT_NE, EXPECT_TRUE, EXPECT_FALSE, EXPECT_THROW, with `<< message`), in plain C++, for a build
// without GoogleTest: the unit tests then still build and run everywhere, CI included.
// tests/CMakeLists.txt picks GoogleTest when it is installed and this header otherwise; the test
// sources include it through "unit_test.h".
#pragma once

#include <cstdio>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace mini_test {

struct Case {
  const char* suite;
  const char* name;
  std::function<void()> body;
};
inline std::vector<Case>& registry() {
  static std::vector<Case> cases;
  return cases;
}
inline int& failures() {
  static int n = 0;
  return n;
}
struct Register {
  Register(const char* suite, const char* name, std::function<void()> body) {
    registry().push_back({suite, name, std::move(body)});
  }
};

// Collects `<< message` after a failed expectation and prints it with the file and line.
class Failure {
 public:
  Failure(const char* file, int line, std::string what) : file_(file), line_(line), what_(std::move(what)) {}
  ~Failure() {
    ++failures();
    std::printf("%s:%d: Failure: %s %s\n", file_, line_, what_.c_str(), extra_.str().c_str());
  }
  template <class T>
  Failure& operator<<(const T& x) {
    extra_ << x;
    return *this;
  }

 private:
  const char* file_;
  int line_;
  std::string what_;
  std::ostringstream extra_;
};
struct Ignore {  // swallows `<< message` after an expectation that held
  template <class T>
  Ignore& operator<<(const T&) {
    return *this;
  }
};

inline int run_all() {
  int failed_cases = 0;
  for (const Case& c : registry()) {
    const int before = failures();
    c.body();
    const bool ok = failures() == before;
    if (!ok) ++failed_cases;
    std::printf("[%s] %s.%s\n", ok ? "      OK" : "  FAILED", c.suite, c.name);
  }
  std::printf("%zu tests, %d failed\n", registry().size(), failed_cases);
  return failed_cases ? 1 : 0;
}

}  // namespace mini_test

#define MINI_TEST_CAT_(a, b) a##b
#define MINI_TEST_CAT(a, b) MINI_TEST_CAT_(a, b)
#define TEST(suite, name)                                                                          \
  static void MINI_TEST_CAT(test_, MINI_TEST_CAT(suite, MINI_TEST_CAT(_, name)))();               \
  static mini_test::Register MINI_TEST_CAT(reg_, MINI_TEST_CAT(suite, MINI_TEST_CAT(_, name)))(    \
      #suite, #name, MINI_TEST_CAT(test_, MINI_TEST_CAT(suite, MINI_TEST_CAT(_, name))));         \
  static void MINI_TEST_CAT(test_, MINI_TEST_CAT(suite, MINI_TEST_CAT(_, name)))()

// `if (cond) ; else` keeps a following `<< message` attached to the failure only.
#define MINI_TEST_CHECK(cond, what) \
  if (cond)                         \
    mini_test::Ignore();            \
  else                              \
    mini_test::Failure(__FILE__, __LINE__, what)
#define EXPECT_TRUE(c) MINI_TEST_CHECK((c), "EXPECT_TRUE(" #c ")")
#define EXPECT_FALSE(c) MINI_TEST_CHECK(!(c), "EXPECT_FALSE(" #c ")")
#define EXPECT_EQ(a, b) MINI_TEST_CHECK((a) == (b), "EXPECT_EQ(" #a ", " #b ")")
#define EXPECT_NE(a, b) MINI_TEST_CHECK((a) != (b), "EXPECT_NE(" #a ", " #b ")")
#define EXPECT_THROW(stmt, type)                                           \
  MINI_TEST_CHECK(([&] {                                                   \
                    try {                                                  \
                      stmt;                                                \
                    } catch (const type&) {                                \
                      return true;                                         \
                    } catch (...) {                                        \
                    }                                                      \
                    return false;                                          \
                  }()),                                                    \
                  "EXPECT_THROW(" #stmt ", " #type ")")

#ifndef MINI_TEST_NO_MAIN
int main() { return mini_test::run_all(); }
#endif
