// VSA: the virtual systolic array (PULSAR §1.5) — owns this rank's VDPs and channels, joins the
// two declared ends of each channel, maps VDPs to (rank, thread) with the user's mapping function,
// numbers inter-rank channel tags, then runs workers + proxy to completion and tears down.
// Must not interpret tuples beyond equality/order, nor call MPI directly (the transport does).
#pragma once

#include "runtime/engine/channel.h"
#include "runtime/engine/proxy.h"
#include "runtime/engine/transport.h"
#include "runtime/engine/vdp.h"
#include "runtime/engine/watchdog.h"
#include "runtime/engine/worker.h"

#include <cstdint>
#include <functional>
#include <string>
#include <map>
#include <memory>
#include <unordered_map>
#include <vector>

namespace itrt {

// Maps a VDP tuple to a global thread id in [0, total_threads); rank = id / threads_per_rank.
using MappingFunction = std::function<int(const Tuple&, int total_threads)>;

struct VsaConfig {
  int threads_per_rank = 1;
  MappingFunction mapping;
  // Optional: OS processor ids to pin each local worker thread to (index = local thread id).
  std::vector<std::vector<int>> cpus;
  // Null: MPI_COMM_WORLD if MPI is initialised, otherwise a one-rank in-process transport.
  std::unique_ptr<Transport> transport;
  // Optional: where in the program a waiting VDP waits, for the watchdog's report of a hung run
  // (watchdog.h). Called on the proxy thread once the workers are quiet.
  std::function<std::string(Vdp&)> describe_wait;
};

// Communication totals over all channels with a local source (what this rank pushed).
struct CommStats {
  uint64_t intra_messages = 0;
  uint64_t intra_bytes = 0;
  uint64_t inter_messages = 0;
  uint64_t inter_bytes = 0;
};

class Vsa {
 public:
  explicit Vsa(VsaConfig config);
  ~Vsa();
  Vsa(const Vsa&) = delete;
  Vsa& operator=(const Vsa&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  int threads_per_rank() const { return config_.threads_per_rank; }
  int total_threads() const { return size_ * config_.threads_per_rank; }

  // Overrides the mapping for one tuple (helper VDPs such as reduction combiners). Must be done
  // identically on every rank, before inserting VDPs that talk to `tuple`.
  void place(const Tuple& tuple, int global_thread);
  // Global thread that runs `tuple` (placement override, else the mapping function).
  int thread_of(const Tuple& tuple) const;
  int rank_of(const Tuple& tuple) const { return thread_of(tuple) / config_.threads_per_rank; }

  // Inserts a VDP. Replicated construction is fine: VDPs mapped to other ranks are dropped.
  void insert(VdpSpec spec);
  // Runs until every VDP on every rank has finished. Call once, from the thread that initialised
  // MPI: it becomes this rank's proxy while the workers fire VDPs.
  void run();

  // After (or before) a run: a local VDP by tuple, or null.
  Vdp* find(const Tuple& tuple) const;
  size_t local_vdp_count() const { return vdps_.size(); }
  std::vector<const Channel*> channels() const;
  CommStats comm_stats() const;
  const ProxyStats& proxy_stats() const { return proxy_->stats(); }
  // Packets left in channels when the run ended (pushed to VDPs that had already finished).
  uint64_t discarded_packets() const { return discarded_; }

 private:
  Channel* channel_for(const ChannelKey& key);
  // The watchdog's report: each unfinished local VDP, where it waits, and whose packets it lacks.
  std::string describe_waits() const;
  void validate_and_number();

  VsaConfig config_;
  int rank_ = 0;
  int size_ = 1;
  std::unordered_map<Tuple, int> placements_;
  std::vector<std::unique_ptr<Vdp>> vdps_;
  std::unordered_map<Tuple, Vdp*> by_tuple_;
  std::unordered_map<ChannelKey, std::unique_ptr<Channel>, ChannelKeyHash> channels_;
  std::unique_ptr<Proxy> proxy_;
  std::vector<std::unique_ptr<Worker>> workers_;
  EngineActivity activity_;
  bool ran_ = false;
  uint64_t discarded_ = 0;
};

}  // namespace itrt
