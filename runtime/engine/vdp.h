// VDP: a virtual data processor (PULSAR §1.4) — a user function, a persistent local store, a tuple
// and a counter. The engine fires it when every active input channel holds a packet; inside the
// function it pops inputs, pushes outputs and may switch its input channels off/on or finish().
// Must not schedule itself or know which thread or rank runs it beyond what it is told.
#pragma once

#include "runtime/engine/channel.h"
#include "runtime/engine/packet.h"
#include "runtime/engine/tuple.h"

#include <any>
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace itrt {

class Vdp;
using VdpFunction = std::function<void(Vdp&)>;

// One end of a channel as declared by a VDP; the sender's and receiver's declarations of the
// same (src, src_slot, dst, dst_slot) are joined into one channel by the VSA.
struct ChannelDecl {
  ChannelKey key;
  bool active = true;           // input side only: an inactive input does not block firing
  const char* label = nullptr;  // what it carries, for traces; must outlive the run
};

// Everything needed to create a VDP; inserted into a VSA (which then owns it).
struct VdpSpec {
  Tuple tuple;
  std::string label;  // what traces call the VDP (empty: its tuple)
  // Number of firings; <= 0 means unbounded (the function ends it with finish()).
  int64_t counter = 1;
  VdpFunction function;
  std::any local;  // initial local store, persistent between firings
  std::vector<ChannelDecl> inputs;
  std::vector<ChannelDecl> outputs;

  // Declares input slot `slot` fed by output slot `src_slot` of VDP `src`.
  VdpSpec& input(int slot, Tuple src, int src_slot, bool active = true, const char* label = nullptr) {
    inputs.push_back({{std::move(src), src_slot, tuple, slot}, active, label});
    return *this;
  }
  // Declares output slot `slot` feeding input slot `dst_slot` of VDP `dst`.
  VdpSpec& output(int slot, Tuple dst, int dst_slot, const char* label = nullptr) {
    outputs.push_back({{tuple, slot, std::move(dst), dst_slot}, true, label});
    return *this;
  }
};

class Vdp {
 public:
  Vdp(VdpSpec spec, int rank, int thread);
  Vdp(const Vdp&) = delete;
  Vdp& operator=(const Vdp&) = delete;

  const Tuple& tuple() const { return tuple_; }
  const std::string& label() const { return label_; }  // empty: none given (use the tuple)
  // Firings left including the current one (1 at the last bounded firing); 0 if unbounded.
  int64_t counter() const { return counter_; }
  int64_t fired() const { return fired_; }  // completed firings before the current one
  int rank() const { return rank_; }
  int thread() const { return thread_; }  // global thread id

  // Channel operations; slots are the numbers the VDP declared.
  PacketRef pop(int slot);
  void push(int slot, const PacketRef& packet);
  PacketRef new_packet(size_t bytes) { return Packet::create(bytes); }
  void channel_on(int slot);
  void channel_off(int slot);
  bool channel_active(int slot) const;
  size_t queued(int slot) const;
  size_t input_count() const { return inputs_.size(); }
  size_t output_count() const { return outputs_.size(); }

  // Ends the VDP after the current firing, whatever its counter (data-dependent loops).
  void finish() { finish_requested_ = true; }
  bool finished() const { return finished_; }

  template <typename T>
  T& local() {
    return std::any_cast<T&>(local_);
  }
  std::any& local_store() { return local_; }

 private:
  friend class Vsa;
  friend class Worker;
  // True when not finished and every active input holds a packet.
  bool ready() const;
  // Runs the function once and updates counter/finished; returns true if it just finished.
  bool fire();
  Channel* input_channel(int slot, const char* what) const;
  Channel* output_channel(int slot) const;

  Tuple tuple_;
  std::string label_;
  int64_t counter_;
  bool bounded_;
  int64_t fired_ = 0;
  VdpFunction function_;
  std::any local_;
  int rank_;
  int thread_;
  std::vector<Channel*> inputs_;   // by slot; null for an undeclared slot
  std::vector<Channel*> outputs_;  // by slot
  bool finish_requested_ = false;
  bool finished_ = false;
  std::atomic<bool> candidate_{false};  // queued in its worker's candidate list
};

}  // namespace itrt
