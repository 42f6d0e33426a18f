// Prints a CheckedProgram; see print_checked.h.
#include "semantic/check/print_checked.h"

#include <fmt/format.h>

namespace itc::semantic {
namespace {

const char* modeName(ast::LinkMode m) {
    switch (m) {
    case ast::LinkMode::Link: return "link";
    case ast::LinkMode::Create: return "create";
    case ast::LinkMode::LinkOrCreate: return "link-or-create";
    }
    return "?";
}

std::string locals(const std::map<std::string, Type>& vars) {
    std::string out;
    for (const auto& [name, type] : vars)
        out += fmt::format("{}{}: {}", out.empty() ? "" : ", ", name, typeName(type));
    return out.empty() ? "none" : out;
}

std::string binding(const std::string& param, const ParamBinding& b) {
    std::string s = fmt::format("{}: {}", param, typeName(b.type));
    if (!b.spaceTarget.empty())
        s += fmt::format(" (into Space {})", b.spaceTarget);
    if (b.isStringLiteral)
        s += fmt::format(" = \"{}\"", b.literalString);
    else if (b.constant)
        s += " (constant)";
    if (!b.rootGlobal.empty())
        s += fmt::format(" <- {}", b.rootGlobal);
    return s;
}

} // namespace

std::string printCheckedProgram(const CheckedProgram& checked) {
    std::string out = "Checked program\n";
    for (const auto& [name, cls] : checked.classes) {
        out += fmt::format("  Class {}\n", name);
        for (const VarInfo& f : cls.fields)
            out += fmt::format("    {}: {}\n", f.name, typeName(f.type));
    }
    for (const FunctionInstance& f : checked.functions) {
        std::string args;
        for (const Type& t : f.argTypes)
            args += (args.empty() ? "" : ", ") + typeName(t);
        out += fmt::format("  Function {}({}) -> {}\n", f.function->name.text, args, typeName(f.result));
        out += fmt::format("    locals: {}\n", locals(f.locals));
    }
    for (const TaskInfo& t : checked.tasks) {
        out += fmt::format("  Task \"{}\"\n", t.task->name.text);
        for (const GlobalInfo& g : t.globals) {
            out += fmt::format("    global {}: {}{}", g.name, typeName(g.type), g.isReduction ? " Reduction" : "");
            out += g.environmental ? fmt::format(" (environment, {})\n", modeName(g.mode)) : "\n";
        }
        if (!t.initializeLocals.empty())
            out += fmt::format("    Initialize locals: {}\n", locals(t.initializeLocals));
        for (const auto& [space, parent] : t.spaceParent)
            out += fmt::format("    Space {} under {}\n", space, parent);
        for (const StageInstance& s : t.stageInstances) {
            out += fmt::format("    stage {} in Space {}, {} call{}{}\n", s.stage->name.text, s.space, s.calls.size(),
                               s.calls.size() == 1 ? "" : "s", s.usesEpoch ? ", uses epochs" : "");
            for (std::size_t i = 0; i < s.params.size() && i < s.stage->params.size(); ++i)
                out += fmt::format("      param {}\n", binding(s.stage->params[i].text, s.params[i]));
            out += fmt::format("      locals: {}\n", locals(s.locals));
            if (!s.globalsUsed.empty()) {
                std::string used;
                for (const std::string& g : s.globalsUsed)
                    used += (used.empty() ? "" : ", ") + g;
                out += fmt::format("      task-globals used directly: {}\n", used);
            }
        }
    }
    out += fmt::format("  Coordinator locals: {}\n", locals(checked.coordinatorLocals));
    return out;
}

} // namespace itc::semantic
