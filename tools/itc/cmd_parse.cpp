// `itc parse`: parses one IT program and prints its AST (`--dump-ast`), the frontend's view of
// the program. Syntax diagnostics go to stderr exactly as `itc check` prints them.
#include "frontend/ast/ast_printer.h"
#include "frontend/parser.h"
#include "tools/itc/command.h"

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
    std::string reason;
    std::optional<FileId> file = sources.loadFile(cl.positionals()[0], reason);
    if (!file) {
        diags.error(DiagKind::FileNotReadable, {}, "cannot read `{}`: {}", cl.positionals()[0],
                    reason);
        diags.print(std::cerr);
        return kExitUserError;
    }
    std::unique_ptr<ast::Program> program = parseProgram(*file, sources, diags);
    diags.print(std::cerr);
    if (diags.hasErrors())
        return kExitUserError;
    std::cout << ast::printAst(*program);
    return kExitOk;
}

const ItcCommand kParse("parse", "parse an IT program and print its AST", kUsage, runParse);

} // namespace
