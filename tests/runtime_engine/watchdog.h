// Test watchdog: alarm() turns a hang into a failure with a message instead of a stuck CI.
// Must not be used by the runtime itself.
#pragma once

namespace itrt::testing {
// Kills the process with exit status 124 and a message after `seconds` (env ITRT_TEST_WATCHDOG
// overrides). Call once at the start of a test binary's main.
void install_watchdog(int seconds, const char* what);
}  // namespace itrt::testing
