// Single-process, single-rank tests of VDP firing rules, channel on/off, FIFO, broadcast, explicit
// finish and shutdown, using the default in-process transport.
#include "runtime/engine/engine.h"
#include "tests/runtime_engine/scenarios.h"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <chrono>
#include <thread>

namespace itrt {
namespace {

using testing::Result;

VsaConfig config(int threads, MappingFunction map = testing::hash_mapping()) {
  VsaConfig c;
  c.threads_per_rank = threads;
  c.mapping = std::move(map);
  return c;
}

void expect_ok(const Result& r, int64_t min_checked) {
  EXPECT_EQ(r.errors, 0) << r.first_error;
  EXPECT_GE(r.checked, min_checked);
}

PacketRef int_packet(int64_t v) { return Packet::copy_of(&v, sizeof v); }

TEST(Vdp, FiresOnlyWhenEveryActiveInputHoldsAPacket) {
  int64_t base = Packet::live();
  std::vector<std::pair<int64_t, int64_t>> seen;
  int64_t violations = 0;
  {
    Vsa vsa(config(2));
    for (int src = 0; src < 2; ++src) {
      VdpSpec s;
      s.tuple = {1, src};
      s.counter = 50;
      s.output(0, {1, 9}, src);
      s.function = [src](Vdp& v) {
        if (src == 1) std::this_thread::sleep_for(std::chrono::microseconds(200));  // lag behind
        v.push(0, int_packet(v.fired()));
      };
      vsa.insert(std::move(s));
    }
    VdpSpec x;
    x.tuple = {1, 9};
    x.counter = 50;
    x.input(0, {1, 0}, 0).input(1, {1, 1}, 0);
    x.function = [&](Vdp& v) {
      if (v.queued(0) == 0 || v.queued(1) == 0) ++violations;
      int64_t a = *v.pop(0)->as<int64_t>();
      int64_t b = *v.pop(1)->as<int64_t>();
      seen.emplace_back(a, b);
    };
    vsa.insert(std::move(x));
    vsa.run();
    EXPECT_EQ(vsa.discarded_packets(), 0u);
  }
  EXPECT_EQ(violations, 0);
  ASSERT_EQ(seen.size(), 50u);
  for (int64_t i = 0; i < 50; ++i) EXPECT_EQ(seen[i], std::make_pair(i, i));
  EXPECT_EQ(Packet::live(), base);
}

TEST(Vdp, InactiveInputDoesNotBlockAndCanBeSwitchedOn) {
  // The shared gate scenario (also run under mpirun): X's slot 1 is off and its producer B only
  // fires after X's first firing, so X can fire the first time only if inactive channels are
  // ignored; X then switches the channel on for one firing and off again.
  Vsa vsa(config(1, [](const Tuple&, int) { return 0; }));
  testing::build_gate(vsa);
  vsa.run();
  expect_ok(testing::check_gate(vsa), 1);
}

TEST(Vdp, CounterCountsDownToOne) {
  std::vector<int64_t> counters;
  Vsa vsa(config(1));
  VdpSpec s;
  s.tuple = {3};
  s.counter = 4;
  s.function = [&](Vdp& v) { counters.push_back(v.counter()); };
  vsa.insert(std::move(s));
  vsa.run();
  EXPECT_EQ(counters, (std::vector<int64_t>{4, 3, 2, 1}));
  EXPECT_TRUE(vsa.find({3})->finished());
}

TEST(Vsa, FifoOrderWith10000PacketsAcrossThreads) {
  int64_t base = Packet::live();
  {
    // Producer and consumer on different threads so the queue really is shared.
    Vsa vsa(config(2, [](const Tuple& t, int) { return t[1] == 0 ? 0 : 1; }));
    testing::build_fifo(vsa, 10000, 4);
    vsa.run();
    expect_ok(testing::check_fifo(vsa, 10000), 2);
    CommStats s = vsa.comm_stats();
    EXPECT_EQ(s.intra_messages, 10000u);
    EXPECT_EQ(s.intra_bytes, 10000u * 16);
    EXPECT_EQ(s.inter_messages, 0u);
  }
  EXPECT_EQ(Packet::live(), base);
}

TEST(Vsa, BroadcastSharesOnePacketAcrossChannels) {
  int64_t base = Packet::live();
  {
    Vsa vsa(config(1));  // one thread: ref counts are exact
    testing::build_broadcast(vsa, 5, 4);
    vsa.run();
    expect_ok(testing::check_broadcast(vsa, 5, 4), 4 + 5 * 2);
  }
  {
    Vsa vsa(config(3));
    testing::build_broadcast(vsa, 5, 20);
    vsa.run();
    expect_ok(testing::check_broadcast(vsa, 5, 20), 20);
  }
  EXPECT_EQ(Packet::live(), base);
}

TEST(Vsa, RingOverThreads) {
  Vsa vsa(config(3));
  testing::build_ring(vsa, 7, 20);
  vsa.run();
  expect_ok(testing::check_ring(vsa, 7, 20), 8);
}

TEST(Vsa, LargeRingManyVdpsPerThread) {
  // 3000 VDPs on 2 threads: workers re-check only VDPs whose inputs changed, so this stays fast.
  auto t0 = std::chrono::steady_clock::now();
  Vsa vsa(config(2));
  testing::build_ring(vsa, 3000, 3);
  vsa.run();
  expect_ok(testing::check_ring(vsa, 3000, 3), 3000);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 10.0);
}

TEST(Vsa, CannonMatchesSequentialProduct) {
  Vsa vsa(config(2));
  testing::build_cannon(vsa, 3, 5, 7);
  vsa.run();
  expect_ok(testing::check_cannon(vsa, 3, 5, 7), 9);
}

TEST(Vsa, ExplicitFinishEndsUnboundedVdps) {
  Vsa vsa(config(2));
  testing::build_collatz(vsa, 27);
  vsa.run();
  expect_ok(testing::check_collatz(vsa, 27), 5);
}

TEST(Vsa, ReductionTreesSingleRank) {
  Vsa vsa(config(3));
  testing::build_reductions(vsa, 5, 20, 2, 99);
  vsa.run();
  expect_ok(testing::check_reductions(vsa, 5), 5 * 2 * testing::reduction_case_count());
}

TEST(Vsa, ShutdownDropsPacketsForFinishedVdps) {
  int64_t base = Packet::live();
  {
    Vsa vsa(config(2));
    VdpSpec p;
    p.tuple = {4, 0};
    p.counter = 10;
    p.output(0, {4, 1}, 0);
    p.function = [](Vdp& v) { v.push(0, int_packet(1)); };
    vsa.insert(std::move(p));
    VdpSpec c;
    c.tuple = {4, 1};
    c.counter = 0;
    c.input(0, {4, 0}, 0, /*active=*/false);
    c.function = [](Vdp& v) { v.finish(); };  // finishes at once, reads nothing
    vsa.insert(std::move(c));
    vsa.run();
    EXPECT_EQ(vsa.discarded_packets(), 10u);
  }
  EXPECT_EQ(Packet::live(), base);
}

TEST(Vsa, EmptyVsaTerminates) {
  Vsa vsa(config(4));
  vsa.run();
  EXPECT_EQ(vsa.local_vdp_count(), 0u);
}

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_utime.tv_sec + u.ru_stime.tv_sec + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

TEST(Vsa, IdleWorkersDoNotBurnCpu) {
  // Three workers wait ~400 ms for a packet while one VDP sleeps: spinning would cost >= 1 CPU-s.
  Vsa vsa(config(4, [](const Tuple& t, int) { return t[1]; }));
  VdpSpec s;
  s.tuple = {5, 0};
  s.counter = 1;
  for (int c = 1; c < 4; ++c) s.output(c - 1, {5, c}, 0);
  s.function = [](Vdp& v) {
    std::this_thread::sleep_for(std::chrono::milliseconds(400));
    PacketRef p = int_packet(1);
    for (int c = 0; c < 3; ++c) v.push(c, p);
  };
  vsa.insert(std::move(s));
  for (int c = 1; c < 4; ++c) {
    VdpSpec k;
    k.tuple = {5, c};
    k.counter = 1;
    k.input(0, {5, 0}, c - 1);
    k.function = [](Vdp& v) { v.pop(0); };
    vsa.insert(std::move(k));
  }
  double before = cpu_seconds();
  auto t0 = std::chrono::steady_clock::now();
  vsa.run();
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  double cpu = cpu_seconds() - before;
  EXPECT_GE(wall, 0.39);
  EXPECT_LT(cpu, 0.1) << "cpu " << cpu << " s over " << wall << " s wall";
}

}  // namespace
}  // namespace itrt
