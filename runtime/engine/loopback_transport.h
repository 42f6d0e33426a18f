// LoopbackFabric: an in-process stand-in for MPI used by single-process tests. It connects N
// endpoints (one per simulated rank, each driven by its own VSA's proxy) and counts messages and
// bytes per endpoint. Must not be used by generated programs.
#pragma once

#include "runtime/engine/transport.h"

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <vector>

namespace itrt {

class LoopbackFabric {
 public:
  explicit LoopbackFabric(int ranks);
  ~LoopbackFabric();
  // Transport of simulated rank `rank`; the fabric must outlive it.
  std::unique_ptr<Transport> endpoint(int rank);
  int size() const { return static_cast<int>(boxes_.size()); }

  // Totals of messages/bytes sent by `rank` (data and control alike).
  uint64_t messages_sent(int rank) const;
  uint64_t bytes_sent(int rank) const;

 private:
  friend class LoopbackTransport;
  struct Box {
    std::mutex mutex;
    std::deque<Incoming> inbox;
    std::atomic<uint64_t> messages{0};
    std::atomic<uint64_t> bytes{0};
  };
  std::vector<std::unique_ptr<Box>> boxes_;
};

}  // namespace itrt
