// The thread pool keeps worker and task threads between VSAs: a job runs, join() waits for it,
// the next job asking for the same processors gets the same (already pinned) thread, a job never
// inherits the collective-failure handler of the one before, and jobs run at once get threads
// of their own.
#include "runtime/engine/failure.h"
#include "runtime/engine/thread_pool.h"

#include <gtest/gtest.h>
#include <sched.h>

#include <atomic>
#include <chrono>
#include <set>
#include <thread>
#include <vector>

namespace itrt {
namespace {

std::vector<int> first_allowed_cpu() {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return {};
  for (int i = 0; i < CPU_SETSIZE; ++i)
    if (CPU_ISSET(i, &allowed)) return {i};
  return {};
}

TEST(ThreadPool, JoinWaitsForTheJob) {
  std::atomic<int> ran{0};
  ThreadPool::Job job = ThreadPool::instance().start({}, [&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    ran.store(1);
  });
  EXPECT_TRUE(job.joinable());
  job.join();
  EXPECT_FALSE(job.joinable());
  EXPECT_EQ(ran.load(), 1);
}

TEST(ThreadPool, AJoinedThreadServesTheNextJobForTheSameProcessors) {
  const std::vector<int> cpus = first_allowed_cpu();
  ASSERT_FALSE(cpus.empty());
  std::thread::id first, second;
  int pinned_to = -1;
  ThreadPool::instance().start(cpus, [&] { first = std::this_thread::get_id(); }).join();
  ThreadPool::instance()
      .start(cpus,
             [&] {
               second = std::this_thread::get_id();
               cpu_set_t now;
               CPU_ZERO(&now);
               if (sched_getaffinity(0, sizeof now, &now) == 0 && CPU_COUNT(&now) == 1 && CPU_ISSET(cpus[0], &now))
                 pinned_to = cpus[0];
             })
      .join();
  EXPECT_EQ(first, second);
  EXPECT_EQ(pinned_to, cpus[0]);  // pinned when created, still pinned for the next job
}

TEST(ThreadPool, JobsRunningAtOnceHaveThreadsOfTheirOwn) {
  constexpr int kJobs = 4;
  std::atomic<int> arrived{0};
  std::vector<std::thread::id> ids(kJobs);
  std::vector<ThreadPool::Job> jobs;
  for (int j = 0; j < kJobs; ++j)
    jobs.push_back(ThreadPool::instance().start({}, [&, j] {
      ids[static_cast<size_t>(j)] = std::this_thread::get_id();
      arrived.fetch_add(1);
      while (arrived.load() < kJobs) std::this_thread::yield();  // all four run at once, or none ends
    }));
  for (auto& j : jobs) j.join();
  EXPECT_EQ(std::set<std::thread::id>(ids.begin(), ids.end()).size(), static_cast<size_t>(kJobs));
}

TEST(ThreadPool, AJobDoesNotInheritTheFailureHandlerOfTheLast) {
  const std::vector<int> cpus = first_allowed_cpu();
  std::thread::id first, second;
  bool inherited = true;
  ThreadPool::instance()
      .start(cpus,
             [&] {
               first = std::this_thread::get_id();
               detail::set_collective_failure_handler([] {});
             })
      .join();
  ThreadPool::instance()
      .start(cpus,
             [&] {
               second = std::this_thread::get_id();
               inherited = detail::has_collective_failure_handler();
             })
      .join();
  ASSERT_EQ(first, second);
  EXPECT_FALSE(inherited);
}

}  // namespace
}  // namespace itrt
