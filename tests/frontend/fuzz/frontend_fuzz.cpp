// Robustness of the parser on broken input, under ASan + UBSan: every example truncated at
// token boundaries (sampled deterministically) and 200 seeded random token mutations of each
// (delete, duplicate, swap, replace). Each parse must end with an AST or >= 1 diagnostic,
// within a time bound (alarm() watchdog), without exceptions, crashes, internal errors, or any
// text on stdout/stderr (ANTLR's console output included). Prints the seed of each run.
#include "tests/support/read_file.h"
#include "frontend/parser.h"
#include "frontend/token_offsets.h"

#include <fmt/format.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <unistd.h>

namespace {

constexpr unsigned kParseSeconds = 20;       // per parse, under sanitizers
constexpr std::size_t kMaxTruncations = 150; // per example, evenly spaced
constexpr int kMutations = 200;              // per example
constexpr std::uint32_t kBaseSeed = 20261122;

int gStderr = -1; // the real stderr while fds 1 and 2 are captured
const char* gCurrent = "";

void onAlarm(int) {
    const char msg[] = "frontend_fuzz: a parse did not finish in time (hang?) on input: ";
    (void)!write(gStderr, msg, sizeof msg - 1);
    (void)!write(gStderr, gCurrent, std::strlen(gCurrent));
    (void)!write(gStderr, "\n", 1);
    _exit(1);
}

using itc::test::readFile;

// Captures everything written to fds 1 and 2 into a temporary file.
class Capture {
public:
    Capture() {
        std::fflush(stdout);
        std::fflush(stderr);
        file_ = std::tmpfile();
        savedOut_ = dup(1);
        savedErr_ = dup(2);
        gStderr = savedErr_;
        dup2(fileno(file_), 1);
        dup2(fileno(file_), 2);
    }
    // Restores the fds and returns what was written meanwhile.
    std::string finish() {
        std::fflush(stdout);
        std::fflush(stderr);
        dup2(savedOut_, 1);
        dup2(savedErr_, 2);
        close(savedOut_);
        close(savedErr_);
        gStderr = 2;
        std::string text;
        std::rewind(file_);
        char buf[4096];
        std::size_t n;
        while ((n = std::fread(buf, 1, sizeof buf, file_)) > 0)
            text.append(buf, n);
        std::fclose(file_);
        return text;
    }

private:
    std::FILE* file_ = nullptr;
    int savedOut_ = -1, savedErr_ = -1;
};

struct Stats {
    int parses = 0, accepted = 0, rejected = 0;
};

// One parse under the watchdog; returns an empty string when the outcome is acceptable.
std::string parseOnce(const std::string& label, const std::string& text, Stats& stats) {
    gCurrent = label.c_str();
    itc::SourceManager sources;
    itc::FileId file = sources.addBuffer(label, text);
    itc::DiagnosticEngine diags(sources);
    alarm(kParseSeconds);
    try {
        auto program = itc::parseProgram(file, sources, diags);
        alarm(0);
        if (!program)
            return "parseProgram returned null";
    } catch (const std::exception& e) {
        alarm(0);
        return fmt::format("exception escaped parseProgram: {}", e.what());
    } catch (...) {
        alarm(0);
        return "unknown exception escaped parseProgram";
    }
    ++stats.parses;
    for (const itc::Diagnostic& d : diags.diagnostics()) {
        if (d.kind == itc::DiagKind::InternalError)
            return "internal error: " + d.message;
        for (const char* antlrText :
             {"mismatched input", "extraneous input", "no viable alternative", "token recognition error", "missing '"})
            if (d.message.find(antlrText) != std::string::npos)
                return "ANTLR wording in a diagnostic: " + d.message;
        std::string rendered = diags.render(d); // rendering must not crash either
        if (rendered.empty())
            return "empty rendering";
    }
    (diags.hasErrors() ? stats.rejected : stats.accepted)++;
    return {};
}

std::string join(const std::string& text, const std::vector<itc::TokenOffsets>& toks,
                 const std::vector<std::size_t>& order) {
    // Rebuild the text from the chosen token sequence, keeping the original gap before each.
    std::string out;
    for (std::size_t k : order) {
        std::size_t gapStart = k == 0 ? 0 : toks[k - 1].end;
        out += text.substr(gapStart, toks[k].begin - gapStart);
        out += text.substr(toks[k].begin, toks[k].end - toks[k].begin);
    }
    return out;
}

} // namespace

