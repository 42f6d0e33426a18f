// Watchdog: turns a hang of a VSA run into a report. A rank is *stalled* when none of its workers
// is firing a VDP, none fired and no data message moved for a second; rank 0 declares the run hung
// when every rank has been stalled, without a break, for IT_WATCHDOG seconds. Then every rank
// prints which of its VDPs wait for which input (and, through VsaConfig::describe_wait, where in
// the program they wait) and the job ends non-zero. A rank that computes for hours inside a
// firing is never stalled, so a long imbalanced stage does not trip it; a true deadlock (no rank
// can move and no message is in flight) always does.
// Must not interpret what a VDP waits for: the caller's describe_wait says that.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

namespace itrt {

// What the workers of a rank report to its proxy: firings started and ended. A firing's effects
// (packets pushed, flags set) happen before its end is counted, so a proxy that reads `ended`
// sees the state the workers left (what the report reads after they went quiet).
struct EngineActivity {
  std::atomic<uint64_t> started{0};
  std::atomic<uint64_t> ended{0};
  bool firing() const { return started.load() != ended.load(); }
};

// IT_WATCHDOG in seconds: unset gives the default (kDefaultWatchdogSeconds), 0 turns the
// watchdog off; anything else that is not a positive number is ignored (the Program warns of it
// once, on rank 0).
inline constexpr double kDefaultWatchdogSeconds = 300;
std::optional<double> watchdog_seconds();

// The per-rank half, on the proxy thread: is this rank stalled now?
class StallClock {
 public:
  using Clock = std::chrono::steady_clock;
  explicit StallClock(const EngineActivity& activity) : activity_(activity) {}
  // Call every proxy turn with whether data moved (sent or received) this turn and whether
  // messages are still in flight; returns whether the rank has been quiet for `quiet_after`.
  bool stalled(bool data_moved, bool in_flight, Clock::duration quiet_after = std::chrono::seconds(1));

 private:
  const EngineActivity& activity_;
  uint64_t seen_ended_ = 0;
  Clock::time_point last_activity_ = Clock::now();
};

// Rank 0's half: which ranks are stalled, and since when all of them are.
class HangDetector {
 public:
  explicit HangDetector(int ranks, double seconds) : stalled_(static_cast<size_t>(ranks), false), seconds_(seconds) {}
  void set_stalled(int rank, bool stalled);
  // True once every rank has been stalled, without a break, for the watchdog's seconds.
  bool hung() const;
  double seconds() const { return seconds_; }

 private:
  std::vector<char> stalled_;
  int count_ = 0;
  double seconds_;
  std::optional<StallClock::Clock::time_point> all_since_;
};

}  // namespace itrt
