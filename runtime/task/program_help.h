// Program help and argument checks of a generated program's command line: `--help`/`-h` prints
// the `args` keys its coordinator reads (the backend's kArgs table) and the environment variables
// the runtime reads; keys outside the table and keys given twice are errors that name the
// known keys and suggest the nearest. Pure text functions: Program decides who prints and exits.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace itrt::task {

// One `args.key` the coordinator reads, as the backend found it in the IT source.
struct ArgSpec {
  const char* key;
  const char* type;   // what the program converts it to: "Integer", "file name", "as used", ...
  const char* lines;  // the IT lines reading it: "vector-add.it:9, 12"
};

// True when a word of argv[1..argc) is `--help` or `-h`.
bool wants_help(int argc, const char* const* argv);

// The usage text: how to run `command` (argv[0]) compiled from `program` (the IT file) with
// 1 to `segments` processes, its keys (`known`; null when the program did not say) and the
// runtime's environment variables.
std::string usage_text(const std::string& program, const std::string& command, int64_t segments,
                       const std::string& machine_file, const std::vector<ArgSpec>* known);

// Checks the key=value words of argv[1..argc) against `known`: a key given twice, or one that
// is not in the table, gives the message of the error; "" when every key is fine. Words that
// are not key=value are left to Args, which reports them.
std::string check_arg_keys(int argc, const char* const* argv, const std::vector<ArgSpec>& known);

// The known key nearest to `key` (runtime/support/nearest_name.h), or ""
// when none is close enough to be a likely typo.
std::string nearest_key(const std::string& key, const std::vector<ArgSpec>& known);

}  // namespace itrt::task
