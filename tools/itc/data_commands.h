// The subcommands of `itc data`, each in its own data_<name>.cpp; cmd_data.cpp dispatches.
// Each takes the arguments after its name and returns the process exit status.
#pragma once

#include <string>
#include <vector>

namespace itc::data {

int runMake(const std::vector<std::string>& args);
int runShow(const std::vector<std::string>& args);
int runConvert(const std::vector<std::string>& args);
int runCompare(const std::vector<std::string>& args);

} // namespace itc::data
