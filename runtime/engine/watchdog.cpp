// Implements watchdog.h.
#include "runtime/engine/watchdog.h"

#include "runtime/engine/log.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace itrt {

std::optional<double> watchdog_seconds() {
  static const std::optional<double> seconds = []() -> std::optional<double> {
    const char* text = std::getenv("IT_WATCHDOG");
    if (!text || !*text) return kDefaultWatchdogSeconds;
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(text, &end);
    if (errno != 0 || *end != '\0' || !std::isfinite(v) || v < 0) return kDefaultWatchdogSeconds;
    if (v == 0) return std::nullopt;
    return v;
  }();
  return seconds;
}

bool StallClock::stalled(bool data_moved, bool in_flight, Clock::duration quiet_after) {
  const uint64_t ended = activity_.ended.load();
  const auto now = Clock::now();
  if (data_moved || in_flight || activity_.firing() || ended != seen_ended_) {
    seen_ended_ = ended;
    last_activity_ = now;
    return false;
  }
  return now - last_activity_ >= quiet_after;
}

void HangDetector::set_stalled(int rank, bool stalled) {
  char& slot = stalled_.at(static_cast<size_t>(rank));
  if (static_cast<bool>(slot) == stalled) return;
  slot = stalled;
  count_ += stalled ? 1 : -1;
  if (count_ == static_cast<int>(stalled_.size()))
    all_since_ = StallClock::Clock::now();
  else
    all_since_.reset();
}

bool HangDetector::hung() const {
  return all_since_ && StallClock::Clock::now() - *all_since_ >= std::chrono::duration<double>(seconds_);
}

}  // namespace itrt
