// `itc compile`: IT program + mapping + machine model -> an MPI executable. compileProgram()
// runs the driver's pipeline (pipeline.h: parse, check, machine and mapping, task plan, backend
// -> C++ text), then mpicxx against libitrt. A valid program that mpicxx rejects is an internal
// compiler error: the generated source and the compiler output are kept for the bug report.
#include "frontend/ast/ast_visitor.h"
#include "tools/itc/command.h"
#include "tools/itc/pipeline.h"
#include "tools/itc/runtime_location.h"

#include <cctype>
#include <cerrno>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <regex>
#include <set>
#include <fcntl.h>
#include <unistd.h>

using namespace itc;
using namespace itc::driver;
namespace fs = std::filesystem;

namespace {

constexpr const char* kUsage = R"(usage: itc compile FILE.it FILE.map --machine FILE.pcubes -o PROGRAM
                   [--emit-cpp DIR] [-O2|-O3|--debug] [--no-blas]

Compiles an IT program for a machine: one MPI process per memory segment of the machine model,
one worker thread per PPU of the lowest mapped level inside it. Run the result with
`mpirun -np N ./PROGRAM key=value ...` (N from 1 to the number of segments).
  --machine FILE   the PCubeS machine description the mapping refers to
  -o PROGRAM       the executable to write
  --emit-cpp DIR   also keep the generated C++ (DIR/<program>.cpp)
  -O2, -O3         optimisation level of the generated code (default -O3)
  --debug          bounds checks that name the IT source line, -O0 -g
  --no-blas        emit loops for every stage: without it, loop nests that are matrix-matrix or
                   matrix-vector products (gemm, gemv) on float/double arrays call OpenBLAS
                   when the parts are dense blocks (the program then links OpenBLAS)
Environment (for instrumented builds, e.g. tools/tsan.sh):
  ITC_CXXFLAGS      extra flags for mpicxx, after the optimisation flags (compile and link)
  ITC_RUNTIME_LIBS  libitrt and its libraries to link instead of the ones itc was built with
An installed itc (bin/itc) uses the runtime headers and libitrt installed beside it
(include/itc, lib/itc); `itc --version` names the MPI compiler wrapper it runs.
Exit status: 0 compiled, 1 errors in the inputs, 2 bad command line, 3 internal compiler error.
)";

// An environment variable's value, or `fallback` when unset.
std::string envOr(const char* name, const std::string& fallback) {
    const char* v = std::getenv(name);
    return v ? std::string(v) : fallback;
}

// The link arguments of the program's @Libraries words (§7.3): a bare name `m` links `-lm`;
// a word with a `/`, a `.a`/`.so` suffix or a leading `-` is passed as written. Sorted, each
// once, shell-quoted.
std::string externLibraryFlags(const ast::Program& program) {
    std::set<std::string> words;
    for (const ast::Extern* x : ast::externBlocks(program))
        for (const auto& l : x->libraries)
            words.insert(l.text);
    std::string flags;
    for (const std::string& w : words) {
        bool asIs = w.front() == '-' || w.find('/') != std::string::npos || w.ends_with(".a") || w.ends_with(".so") ||
                    w.find(".so.") != std::string::npos;
        flags += " " + shellQuoted(asIs ? w : "-l" + w);
    }
    return flags;
}

