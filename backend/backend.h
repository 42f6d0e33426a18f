// The backend: a checked IT program with its task plans, mapping and machine model in, one
// C++ translation unit out (formatted with clang's libFormat, commented with the IT source
// lines it comes from, deterministic names). Only the backend knows C++ syntax. The constructs
// it does not translate are found first by its capability check (capability.h); nothing here
// prints, builds or exits (tools/itc does).
#pragma once

#include "frontend/ast/ast.h"
#include "frontend/source_manager.h"
#include "semantic/plan/task_plan.h"
#include "semantic/semantic.h"

#include <stdexcept>
#include <string>

namespace itc::pcubes {
struct MachineModel;
}

namespace itc::backend {

struct BackendInput {
    const ast::Program* program = nullptr;
    const semantic::CheckedProgram* checked = nullptr;
    const semantic::ProgramPlan* plan = nullptr; // built with the mapping and machine
    const pcubes::MachineModel* machine = nullptr;
    const SourceManager* sources = nullptr;
    std::string programFile; // for comments
    std::string machineFile; // for run-time messages
    bool debug = false;      // bounds checks naming the IT source line
    // Stages semantic/idiom recognises as gemm/gemv call runtime/dense (OpenBLAS), the loops
    // kept as the fallback; false (`itc compile --no-blas`) emits only the loops.
    bool blas = true;
};

struct BackendOutput {
    std::string cpp;        // the whole program, formatted
    bool callsBlas = false; // some stage calls runtime/dense: link itrt_dense and OpenBLAS
};

// Returns the whole generated program (prologue template + emitted code + main template),
// formatted, and whether it calls the dense kernels. Requires untranslatedConstructs(in) to be
// empty (capability.h); throws std::logic_error for internal errors.
BackendOutput emitProgram(const BackendInput& in);

// Formats C++ text with clang libFormat (LLVM-based style); returns the input on failure.
std::string formatCpp(const std::string& code, const std::string& fileName);

// The version of LLVM whose clang libFormat formats the generated C++ (for `itc --version`).
std::string llvmVersion();

// The fixed parts of every generated program, embedded from backend/templates/ at build time.
const char* prologueTemplate();
const char* mainTemplate();

} // namespace itc::backend
