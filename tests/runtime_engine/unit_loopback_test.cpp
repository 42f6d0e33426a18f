// Single-process multi-rank tests: N VSAs (one per simulated rank, each on its own thread) joined
// by the counting LoopbackFabric, so the proxy protocol, tags and counters are checked without MPI.
#include "runtime/engine/engine.h"
#include "runtime/engine/loopback_transport.h"
#include "tests/runtime_engine/scenarios.h"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <mutex>
#include <thread>

namespace itrt {
namespace {

using testing::Result;

struct RankRun {
  Result result;
  CommStats comm;
  ProxyStats proxy;
  std::map<ChannelKey, int> tags;  // inter-rank channels seen by this rank
};

std::vector<RankRun> run_ranks(LoopbackFabric& fabric, int tpr, MappingFunction map,
                               const std::function<void(Vsa&)>& build, const std::function<Result(Vsa&)>& check) {
  int n = fabric.size();
  std::vector<RankRun> runs(n);
  std::vector<std::thread> ts;
  for (int r = 0; r < n; ++r)
    ts.emplace_back([&, r] {
      VsaConfig c;
      c.threads_per_rank = tpr;
      c.mapping = map;
      c.transport = fabric.endpoint(r);
      Vsa vsa(std::move(c));
      build(vsa);
      vsa.run();
      runs[r].result = check(vsa);
      runs[r].comm = vsa.comm_stats();
      runs[r].proxy = vsa.proxy_stats();
      for (const Channel* ch : vsa.channels())
        if (ch->inter_rank()) runs[r].tags[ch->key()] = ch->tag();
    });
  for (auto& t : ts) t.join();
  return runs;
}

Result total(const std::vector<RankRun>& runs) {
  Result t;
  for (auto& r : runs) t.add(r.result);
  return t;
}

void expect_ok(const Result& r, int64_t checked) {
  EXPECT_EQ(r.errors, 0) << r.first_error;
  EXPECT_EQ(r.checked, checked);
}

TEST(Loopback, FifoAcrossRanksCountsEveryMessage) {
  int64_t base = Packet::live();
  LoopbackFabric fabric(2);
  auto map = [](const Tuple& t, int total) { return t[1] == 0 ? 0 : total - 1; };
  auto runs = run_ranks(
      fabric, 2, map, [](Vsa& v) { testing::build_fifo(v, 10000, 8); },
      [](Vsa& v) { return testing::check_fifo(v, 10000); });
  expect_ok(total(runs), 2);
  // Rank 0 pushed 10000 data packets through its proxy; the fabric saw them plus one TERMINATE.
  EXPECT_EQ(runs[0].comm.inter_messages, 10000u);
  EXPECT_EQ(runs[0].comm.inter_bytes, 10000u * 32);
  EXPECT_EQ(runs[0].proxy.data_sent, 10000u);
  EXPECT_EQ(runs[1].proxy.data_received, 10000u);
  EXPECT_EQ(fabric.messages_sent(0), 10000u + 1);
  EXPECT_EQ(fabric.messages_sent(1), 1u);  // DONE only
  EXPECT_EQ(fabric.bytes_sent(0), 10000u * 32 + 2 * sizeof(int64_t));
  EXPECT_EQ(Packet::live(), base);
}

TEST(Loopback, TagsAreConsecutivePerPairAndAgreeOnBothSides) {
  LoopbackFabric fabric(3);
  auto map = [](const Tuple& t, int total) { return t[1] % total; };
  auto runs = run_ranks(
      fabric, 1, map, [](Vsa& v) { testing::build_ring(v, 9, 2); },
      [](Vsa& v) { return testing::check_ring(v, 9, 2); });
  expect_ok(total(runs), 10);
  for (int r = 0; r < 3; ++r) {
    std::map<int, std::vector<int>> by_peer;
    for (auto& [key, tag] : runs[r].tags) {
      int peer = (key.src[1] % 3 == r) ? key.dst[1] % 3 : key.src[1] % 3;
      by_peer[peer].push_back(tag);
      for (int o = 0; o < 3; ++o) {  // the other end numbered it identically
        if (o != r && runs[o].tags.count(key)) {
          EXPECT_EQ(runs[o].tags.at(key), tag);
        }
      }
    }
    for (auto& [peer, tags] : by_peer) {
      std::sort(tags.begin(), tags.end());
      for (size_t i = 0; i < tags.size(); ++i) EXPECT_EQ(tags[i], kFirstChannelTag + int(i));
    }
  }
}

class LoopbackRanks : public ::testing::TestWithParam<std::pair<int, int>> {};

TEST_P(LoopbackRanks, RingCannonBroadcastCollatzReductions) {
  auto [ranks, tpr] = GetParam();
  int64_t base = Packet::live();
  {
    LoopbackFabric fabric(ranks);
    auto runs = run_ranks(
        fabric, tpr, testing::hash_mapping(), [](Vsa& v) { testing::build_ring(v, 11, 10); },
        [](Vsa& v) { return testing::check_ring(v, 11, 10); });
    expect_ok(total(runs), 12);
  }
  {
    LoopbackFabric fabric(ranks);
    auto runs = run_ranks(
        fabric, tpr, testing::hash_mapping(), [](Vsa& v) { testing::build_cannon(v, 4, 6, 3); },
        [](Vsa& v) { return testing::check_cannon(v, 4, 6, 3); });
    expect_ok(total(runs), 16);
  }
  {
    LoopbackFabric fabric(ranks);
    auto runs = run_ranks(
        fabric, tpr, testing::hash_mapping(), [](Vsa& v) { testing::build_broadcast(v, 6, 10); },
        [](Vsa& v) { return testing::check_broadcast(v, 6, 10); });
    EXPECT_EQ(total(runs).errors, 0) << total(runs).first_error;
  }
  {
    LoopbackFabric fabric(ranks);
    auto map = [](const Tuple& t, int total) { return t[1] == 0 ? 0 : total - 1; };
    auto runs = run_ranks(
        fabric, tpr, map, [](Vsa& v) { testing::build_collatz(v, 97); },
        [](Vsa& v) { return testing::check_collatz(v, 97); });
    expect_ok(total(runs), 5);
  }
  {
    LoopbackFabric fabric(ranks);
    auto runs = run_ranks(
        fabric, tpr, testing::hash_mapping(), [](Vsa& v) { testing::build_reductions(v, 6, 10, 2, 5); },
        [](Vsa& v) { return testing::check_reductions(v, 6); });
    expect_ok(total(runs), 6 * (2 * testing::reduction_case_count() + 1));
  }
  EXPECT_EQ(Packet::live(), base);
}

INSTANTIATE_TEST_SUITE_P(Shapes, LoopbackRanks,
                         ::testing::Values(std::make_pair(1, 1), std::make_pair(2, 2), std::make_pair(4, 1),
                                           std::make_pair(3, 2)));

TEST(Loopback, MessagesToFinishedVdpsAreDrainedBeforeTermination) {
  int64_t base = Packet::live();
  {
    LoopbackFabric fabric(2);
    auto map = [](const Tuple& t, int) { return t[1]; };
    auto runs = run_ranks(
        fabric, 1, map,
        [](Vsa& vsa) {
          VdpSpec p;
          p.tuple = {4, 0};
          p.counter = 25;
          p.output(0, {4, 1}, 0);
          p.function = [](Vdp& v) { v.push(0, v.new_packet(64)); };
          vsa.insert(std::move(p));
          VdpSpec c;
          c.tuple = {4, 1};
          c.counter = 0;
          c.input(0, {4, 0}, 0);
          c.function = [](Vdp& v) {
            v.pop(0);
            if (v.fired() == 4) v.finish();
          };
          vsa.insert(std::move(c));
        },
        [](Vsa& vsa) {
          Result r;
          if (Vdp* c = vsa.find({4, 1})) r.expect(c->fired() == 5, "consumer fired wrong count");
          return r;
        });
    expect_ok(total(runs), 1);
    EXPECT_EQ(runs[1].proxy.data_received, 25u);  // all 25 arrived although only 5 were read
  }
  EXPECT_EQ(Packet::live(), base);
}

}  // namespace
}  // namespace itrt