// When every error the C++ compiler reports in `log` lies between the native-code markers of
// the generated `src` (`// itc-native-code LINE:COLUMN begin` ... `end`), where the first one's
// @Extern block is in the IT source, and its message; nullopt when any error is in itc's code.
struct NativeError {
    std::uint32_t line = 0, column = 0;
    std::string message;
};
std::optional<NativeError> nativeCodeError(const fs::path& src, const fs::path& log) {
    std::vector<std::string> lines;
    {
        std::ifstream in(src);
        for (std::string l; std::getline(in, l);)
            lines.push_back(l);
    }
    // The IT line of the native block each generated line belongs to (0: itc's own code).
    std::vector<std::pair<std::uint32_t, std::uint32_t>> owner(lines.size() + 1, {0, 0});
    std::pair<std::uint32_t, std::uint32_t> current{0, 0};
    static const std::regex begin(R"(// itc-native-code (\d+):(\d+) begin)");
    for (size_t i = 0; i < lines.size(); ++i) {
        std::smatch m;
        if (std::regex_search(lines[i], m, begin))
            current = {static_cast<std::uint32_t>(std::stoul(m[1].str())),
                       static_cast<std::uint32_t>(std::stoul(m[2].str()))};
        else if (lines[i].find("// itc-native-code end") != std::string::npos)
            current = {0, 0};
        owner[i + 1] = current;
    }
    std::ifstream in(log);
    const std::string name = src.filename().string();
    static const std::regex error(R"(^(.*):(\d+):\d+: (?:fatal )?error: (.*)$)");
    std::optional<NativeError> first;
    bool any = false;
    for (std::string l; std::getline(in, l);) {
        std::smatch m;
        if (!std::regex_match(l, m, error))
            continue;
        any = true;
        if (fs::path(m[1].str()).filename().string() != name)
            return std::nullopt; // an error in a header itc wrote or one of the runtime's
        size_t at = std::stoul(m[2].str());
        if (at >= owner.size() || owner[at].first == 0)
            return std::nullopt;
        if (!first)
            first = NativeError{owner[at].first, owner[at].second, m[3].str()};
    }
    return any ? first : std::nullopt;
}

// When every error the linker reports in `log` is the program's own: a library of an @Libraries
// block it cannot find, or a name that @Extern code uses and nothing defines. The place (the
// library's name, or the block that uses the name) and the message; nullopt when any link error
// is not traceable to the program's native code (then it is itc's).
struct LinkError {
    SourceRange at;
    std::string message;
};
// Whether `code` contains `word` as a whole C++ identifier. (A plain search: the word comes from
// a linker message and may hold characters special to a regular expression.)
bool mentionsIdentifier(const std::string& code, const std::string& word) {
    auto identifierChar = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    for (std::size_t at = code.find(word); !word.empty() && at != std::string::npos; at = code.find(word, at + 1))
        if ((at == 0 || !identifierChar(code[at - 1])) &&
            (at + word.size() == code.size() || !identifierChar(code[at + word.size()])))
            return true;
    return false;
}

std::optional<LinkError> nativeLinkError(const ast::Program& program, const fs::path& log) {
    const std::vector<const ast::Extern*> blocks = ast::externBlocks(program);
    if (blocks.empty())
        return std::nullopt;
    static const std::regex missingLib(R"(cannot find (\S+?)(: .*)?$)");
    static const std::regex undefinedRef(R"(undefined reference to `([^']+)')");
    static const std::regex linkerSummary(R"(collect2: error: ld returned|ld[^ :]*: .*: in function)");
    std::optional<LinkError> first;
    std::ifstream in(log);
    for (std::string l; std::getline(in, l);) {
        std::smatch m;
        std::optional<LinkError> here;
        if (std::regex_search(l, m, missingLib)) {
            const std::string arg = m[1].str();
            for (const ast::Extern* x : blocks)
                for (const auto& lib : x->libraries)
                    if (!here && (arg == "-l" + lib.text || arg == lib.text))
                        here = LinkError{lib.range, "the linker cannot find the library `" + lib.text + "` (`" + arg +
                                                        "`) named in @Libraries: install it, or give its file's "
                                                        "path or a `-L` directory"};
        } else if (std::regex_search(l, m, undefinedRef)) {
            std::string symbol = m[1].str();
            symbol = symbol.substr(0, symbol.find('('));
            if (auto colons = symbol.rfind("::"); colons != std::string::npos)
                symbol = symbol.substr(colons + 2);
            for (const ast::Extern* x : blocks)
                if (!here && mentionsIdentifier(x->code, symbol))
                    here = LinkError{x->range, "this @Extern code uses `" + symbol +
                                                   "`, which nothing defines when the program is linked: define "
                                                   "it in the block, or name its library in @Libraries"};
        } else if (std::regex_search(l, linkerSummary) || l.empty()) {
            continue;
        } else {
            return std::nullopt; // a compile error, or a link message that is not the program's
        }
        if (!here)
            return std::nullopt;
        if (!first)
            first = here;
    }
    return first;
}

