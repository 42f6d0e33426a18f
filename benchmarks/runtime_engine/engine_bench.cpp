// Microbenchmark of the channel engine: intra-rank latency/bandwidth against a raw std::thread
// hand-off (mutex+condvar, and spinning atomics), inter-rank against raw MPI ping-pong/streaming,
// side by side in one run, printing ratios, plus the CPU used by an idle wait.
// Run: mpirun -np 2 ./itrt_engine_bench [iters=20000] [mib=256] [reps=5] [idle=1.0]. Not a test: asserts nothing.
#include "runtime/engine/engine.h"

#include <malloc.h>
#include <mpi.h>
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>

using namespace itrt;
using Clock = std::chrono::steady_clock;

namespace {

int g_rank = 0, g_size = 1;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_utime.tv_sec + u.ru_stime.tv_sec + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

// ---- engine ping-pong: VDP (1,0) and (1,1), placed by `map`; returns one-way latency in s.
double engine_pingpong(MappingFunction map, int tpr, size_t bytes, int iters) {
  struct Timer {
    Clock::time_point start;
    double elapsed = 0;
  };
  VsaConfig c;
  c.threads_per_rank = tpr;
  c.mapping = std::move(map);
  Vsa vsa(std::move(c));
  VdpSpec a;
  a.tuple = {1, 0};
  a.counter = iters + 1;
  a.input(0, {1, 1}, 0, false).output(0, {1, 1}, 0);
  a.local = Timer{};
  a.function = [bytes](Vdp& v) {
    auto& t = v.local<Timer>();
    if (v.fired() == 0) {
      t.start = Clock::now();
      v.push(0, v.new_packet(bytes));
      v.channel_on(0);
      return;
    }
    PacketRef p = v.pop(0);
    if (v.counter() > 1)
      v.push(0, p);
    else
      t.elapsed = seconds_since(t.start);
  };
  vsa.insert(std::move(a));
  VdpSpec b;
  b.tuple = {1, 1};
  b.counter = iters;
  b.input(0, {1, 0}, 0).output(0, {1, 0}, 0);
  b.function = [](Vdp& v) { v.push(0, v.pop(0)); };
  vsa.insert(std::move(b));
  vsa.run();
  double t = 0;
  if (Vdp* v = vsa.find({1, 0})) t = v->local<Timer>().elapsed;
  MPI_Bcast(&t, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  return t / iters / 2;
}

// ---- engine streaming: producer (2,0) sends `count` packets of `bytes` to consumer (2,1), which
// reads every cache line. Flow control: at most kWindow packets in flight, returned as 8-byte
// credits (as the raw references do), so neither side races ahead into cold memory.
constexpr int kWindow = 4;

double engine_stream(MappingFunction map, int tpr, size_t bytes, int count) {
  VsaConfig c;
  c.threads_per_rank = tpr;
  c.mapping = std::move(map);
  Vsa vsa(std::move(c));
  VdpSpec p;
  p.tuple = {2, 0};
  p.counter = count;
  p.output(0, {2, 1}, 0);
  p.input(0, {2, 1}, 1, /*active=*/false);  // credits
  p.function = [bytes](Vdp& v) {
    if (v.channel_active(0)) v.pop(0);
    PacketRef pk = Packet::create_uninitialized(bytes);
    std::memset(pk->data(), static_cast<int>(v.fired() & 0xff), bytes);
    v.push(0, pk);
    if (v.fired() + 1 >= kWindow) v.channel_on(0);
  };
  vsa.insert(std::move(p));
  VdpSpec k;
  k.tuple = {2, 1};
  k.counter = count;
  k.input(0, {2, 0}, 0);
  k.output(1, {2, 0}, 0);
  k.local = uint64_t{0};
  k.function = [](Vdp& v) {
    PacketRef pk = v.pop(0);
    const unsigned char* d = pk->as<unsigned char>();
    uint64_t s = 0;
    for (size_t i = 0; i < pk->size(); i += 64) s += d[i];
    v.local<uint64_t>() += s;
    v.push(1, v.new_packet(8));
  };
  vsa.insert(std::move(k));
  MPI_Barrier(MPI_COMM_WORLD);
  auto t0 = Clock::now();
  vsa.run();
  double t = seconds_since(t0);
  MPI_Bcast(&t, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  return static_cast<double>(bytes) * count / t;
}

// ---- raw references ----------------------------------------------------------------------
double raw_condvar_pingpong(size_t bytes, int iters) {
  std::mutex m;
  std::condition_variable cv;
  int turn = 0;  // 0: ping's turn, 1: pong's turn
  std::vector<char> buf(bytes);
  void* slot = nullptr;
  auto t0 = Clock::now();
  std::thread pong([&] {
    for (int i = 0; i < iters; ++i) {
      std::unique_lock l(m);
      cv.wait(l, [&] { return turn == 1; });
      turn = 0;
      cv.notify_one();
    }
  });
  for (int i = 0; i < iters; ++i) {
    std::unique_lock l(m);
    slot = buf.data();
    turn = 1;
    cv.notify_one();
    cv.wait(l, [&] { return turn == 0; });
  }
  pong.join();
  (void)slot;
  return seconds_since(t0) / iters / 2;
}

double raw_atomic_pingpong(int iters) {
  std::atomic<int> flag{0};
  auto t0 = Clock::now();
  std::thread pong([&] {
    for (int i = 0; i < iters; ++i) {
      while (flag.load(std::memory_order_acquire) != 1) std::this_thread::yield();
      flag.store(0, std::memory_order_release);
    }
  });
  for (int i = 0; i < iters; ++i) {
    flag.store(1, std::memory_order_release);
    while (flag.load(std::memory_order_acquire) != 0) std::this_thread::yield();
  }
  pong.join();
  return seconds_since(t0) / iters / 2;
}

// Producer allocates + fills buffers, consumer reads them, hand-off through a locked queue with
// the same window of kWindow buffers in flight.
double raw_thread_stream(size_t bytes, int count) {
  std::mutex m;
  std::condition_variable cv;
  std::deque<unsigned char*> q;
  int consumed = 0;
  uint64_t sum = 0;
  auto t0 = Clock::now();
  std::thread consumer([&] {
    for (int i = 0; i < count; ++i) {
      unsigned char* d;
      {
        std::unique_lock l(m);
        cv.wait(l, [&] { return !q.empty(); });
        d = q.front();
        q.pop_front();
      }
      for (size_t j = 0; j < bytes; j += 64) sum += d[j];
      std::free(d);
      std::lock_guard l(m);
      ++consumed;
      cv.notify_all();
    }
  });
  for (int i = 0; i < count; ++i) {
    {
      std::unique_lock l(m);
      cv.wait(l, [&] { return i - consumed < kWindow; });
    }
    auto* d = static_cast<unsigned char*>(std::aligned_alloc(64, (bytes + 63) / 64 * 64));
    std::memset(d, i & 0xff, bytes);
    std::lock_guard l(m);
    q.push_back(d);
    cv.notify_all();
  }
  consumer.join();
  return static_cast<double>(bytes) * count / seconds_since(t0);
}

double raw_mpi_pingpong(size_t bytes, int iters) {
  std::vector<char> buf(bytes);
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int i = 0; i < iters; ++i) {
    if (g_rank == 0) {
      MPI_Send(buf.data(), static_cast<int>(bytes), MPI_BYTE, 1, 5, MPI_COMM_WORLD);
      MPI_Recv(buf.data(), static_cast<int>(bytes), MPI_BYTE, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (g_rank == 1) {
      MPI_Recv(buf.data(), static_cast<int>(bytes), MPI_BYTE, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf.data(), static_cast<int>(bytes), MPI_BYTE, 0, 5, MPI_COMM_WORLD);
    }
  }
  double t = (MPI_Wtime() - t0) / iters / 2;
  MPI_Bcast(&t, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  return t;
}

// Rank 0 fills and sends `count` buffers, rank 1 receives and reads them and returns a credit per
// buffer; at most kWindow buffers in flight, like the engine stream.
double raw_mpi_stream(size_t bytes, int count) {
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  uint64_t sum = 0;
  if (g_rank == 0) {
    std::vector<std::vector<unsigned char>> bufs(kWindow, std::vector<unsigned char>(bytes));
    std::vector<MPI_Request> req(kWindow, MPI_REQUEST_NULL);
    for (int i = 0; i < count; ++i) {
      if (i >= kWindow) MPI_Recv(nullptr, 0, MPI_BYTE, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      int slot = i % kWindow;
      MPI_Wait(&req[slot], MPI_STATUS_IGNORE);
      std::memset(bufs[slot].data(), i & 0xff, bytes);
      MPI_Isend(bufs[slot].data(), static_cast<int>(bytes), MPI_BYTE, 1, 6, MPI_COMM_WORLD, &req[slot]);
    }
    MPI_Waitall(kWindow, req.data(), MPI_STATUSES_IGNORE);
    for (int i = 0; i < std::min(count, kWindow); ++i)
      MPI_Recv(nullptr, 0, MPI_BYTE, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (g_rank == 1) {
    std::vector<unsigned char> buf(bytes);
    for (int i = 0; i < count; ++i) {
      MPI_Recv(buf.data(), static_cast<int>(bytes), MPI_BYTE, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      for (size_t j = 0; j < bytes; j += 64) sum += buf[j];
      MPI_Send(nullptr, 0, MPI_BYTE, 0, 7, MPI_COMM_WORLD);
    }
  }
  double t = MPI_Wtime() - t0;
  MPI_Bcast(&t, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  return static_cast<double>(bytes) * count / t;
}

// CPU used while a VDP on rank 0 sleeps and every other thread/proxy waits for its packet.
double idle_cpu_fraction(double wait_s) {
  VsaConfig c;
  c.threads_per_rank = 2;
  c.mapping = [](const Tuple& t, int total) { return t[1] == 0 ? 0 : total - 1; };
  Vsa vsa(std::move(c));
  VdpSpec p;
  p.tuple = {3, 0};
  p.output(0, {3, 1}, 0);
  p.function = [wait_s](Vdp& v) {
    std::this_thread::sleep_for(std::chrono::duration<double>(wait_s));
    v.push(0, v.new_packet(8));
  };
  vsa.insert(std::move(p));
  VdpSpec k;
  k.tuple = {3, 1};
  k.input(0, {3, 0}, 0);
  k.function = [](Vdp& v) { v.pop(0); };
  vsa.insert(std::move(k));
  MPI_Barrier(MPI_COMM_WORLD);
  double c0 = cpu_seconds();
  auto t0 = Clock::now();
  vsa.run();
  double frac = (cpu_seconds() - c0) / seconds_since(t0);
  double worst = 0;
  MPI_Allreduce(&frac, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return worst;
}

// Median of `reps` runs: the machine is shared, single runs swing by 2-3x.
int g_reps = 5;
template <typename F>
double median(F&& f) {
  std::vector<double> v;
  for (int i = 0; i < g_reps; ++i) v.push_back(f());
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

void row(const char* what, double engine, double raw, const char* unit, double scale, const char* raw_name) {
  if (g_rank != 0) return;
  std::printf("%-34s engine %10.2f %-5s  %-16s %10.2f %-5s  ratio engine/raw %6.2f\n", what, engine * scale, unit,
              raw_name, raw * scale, unit, engine / raw);
}

}  // namespace

int main(int argc, char** argv) {
  // Keep 1 MiB buffers on the heap (reused) instead of fresh mmaps, so both the engine and the
  // raw references measure hand-off cost rather than page faults.
  mallopt(M_MMAP_THRESHOLD, 256 << 20);
  mallopt(M_TRIM_THRESHOLD, 512 << 20);
  Runtime runtime(argc, argv);
  g_rank = runtime.rank();
  g_size = runtime.size();
  Args args(argc, argv);
  int iters = args.has("iters") ? args.get_int("iters") : 20000;
  int mib = args.has("mib") ? args.get_int("mib") : 256;
  const size_t big = 1 << 20;
  int count = mib;  // 1 MiB packets
  g_reps = args.has("reps") ? args.get_int("reps") : 5;

  if (g_rank == 0)
    std::printf(
        "itrt engine microbenchmark: %d ranks, %d ping-pong iterations, %d MiB streamed, "
        "median of %d runs\n",
        g_size, iters, mib, g_reps);
  // Intra-rank: both VDPs on rank 0, on two different worker threads.
  auto intra = [](const Tuple& t, int) { return t[1] == 0 ? 0 : 1; };
  double e_lat = median([&] { return engine_pingpong(intra, 2, 8, iters); });
  double r_cv = median([&] { return raw_condvar_pingpong(8, iters); });
  double r_at = median([&] { return raw_atomic_pingpong(iters); });
  row("intra-rank latency, 8 B (one way)", e_lat, r_cv, "us", 1e6, "mutex+condvar");
  row("", e_lat, r_at, "us", 1e6, "atomic+yield");
  double e_bw = median([&] { return engine_stream(intra, 2, big, count); });
  double r_bw = median([&] { return raw_thread_stream(big, count); });
  row("intra-rank stream, 1 MiB packets", e_bw, r_bw, "GB/s", 1e-9, "locked queue");

  if (g_size >= 2) {
    // Inter-rank: VDP (x,0) on rank 0, (x,1) on rank 1, one thread per rank.
    auto inter = [](const Tuple& t, int total) { return t[1] == 0 ? 0 : total / 2; };
    int tpr = 1;
    double ei8 = median([&] { return engine_pingpong(inter, tpr, 8, iters / 4); });
    double ri8 = median([&] { return raw_mpi_pingpong(8, iters / 4); });
    row("inter-rank latency, 8 B (one way)", ei8, ri8, "us", 1e6, "MPI ping-pong");
    double ei1m = median([&] { return engine_pingpong(inter, tpr, big, 100); });
    double ri1m = median([&] { return raw_mpi_pingpong(big, 100); });
    row("inter-rank latency, 1 MiB", ei1m, ri1m, "us", 1e6, "MPI ping-pong");
    double ebw = median([&] { return engine_stream(inter, tpr, big, count); });
    double rbw = median([&] { return raw_mpi_stream(big, count); });
    row("inter-rank stream, 1 MiB packets", ebw, rbw, "GB/s", 1e-9, "MPI Isend/Recv");
  } else if (g_rank == 0) {
    std::printf("(run with mpirun -np 2 for the inter-rank rows)\n");
  }
  double idle_s = args.has("idle") ? args.get_double("idle") : 1.0;
  double idle = idle_cpu_fraction(idle_s);
  if (g_rank == 0)
    std::printf("idle wait of %.1f s: worst rank used %.1f%% of one core (workers + proxy)\n", idle_s, idle * 100);
  return 0;
}
