// Death tests of the single-process error path: construction mistakes and misuse inside a VDP
// print exactly one "itrt: error on rank 0: ..." line and exit with status 1.
#include "runtime/engine/engine.h"

#include <gtest/gtest.h>

namespace itrt {
namespace {

VsaConfig one_thread() {
  VsaConfig c;
  c.mapping = [](const Tuple&, int) { return 0; };
  return c;
}

TEST(FailureDeathTest, DuplicateVdp) {
  EXPECT_EXIT(
      {
        Vsa vsa(one_thread());
        VdpSpec s;
        s.tuple = {1};
        vsa.insert(s);
        vsa.insert(s);
      },
      ::testing::ExitedWithCode(1), "^itrt: error on rank 0: VSA: VDP \\(1\\) inserted twice\n$");
}

TEST(FailureDeathTest, MissingLocalChannelEnd) {
  EXPECT_EXIT(
      {
        Vsa vsa(one_thread());
        VdpSpec s;
        s.tuple = {1};
        s.output(0, {2}, 0);
        s.function = [](Vdp&) {};
        vsa.insert(s);
        vsa.run();
      },
      ::testing::ExitedWithCode(1), "destination VDP \\(2\\) \\(mapped to this rank\\) was never inserted");
}

void insert_with_bad_mapping() {
  VsaConfig c;
  c.threads_per_rank = 2;
  c.mapping = [](const Tuple&, int total) { return total; };
  Vsa vsa(std::move(c));
  VdpSpec s;
  s.tuple = {5, 5};
  vsa.insert(s);
}

TEST(FailureDeathTest, BadMapping) {
  EXPECT_EXIT(insert_with_bad_mapping(), ::testing::ExitedWithCode(1),
              "mapping sent VDP \\(5, 5\\) to thread 2, outside \\[0, 2\\)");
}

void run_with_failing_worker() {
  VsaConfig c;
  c.threads_per_rank = 2;
  c.mapping = [](const Tuple& t, int) { return t[0]; };
  Vsa vsa(std::move(c));
  for (int i = 0; i < 2; ++i) {
    VdpSpec s;
    s.tuple = {i};
    s.counter = 0;
    s.function = [i](Vdp&) {
      if (i == 1) fail("deliberate");
    };
    vsa.insert(s);
  }
  vsa.run();
}

TEST(FailureDeathTest, FailInsideAVdpOnAWorkerThread) {
  // The worker calls fail(); the proxy (another thread) must end the process: once, status 1.
  EXPECT_EXIT(run_with_failing_worker(), ::testing::ExitedWithCode(1), "^itrt: error on rank 0: deliberate\n$");
}

void run_throwing_vdp() {
  Vsa vsa(one_thread());
  VdpSpec s;
  s.tuple = Tuple({3, 1});
  s.function = [](Vdp&) { throw std::runtime_error("boom"); };
  vsa.insert(s);
  vsa.run();
}

TEST(FailureDeathTest, ExceptionInVdpBecomesOneError) {
  EXPECT_EXIT(run_throwing_vdp(), ::testing::ExitedWithCode(1), "^itrt: error on rank 0: VDP \\(3, 1\\): boom\n$");
}

TEST(FailureDeathTest, PopFromEmptyOrInactiveSlot) {
  EXPECT_EXIT(
      {
        Vsa vsa(one_thread());
        VdpSpec a;
        a.tuple = {1};
        a.output(0, {2}, 0);
        a.function = [](Vdp&) {};
        vsa.insert(a);
        VdpSpec b;
        b.tuple = {2};
        b.input(0, {1}, 0, false);
        b.function = [](Vdp& v) { v.pop(0); };
        vsa.insert(b);
        vsa.run();
      },
      ::testing::ExitedWithCode(1), "VDP \\(2\\): pop from inactive input slot 0");
}

}  // namespace
}  // namespace itrt
