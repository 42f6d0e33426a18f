// The itc driver: dispatches `itc COMMAND ...` to the registered subcommands.
// User errors exit 1, usage errors exit 2; anything thrown is reported as an internal error.
#include "itc_version.h"
#include "tools/itc/command.h"
#include "tools/itc/versions.h"

#include <exception>
#include <iostream>

using namespace itc::driver;

namespace {

void printHelp(std::ostream& out) {
    out << "itc " ITC_VERSION_STRING " — compiler for the IT parallel programming language\n\n"
        << "usage: itc COMMAND [ARGS...]\n       itc --help | --version\n\ncommands:\n";
    for (const auto& [name, cmd] : registeredCommands())
        out << "  " << name << std::string(name.size() < 10 ? 10 - name.size() : 1, ' ') << cmd->summary << "\n";
    out << "\nrun `itc COMMAND --help` for the options of one command\n";
}

} // namespace

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty()) {
        printHelp(std::cerr);
        return kExitUsageError;
    }
    if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        printHelp(std::cout);
        return kExitOk;
    }
    if (args[0] == "--version") {
        std::cout << versionText();
        return kExitOk;
    }
    auto it = registeredCommands().find(args[0]);
    if (it == registeredCommands().end()) {
        std::cerr << "itc: unknown command `" << args[0] << "`\nrun `itc --help` for the list\n";
        return kExitUsageError;
    }
    const ItcCommand& cmd = *it->second;
    std::vector<std::string> rest(args.begin() + 1, args.end());
    for (const std::string& a : rest)
        if (a == "--help" || a == "-h") {
            std::cout << cmd.usage;
            return kExitOk;
        }
    try {
        return cmd.run(rest);
    } catch (const std::exception& e) {
        std::cerr << "itc: internal compiler error: " << e.what()
                  << "\nplease report this as a bug, with the input files\n";
    } catch (...) {
        std::cerr << "itc: internal compiler error: unknown exception\n"
                  << "please report this as a bug, with the input files\n";
    }
    return 3;
}
