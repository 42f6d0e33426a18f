// Implements watchdog.h with SIGALRM; the handler only uses async-signal-safe calls.
#include "tests/runtime_engine/watchdog.h"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace itrt::testing {
namespace {
char g_message[256];

void on_alarm(int) {
  ssize_t ignored = write(2, g_message, std::strlen(g_message));
  (void)ignored;
  _exit(124);
}
}  // namespace

void install_watchdog(int seconds, const char* what) {
  if (const char* env = std::getenv("ITRT_TEST_WATCHDOG")) seconds = std::atoi(env);
  std::snprintf(g_message, sizeof g_message, "\nwatchdog: %s still running after %d s: hang?\n", what, seconds);
  std::signal(SIGALRM, on_alarm);
  alarm(static_cast<unsigned>(seconds));
}

}  // namespace itrt::testing
