// libFuzzer target `machine`: PCubeS machine description files (pcubes/machine_parser) on
// arbitrary text. The parser either returns a valid model or reports an error diagnostic; a
// model it accepts must print (pcubes/machine_printer) to a file that parses again and prints
// the same text, the round trip `itc machine --print` promises.
#include "pcubes/machine_parser.h"
#include "pcubes/machine_printer.h"
#include "tests/fuzz/targets/fuzz_support.h"

#include <cstdint>
#include <string>

using namespace itc;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    SourceManager sources;
    DiagnosticEngine diags(sources);
    FileId file = sources.addBuffer("fuzz.pcubes", std::string(reinterpret_cast<const char*>(data), size));
    auto model = pcubes::parseMachine(file, sources, diags);
    fuzz::checkDiagnostics(diags, model.has_value(), "machine parser");
    if (!model)
        return 0;
    const std::string printed = pcubes::printMachine(*model);
    FileId again = sources.addBuffer("printed.pcubes", printed);
    auto reparsed = pcubes::parseMachine(again, sources, diags);
    if (!reparsed)
        fuzz::bug("a printed machine model does not parse again:\n" + printed);
    if (pcubes::printMachine(*reparsed) != printed)
        fuzz::bug("printing a printed machine model changes it:\n" + printed);
    return 0;
}
