// Implements log.h: parses ITRT_LOG once, then answers level queries with one relaxed load.
// Must not allocate or lock on the fast path where logging is disabled.
#include "runtime/engine/log.h"

#include <array>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

namespace itrt {
namespace {

constexpr std::array<const char*, static_cast<size_t>(LogSystem::count)> kSystemNames = {
#define ITRT_X(name) #name,
    ITRT_LOG_SUBSYSTEMS(ITRT_X)
#undef ITRT_X
};
constexpr std::array<const char*, 6> kLevelNames = {"off", "error", "warn", "info", "debug", "trace"};

std::array<std::atomic<int>, static_cast<size_t>(LogSystem::count)> g_levels;
std::atomic<int> g_rank{-1};
std::atomic<bool> g_configured{false};
std::mutex g_configure_mutex;

int parse_level(std::string_view word) {
  for (size_t i = 0; i < kLevelNames.size(); ++i)
    if (word == kLevelNames[i]) return static_cast<int>(i);
  return -1;
}

void ensure_configured() {
  if (g_configured.load(std::memory_order_acquire)) return;
  std::lock_guard lock(g_configure_mutex);
  if (!g_configured.load(std::memory_order_relaxed)) log_configure(std::getenv("ITRT_LOG"));
}

}  // namespace

void log_configure(const char* spec) {
  for (auto& l : g_levels) l.store(static_cast<int>(LogLevel::warn), std::memory_order_relaxed);
  g_configured.store(true, std::memory_order_release);  // an explicit call overrides ITRT_LOG
  if (!spec) return;
  std::string_view rest(spec);
  while (!rest.empty()) {
    size_t comma = rest.find(',');
    std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    size_t colon = item.find(':');
    std::string_view sys = colon == std::string_view::npos ? "all" : item.substr(0, colon);
    int level = parse_level(colon == std::string_view::npos ? item : item.substr(colon + 1));
    if (level < 0) {
      std::fprintf(stderr, "itrt: warning: ITRT_LOG item '%.*s' ignored (unknown level)\n",
                   static_cast<int>(item.size()), item.data());
      continue;
    }
    bool matched = false;
    for (size_t i = 0; i < kSystemNames.size(); ++i)
      if (sys == "all" || sys == kSystemNames[i]) {
        g_levels[i].store(level, std::memory_order_relaxed);
        matched = true;
      }
    if (!matched)
      std::fprintf(stderr, "itrt: warning: ITRT_LOG subsystem '%.*s' unknown\n", static_cast<int>(sys.size()),
                   sys.data());
  }
}

void log_set_rank(int rank) { g_rank.store(rank, std::memory_order_relaxed); }

bool log_enabled(LogSystem sys, LogLevel level) {
  ensure_configured();
  return static_cast<int>(level) <= g_levels[static_cast<size_t>(sys)].load(std::memory_order_relaxed);
}

void log_write(LogSystem sys, LogLevel level, std::string_view text) {
  // One fprintf per line so lines from different threads do not interleave.
  int rank = g_rank.load(std::memory_order_relaxed);  // -1 until Runtime knows it
  std::string who = rank < 0 ? std::string("-") : "r" + std::to_string(rank);
  std::string line = fmt::format("[itrt {} {} {}] {}\n", who, kSystemNames[static_cast<size_t>(sys)],
                                 kLevelNames[static_cast<size_t>(level)], text);
  std::fputs(line.c_str(), stderr);
}

}  // namespace itrt
