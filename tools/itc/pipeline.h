// The one pipeline of the itc driver: `check`, `plan` and `compile` all run the phases here,
// in this order, each only when the ones before it reported no error —
//   tokens -> AST (frontend) -> checked program (semantic/check) -> machine and mapping
//   (pcubes, when given) -> task plans (semantic/plan) -> C++ (backend).
// `--emit=STAGE` prints the result of one phase (emitStage).
#pragma once

#include "backend/backend.h"
#include "frontend/ast/ast.h"
#include "frontend/diagnostics/diagnostics.h"
#include "semantic/plan/task_plan.h"
#include "semantic/semantic.h"
#include "tools/itc/machine_check.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace itc::driver {

enum class Stage { Tokens, Ast, Checked, Plan, Cpp };

// "tokens", "ast", "checked", "plan", "cpp"; nullopt for anything else.
std::optional<Stage> stageByName(std::string_view name);
inline constexpr const char* kStageNames = "tokens|ast|checked|plan|cpp";

struct PipelineRequest {
    std::string program;                // FILE.it
    std::optional<std::string> mapping; // FILE.map (machine is then set too)
    std::optional<std::string> machine; // FILE.pcubes
    Stage last = Stage::Plan;           // the last phase to run (Cpp needs the mapping)
    bool debug = false;                 // backend: bounds checks naming IT lines
    bool blas = true;                   // backend: gemm/gemv stages call OpenBLAS (--no-blas)
};

struct PipelineResult {
    std::optional<FileId> file;
    std::unique_ptr<ast::Program> program;
    semantic::CheckedProgram checked;
    std::optional<MachineAndMapping> target;
    std::optional<semantic::ProgramPlan> plan;
    std::string cpp;
    bool callsBlas = false; // the C++ calls runtime/dense: link itrt_dense, OpenBLAS
};

// Runs the phases up to `request.last`. Returns false when a phase reported an error; every
// problem is in `diags` (the caller prints them and picks the exit code).
bool runPipeline(const PipelineRequest& request, SourceManager& sources, DiagnosticEngine& diags,
                 PipelineResult& result);

// The printed result of `stage` (which runPipeline has reached).
std::string emitStage(Stage stage, const PipelineResult& result, const SourceManager& sources);

} // namespace itc::driver
