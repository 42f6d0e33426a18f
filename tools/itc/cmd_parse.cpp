// `itc parse`: parses one IT program and prints its AST (`--dump-ast`), the frontend's view of
// the program (the same as `itc check --emit=ast`). Syntax diagnostics go to stderr exactly as
// `itc check` prints them.
#include "tools/itc/command.h"
#include "tools/itc/pipeline.h"

#include <iostream>

using namespace itc;
using namespace itc::driver;

namespace {

constexpr const char* kUsage = R"(usage: itc parse --dump-ast FILE.it

Parses FILE.it and prints its abstract syntax tree, one node per line with its line:column.
  --dump-ast   print the AST (the only output this command has today)
Exit status: 0 parsed, 1 syntax errors (diagnostics on stderr), 2 bad command line.
)";

int runParse(const std::vector<std::string>& args) {
    CommandLine cl(args, {}, {"--dump-ast"});
    if (!cl.ok())
        return usageError("parse", cl.error());
    if (!cl.has("--dump-ast"))
        return usageError("parse", "say what to print: `--dump-ast`");
    if (cl.positionals().size() != 1)
        return usageError("parse", "expected exactly one FILE.it");
    SourceManager sources;
    DiagnosticEngine diags(sources);
    PipelineResult result;
    const bool ok = runPipeline({cl.positionals()[0], std::nullopt, std::nullopt, Stage::Ast}, sources, diags, result);
    diags.print(std::cerr);
    if (!ok)
        return kExitUserError;
    std::cout << emitStage(Stage::Ast, result, sources);
    return kExitOk;
}

const ItcCommand kParse("parse", "parse an IT program and print its AST", kUsage, runParse);

} // namespace
