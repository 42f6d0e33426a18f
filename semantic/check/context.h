// Shared state of the semantic check passes: the program-wide symbol tables built by
// collect_symbols, the de-duplicating reporter, and the output under construction.
// It holds no rules itself; each pass (one per .h/.cpp pair in this folder) applies its own.
#pragma once

#include "frontend/ast/ast.h"
#include "frontend/diagnostics/diagnostics.h"
#include "semantic/semantic.h"
#include "semantic/types/type.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace itc::semantic::check {

// Reports diagnostics at most once per (kind, location), and attaches the notes of the
// instantiation context (e.g. "in stage `s` called here with ...") to each.
class Reporter {
public:
    explicit Reporter(DiagnosticEngine& diags) : diags_(diags) {}
    // Returns null when an identical diagnostic was already reported.
    Diagnostic* error(DiagKind kind, SourceRange range, std::string message);
    // The same, as a warning (the program is still accepted).
    Diagnostic* warning(DiagKind kind, SourceRange range, std::string message);
    void pushContext(SourceRange range, std::string note) { context_.push_back({range, std::move(note)}); }
    void popContext() { context_.pop_back(); }
    std::size_t errorCount() const { return diags_.errorCount(); }
    DiagnosticEngine& diagnostics() { return diags_; }

private:
    Diagnostic* report(DiagKind kind, SourceRange range, std::string message, Severity severity);
    DiagnosticEngine& diags_;
    std::set<std::tuple<int, FileId, std::uint32_t, std::uint32_t>> seen_;
    std::vector<DiagnosticNote> context_;
};

struct GlobalSym {
    Type type;
    bool isReduction = false;
    bool environmental = false;
    ast::LinkMode mode = ast::LinkMode::Link;
    SourceRange declared;
};

struct SpaceSym {
    const ast::SpaceConfig* config = nullptr;
    std::string parent = "Root"; // letter, or "Root"
    bool unpartitioned = false;
    bool hasSubpartition = false;
    bool dividesSubpartitions = false;
    // `divides` names the space itself, no declared space or a later one (reportSpaceParents), and
    // the flow raises no follow-on error about where the space is entered.
    bool parentUnknown = false;
    std::set<std::string> subpartitionedArrays;
};

// What checking one stage instance found out, for the flow rules (guide: The Computation section).
struct StageFacts {
    std::optional<SourceRange> epochUse; // first `at (current - n)`, n >= 1
    std::optional<SourceRange> lpuIdUse; // first `lpuId`
    // The largest constant entry read, `lpuId[1]`, and where: the space invoking the stage must
    // have more dimensions than that.
    std::optional<std::pair<std::int64_t, SourceRange>> lpuIdEntry;
    std::set<std::string> globalsUsed;           // task-globals named directly in the body
    std::set<std::size_t> reductionTargetParams; // parameters that are statement-reduction targets
    bool hadErrors = false;                      // the instance reported errors of its own
};

struct TaskSym {
    const ast::TaskDef* def = nullptr;
    // Another task has the same name (DuplicateTask): which one the coordinator means is unknown,
    // so its uses there raise no follow-on errors.
    bool duplicated = false;
    std::size_t outIndex = 0; // index into CheckedProgram::tasks
    std::map<std::string, GlobalSym> globals;
    std::map<std::string, const ast::StageDef*> stages;
    std::map<std::string, SpaceSym> spaces;
    std::vector<std::string> partitionParams;
    // Types of the `initialize:` arguments of the first execute of this task, by position
    // (used to type Initialize parameters that match no task-global, guide: Types).
    std::optional<std::vector<Type>> initializeArgTypes;
    // Parallel to CheckedProgram::tasks[outIndex].stageInstances.
    std::vector<StageFacts> instanceFacts;

    bool isAncestorOrSelf(const std::string& ancestor, std::string space) const;
    // No space from `space` up to Root has a wrong `divides` clause (SpaceSym::parentUnknown):
    // rules about ancestors hold only then.
    bool parentsKnown(std::string space) const;
};

struct CheckState {
    CheckState(const ast::Program& p, DiagnosticEngine& d, CheckedProgram& o) : program(p), rep(d), out(o) {}
    const ast::Program& program;
    Reporter rep;
    CheckedProgram& out;

    std::map<std::string, const ast::ClassDef*> classes;
    std::map<std::string, const ast::FunctionDef*> functions;
    std::map<std::string, TaskSym> tasks;
    const ast::Coordinator* coordinator = nullptr;

    // Function instances: (function, argument type names) -> index into out.functions.
    std::map<std::pair<const ast::FunctionDef*, std::string>, std::size_t> functionInstances;
    std::vector<const ast::FunctionDef*> functionStack; // instantiations in progress
    std::set<const ast::FunctionDef*> recursive;        // reported by the call-graph check
    // Undefined names already reported in a task's stages, Initialize or Computation: one
    // message per name and task.
    std::set<std::pair<const TaskSym*, std::string>> unknownInTask;
    std::set<std::pair<const TaskSym*, std::string>> unknownEnvironmentItems; // reported once each

    const TaskSym* findTask(const std::string& name) const {
        auto it = tasks.find(name);
        return it == tasks.end() ? nullptr : &it->second;
    }
    // The fields of a class (Range included), or null.
    const std::vector<VarInfo>* classFields(const std::string& name) const;
};

// Built-in functions callable from code bodies (guide: The coordinator, Lists).
bool isBuiltinFunction(const std::string& name);
const std::vector<std::string>& builtinFunctionNames(); // every name isBuiltinFunction accepts
bool isIoBuiltin(const std::string& name);              // bind_input, bind_output, load, store

// Wraps a name in backticks.
inline std::string q(const std::string& s) { return "`" + s + "`"; }
inline std::string qt(const Type& t) { return "`" + typeName(t) + "`"; }

} // namespace itc::semantic::check
