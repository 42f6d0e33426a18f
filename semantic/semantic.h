// Public entry point of semantic checking (names, types, task/function/flow rules of
// the language guide) and the plain-data result that later phases read. It never
// modifies the AST; every pointer in CheckedProgram points into the checked ast::Program,
// which must outlive it.
#pragma once

#include "frontend/ast/ast.h"
#include "frontend/diagnostics/diagnostics.h"
#include "semantic/types/type.h"

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace itc::semantic {

// Expression types of one body (or one instance of a polymorphic body).
using ExprTypes = std::unordered_map<const ast::Expr*, Type>;

// A variable with a resolved type: task-global, local, parameter.
struct VarInfo {
    std::string name;
    Type type;
    SourceRange declared; // where it was declared or first assigned
};

struct GlobalInfo {
    std::string name;
    Type type; // for `T Reduction`, T
    bool isReduction = false;
    bool environmental = false;
    ast::LinkMode mode = ast::LinkMode::Link; // meaningful when environmental
    SourceRange declared;
};

// How one stage parameter is bound at one call site.
struct ParamBinding {
    Type type;
    bool constant = false;     // bound to a literal or `partition.p`: must not be assigned
    std::string literalString; // bound to a string literal (reduction operators)
    bool isStringLiteral = false;
    std::string spaceTarget; // bound to `Space X: v`: X ("Root" allowed); empty otherwise
    std::string rootGlobal;  // the task-global the argument is rooted at, if any
    bool operator==(const ParamBinding&) const = default;
};

struct StageInstance {
    const ast::StageDef* stage = nullptr;
    std::vector<ParamBinding> params;         // one per stage parameter
    std::string space;                        // the LPS it is invoked from: a letter, or "Root"
    std::vector<const ast::StageCall*> calls; // every call site using this instance
    std::map<std::string, Type> locals;       // stage locals (loop indices included) and their types
    ExprTypes exprTypes;                      // types of the expressions of the body in this instance
    bool usesEpoch = false;                   // some `at (current ...)` inside
    std::vector<std::string> globalsUsed;     // task-globals named in the body (not via parameters)
};

struct TaskInfo {
    const ast::TaskDef* task = nullptr;
    std::vector<GlobalInfo> globals;              // in Define order
    std::map<std::string, Type> initializeLocals; // Initialize locals and non-global parameters
    std::vector<StageInstance> stageInstances;
    std::map<std::string, std::string> spaceParent; // LPS letter -> parent letter or "Root"
};

struct FunctionInstance {
    const ast::FunctionDef* function = nullptr;
    std::vector<Type> argTypes;
    Type result;                        // Void when the function returns nothing
    std::map<std::string, Type> locals; // parameters and locals
    ExprTypes exprTypes;
};

struct ClassInfo {
    const ast::ClassDef* def = nullptr;
    std::vector<VarInfo> fields; // declaration order
};

struct CheckedProgram {
    std::map<std::string, ClassInfo> classes;
    std::vector<TaskInfo> tasks;             // source order
    std::vector<FunctionInstance> functions; // every instantiation that was needed
    std::map<std::string, Type> coordinatorLocals;
    // Types of the expressions of non-polymorphic code: the coordinator, Initialize sections,
    // Computation sections and paper-form functions. Stage and brace-form function bodies
    // are typed per instance (StageInstance::exprTypes, FunctionInstance::exprTypes).
    ExprTypes exprTypes;

    const TaskInfo* findTask(const std::string& name) const;
};

// Checks `program` (which parsed without syntax errors). Reports every semantic error to
// `diags`, at most one per mistake, and fills `out`. Returns true when no error was reported.
bool checkProgram(const ast::Program& program, const SourceManager& sources, DiagnosticEngine& diags,
                  CheckedProgram& out);

} // namespace itc::semantic
