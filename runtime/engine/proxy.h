// Proxy: the one thread per rank that drives all inter-rank traffic through a Transport. Workers
// hand it packets for inter-rank channels; it delivers arriving packets to their channels, runs
// the termination protocol and the cross-rank abort. Must not run VDP functions.
//
// Where the transport may be called from any thread (MPI_THREAD_SERIALIZED), workers also drive
// the traffic in its place: a worker sends its packet itself, and one idle worker at a time polls
// for arrivals, so a message between ranks costs no hand-off between threads (each is a thread
// wake-up, microseconds, on each side). Every transport call, and the state it updates, is
// guarded by `progress_`, taken by whoever makes progress.
#pragma once

#include "runtime/engine/packet.h"
#include "runtime/engine/transport.h"
#include "runtime/engine/watchdog.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

namespace itrt {

class Channel;

// Control messages travel on tag 0; channel tags start at kFirstChannelTag.
inline constexpr int kControlTag = 0;
inline constexpr int kFirstChannelTag = 1;

struct ProxyStats {
  uint64_t data_sent = 0;
  uint64_t data_received = 0;
  uint64_t control_sent = 0;
  uint64_t idle_waits = 0;
};

class Proxy {
 public:
  Proxy(Transport& transport, int64_t local_vdps);
  // Turns the watchdog on (watchdog.h): `activity` is what the workers report, `describe` lists
  // this rank's waiting VDPs when the run is declared hung. Call before run().
  void watch(const EngineActivity& activity, double seconds, std::function<std::string()> describe);
  Proxy(const Proxy&) = delete;
  Proxy& operator=(const Proxy&) = delete;

  // Registers an inter-rank channel whose destination VDP lives on this rank.
  void add_incoming(Channel* channel);
  // Called by a worker: send `packet` down inter-rank `channel` (at once, if it can).
  void post(Channel* channel, const PacketRef& packet);
  // Called by an idle worker: polls the transport in the proxy's place until `woken()` is true,
  // nothing arrived for a while, or another worker polls already. True if `woken()`.
  bool poll_while_idle(const std::function<bool()>& woken);
  // Called by a worker when one of its VDPs finished.
  void vdp_finished();
  void poke();
  // The proxy loop, on the calling thread; returns once every rank agreed to terminate.
  void run();
  const ProxyStats& stats() const { return stats_; }

 private:
  enum Control : int64_t { kDone = 1, kTerminate = 2, kAbort = 3, kStalled = 4, kActive = 5, kHung = 6 };
  // One round of sends and receives by a worker, if no one else makes progress now.
  bool try_progress();
  bool drain_outbox();
  bool receive();
  void handle_control(int source, const Packet& packet);
  void send_control(int dest, std::vector<int64_t> words);
  void collect_done(int source, const int64_t* sent_counts);
  void wait_for_work(uint64_t idle_rounds);
  [[noreturn]] void abort_all();
  // One watchdog turn: report this rank's stalls to rank 0; on rank 0, declare a hang.
  void watch_turn(bool data_moved);
  [[noreturn]] void report_hang();
  [[noreturn]] void print_waits_and_exit();

  Transport& transport_;
  int rank_;
  int size_;
  std::map<std::pair<int, int>, Channel*> incoming_;  // (source rank, tag) -> channel
  std::atomic<int64_t> unfinished_;

  // Guards the transport and the state below that drain_outbox(), receive() and the termination
  // protocol update; recursive because a failure in the proxy's round aborts from inside it.
  std::recursive_mutex progress_;
  bool workers_help_ = false;                // the transport may be called by workers (set in run())
  std::atomic<bool> open_{false};            // between transport_.open() and close()
  std::atomic<bool> worker_polling_{false};  // an idle worker polls in the proxy's place

  std::mutex mutex_;  // guards outbox_ and poked_
  std::condition_variable cv_;
  std::vector<std::pair<Channel*, PacketRef>> outbox_;
  bool poked_ = false;

  // Termination state (proxy thread only).
  std::vector<int64_t> sent_to_;  // data messages this rank sent to each rank
  bool done_sent_ = false;
  int done_count_ = 0;                // rank 0: DONE reports collected
  std::vector<int64_t> expected_in_;  // rank 0: sum of every rank's sent_to_
  bool terminate_received_ = false;
  int64_t expected_ = 0;
  ProxyStats stats_;

  // Watchdog (proxy thread only; off unless watch() was called).
  std::unique_ptr<StallClock> stall_clock_;
  std::unique_ptr<HangDetector> hang_;  // rank 0
  std::function<std::string()> describe_;
  bool reported_stalled_ = false;
};

}  // namespace itrt
