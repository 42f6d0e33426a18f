// Reporter de-duplication and the small helpers shared by the check passes (see context.h).
#include "semantic/check/context.h"

#include "semantic/builtins/builtins.h"

#include <algorithm>

namespace itc::semantic::check {

Diagnostic* Reporter::error(DiagKind kind, SourceRange range, std::string message) {
    return report(kind, range, std::move(message), Severity::Error);
}

Diagnostic* Reporter::warning(DiagKind kind, SourceRange range, std::string message) {
    return report(kind, range, std::move(message), Severity::Warning);
}

Diagnostic* Reporter::report(DiagKind kind, SourceRange range, std::string message, Severity severity) {
    auto key = std::make_tuple(static_cast<int>(kind), range.begin.file, range.begin.line, range.begin.column);
    if (!seen_.insert(key).second)
        return nullptr;
    Diagnostic& d = diags_.report(kind, range, std::move(message), severity);
    for (auto it = context_.rbegin(); it != context_.rend(); ++it)
        d.notes.push_back(*it);
    return &d;
}

bool TaskSym::isAncestorOrSelf(const std::string& ancestor, std::string space) const {
    for (int guard = 0; guard < 64; ++guard) {
        if (space == ancestor)
            return true;
        if (space == "Root")
            return false;
        auto it = spaces.find(space);
        if (it == spaces.end())
            return false;
        space = it->second.parent;
    }
    return false;
}

bool TaskSym::parentsKnown(std::string space) const {
    for (int guard = 0; guard < 64 && space != "Root"; ++guard) {
        auto it = spaces.find(space);
        if (it == spaces.end())
            return true;
        if (it->second.parentUnknown)
            return false;
        space = it->second.parent;
    }
    return true;
}

const std::vector<VarInfo>* CheckState::classFields(const std::string& name) const {
    static const std::vector<VarInfo> rangeFields = {{"min", Type::integer(), {}}, {"max", Type::integer(), {}}};
    if (name == "Range")
        return &rangeFields;
    auto it = out.classes.find(name);
    return it == out.classes.end() ? nullptr : &it->second.fields;
}

bool isIoBuiltin(const std::string& name) { return isBuiltinOf(name, BuiltinFamily::Io); }

const std::vector<std::string>& builtinFunctionNames() {
    static const std::vector<std::string> names(builtinSpellings().begin(), builtinSpellings().end());
    return names;
}

bool isBuiltinFunction(const std::string& name) { return builtinNamed(name).has_value(); }

} // namespace itc::semantic::check
