// Subcommand registry and option parsing for the itc driver.
#include "tools/itc/command.h"

#include <filesystem>

#include <iostream>

namespace itc::driver {
namespace {
std::map<std::string, const ItcCommand*>& registry() {
    static std::map<std::string, const ItcCommand*> commands;
    return commands;
}
} // namespace

ItcCommand::ItcCommand(std::string n, std::string s, std::string u,
                       std::function<int(const std::vector<std::string>&)> r)
    : name(std::move(n)), summary(std::move(s)), usage(std::move(u)), run(std::move(r)) {
    registry()[name] = this;
}

const std::map<std::string, const ItcCommand*>& registeredCommands() { return registry(); }

CommandLine::CommandLine(std::vector<std::string> args, const std::set<std::string>& valueOptions,
                         const std::set<std::string>& flagOptions) {
    bool onlyPositionals = false;
    for (std::size_t i = 0; i < args.size() && error_.empty(); ++i) {
        const std::string& arg = args[i];
        if (onlyPositionals || arg.size() < 2 || arg[0] != '-') {
            positionals_.push_back(arg);
            continue;
        }
        if (arg == "--") {
            onlyPositionals = true;
            continue;
        }
        std::string name = arg;
        std::optional<std::string> inlineValue;
        if (auto eq = arg.find('='); eq != std::string::npos && arg.rfind("--", 0) == 0) {
            name = arg.substr(0, eq);
            inlineValue = arg.substr(eq + 1);
        }
        if (valueOptions.count(name)) {
            std::optional<std::string> value = inlineValue;
            // The next word is another option (`--segments -o m.pcubes`): the value was left out.
            const auto isOption = [&](const std::string& word) {
                const std::string bare = word.substr(0, word.rfind("--", 0) == 0 ? word.find('=') : std::string::npos);
                return valueOptions.count(bare) || flagOptions.count(bare);
            };
            if (!value && i + 1 < args.size() && isOption(args[i + 1])) {
                error_ = "option `" + name + "` needs a value; found the option `" + args[i + 1] + "` after it";
                continue;
            }
            if (!value && i + 1 < args.size())
                value = args[++i];
            if (!value) {
                error_ = "option `" + name + "` needs a value";
            } else if (auto seen = values_.find(name); seen != values_.end() && seen->second != *value) {
                // One of the two would be ignored without a word (a second --machine replaced
                // the first): the user means one of them.
                error_ =
                    "option `" + name + "` given twice (`" + seen->second + "` and `" + *value + "`); give it once";
            } else {
                values_[name] = *value;
            }
        } else if (flagOptions.count(name) && !inlineValue) {
            values_[name] = "";
        } else {
            error_ = "unknown option `" + arg + "`";
        }
    }
}

std::optional<std::string> CommandLine::value(const std::string& option) const {
    auto it = values_.find(option);
    if (it == values_.end())
        return std::nullopt;
    return it->second;
}

int usageError(const std::string& command, const std::string& message) {
    std::cerr << "itc " << command << ": " << message << "\n"
              << "run `itc " << command << " --help` for usage\n";
    return kExitUsageError;
}

std::optional<int> swappedInputs(const std::string& command, const std::vector<std::string>& positionals) {
    if (positionals.size() != 2 || std::filesystem::path(positionals[0]).extension() != ".map" ||
        std::filesystem::path(positionals[1]).extension() != ".it")
        return std::nullopt;
    return usageError(command, "the program comes first, then the mapping: `itc " + command + " " + positionals[1] +
                                   " " + positionals[0] + " ...`");
}

} // namespace itc::driver
