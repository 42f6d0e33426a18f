// The task-globals of one task (Define + Environment) as a lookup table: kind, array
// dimensionality, Reduction qualifier and environment mode. No checks: duplicate names and bad
// types are part A's diagnostics (semantic/check/); the first declaration wins here.
#pragma once

#include "frontend/ast/ast.h"

#include <map>
#include <optional>
#include <string>

namespace itc::semantic {

struct TaskGlobal {
    enum class Kind { Scalar, Array, List, Object } kind = Kind::Scalar;
    std::string name;
    int dims = 0; // arrays: dynamic dimensionality or number of static lengths
    bool isReduction = false;
    std::optional<ast::LinkMode> environment; // set for environmental items
    bool initializeParameter = false;         // an Initialize parameter: `execute` may give it its content
    SourceRange declared;
    bool isArray() const { return kind == Kind::Array; }
};

struct TaskGlobals {
    std::map<std::string, TaskGlobal> byName;
    const TaskGlobal* find(const std::string& name) const {
        auto it = byName.find(name);
        return it == byName.end() ? nullptr : &it->second;
    }
};

TaskGlobals collectTaskGlobals(const ast::TaskDef& task);

} // namespace itc::semantic
