// main() of the single-process engine tests: a watchdog around GoogleTest.
#include "tests/runtime_engine/watchdog.h"

#include <gtest/gtest.h>

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  ::testing::GTEST_FLAG(death_test_style) = "threadsafe";
  itrt::testing::install_watchdog(60, "itrt_engine_unit_tests");
  return RUN_ALL_TESTS();
}
