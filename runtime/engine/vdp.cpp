// Implements vdp.h: slot checks, the firing rule and the counter/finish bookkeeping.
// A misuse (bad slot, popping an empty or inactive channel) is reported through itrt::fail.
#include "runtime/engine/vdp.h"

#include "runtime/engine/failure.h"
#include "runtime/engine/trace.h"

#include <fmt/format.h>

namespace itrt {

Vdp::Vdp(VdpSpec spec, int rank, int thread)
    : tuple_(std::move(spec.tuple)),
      label_(std::move(spec.label)),
      counter_(spec.counter > 0 ? spec.counter : 0),
      bounded_(spec.counter > 0),
      function_(std::move(spec.function)),
      local_(std::move(spec.local)),
      rank_(rank),
      thread_(thread) {}

Channel* Vdp::input_channel(int slot, const char* what) const {
  if (slot < 0 || static_cast<size_t>(slot) >= inputs_.size() || !inputs_[slot])
    fail(fmt::format("VDP {}: {} of undeclared input slot {}", tuple_.str(), what, slot));
  return inputs_[slot];
}

Channel* Vdp::output_channel(int slot) const {
  if (slot < 0 || static_cast<size_t>(slot) >= outputs_.size() || !outputs_[slot])
    fail(fmt::format("VDP {}: push to undeclared output slot {}", tuple_.str(), slot));
  return outputs_[slot];
}

PacketRef Vdp::pop(int slot) {
  Channel* c = input_channel(slot, "pop");
  if (!c->active()) fail(fmt::format("VDP {}: pop from inactive input slot {}", tuple_.str(), slot));
  PacketRef p = c->take();
  if (!p) fail(fmt::format("VDP {}: pop from empty input slot {}", tuple_.str(), slot));
  if (trace::enabled()) c->trace_received(*p);
  return p;
}

void Vdp::push(int slot, const PacketRef& packet) {
  if (!packet) fail(fmt::format("VDP {}: push of a null packet to slot {}", tuple_.str(), slot));
  output_channel(slot)->push(packet);
}

void Vdp::channel_on(int slot) { input_channel(slot, "channel_on")->set_active(true); }
void Vdp::channel_off(int slot) { input_channel(slot, "channel_off")->set_active(false); }
bool Vdp::channel_active(int slot) const { return input_channel(slot, "query")->active(); }
size_t Vdp::queued(int slot) const { return input_channel(slot, "query")->queued(); }

bool Vdp::ready() const {
  if (finished_) return false;
  for (const Channel* c : inputs_)
    if (c && c->active() && c->queued() == 0) return false;
  return true;
}

bool Vdp::fire() {
  function_(*this);
  ++fired_;
  if (bounded_) --counter_;
  if (finish_requested_ || (bounded_ && counter_ == 0)) finished_ = true;
  return finished_;
}

}  // namespace itrt
