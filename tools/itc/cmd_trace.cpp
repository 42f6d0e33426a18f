// `itc trace RUN.json [-o RUN.svg]`: summarises a run trace written with IT_TRACE=RUN.json and
// draws its timeline as an SVG picture that any browser or image viewer shows.
#include "tools/itc/command.h"
#include "tools/itc/trace_timeline.h"

#include <fstream>
#include <iostream>
#include <sstream>

using namespace itc::driver;

namespace {

constexpr const char* kUsage = R"(usage: itc trace RUN.json [-o RUN.svg] [--width PIXELS] [--no-messages]

Reads a run trace, written by a compiled IT program run with `IT_TRACE=RUN.json`, and prints a
summary: per stage the number of calls and their time; per synchronisation how often LPUs waited
at it and for how long, and the messages and bytes it moved (within and between ranks).
  -o FILE          also draw the timeline as an SVG picture: one lane per thread of each rank,
                   a coloured rectangle per stage call (legend below), idle waits hatched,
                   arrows for messages between ranks
  --width PIXELS   width of the picture (default 1200)
  --no-messages    leave out the message arrows
The JSON itself opens in https://ui.perfetto.dev or chrome://tracing.
Exit status: 0 ok, 1 unreadable or malformed trace, 2 bad command line.
)";

int runTrace(const std::vector<std::string>& args) {
    CommandLine cl(args, {"-o", "--width"}, {"--no-messages"});
    if (!cl.ok())
        return usageError("trace", cl.error());
    if (cl.positionals().size() != 1)
        return usageError("trace", "expected one trace file (written with IT_TRACE=FILE)");
    SvgOptions options;
    if (auto w = cl.value("--width")) {
        try {
            options.width = std::stoi(*w);
        } catch (...) {
            options.width = 0;
        }
        if (options.width < 300 || options.width > 100000)
            return usageError("trace", "`--width " + *w + "`: expected a number of pixels from 300 to 100000");
    }
    options.messages = !cl.has("--no-messages");
    const std::string file = cl.positionals()[0];
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        std::cerr << file << ": error: cannot read the trace file; run the program with IT_TRACE=" << file
                  << " first\n";
        return kExitUserError;
    }
    std::stringstream text;
    text << in.rdbuf();
    Timeline timeline;
    try {
        timeline = readTimeline(parseJson(text.str()));
    } catch (const JsonError& e) {
        std::cerr << file << ":" << e.line << ":" << e.column << ": error: " << e.what()
                  << " (is the file a complete trace? a run that failed leaves none)\n";
        return kExitUserError;
    } catch (const std::runtime_error& e) {
        std::cerr << file << ": error: " << e.what() << "\n";
        return kExitUserError;
    }
    std::cout << timelineSummary(timeline, file);
    if (auto out = cl.value("-o")) {
        std::ofstream svg(*out, std::ios::binary);
        svg << timelineSvg(timeline, options);
        svg.close();
        if (!svg) {
            std::cerr << *out << ": error: cannot write the picture; check the folder exists and is writable\n";
            return kExitUserError;
        }
        std::cout << "timeline written to " << *out << "\n";
    }
    return kExitOk;
}

const ItcCommand kTrace("trace", "summarise a run trace (IT_TRACE=FILE) and draw it as an SVG timeline", kUsage,
                        runTrace);

} // namespace
