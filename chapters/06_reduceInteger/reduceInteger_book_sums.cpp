// Chapter 06, README errata "Sums": the sums of the book's own data, `rand() & 0xFF` from glibc's
// rand() with its default seed (lesson::GlibcRand), over 2^24 values (its reduceInteger.cu) and
// 2^25 (its reduceIntegerShfl.cu run with ishift = 25). Exits 1 unless they are the README's numbers.
#include <cstdint>
#include <cstdio>

#include "reduceInteger_lesson.h"

int main() {
  lesson::GlibcRand rng;
  uint64_t sum = 0, sum24 = 0;
  for (uint64_t i = 0; i < (uint64_t(1) << 25); ++i) {
    sum += static_cast<unsigned>(rng.next() & 0xFF);
    if (i + 1 == (uint64_t(1) << 24)) sum24 = sum;
  }
  std::printf("2^24 values: %llu; 2^25 values: %llu; int max: 2147483647\n",
              static_cast<unsigned long long>(sum24), static_cast<unsigned long long>(sum));
  return sum24 == 2139353471u && sum == 4278649404u ? 0 : 1;
}
