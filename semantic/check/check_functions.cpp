// Functions: call graph, result counts, per-call-type instances (see check_functions.h).
#include "semantic/check/check_functions.h"

#include "semantic/check/ast_walk.h"
#include "semantic/check/body_checker.h"
#include "semantic/check/collect_symbols.h"

#include <fmt/format.h>

#include <functional>

namespace itc::semantic::check {

namespace {

std::string typeList(const std::vector<Type>& types) {
    std::string s;
    for (std::size_t i = 0; i < types.size(); ++i)
        s += (i ? ", " : "") + qt(types[i]);
    return "(" + s + ")";
}

// Checks one function body with the given parameter types; returns the instance.
FunctionInstance checkBody(CheckState& state, const ast::FunctionDef& fn, const std::vector<Type>& argTypes) {
    FunctionInstance inst;
    inst.function = &fn;
    inst.argTypes = argTypes;
    BodyChecker body(state, BodyKind::Function, nullptr, &inst.exprTypes);
    body.setFunction(&fn);
    Type resultType = Type::simple(TypeKind::Void);
    std::string resultName;
    if (fn.form == ast::FunctionDef::Form::Brace) {
        for (std::size_t i = 0; i < fn.params.size(); ++i) {
            Type t = i < argTypes.size() ? argTypes[i] : Type::error();
            body.declareParam(fn.params[i].name.text, t, fn.params[i].name.range);
            inst.locals[fn.params[i].name.text] = t;
        }
    } else {
        for (const auto& d : fn.arguments) {
            Type t = resolveDeclaredType(state, d.type);
            for (const auto& n : d.names) {
                body.declareParam(n.text, t, n.range);
                inst.locals[n.text] = t;
            }
        }
        for (const auto& d : fn.results) {
            Type t = resolveDeclaredType(state, d.type);
            for (const auto& n : d.names) {
                body.declareParam(n.text, t, n.range);
                inst.locals[n.text] = t;
                if (resultName.empty()) {
                    resultName = n.text;
                    resultType = t;
                }
            }
        }
    }
    body.checkBlock(fn.body);
    for (const auto& [n, t] : body.localTypes())
        inst.locals[n] = t;
    if (fn.form == ast::FunctionDef::Form::Brace) {
        const auto& rets = body.returns();
        for (std::size_t i = 0; i < rets.size(); ++i) {
            const Type& t = rets[i].first;
            if (t.isError()) {
                resultType = Type::error();
                continue;
            }
            if (resultType.kind == TypeKind::Void) {
                resultType = t;
                continue;
            }
            if (resultType.isError())
                continue;
            Type a = resultType, b = t;
            if (a.kind == TypeKind::RealLiteral && b.isReal()) {
                resultType = b;
                continue;
            }
            if (b.kind == TypeKind::RealLiteral && a.isReal())
                continue;
            if (a != b) {
                if (auto* d = state.rep.error(DiagKind::InconsistentReturnType, rets[i].second,
                                              fmt::format("this `return` gives {}, but an earlier "
                                                          "one gives {}; every `return` of {} must "
                                                          "give the same type",
                                                          qt(b), qt(a), q(fn.name.text))))
                    DiagnosticEngine::addNote(*d, rets[0].second, "earlier `return` here");
                resultType = Type::error();
            }
        }
        resultType = inferredLocalType(resultType);
    }
    inst.result = resultType;
    return inst;
}

} // namespace

void checkFunctionDeclarations(CheckState& state) {
    for (const ast::FunctionDef& fn : state.program.functions) {
        if (fn.form != ast::FunctionDef::Form::Paper)
            continue;
        std::size_t results = 0;
        for (const auto& d : fn.results)
            results += d.names.size();
        if (results != 1)
            state.rep.error(DiagKind::FunctionResultCount, fn.name.range,
                            fmt::format("function {} declares {} results; a function has exactly one "
                                        "result variable",
                                        q(fn.name.text), results));
        for (const auto& d : fn.arguments) {
            auto k = d.type.kind;
            if (k == ast::TypeKind::DynamicArray || k == ast::TypeKind::List || k == ast::TypeKind::TaskEnvironment)
                state.rep.error(DiagKind::InvalidFieldType, d.type.range,
                                "paper-form function arguments are passed by value and must have "
                                "static types");
        }
    }
    // The call graph: an edge f -> g for every call of g in f's body (guide: Functions).
    std::map<const ast::FunctionDef*, std::vector<std::pair<const ast::FunctionDef*, const ast::Call*>>> edges;
    for (const ast::FunctionDef& fn : state.program.functions) {
        auto self = state.functions.find(fn.name.text);
        if (self == state.functions.end() || self->second != &fn)
            continue;
        walkBlock(fn.body, [&](const ast::Expr& e) {
            if (auto* c = e.as<ast::Call>()) {
                auto it = state.functions.find(c->callee.text);
                if (it != state.functions.end())
                    edges[&fn].push_back({it->second, c});
            }
        });
    }
    std::map<const ast::FunctionDef*, int> mark;
    std::vector<const ast::FunctionDef*> stack;
    std::function<void(const ast::FunctionDef*)> dfs = [&](const ast::FunctionDef* f) {
        mark[f] = 1;
        stack.push_back(f);
        for (const auto& [g, call] : edges[f]) {
            if (mark[g] == 1) {
                std::string path;
                bool on = false;
                for (const ast::FunctionDef* s : stack) {
                    if (s == g)
                        on = true;
                    if (on) {
                        state.recursive.insert(s);
                        path += q(s->name.text) + " -> ";
                    }
                }
                path += q(g->name.text);
                if (auto* d =
                        state.rep.error(DiagKind::RecursiveFunction, call->range,
                                        g == f ? fmt::format("function {} calls itself; recursion is not allowed, "
                                                             "rewrite it with a loop",
                                                             q(f->name.text))
                                               : fmt::format("this call makes a cycle of function calls ({}); "
                                                             "recursion is not allowed, rewrite it with a loop",
                                                             path)))
                    DiagnosticEngine::addNote(*d, g->name.range, "function declared here");
            } else if (mark[g] == 0) {
                dfs(g);
            }
        }
        stack.pop_back();
        mark[f] = 2;
    };
    for (const ast::FunctionDef& fn : state.program.functions)
        if (mark[&fn] == 0 && edges.count(&fn))
            dfs(&fn);
}

Type instantiateFunction(CheckState& state, const ast::FunctionDef& fn, const std::vector<Type>& argTypes,
                         SourceRange callSite) {
    std::string key = "paper";
    if (fn.form == ast::FunctionDef::Form::Brace) {
        key.clear();
        for (const Type& t : argTypes) // an `args` value prints as String but is an instance of its own
            key += (t.kind == TypeKind::ArgValue ? std::string("args value") : typeName(t)) + ";";
    }
    auto k = std::make_pair(&fn, key);
    auto it = state.functionInstances.find(k);
    if (it != state.functionInstances.end())
        return state.out.functions[it->second].result;
    for (const ast::FunctionDef* f : state.functionStack)
        if (f == &fn)
            return Type::error(); // recursion: reported by the call graph
    state.functionStack.push_back(&fn);
    bool poly = fn.form == ast::FunctionDef::Form::Brace && !argTypes.empty();
    if (poly)
        state.rep.pushContext(callSite, fmt::format("in the instance of function {} called here with "
                                                    "argument types {}",
                                                    q(fn.name.text), typeList(argTypes)));
    FunctionInstance inst = checkBody(state, fn, argTypes);
    if (poly)
        state.rep.popContext();
    state.functionStack.pop_back();
    Type result = inst.result;
    state.functionInstances[k] = state.out.functions.size();
    state.out.functions.push_back(std::move(inst));
    return result;
}

namespace {

// The variable an assignment target or by-reference argument is rooted at, or null.
const ast::NameRef* locationRoot(const ast::Expr* e) {
    while (e) {
        if (auto* n = e->as<ast::NameRef>())
            return n;
        if (auto* s = e->as<ast::Subscript>())
            e = s->base.get();
        else if (auto* f = e->as<ast::FieldAccess>())
            e = f->base.get();
        else if (auto* p = e->as<ast::Property>())
            e = p->base.get();
        else if (auto* ep = e->as<ast::Epoch>())
            e = ep->operand.get();
        else
            return nullptr;
    }
    return nullptr;
}

std::optional<SourceRange> paramAssignment(const CheckState& state, const ast::FunctionDef& fn, std::size_t param,
                                           std::set<std::pair<const ast::FunctionDef*, std::size_t>>& seen) {
    if (fn.form != ast::FunctionDef::Form::Brace || param >= fn.params.size())
        return std::nullopt;
    if (!seen.insert({&fn, param}).second)
        return std::nullopt; // recursion: reported elsewhere
    const std::string& name = fn.params[param].name.text;
    std::optional<SourceRange> found;
    walkBlock(fn.body, [&](const ast::Expr& e) {
        if (found)
            return;
        if (auto* a = e.as<ast::Assign>()) {
            if (auto* r = locationRoot(a->target.get()); r && r->name == name)
                found = a->target->range;
            return;
        }
        auto* c = e.as<ast::Call>();
        if (!c)
            return;
        auto it = state.functions.find(c->callee.text);
        if (it == state.functions.end() || it->second->form != ast::FunctionDef::Form::Brace)
            return;
        const ast::FunctionDef& callee = *it->second;
        for (std::size_t i = 0; i < c->args.size() && i < callee.params.size() && !found; ++i) {
            if (!callee.params[i].byReference || !c->args[i].value)
                continue;
            auto* r = locationRoot(c->args[i].value.get());
            if (r && r->name == name)
                found = paramAssignment(state, callee, i, seen);
        }
    });
    return found;
}

} // namespace

std::optional<SourceRange> referenceParamAssignment(const CheckState& state, const ast::FunctionDef& fn,
                                                    std::size_t param) {
    std::set<std::pair<const ast::FunctionDef*, std::size_t>> seen;
    return paramAssignment(state, fn, param, seen);
}

void checkUncalledFunctions(CheckState& state) {
    std::set<const ast::FunctionDef*> called;
    for (const auto& [k, index] : state.functionInstances)
        called.insert(k.first);
    for (const ast::FunctionDef& fn : state.program.functions) {
        auto self = state.functions.find(fn.name.text);
        if (self == state.functions.end() || self->second != &fn || called.count(&fn))
            continue;
        if (fn.form == ast::FunctionDef::Form::Paper) {
            instantiateFunction(state, fn, {}, fn.name.range);
            continue;
        }
        // Untyped parameters: check names and placement rules only.
        std::vector<Type> errs(fn.params.size(), Type::error());
        state.functionStack.push_back(&fn);
        checkBody(state, fn, errs);
        state.functionStack.pop_back();
    }
}

} // namespace itc::semantic::check
