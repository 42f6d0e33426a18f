// Per-subsystem logging for libitrt, with levels set by the ITRT_LOG environment variable
// (e.g. ITRT_LOG=engine:debug,proxy:info or ITRT_LOG=debug). Must not be used for user-facing
// errors (those go through failure.h so they are printed exactly once).
#pragma once

#include <fmt/format.h>

#include <string_view>

namespace itrt {

#define ITRT_LOG_SUBSYSTEMS(X) X(engine) X(proxy) X(reduce) X(args) X(pin)

enum class LogSystem {
#define ITRT_X(name) name,
  ITRT_LOG_SUBSYSTEMS(ITRT_X)
#undef ITRT_X
      count
};

enum class LogLevel { off = 0, error, warn, info, debug, trace };

// Re-reads ITRT_LOG (called once automatically; tests may call it after setenv).
void log_configure(const char* spec);
// The rank printed in log lines; set by Runtime once MPI is up.
void log_set_rank(int rank);
bool log_enabled(LogSystem sys, LogLevel level);
void log_write(LogSystem sys, LogLevel level, std::string_view text);

template <typename... A>
void log(LogSystem sys, LogLevel level, fmt::format_string<A...> f, A&&... args) {
  if (log_enabled(sys, level)) log_write(sys, level, fmt::format(f, std::forward<A>(args)...));
}

}  // namespace itrt