int compileProgram(const std::string& itFile, const std::string& mapFile, const std::string& machineFile,
                   const std::string& output, const std::optional<std::string>& emitDir, const std::string& opt,
                   bool debug, bool blas) {
    SourceManager sources;
    DiagnosticEngine diags(sources);
    auto fail = [&] {
        diags.print(std::cerr);
        return kExitUserError;
    };
    // 1-5. Syntax, semantics, machine and mapping, task plans, C++ (pipeline.h).
    PipelineRequest request{itFile, mapFile, machineFile, Stage::Cpp, debug, blas};
    PipelineResult result;
    if (!runPipeline(request, sources, diags, result))
        return fail();
    diags.print(std::cerr); // warnings, if any
    const std::string& cpp = result.cpp;
    const ast::Program* program = result.program.get();
    // 6. mpicxx against libitrt.
    std::string stem = fs::path(output).filename().string();
    fs::path dir;
    if (emitDir) {
        dir = *emitDir;
        std::error_code ec;
        fs::create_directories(dir, ec);
        if (ec) {
            std::cerr << "itc: cannot make the directory `" << dir.string() << "` of --emit-cpp: " << ec.message()
                      << "\n";
            return kExitUserError;
        }
    } else {
        std::string tmpl = (fs::temp_directory_path() / "itc-XXXXXX").string();
        char* made = mkdtemp(tmpl.data());
        if (!made) {
            std::cerr << "itc: cannot create a temporary directory\n";
            return kExitUserError;
        }
        dir = made;
    }
    fs::path src = dir / (stem + ".cpp");
    fs::path log = dir / (stem + ".mpicxx.log");
    {
        std::ofstream f(src);
        f << cpp;
    }
    // -fwrapv: Integer arithmetic wraps around in two's complement, as the reference says,
    // rather than being undefined on overflow. -ffp-contract=off: each Real operation rounds to
    // its type; with -march=native GCC would fuse `x * y + z` into one FMA where the processor
    // has one, so results would differ in the last bit between machines and from --debug builds.
    std::string flags = (debug ? "-O0 -g" : opt + " -march=native -DNDEBUG") + " -fwrapv -ffp-contract=off";
    std::string extra = envOr("ITC_CXXFLAGS", "");
    if (!extra.empty())
        flags += " " + extra;
    RuntimeLocation runtime = locateRuntime();
    if (!debug && !runtime.prelude.empty())
        flags += " -include " + shellQuoted(runtime.prelude); // precompiled runtime headers, used when the flags match
    // Every path is one quoted word (the user names `output` and the --emit-cpp directory);
    // ITC_CXXFLAGS and ITC_RUNTIME_LIBS are shell words as the user wrote them.
    std::string cmd = shellQuoted(mpiCompiler()) + " -std=c++20 " + flags + " -I" + shellQuoted(runtime.includeDir) +
                      " " + shellQuoted(src.string()) + " -o " + shellQuoted(output) + " " +
                      (result.callsBlas ? runtime.blasLinkArgs + " " : "") +
                      envOr("ITC_RUNTIME_LIBS", runtime.linkArgs) + externLibraryFlags(*program) + " > " +
                      shellQuoted(log.string()) + " 2>&1";
    int rc = std::system(cmd.c_str());
    // The program's own mistake: its temporary directory goes (an --emit-cpp one stays).
    auto userError = [&] {
        if (!emitDir) {
            std::error_code ec;
            fs::remove_all(dir, ec);
        }
        return kExitUserError;
    };
    if (rc != 0) {
        // Errors only inside the program's own native code are the user's to fix.
        if (auto native = nativeCodeError(src, log)) {
            diags.error(DiagKind::NativeCodeError,
                        SourceRange::at({*result.file, native->line, std::max(1u, native->column)}),
                        "this @Extern code does not compile as C++: {}", native->message);
            diags.print(std::cerr);
            if (emitDir)
                std::cerr << "  the C++ compiler's messages: " << log.string() << "\n";
            else
                std::cerr << "  (with --emit-cpp DIR, itc keeps the generated C++ and the compiler's messages)\n";
            return userError();
        }
        if (auto link = nativeLinkError(*program, log)) {
            diags.error(DiagKind::NativeCodeError, link->at, "{}", link->message);
            diags.print(std::cerr);
            return userError();
        }
        std::cerr << "itc: internal compiler error: the generated C++ did not compile\n"
                  << "  generated source: " << src.string() << "\n  compiler output:  " << log.string()
                  << "\n  command: " << cmd << "\nplease report this as a bug, with these files\n";
        return 3;
    }
    if (!emitDir) {
        std::error_code ec;
        fs::remove_all(dir, ec);
    }
    return kExitOk;
}

