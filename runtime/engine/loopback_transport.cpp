// Implements loopback_transport.h: a send appends the packet pointer to the destination's inbox,
// so FIFO order per (source, tag) holds trivially.
#include "runtime/engine/loopback_transport.h"

#include <cstdlib>

namespace itrt {

class LoopbackTransport final : public Transport {
 public:
  LoopbackTransport(LoopbackFabric& fabric, int rank) : fabric_(fabric), rank_(rank) {}
  int rank() const override { return rank_; }
  int size() const override { return fabric_.size(); }
  int max_tag() const override { return 32767; }  // the MPI minimum, so tests hit the real limit
  void send(int dest, int tag, PacketRef packet) override {
    auto& mine = *fabric_.boxes_[rank_];
    mine.messages.fetch_add(1, std::memory_order_relaxed);
    mine.bytes.fetch_add(packet->size(), std::memory_order_relaxed);
    auto& box = *fabric_.boxes_[dest];
    std::lock_guard lock(box.mutex);
    box.inbox.push_back({rank_, tag, std::move(packet)});
  }
  bool poll(Incoming& out) override {
    auto& box = *fabric_.boxes_[rank_];
    std::lock_guard lock(box.mutex);
    if (box.inbox.empty()) return false;
    out = std::move(box.inbox.front());
    box.inbox.pop_front();
    return true;
  }
  bool idle() override { return true; }
  [[noreturn]] void kill_job() override { std::abort(); }

 private:
  LoopbackFabric& fabric_;
  int rank_;
};

LoopbackFabric::LoopbackFabric(int ranks) {
  for (int i = 0; i < ranks; ++i) boxes_.push_back(std::make_unique<Box>());
}

LoopbackFabric::~LoopbackFabric() = default;

std::unique_ptr<Transport> LoopbackFabric::endpoint(int rank) {
  return std::make_unique<LoopbackTransport>(*this, rank);
}

uint64_t LoopbackFabric::messages_sent(int rank) const {
  return boxes_[rank]->messages.load(std::memory_order_relaxed);
}
uint64_t LoopbackFabric::bytes_sent(int rank) const { return boxes_[rank]->bytes.load(std::memory_order_relaxed); }

}  // namespace itrt
