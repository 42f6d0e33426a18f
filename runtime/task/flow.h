// The flow of one LPU as a resumable state machine. Every LPU of a space that has work in the
// task's Computation section is one VDP of the channel engine; its firing function resumes a
// C++20 coroutine (generated per space) that runs the flow for that LPU and suspends only where
// it must wait for other LPUs: padding exchange, the result of a reduction. LPUs therefore run
// ahead of each other as far as their data dependencies allow (the paper's execution model).
// Knows nothing of IT syntax: the generated code calls FlowContext at each synchronisation point.
#pragma once

#include <coroutine>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <utility>
#include <vector>

namespace itrt::task {

class TaskInstance;
struct Lpu;
struct LpuState;

class LpuFlow {
 public:
  struct promise_type {
    LpuFlow get_return_object() { return LpuFlow(std::coroutine_handle<promise_type>::from_promise(*this)); }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() { error = std::current_exception(); }
    std::exception_ptr error;
  };
  LpuFlow() = default;
  explicit LpuFlow(std::coroutine_handle<promise_type> h) : h_(h) {}
  LpuFlow(LpuFlow&& o) noexcept : h_(std::exchange(o.h_, {})) {}
  LpuFlow& operator=(LpuFlow&& o) noexcept {
    if (this != &o) {
      destroy();
      h_ = std::exchange(o.h_, {});
    }
    return *this;
  }
  LpuFlow(const LpuFlow&) = delete;
  LpuFlow& operator=(const LpuFlow&) = delete;
  ~LpuFlow() { destroy(); }
  bool done() const { return !h_ || h_.done(); }
  // Runs the flow up to its next suspension point; rethrows what the flow threw.
  void resume();

 private:
  void destroy() {
    if (h_) h_.destroy();
    h_ = {};
  }
  std::coroutine_handle<promise_type> h_;
};

// `co_await` on a synchronisation: suspends only if packets from other LPUs are still missing.
struct FlowWait {
  bool ready;
  bool await_ready() const noexcept { return ready; }
  void await_suspend(std::coroutine_handle<>) const noexcept {}
  void await_resume() const noexcept {}
};

// What the generated flow of one LPU sees of the runtime.
class FlowContext {
 public:
  explicit FlowContext(LpuState& state) : state_(state) {}
  const Lpu& lpu() const;
  TaskInstance& task() const;

  // Padding exchange `sync` (exit of a padded space): sends the cells this LPU owns that others
  // hold, then waits until the cells it holds of other LPUs have arrived.
  FlowWait exchange(int sync);
  // Reduction `sync`, on an invoking LPU: sends this LPU's partial value; never waits. `ran`:
  // false when the LPU skipped the stage because the turn of a `Repeat foreach sub-partition`
  // lies beyond its own sub-partitions (its partial is the identity).
  void contribute(int sync, const void* partial, bool ran = true);
  // Reduction `sync`, on the target LPU: waits for every partial of the LPUs below it, combines
  // them in LPU order into `result` and passes the result down to the LPUs that read it.
  // `*reduced` (if given) tells whether any contributor ran the stage: a target none of whose
  // contributors had the turn keeps its value.
  FlowWait collect(int sync, void* result, bool* reduced = nullptr);
  // Reduction `sync`, on an LPU below the target that reads the result: waits for it.
  FlowWait receive(int sync, void* result, bool* reduced = nullptr);
  // Movement `sync` of an array between spaces: sends what this LPU owns and changed, then
  // waits for the cells it holds from the others.
  FlowWait move(int sync);
  // Movement `sync` of a scalar: sends `*value` if this LPU wrote it, then waits and takes the
  // value of the LPU that wrote it (unchanged if none did).
  FlowWait move(int sync, void* value);
  // The same for a value of variable size (a list): `out` is this LPU's value serialised; `in`
  // takes the serialised value of the LPU that wrote it.
  FlowWait move_bytes(int sync, const std::vector<std::byte>& out, std::function<void(const std::byte*, size_t)> in);
  // A stage of this LPU wrote `array` (its cells in the part it works in) / scalar `scalar`.
  void wrote(int array);
  void wrote_scalar(int scalar);
  // Epoch entry for this LPU's part of `array`: the versions move back by one and the
  // new current version receives a copy of the whole part.
  void advance_epoch(int array);
  // Epoch entry without the copy: the versions move back by one and the new current version
  // (the oldest one's storage) is left as it is. The generated flow calls complete_epoch right
  // after the epoch's first stage using `array`, which must not read the current version.
  void rotate_epoch(int array);
  // After that stage: copies into the current version every cell the stage did not write (as
  // reported by TaskInstance::epoch_wrote; all of them if it reported nothing, e.g. skipped).
  void complete_epoch(int array);
  // Keeps `bytes` as value `slot` of the task (reduction results handed to the environment).
  void publish(int slot, const void* bytes, size_t n);

 private:
  FlowWait move_value(int sync, const void* out, size_t n, void* result,
                      std::function<void(const std::byte*, size_t)> sink);
  LpuState& state_;
};

// The generated flow of one space: called once per LPU of the space held by this rank.
using SpaceFlow = std::function<LpuFlow(FlowContext&)>;

}  // namespace itrt::task