int main() {
    std::signal(SIGALRM, onAlarm);
    std::vector<std::filesystem::path> examples;
    for (const auto& dir : std::filesystem::directory_iterator(ITC_EXAMPLES_DIR)) {
        if (!dir.is_directory())
            continue;
        for (const auto& f : std::filesystem::directory_iterator(dir.path()))
            if (f.path().extension() == ".it")
                examples.push_back(f.path());
    }
    std::sort(examples.begin(), examples.end());
    if (examples.empty()) {
        std::fprintf(stderr, "frontend_fuzz: no examples under %s\n", ITC_EXAMPLES_DIR);
        return 1;
    }
    int failures = 0;
    Stats total;
    for (std::size_t e = 0; e < examples.size(); ++e) {
        const std::string name = examples[e].filename().string();
        const std::string text = readFile(examples[e]);
        const std::uint32_t seed = kBaseSeed + static_cast<std::uint32_t>(e);
        std::vector<itc::TokenOffsets> toks = itc::lexTokenOffsets(text);
        std::printf("%s: %zu tokens, mutation seed %u\n", name.c_str(), toks.size(), seed);
        std::fflush(stdout);

        std::vector<std::pair<std::string, std::string>> inputs; // label, text
        std::size_t step = std::max<std::size_t>(1, toks.size() / kMaxTruncations);
        for (std::size_t k = 0; k < toks.size(); k += step)
            inputs.emplace_back(fmt::format("{} truncated before token {}", name, k), text.substr(0, toks[k].begin));
        std::mt19937 rng(seed);
        for (int m = 0; m < kMutations && toks.size() > 2; ++m) {
            std::vector<std::size_t> order(toks.size());
            for (std::size_t k = 0; k < order.size(); ++k)
                order[k] = k;
            int edits = 1 + static_cast<int>(rng() % 3);
            std::string what;
            for (int i = 0; i < edits && order.size() > 2; ++i) {
                std::size_t at = rng() % order.size();
                switch (rng() % 4) {
                case 0:
                    order.erase(order.begin() + at);
                    what += fmt::format(" delete@{}", at);
                    break;
                case 1:
                    order.insert(order.begin() + at, order[at]);
                    what += fmt::format(" dup@{}", at);
                    break;
                case 2: {
                    std::size_t other = (at + 1) % order.size();
                    std::swap(order[at], order[other]);
                    what += fmt::format(" swap@{}", at);
                    break;
                }
                default: order[at] = rng() % toks.size(); what += fmt::format(" replace@{}", at);
                }
            }
            inputs.emplace_back(fmt::format("{} seed {} mutation {}:{}", name, seed, m, what), join(text, toks, order));
        }

        Stats stats;
        Capture capture;
        std::vector<std::string> problems;
        for (const auto& [label, input] : inputs) {
            std::string problem = parseOnce(label, input, stats);
            if (!problem.empty())
                problems.push_back(label + ": " + problem);
        }
        std::string printed = capture.finish();
        if (!printed.empty())
            problems.push_back(
                fmt::format("{}: the parser printed to stdout/stderr:\n{}", name, printed.substr(0, 2000)));
        for (const std::string& p : problems)
            std::printf("FAIL %s\n", p.c_str());
        failures += static_cast<int>(problems.size());
        std::printf("  %d parses: %d accepted, %d rejected with diagnostics\n", stats.parses, stats.accepted,
                    stats.rejected);
        total.parses += stats.parses;
    }
    std::printf("%d parses in total, %d failures\n", total.parses, failures);
    return failures ? 1 : 0;
}
