// The itc driver's subcommand registry and a small command-line parser.
// Each subcommand lives in its own cmd_*.cpp and registers itself with a static ItcCommand.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace itc::driver {

// Exit codes of every itc command.
inline constexpr int kExitOk = 0;
inline constexpr int kExitUserError = 1;  // the input is wrong (diagnostics were printed)
inline constexpr int kExitUsageError = 2; // the command line is wrong

// Parsed arguments of one subcommand: options declared by the command, then positionals.
class CommandLine {
public:
    // `valueOptions` take a value (`-o FILE`, `--machine=FILE`); `flagOptions` do not.
    CommandLine(std::vector<std::string> args, const std::set<std::string>& valueOptions,
                const std::set<std::string>& flagOptions);

    bool ok() const { return error_.empty(); }
    const std::string& error() const { return error_; }
    bool has(const std::string& option) const { return values_.count(option) != 0; }
    std::optional<std::string> value(const std::string& option) const;
    const std::vector<std::string>& positionals() const { return positionals_; }

private:
    std::map<std::string, std::string> values_;
    std::vector<std::string> positionals_;
    std::string error_;
};

struct ItcCommand {
    std::string name;
    std::string summary; // one line, for `itc --help`
    std::string usage;   // full usage text, for `itc NAME --help`
    std::function<int(const std::vector<std::string>& args)> run;

    ItcCommand(std::string name, std::string summary, std::string usage,
               std::function<int(const std::vector<std::string>&)> run);
};

const std::map<std::string, const ItcCommand*>& registeredCommands();

// Prints `itc NAME: message` and the command's usage hint to stderr; returns kExitUsageError.
int usageError(const std::string& command, const std::string& message);
// `itc COMMAND prog.map prog.it`: the program and the mapping in the wrong order, said as a usage
// error (the mapping would otherwise be parsed as IT code); nullopt when they are in order.
std::optional<int> swappedInputs(const std::string& command, const std::vector<std::string>& positionals);

} // namespace itc::driver
