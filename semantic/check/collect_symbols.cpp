// Pass 1: program-wide symbols (see collect_symbols.h).
#include "semantic/check/collect_symbols.h"

#include "frontend/diagnostics/did_you_mean.h"
#include "semantic/partition/analyze_partition.h"

#include <fmt/format.h>

#include <functional>
#include <regex>

namespace itc::semantic::check {

namespace {

bool mentionsUnknownClass(CheckState& state, const ast::TypeExpr& t) {
    if (t.kind == ast::TypeKind::Class) {
        if (!state.classes.count(t.className)) {
            if (std::string meant = itTypeFor(t.className); !meant.empty()) {
                state.rep.error(DiagKind::UnknownClass, t.range,
                                fmt::format("{} is not an IT type; write `{}`", q(t.className), meant));
                return true;
            }
            // A misspelled built-in type also parses as a class name.
            std::vector<std::string> types = namesOf(state.classes);
            types.insert(types.end(), {"Integer", "Character", "Boolean", "String", "Range", "Real", "Array", "List",
                                       "TaskEnvironment"});
            state.rep.error(DiagKind::UnknownClass, t.range,
                            fmt::format("no class named {} is defined; {}declare it with `Class {}:` "
                                        "or use a built-in type",
                                        q(t.className), didYouMeanOtherwise(t.className, types), t.className));
            return true;
        }
        return false;
    }
    return t.element && mentionsUnknownClass(state, *t.element);
}

bool isStaticType(const ast::TypeExpr& t) {
    switch (t.kind) {
    case ast::TypeKind::DynamicArray:
    case ast::TypeKind::List:
    case ast::TypeKind::TaskEnvironment: return false;
    case ast::TypeKind::StaticArray: return t.element && isStaticType(*t.element);
    default: return true;
    }
}

void collectClasses(CheckState& state) {
    for (const ast::ClassDef& c : state.program.classes) {
        auto [it, fresh] = state.classes.emplace(c.name.text, &c);
        if (!fresh) {
            if (auto* d = state.rep.error(DiagKind::DuplicateClass, c.name.range,
                                          fmt::format("class {} is defined twice; rename one of them", q(c.name.text))))
                DiagnosticEngine::addNote(*d, it->second->name.range, "first defined here");
        }
    }
    for (const ast::ClassDef& c : state.program.classes) {
        if (state.classes[c.name.text] != &c)
            continue;
        ClassInfo info;
        info.def = &c;
        std::map<std::string, SourceRange> seen;
        for (const ast::VarDecl& decl : c.fields) {
            Type t = Type::error();
            if (!mentionsUnknownClass(state, decl.type)) {
                if (!isStaticType(decl.type) || decl.isReduction) {
                    state.rep.error(DiagKind::InvalidFieldType, decl.type.range,
                                    fmt::format("class fields must have static types (primitives, "
                                                "`Range`, classes, static arrays); use a static "
                                                "array such as `Array[4] of Integer`"));
                } else {
                    t = typeFromAst(decl.type);
                }
            }
            for (const ast::Name& n : decl.names) {
                // `obj.range`, `obj.local`, `obj.dimension2` always read dimension attributes.
                static const std::regex attribute("range|local|dimension[0-9]*");
                if (std::regex_match(n.text, attribute)) {
                    state.rep.error(DiagKind::FieldNamedLikeAttribute, n.range,
                                    fmt::format("a field cannot be named {}: `.{}` reads a dimension attribute, "
                                                "so the field could never be read; choose another name",
                                                q(n.text), n.text));
                }
                auto [sit, sfresh] = seen.emplace(n.text, n.range);
                if (!sfresh) {
                    if (auto* d = state.rep.error(
                            DiagKind::DuplicateVariable, n.range,
                            fmt::format("field {} is declared twice in class {}", q(n.text), q(c.name.text))))
                        DiagnosticEngine::addNote(*d, sit->second, "first declared here");
                    continue;
                }
                info.fields.push_back({n.text, t, n.range});
            }
        }
        state.out.classes[c.name.text] = std::move(info);
    }
    // A class may not contain itself, directly or indirectly (guide: Types). Each cycle is reported
    // once, at the field of the first class (in source order) that starts it.
    std::map<std::string, int> mark;                       // 0 unvisited, 1 on the path, 2 done
    std::vector<std::pair<std::string, SourceRange>> path; // class, field leading onward
    std::function<void(const std::string&)> visit = [&](const std::string& cls) {
        mark[cls] = 1;
        auto it = state.out.classes.find(cls);
        if (it != state.out.classes.end()) {
            for (const ast::VarDecl& decl : it->second.def->fields) {
                const ast::TypeExpr* t = &decl.type;
                while (t->kind == ast::TypeKind::StaticArray && t->element)
                    t = t->element.get();
                if (t->kind != ast::TypeKind::Class || !state.classes.count(t->className))
                    continue;
                path.push_back({cls, decl.type.range});
                int m = mark[t->className];
                if (m == 1) {
                    std::size_t start = 0;
                    while (path[start].first != t->className)
                        ++start;
                    std::string chain;
                    for (std::size_t i = start; i < path.size(); ++i)
                        chain += q(path[i].first) + " -> ";
                    chain += q(t->className);
                    state.rep.error(DiagKind::RecursiveClass, path[start].second,
                                    path.size() - start == 1
                                        ? fmt::format("class {} contains itself through this field; "
                                                      "a class may not contain itself",
                                                      q(t->className))
                                        : fmt::format("class {} contains itself through this field "
                                                      "({}); a class may not contain itself, directly "
                                                      "or indirectly",
                                                      q(t->className), chain));
                } else if (m == 0) {
                    visit(t->className);
                }
                path.pop_back();
            }
        }
        mark[cls] = 2;
    };
    for (const ast::ClassDef& c : state.program.classes)
        if (mark[c.name.text] == 0)
            visit(c.name.text);
}

void collectFunctions(CheckState& state) {
    for (const ast::FunctionDef& f : state.program.functions) {
        if (isBuiltinFunction(f.name.text)) {
            state.rep.error(DiagKind::DuplicateFunction, f.name.range,
                            fmt::format("{} is a built-in function and cannot be redefined; choose "
                                        "another name",
                                        q(f.name.text)));
            continue;
        }
        auto [it, fresh] = state.functions.emplace(f.name.text, &f);
        if (!fresh) {
            if (auto* d = state.rep.error(DiagKind::DuplicateFunction, f.name.range,
                                          fmt::format("function {} is defined twice; rename one "
                                                      "of them",
                                                      q(f.name.text))))
                DiagnosticEngine::addNote(*d, it->second->name.range, "first defined here");
        }
        // A name twice among the parameters (or twice among the arguments, or the results, of
        // the colon form; an argument may also be a result, which makes it in-out).
        auto once = [&](std::map<std::string, SourceRange>& seen, const ast::Name& n, const char* what) {
            auto [pit, pfresh] = seen.emplace(n.text, n.range);
            if (!pfresh)
                if (auto* d = state.rep.error(DiagKind::DuplicateVariable, n.range,
                                              fmt::format("{} {} appears twice in function {}; rename one of them",
                                                          what, q(n.text), q(f.name.text))))
                    DiagnosticEngine::addNote(*d, pit->second, "first declared here");
        };
        std::map<std::string, SourceRange> params, arguments, results;
        for (const ast::FunctionParam& p : f.params)
            once(params, p.name, "parameter");
        for (const ast::VarDecl& v : f.arguments)
            for (const ast::Name& n : v.names)
                once(arguments, n, "argument");
        for (const ast::VarDecl& v : f.results)
            for (const ast::Name& n : v.names)
                once(results, n, "result");
    }
}

void collectTask(CheckState& state, const ast::TaskDef& task, TaskSym& sym) {
    TaskInfo& info = state.out.tasks[sym.outIndex];
    std::map<std::string, SourceRange> seen;
    for (const ast::VarDecl& decl : task.define) {
        Type t = resolveDeclaredType(state, decl.type);
        // A reduction combines one value per LPU with a scalar operator (`sum`, `max`, `land`...).
        if (decl.isReduction && !t.isError() && !(t.isNumeric() || t.kind == TypeKind::Boolean)) {
            state.rep.error(DiagKind::ReductionType, decl.type.range,
                            fmt::format("a `Reduction` variable is a number, a Character or a Boolean, not {}; "
                                        "declare a scalar `Reduction` (`total: Integer Reduction`) for each value "
                                        "the LPUs combine",
                                        q(typeName(t))));
            t = Type::error();
        }
        for (const ast::Name& n : decl.names) {
            auto [it, fresh] =
                sym.globals.emplace(n.text, GlobalSym{t, decl.isReduction, false, ast::LinkMode::Link, n.range});
            if (!fresh) {
                if (auto* d = state.rep.error(DiagKind::DuplicateVariable, n.range,
                                              fmt::format("task-global {} is defined twice in "
                                                          "task \"{}\"",
                                                          q(n.text), task.name.text)))
                    DiagnosticEngine::addNote(*d, it->second.declared, "first defined here");
            }
        }
    }
    std::map<std::string, SourceRange> listed;
    for (const ast::Linkage& link : task.environment) {
        for (const ast::Name& n : link.names) {
            auto it = sym.globals.find(n.text);
            if (it == sym.globals.end()) {
                state.rep.error(DiagKind::EnvironmentNotGlobal, n.range,
                                fmt::format("{} is listed in Environment but not defined in "
                                            "Define; declare it there first",
                                            q(n.text)));
                // An erroneous environmental global silences every later use of the name.
                sym.globals.emplace(n.text, GlobalSym{Type::error(), false, true, link.mode, n.range});
                continue;
            }
            auto [lit, fresh] = listed.emplace(n.text, n.range);
            if (!fresh) {
                if (auto* d = state.rep.error(DiagKind::DuplicateVariable, n.range,
                                              fmt::format("{} is listed twice in Environment", q(n.text))))
                    DiagnosticEngine::addNote(*d, lit->second, "first listed here");
                continue;
            }
            it->second.environmental = true;
            it->second.mode = link.mode;
        }
    }
    for (const ast::VarDecl& decl : task.define)
        for (const ast::Name& n : decl.names) {
            auto it = sym.globals.find(n.text);
            if (it == sym.globals.end() || it->second.declared.begin != n.range.begin)
                continue;
            info.globals.push_back(
                {n.text, it->second.type, it->second.isReduction, it->second.environmental, it->second.mode, n.range});
        }

    for (const ast::StageDef& st : task.stages) {
        auto [it, fresh] = sym.stages.emplace(st.name.text, &st);
        if (!fresh) {
            if (auto* d = state.rep.error(
                    DiagKind::DuplicateStage, st.name.range,
                    fmt::format("stage {} is defined twice in task \"{}\"", q(st.name.text), task.name.text)))
                DiagnosticEngine::addNote(*d, it->second->name.range, "first defined here");
        }
        std::map<std::string, SourceRange> ps;
        for (const ast::Name& p : st.params) {
            auto [pit, pfresh] = ps.emplace(p.text, p.range);
            if (!pfresh)
                if (auto* d = state.rep.error(
                        DiagKind::DuplicateVariable, p.range,
                        fmt::format("parameter {} appears twice in stage {}", q(p.text), q(st.name.text))))
                    DiagnosticEngine::addNote(*d, pit->second, "first declared here");
        }
    }

    for (const ast::Name& p : task.partition.params)
        sym.partitionParams.push_back(p.text);
    reportSpaceParents(task.partition, state.rep.diagnostics());
    for (const ast::SpaceConfig& sc : task.partition.spaces) {
        SpaceSym s;
        s.config = &sc;
        s.parent = sc.parent ? sc.parent->text : "Root";
        s.unpartitioned = sc.unpartitioned;
        s.hasSubpartition = sc.subpartition.has_value();
        s.dividesSubpartitions = sc.parent && sc.dividesSubpartitions;
        if (sc.subpartition)
            for (const ast::DataConfig& dc : sc.subpartition->configs)
                for (const ast::VarSelector& v : dc.variables)
                    s.subpartitionedArrays.insert(v.variable.text);
        sym.spaces.emplace(sc.space.text, std::move(s)); // duplicates are partition analysis's
    }
    // A parent that is not declared, declared later, or the space itself (reported above): the space divides
    // Root, as the LPS tree takes it, and the flow raises no follow-on error about it.
    std::map<std::string, std::size_t> position;
    for (std::size_t i = 0; i < task.partition.spaces.size(); ++i)
        position.emplace(task.partition.spaces[i].space.text, i);
    for (auto& [letter, s] : sym.spaces)
        if (s.parent != "Root" &&
            (s.parent == letter || !sym.spaces.count(s.parent) || position[s.parent] > position[letter])) {
            s.parent = "Root";
            s.parentUnknown = true;
        }
    for (const auto& [letter, s] : sym.spaces)
        info.spaceParent[letter] = s.parent;
}

} // namespace

Type resolveDeclaredType(CheckState& state, const ast::TypeExpr& type) {
    if (mentionsUnknownClass(state, type))
        return Type::error();
    return typeFromAst(type);
}

void collectSymbols(CheckState& state) {
    const ast::Program& p = state.program;
    if (p.coordinators.empty()) {
        SourceRange where;
        where.begin = {p.file, 1, 1};
        where.end = where.begin;
        state.rep.error(DiagKind::MissingCoordinator, where,
                        "the program has no coordinator; add `Program (args) { ... }`, which "
                        "runs the tasks");
    } else {
        state.coordinator = &p.coordinators.front();
        for (std::size_t i = 1; i < p.coordinators.size(); ++i) {
            SourceRange r = p.coordinators[i].range;
            r.end = r.begin;
            if (auto* d = state.rep.error(DiagKind::DuplicateCoordinator, r,
                                          "the program has a second coordinator; keep exactly one "
                                          "`Program (args) { ... }`"))
                DiagnosticEngine::addNote(*d, SourceRange{p.coordinators[0].range.begin, p.coordinators[0].range.begin},
                                          "first coordinator here");
        }
    }
    collectClasses(state);
    collectFunctions(state);
    for (const ast::TaskDef& t : p.tasks) {
        auto it = state.tasks.find(t.name.text);
        if (it != state.tasks.end()) {
            if (auto* d = state.rep.error(DiagKind::DuplicateTask, t.name.range,
                                          fmt::format("task \"{}\" is defined twice; task names "
                                                      "must be unique",
                                                      t.name.text)))
                DiagnosticEngine::addNote(*d, it->second.def->name.range, "first defined here");
            it->second.duplicated = true;
            continue;
        }
        TaskSym& sym = state.tasks[t.name.text];
        sym.def = &t;
        sym.outIndex = state.out.tasks.size();
        state.out.tasks.emplace_back();
        state.out.tasks.back().task = &t;
        collectTask(state, t, sym);
    }
}

} // namespace itc::semantic::check
