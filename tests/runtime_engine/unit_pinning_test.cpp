// Pinning is best effort: a valid PU binds (checked with sched_getaffinity), an impossible one is
// refused without failing, and a VSA given such a cpu list still runs to completion.
#include "runtime/engine/engine.h"
#include "runtime/engine/pinning.h"

#include <gtest/gtest.h>
#include <sched.h>

#include <thread>

namespace itrt {
namespace {

TEST(Pinning, ValidPuBindsInvalidPuIsRefused) {
  EXPECT_GE(hardware_pu_count(), 1);
  EXPECT_FALSE(pin_current_thread({}));
  std::thread([] {
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    ASSERT_EQ(sched_getaffinity(0, sizeof allowed, &allowed), 0);
    int first = -1;
    for (int i = 0; i < CPU_SETSIZE && first < 0; ++i)
      if (CPU_ISSET(i, &allowed)) first = i;
    ASSERT_GE(first, 0);
    if (pin_current_thread({first})) {
      cpu_set_t now;
      CPU_ZERO(&now);
      ASSERT_EQ(sched_getaffinity(0, sizeof now, &now), 0);
      EXPECT_EQ(CPU_COUNT(&now), 1);
      EXPECT_TRUE(CPU_ISSET(first, &now));
    }
    EXPECT_FALSE(pin_current_thread({100000}));  // no such PU: logged, not fatal
  }).join();
}

TEST(Pinning, VsaRunsWithImpossibleCpuList) {
  VsaConfig c;
  c.threads_per_rank = 2;
  c.mapping = [](const Tuple& t, int) { return t[1] % 2; };
  c.cpus = {{0}, {100000}};
  Vsa vsa(std::move(c));
  int64_t fired = 0;
  for (int i = 0; i < 2; ++i) {
    VdpSpec s;
    s.tuple = {7, i};
    s.counter = 3;
    s.function = [&fired](Vdp&) { __atomic_add_fetch(&fired, 1, __ATOMIC_RELAXED); };
    vsa.insert(std::move(s));
  }
  vsa.run();
  EXPECT_EQ(fired, 6);
}

}  // namespace
}  // namespace itrt
