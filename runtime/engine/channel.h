// Channel: a unidirectional FIFO of packets from an output slot of one VDP to an input slot of
// another (PULSAR §1.3), joined by (src tuple, src slot, dst tuple, dst slot). It routes a push:
// intra-rank it moves the packet pointer into its queue, inter-rank it hands the packet to the
// proxy. Must not call MPI itself and must not decide when VDPs fire.
#pragma once

#include "runtime/engine/packet.h"
#include "runtime/engine/tuple.h"

#include <atomic>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>

namespace itrt {

class Vdp;
class Worker;
class Proxy;

struct ChannelKey {
  Tuple src;
  int src_slot = 0;
  Tuple dst;
  int dst_slot = 0;
  friend bool operator==(const ChannelKey&, const ChannelKey&) = default;
  friend auto operator<=>(const ChannelKey&, const ChannelKey&) = default;
  std::string str() const;
};

struct ChannelKeyHash {
  size_t operator()(const ChannelKey& k) const {
    return k.src.hash() * 31 + k.dst.hash() * 17 + static_cast<size_t>(k.src_slot) * 7 +
           static_cast<size_t>(k.dst_slot);
  }
};

// Traffic through one channel. Written by the pushing side only; read after a run.
struct ChannelStats {
  std::atomic<uint64_t> messages{0};
  std::atomic<uint64_t> bytes{0};
};

class Channel {
 public:
  explicit Channel(ChannelKey key) : key_(std::move(key)) {}
  Channel(const Channel&) = delete;
  Channel& operator=(const Channel&) = delete;

  const ChannelKey& key() const { return key_; }
  // Routes `packet` towards the destination VDP (called by the source VDP's thread).
  void push(const PacketRef& packet);
  // Appends an arrived packet and wakes the destination's worker (intra push or proxy delivery).
  void deliver(PacketRef packet);
  // Takes the oldest packet; empty ref if none.
  PacketRef take();
  size_t queued() const { return count_.load(std::memory_order_acquire); }
  // Drops packets still queued (a run ended with packets nobody popped); returns how many.
  size_t discard();

  // Activity is owned by the destination VDP (only its thread flips and reads it).
  bool active() const { return active_; }
  void set_active(bool on) { active_ = on; }

  bool inter_rank() const { return src_rank_ != dst_rank_; }
  int src_rank() const { return src_rank_; }
  int dst_rank() const { return dst_rank_; }
  int tag() const { return tag_; }
  const ChannelStats& stats() const { return stats_; }
  // What the channel carries, for traces (a synchronisation's name); null: unnamed.
  const char* label() const { return label_; }
  // IT_TRACE: the pop of the next packet (called by the destination VDP's thread).
  void trace_received(const Packet& packet);

 private:
  friend class Vsa;
  ChannelKey key_;
  int src_rank_ = -1;
  int dst_rank_ = -1;
  int tag_ = -1;            // MPI tag, only for inter-rank channels; consecutive per pair of ranks
  Vdp* src_vdp_ = nullptr;  // set when the source VDP lives on this rank
  Vdp* dst_vdp_ = nullptr;  // set when the destination VDP lives on this rank
  Worker* dst_worker_ = nullptr;
  Proxy* proxy_ = nullptr;
  bool active_ = true;
  const char* label_ = nullptr;
  // IT_TRACE: the channel's interned trace key and its message numbers, counted by the pushing
  // and the popping thread respectively (a packet's number is the same at both ends: FIFO).
  uint32_t trace_channel_ = 0;
  uint64_t trace_sent_ = 0;
  uint64_t trace_received_ = 0;
  ChannelStats stats_;
  std::mutex mutex_;  // guards queue_; held only for the pointer move
  std::deque<PacketRef> queue_;
  std::atomic<size_t> count_{0};
};

}  // namespace itrt
