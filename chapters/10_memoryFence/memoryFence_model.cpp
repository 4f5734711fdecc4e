// CPU model of chapter 10. Part 1 runs 004's three threads for real, as three std::threads with
// std::atomic release/acquire (C++ has one scope, so cumulativity comes for free); parts 2 and 3
// print the plain 64-bit sum of the inputs, which is what every correct one-pass sum must return,
// in whatever domain it runs.
#include <atomic>
#include <thread>

#include "memoryFence_lesson.h"

static lesson::ThreeThreads run_once() {
  std::atomic<int> a{0}, b{0};
  int x = 0, y = 0;
  lesson::ThreeThreads seen;
  std::thread t1([&] {
    x = lesson::kX;
    a.store(1, std::memory_order_release);
  });
  std::thread t2([&] {
    while (a.load(std::memory_order_acquire) != 1) std::this_thread::yield();
    seen.t2_x = x;
    y = seen.t2_x + 1;
    b.store(1, std::memory_order_release);
  });
  while (b.load(std::memory_order_acquire) != 1) std::this_thread::yield();  // thread 3
  seen.t3_x = x;
  seen.t3_y = y;
  t1.join();
  t2.join();
  return seen;
}

int main() {
  lesson::ThreeThreads last;
  int t2_ok = 0, t3_ok = 0;
  for (int r = 0; r < lesson::kRuns; ++r) {
    last = run_once();
    t2_ok += last.t2_x == lesson::kX;
    t3_ok += last.t3_x == lesson::kX && last.t3_y == lesson::kX + 1;
  }
  lesson::print_three_threads(last, t2_ok, t3_ok);

  long long sum = 0;
  for (uint64_t i = 0; i < lesson::kLessonN; ++i) sum += lesson::input(i);
  lesson::print_sum_header(sum);
  const int launches = 2 * lesson::kLaunchesPerGrid;
  lesson::print_sum("sumThreadfence", "partial; __threadfence(); atomicAdd(ticket)", sum, launches, launches);
  lesson::print_sum("sumReleaseAcquire", "partial; ticket.fetch_add(1, acq_rel) device", sum, launches, launches);

  lesson::print_domain_header();
  lesson::print_domain("sumReleaseAcquire", "domain = remote (default map)", sum, true);
  lesson::print_domain("sumThreadfence", "domain = remote, map remote -> last physical", sum, true);
  return 0;
}
