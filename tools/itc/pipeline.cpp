// The driver's one pipeline; see pipeline.h.
#include "tools/itc/pipeline.h"

#include "backend/capability.h"
#include "backend/native_brackets.h"
#include "frontend/ast/ast_printer.h"
#include "frontend/parser.h"
#include "frontend/token_offsets.h"
#include "semantic/check/print_checked.h"
#include "semantic/plan/build_plan.h"
#include "semantic/plan/condition_stages.h"
#include "semantic/plan/print_plan.h"

#include <fmt/format.h>

namespace itc::driver {

std::optional<Stage> stageByName(std::string_view name) {
    if (name == "tokens")
        return Stage::Tokens;
    if (name == "ast")
        return Stage::Ast;
    if (name == "checked")
        return Stage::Checked;
    if (name == "plan")
        return Stage::Plan;
    if (name == "cpp")
        return Stage::Cpp;
    return std::nullopt;
}

bool runPipeline(const PipelineRequest& request, SourceManager& sources, DiagnosticEngine& diags,
                 PipelineResult& result) {
    std::string reason;
    result.file = sources.loadFile(request.program, reason);
    if (!result.file) {
        diags.error(DiagKind::FileNotReadable, {}, "cannot read `{}`: {}", request.program, reason);
        return false;
    }
    if (request.last == Stage::Tokens)
        return true; // the lexer reports nothing: bad characters are tokens of their own
    // 1. Syntax: source text -> AST.
    result.program = parseProgram(*result.file, sources, diags);
    if (diags.hasErrors() || request.last == Stage::Ast)
        return !diags.hasErrors();
    // 2. Names, types, task, function and flow rules.
    if (!semantic::checkProgram(*result.program, sources, diags, result.checked))
        return false;
    if (request.last == Stage::Checked)
        return true;
    // 3. Machine model and mapping, against the program's tasks and spaces.
    if (request.mapping) {
        result.target = checkMachineAndMapping(*result.program, *request.mapping, *request.machine, sources, diags);
        if (!result.target)
            return false;
    }
    // 4. Partitions, flow, data usage, dependencies -> the task plans.
    semantic::PlanTarget target;
    if (result.target) {
        target.machine = &result.target->machine;
        target.mappings = &result.target->mappings;
        target.machineFile = *request.machine;
    }
    result.plan = semantic::buildProgramPlan(*result.program, target, diags);
    if (diags.hasErrors())
        return false;
    // Conditions whose guarded LPUs cannot read the data they test are decided by their own
    // space's stages, and Root `Repeat for` ranges reading task arrays by Root's
    // (semantic/plan/condition_stages.h), in a copy of the program parsed anew,
    // checked and planned again quietly (the first pass reported what the user wrote). Should
    // the copy not pass, the program stays as written and the backend refuses those conditions.
    if (semantic::decideConditionsInTheirSpace(*result.program, *result.plan, /*rewrite=*/false) > 0) {
        DiagnosticEngine quiet(sources);
        std::unique_ptr<ast::Program> decided = parseProgram(*result.file, sources, quiet);
        semantic::CheckedProgram checked;
        if (!quiet.hasErrors() && semantic::decideConditionsInTheirSpace(*decided, *result.plan, true) > 0 &&
            semantic::checkProgram(*decided, sources, quiet, checked)) {
            semantic::ProgramPlan plan = semantic::buildProgramPlan(*decided, target, quiet);
            if (!quiet.hasErrors()) {
                result.program = std::move(decided);
                result.checked = std::move(checked);
                result.plan = std::move(plan);
            }
        }
    }
    if (request.last == Stage::Plan)
        return true;
    // 5. C++ (needs the mapped plan).
    backend::BackendInput in;
    in.program = result.program.get();
    in.checked = &result.checked;
    in.plan = &*result.plan;
    in.machine = &result.target->machine;
    in.sources = &sources;
    in.programFile = request.program;
    in.machineFile = *request.machine;
    in.debug = request.debug;
    in.blas = request.blas;
    // Native code whose brackets do not pair up would break the C++ around it.
    const std::vector<backend::UnpairedBracket> unpaired = backend::unpairedNativeBrackets(*result.program);
    for (const backend::UnpairedBracket& u : unpaired)
        diags.error(DiagKind::NativeCodeError, SourceRange::at(u.at), "{}", u.message);
    if (!unpaired.empty())
        return false;
    // Everything the backend does not translate is refused here, all at once, before any C++.
    const std::vector<backend::Refusal> refused = backend::untranslatedConstructs(in);
    for (const backend::Refusal& r : refused) {
        SourceRange at = r.at.valid() ? r.at : SourceRange::at({*result.file, 1, 1});
        diags.error(DiagKind::BackendUnsupported, at, "this version of the itc backend does not translate {} ({}); {}",
                    r.construct, backend::limitKey(r.limit), backend::limitAdvice(r.limit));
    }
    if (!refused.empty())
        return false;
    backend::BackendOutput out = backend::emitProgram(in);
    result.cpp = std::move(out.cpp);
    result.callsBlas = out.callsBlas;
    return true;
}

std::string emitStage(Stage stage, const PipelineResult& result, const SourceManager& sources) {
    switch (stage) {
    case Stage::Tokens: {
        const std::string& text = sources.text(*result.file);
        std::string out;
        for (const LexedToken& t : lexTokens(text)) {
            std::string spelling;
            for (char c : std::string_view(text).substr(t.at.begin, t.at.end - t.at.begin))
                spelling += c == '\n' ? std::string("\\n") : c == '\t' ? std::string("\\t") : std::string(1, c);
            out += fmt::format("{}:{} {} `{}`\n", t.line, t.column, t.kind, spelling);
        }
        return out;
    }
    case Stage::Ast: return ast::printAst(*result.program);
    case Stage::Checked: return semantic::printCheckedProgram(result.checked);
    case Stage::Plan: return semantic::printProgramPlan(*result.plan);
    case Stage::Cpp: return result.cpp;
    }
    return {};
}

} // namespace itc::driver