// Why `output` cannot be written as a file, or nothing when it can.
std::optional<std::string> unwritableOutput(const fs::path& output, const std::vector<fs::path>& inputs) {
    std::error_code ec;
    for (const fs::path& in : inputs)
        if (fs::equivalent(output, in, ec))
            return "it is the input file `" + in.string() + "`, which the program would replace";
    if (fs::is_directory(output, ec))
        return "it is a directory; give the program's file name";
    const fs::path dir = output.parent_path().empty() ? fs::path(".") : output.parent_path();
    if (!fs::is_directory(dir, ec))
        return "the directory `" + dir.string() + "` does not exist";
    if (access(dir.c_str(), W_OK) != 0)
        return "the directory `" + dir.string() + "` is not writable";
    if (fs::exists(output, ec) && access(output.c_str(), W_OK) != 0)
        return "the file exists and is not writable";
    // What the checks above cannot see (a name too long, a file system that refuses new files,
    // `/proc`): open it as the linker will, without changing a file that is there.
    const bool existed = fs::exists(output, ec);
    const int fd = open(output.c_str(), O_WRONLY | O_CREAT, 0755);
    if (fd < 0)
        return std::string(std::strerror(errno));
    close(fd);
    if (!existed)
        fs::remove(output, ec);
    return std::nullopt;
}

int runCompile(const std::vector<std::string>& args) {
    CommandLine cl(args, {"--machine", "-o", "--emit-cpp"}, {"-O2", "-O3", "--debug", "--no-blas"});
    if (!cl.ok())
        return usageError("compile", cl.error());
    const auto& pos = cl.positionals();
    if (pos.size() != 2)
        return usageError("compile", "expected FILE.it FILE.map");
    if (auto swapped = swappedInputs("compile", pos))
        return *swapped;
    if (!cl.value("--machine"))
        return usageError("compile", "missing `--machine FILE.pcubes`");
    if (!cl.value("-o"))
        return usageError("compile", "missing `-o PROGRAM`");
    if (cl.value("-o")->empty())
        return usageError("compile", "`-o` needs the program's file name");
    // Before the whole compile: the C++ compiler would only fail at the very end, on the link.
    if (auto bad = unwritableOutput(*cl.value("-o"), {pos[0], pos[1], *cl.value("--machine")})) {
        std::cerr << "itc: cannot write the program to `" << *cl.value("-o") << "`: " << *bad << "\n";
        return kExitUserError;
    }
    if (auto dir = cl.value("--emit-cpp")) {
        std::error_code ec;
        if (dir->empty() || (fs::exists(*dir, ec) && !fs::is_directory(*dir, ec)))
            return usageError("compile", "`--emit-cpp " + *dir + "`: give a directory (it is made if missing)");
    }
    if (cl.has("--debug") && (cl.has("-O2") || cl.has("-O3")))
        return usageError("compile", std::string("`--debug` compiles without optimisation (-O0, with bounds checks); "
                                                 "give it or `") +
                                         (cl.has("-O2") ? "-O2" : "-O3") + "`, not both");
    if (cl.has("-O2") && cl.has("-O3"))
        return usageError("compile", "give one of `-O2` and `-O3`");
    std::string opt = cl.has("-O2") ? "-O2" : "-O3";
    return compileProgram(pos[0], pos[1], *cl.value("--machine"), *cl.value("-o"), cl.value("--emit-cpp"), opt,
                          cl.has("--debug"), !cl.has("--no-blas"));
}

const ItcCommand kCompile("compile", "compile an IT program for a machine into an MPI executable", kUsage, runCompile);

} // namespace
