// Implements channel.h: the push routing and the locked packet queue.
#include "runtime/engine/channel.h"

#include "runtime/engine/proxy.h"
#include "runtime/engine/trace.h"
#include "runtime/engine/worker.h"

#include <fmt/format.h>

namespace itrt {

std::string ChannelKey::str() const {
  return fmt::format("{}[{}] -> {}[{}]", src.str(), src_slot, dst.str(), dst_slot);
}

void Channel::push(const PacketRef& packet) {
  stats_.messages.fetch_add(1, std::memory_order_relaxed);
  stats_.bytes.fetch_add(packet->size(), std::memory_order_relaxed);
  if (trace::enabled()) trace::flow_send(trace_channel_, trace_sent_++, packet->size());
  if (inter_rank())
    proxy_->post(this, packet);
  else
    deliver(packet);
}

void Channel::deliver(PacketRef packet) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(std::move(packet));
    count_.fetch_add(1, std::memory_order_release);
  }
  if (dst_worker_) dst_worker_->make_candidate(dst_vdp_);
}

void Channel::trace_received(const Packet& packet) {
  trace::flow_receive(trace_channel_, trace_received_++, packet.size());
}

PacketRef Channel::take() {
  std::lock_guard lock(mutex_);
  if (queue_.empty()) return {};
  PacketRef p = std::move(queue_.front());
  queue_.pop_front();
  count_.fetch_sub(1, std::memory_order_release);
  return p;
}

size_t Channel::discard() {
  std::lock_guard lock(mutex_);
  size_t n = queue_.size();
  queue_.clear();
  count_.store(0, std::memory_order_release);
  return n;
}

}  // namespace itrt
