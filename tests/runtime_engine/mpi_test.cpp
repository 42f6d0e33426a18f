// Multi-rank engine tests, run by ctest under `mpirun -np N` (1, 2, 4). Every rank builds the same
// VSA, runs it over MPI, checks its own VDPs; results are summed over ranks with MPI_Allreduce on
// the main thread after the run (the engine itself never needs collectives).
#include "runtime/engine/engine.h"
#include "tests/runtime_engine/scenarios.h"
#include "tests/runtime_engine/watchdog.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <map>

namespace itrt {
namespace {

using testing::Result;

int world_rank() {
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
int world_size() {
  int s;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

Result global(const Result& local) {
  int64_t in[2] = {local.checked, local.errors}, out[2];
  MPI_Allreduce(in, out, 2, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  if (local.errors) ADD_FAILURE() << "rank " << world_rank() << ": " << local.first_error;
  Result g;
  g.checked = out[0];
  g.errors = out[1];
  return g;
}

uint64_t global_sum(uint64_t v) {
  uint64_t out;
  MPI_Allreduce(&v, &out, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  return out;
}

VsaConfig config(int tpr, MappingFunction map = testing::hash_mapping()) {
  VsaConfig c;
  c.threads_per_rank = tpr;
  c.mapping = std::move(map);
  return c;
}

// Producer on the first thread of rank 0, consumer on the last thread of the last rank.
int ends_mapping(const Tuple& t, int total) { return t[1] == 0 ? 0 : total - 1; }

TEST(Mpi, FifoOrderWith10000PacketsBetweenFirstAndLastRank) {
  int64_t base = Packet::live();
  uint64_t inter = 0, intra = 0;
  {
    Vsa vsa(config(2, ends_mapping));
    testing::build_fifo(vsa, 10000, 16);
    vsa.run();
    Result g = global(testing::check_fifo(vsa, 10000));
    EXPECT_EQ(g.errors, 0);
    EXPECT_EQ(g.checked, 2);
    inter = global_sum(vsa.comm_stats().inter_messages);
    intra = global_sum(vsa.comm_stats().intra_messages);
  }
  EXPECT_EQ(inter + intra, 10000u);
  EXPECT_EQ(inter, world_size() > 1 ? 10000u : 0u);
  EXPECT_EQ(Packet::live(), base);
}

TEST(Mpi, LargePacketsKeepOrder) {
  Vsa vsa(config(1, ends_mapping));
  testing::build_fifo(vsa, 200, 64 * 1024);  // 256 KiB each: rendezvous protocol
  vsa.run();
  Result g = global(testing::check_fifo(vsa, 200));
  EXPECT_EQ(g.errors, 0);
  EXPECT_EQ(g.checked, 2);
}

TEST(Mpi, BroadcastOnePacketToConsumersOnAllRanks) {
  int64_t base = Packet::live();
  {
    Vsa vsa(config(2));
    testing::build_broadcast(vsa, 7, 30);
    vsa.run();
    Result g = global(testing::check_broadcast(vsa, 7, 30));
    EXPECT_EQ(g.errors, 0);
    EXPECT_GE(g.checked, 30 + 7 * 2);
  }
  EXPECT_EQ(Packet::live(), base);
}

TEST(Mpi, FiringRulesAndChannelOnOffAcrossRanks) {
  // A, B, X on threads 0, total/3, 2*total/3: different ranks as soon as there are 2.
  auto map = [](const Tuple& t, int total) { return (t[1] * total) / 3; };
  Vsa vsa(config(2, map));
  testing::build_gate(vsa);
  vsa.run();
  Result g = global(testing::check_gate(vsa));
  EXPECT_EQ(g.errors, 0);
  EXPECT_EQ(g.checked, 1);
}

TEST(Mpi, Ring) {
  Vsa vsa(config(2));
  testing::build_ring(vsa, 13, 25);
  vsa.run();
  Result g = global(testing::check_ring(vsa, 13, 25));
  EXPECT_EQ(g.errors, 0);
  EXPECT_EQ(g.checked, 14);
}

TEST(Mpi, CannonMatrixMultiply) {
  // Block mapping of the 4x4 mesh: row-major tiles dealt to threads in contiguous blocks.
  auto map = [](const Tuple& t, int total) { return ((t[1] * 4 + t[2]) * total) / 16; };
  Vsa vsa(config(2, map));
  testing::build_cannon(vsa, 4, 12, 2024);
  vsa.run();
  Result g = global(testing::check_cannon(vsa, 4, 12, 2024));
  EXPECT_EQ(g.errors, 0);
  EXPECT_EQ(g.checked, 16);
}

TEST(Mpi, ReductionsAllOperatorsAcrossRanks) {
  Vsa vsa(config(2));
  testing::build_reductions(vsa, 8, 25, 3, 77);
  vsa.run();
  Result g = global(testing::check_reductions(vsa, 8));
  EXPECT_EQ(g.errors, 0);
  EXPECT_EQ(g.checked, 8 * (3 * testing::reduction_case_count() + 1));
}

TEST(Mpi, ExplicitFinishDataDependentLoop) {
  Vsa vsa(config(1, ends_mapping));
  testing::build_collatz(vsa, 871);
  vsa.run();
  Result g = global(testing::check_collatz(vsa, 871));
  EXPECT_EQ(g.errors, 0);
  EXPECT_EQ(g.checked, 5);
}

TEST(Mpi, ShutdownDrainsMessagesToFinishedVdps) {
  int64_t base = Packet::live();
  uint64_t received = 0;
  {
    Vsa vsa(config(1, ends_mapping));
    VdpSpec p;
    p.tuple = {4, 0};
    p.counter = 40;
    p.output(0, {4, 1}, 0);
    p.function = [](Vdp& v) { v.push(0, v.new_packet(1000)); };
    vsa.insert(std::move(p));
    VdpSpec c;
    c.tuple = {4, 1};
    c.counter = 3;  // reads 3 of 40 and finishes
    c.input(0, {4, 0}, 0);
    c.function = [](Vdp& v) { v.pop(0); };
    vsa.insert(std::move(c));
    vsa.run();
    received = global_sum(vsa.proxy_stats().data_received);
  }
  EXPECT_EQ(received, world_size() > 1 ? 40u : 0u);
  EXPECT_EQ(Packet::live(), base);
}

TEST(Mpi, TagsConsecutivePerPeer) {
  Vsa vsa(config(2));
  testing::build_ring(vsa, 16, 1);
  vsa.run();
  std::map<int, std::vector<int>> by_peer;
  for (const Channel* c : vsa.channels())
    if (c->inter_rank()) by_peer[c->src_rank() == vsa.rank() ? c->dst_rank() : c->src_rank()].push_back(c->tag());
  for (auto& [peer, tags] : by_peer) {
    std::sort(tags.begin(), tags.end());
    for (size_t i = 0; i < tags.size(); ++i) EXPECT_EQ(tags[i], kFirstChannelTag + int(i));
  }
}

TEST(Mpi, ManyVsasInSequence) {
  // Each run has its own communicator: a fast rank's next run cannot steal a slow rank's messages.
  for (int i = 0; i < 5; ++i) {
    Vsa vsa(config(1));
    testing::build_ring(vsa, 6, 3 + i);
    vsa.run();
    Result g = global(testing::check_ring(vsa, 6, 3 + i));
    EXPECT_EQ(g.errors, 0);
  }
}

}  // namespace
}  // namespace itrt

int main(int argc, char** argv) {
  itrt::Runtime runtime(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  itrt::testing::install_watchdog(90, "itrt_engine_mpi_tests");
  if (runtime.rank() != 0) {  // one report, from rank 0; other ranks still fail via exit status
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  int rc = RUN_ALL_TESTS();
  int worst = 0;
  MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return worst;
}
