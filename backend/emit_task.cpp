// Tasks: one C++ namespace per task with its task-globals, one function per stage instance
// (tight loops over the LPU's part through View), and run(), which declares the arrays,
// runs Initialize, describes the spaces for the launch and walks the flow in lock step over
// the LPUs of each space, inserting the synchronisations of the plan (padding refresh at
// Space exits, cross-LPU reductions after the reducing stage, epoch shifts).
#include "backend/held_part_uses.h"
#include "backend/task_emitter.h"
#include "frontend/ast/ast_visitor.h"
#include "semantic/check/ast_walk.h"
#include "semantic/idiom/dense_idiom.h"
#include "semantic/usage/expr_text.h"

#include <algorithm>
#include <regex>
#include <tuple>

namespace itc::backend {

using semantic::TypeKind;

namespace {

// The runtime enumerator of an IT operator name or alias (runtime/engine/reduce_ops.def).
std::string reduceOpName(const std::string& op) {
    static const std::map<std::string, std::string> enumerators = {
#define ITRT_REDUCE_OP(enumerator, name, kind) {name, #enumerator},
#define ITRT_REDUCE_ALIAS(alias, enumerator) {alias, #enumerator},
#include "runtime/engine/reduce_ops.def"
#undef ITRT_REDUCE_ALIAS
#undef ITRT_REDUCE_OP
    };
    auto it = enumerators.find(op);
    if (it == enumerators.end())
        notTranslated({}, "reduction operator `" + op + "`");
    return "itrt::ReduceOp::" + it->second;
}

// Whether a stage body may change its parameter `name`: an assignment to it or into it (a field,
// an element), a loop that uses it as its index, any call that is given it (a function's `&`
// parameter, a list function), or native code that mentions it. Conservative: a parameter it
// does not change is passed by value, which lets the compiler keep it in a register and
// vectorise loops that read it (a `T&` might alias the arrays the loop writes).
bool stageMayWrite(const ast::StageDef& stage, const std::string& name) {
    struct Writes : ast::Visitor {
        const std::string& name;
        bool found = false;
        explicit Writes(const std::string& n) : name(n) {}
        bool rootedAtName(const ast::Expr* e) const {
            while (e) {
                if (auto n = e->as<ast::NameRef>())
                    return n->name == name;
                if (auto f = e->as<ast::FieldAccess>())
                    e = f->base.get();
                else if (auto s = e->as<ast::Subscript>())
                    e = s->base.get();
                else if (auto ep = e->as<ast::Epoch>()) // `c.k at (current) = 1`
                    e = ep->operand.get();
                else
                    return false;
            }
            return false;
        }
        void visitAssign(const ast::Assign& a) override {
            found = found || rootedAtName(a.target.get());
            ast::Visitor::visitAssign(a);
        }
        void visitCall(const ast::Call& c) override {
            for (const ast::CallArg& arg : c.args)
                found = found || (arg.value && rootedAtName(arg.value.get())) ||
                        (arg.variable && arg.variable->text == name);
            ast::Visitor::visitCall(c);
        }
        void visitSequentialFor(const ast::SequentialFor& f) override {
            found = found || f.index.text == name;
            ast::Visitor::visitSequentialFor(f);
        }
        void visitExtern(const ast::Extern& x) override {
            found = found || std::regex_search(x.code, std::regex("\\b" + name + "\\b"));
        }
    } w(name);
    w.visitBlock(stage.body);
    return w.found;
}

void collectNames(const ast::Expr& e, std::set<std::string>& out) {
    if (auto n = e.as<ast::NameRef>())
        out.insert(n->name);
    struct V {
        std::set<std::string>& out;
        void expr(const ast::Expr* e) {
            if (e)
                collectNames(*e, out);
        }
    } v{out};
    using K = ast::ExprKind;
    switch (e.kind) {
    case K::Unary: v.expr(e.as<ast::Unary>()->operand.get()); break;
    case K::Binary:
        v.expr(e.as<ast::Binary>()->lhs.get());
        v.expr(e.as<ast::Binary>()->rhs.get());
        break;
    case K::Assign:
        v.expr(e.as<ast::Assign>()->target.get());
        v.expr(e.as<ast::Assign>()->value.get());
        break;
    case K::FieldAccess: v.expr(e.as<ast::FieldAccess>()->base.get()); break;
    case K::Property: v.expr(e.as<ast::Property>()->base.get()); break;
    case K::Subscript:
        v.expr(e.as<ast::Subscript>()->base.get());
        for (auto& it : e.as<ast::Subscript>()->items) {
            v.expr(it.index.get());
            v.expr(it.first.get());
            v.expr(it.last.get());
        }
        break;
    case K::Call:
        for (auto& a : e.as<ast::Call>()->args)
            v.expr(a.value.get());
        break;
    case K::ReduceExpr: v.expr(e.as<ast::ReduceExpr>()->operand.get()); break;
    case K::RangeLiteral:
        v.expr(e.as<ast::RangeLiteral>()->first.get());
        v.expr(e.as<ast::RangeLiteral>()->last.get());
        break;
    case K::Epoch: v.expr(e.as<ast::Epoch>()->operand.get()); break;
    case K::NewObject:
        for (auto& a : e.as<ast::NewObject>()->args)
            v.expr(a.value.get());
        break;
    default: break;
    }
}

// Every Subscript node of a block, in the pre-order semantic/check binds loop indices by (index
// binding and loop order must agree with the checker's).
void collectSubscripts(const ast::Block& b, std::vector<const ast::Subscript*>& out) {
    semantic::check::walkBlock(b, [&](const ast::Expr& e) {
        if (auto s = e.as<ast::Subscript>())
            out.push_back(s);
    });
}

void loopIndexNames(const ast::Block& b, std::set<std::string>& out) {
    for (auto& s : b.stmts) {
        if (auto p = s->as<ast::ParallelLoop>()) {
            for (auto& g : p->groups)
                for (auto& i : g.indices)
                    out.insert(i.text);
            loopIndexNames(p->body, out);
        } else if (auto f = s->as<ast::SequentialFor>()) {
            out.insert(f->index.text);
            loopIndexNames(f->body, out);
        } else if (auto w = s->as<ast::While>()) {
            loopIndexNames(w->body, out);
        } else if (auto i = s->as<ast::If>()) {
            for (auto& br : i->branches)
                loopIndexNames(br.body, out);
            if (i->elseBody)
                loopIndexNames(*i->elseBody, out);
        }
    }
}

// The names a body uses outside every loop that binds them as its index. A loop index name that
// is also a local of the stage (`d = x[i]` after `do { ... } for d in x`) needs a declaration
// beside the loops' own variables.
class NamesOutsideTheirLoops : public ast::Visitor {
public:
    std::set<std::string> names;

    void visitParallelLoop(const ast::ParallelLoop& l) override {
        size_t outer = bound_.size();
        for (const ast::IndexGroup& g : l.groups)
            for (const ast::Name& i : g.indices)
                bound_.push_back(i.text);
        ast::Visitor::visitParallelLoop(l);
        bound_.resize(outer);
    }
    void visitSequentialFor(const ast::SequentialFor& f) override {
        visitIfSet(f.rangeExpr);
        visitIfSet(f.step);
        bound_.push_back(f.index.text);
        visitIfSet(f.restriction);
        visitBlock(f.body);
        bound_.pop_back();
    }
    void visitNameRef(const ast::NameRef& n) override {
        if (std::find(bound_.begin(), bound_.end(), n.name) == bound_.end())
            names.insert(n.name);
    }

private:
    std::vector<std::string> bound_;
};

} // namespace

void splitAnd(const ast::Expr& e, std::vector<const ast::Expr*>& out) {
    if (auto b = e.as<ast::Binary>(); b && b->op == ast::BinaryOp::And) {
        splitAnd(*b->lhs, out);
        splitAnd(*b->rhs, out);
        return;
    }
    out.push_back(&e);
}

// ---------------------------------------------------------------------------------------------
// Stage bodies
// ---------------------------------------------------------------------------------------------

class StageBody : public ExprEmitter {
public:
    StageBody(TaskEmitter& te, const semantic::StageInstance& inst, const StageSig& sig)
        : ExprEmitter(&inst.exprTypes), te_(te), inst_(inst), sig_(sig) {
        for (size_t i = 0; i < inst.params.size() && i < inst.stage->params.size(); ++i)
            if (inst.params[i].constant)
                constants_.insert(inst.stage->params[i].text);
        findBoxWrites();
    }

    void body(Out& o, const ast::Block& b) {
        for (auto& s : b.stmts)
            stmt(o, *s);
    }

    std::map<std::string, std::pair<std::string, int>> loopIdx; // index -> (array, dim)

protected:
    std::string nameRef(const ast::NameRef& n) override {
        if (loopVars_.count(n.name))
            return cppName(n.name);
        if (auto it = sig_.params.find(n.name); it != sig_.params.end()) {
            if (lag_ > 0 && lag_ < it->second.olderVersions) // `p at (current - k)`
                return it->second.cppName + "_older" + std::to_string(lag_);
            return it->second.cppName;
        }
        if (te_.isGlobal(n.name)) {
            const auto& gi = te_.global(n.name);
            if (lag_ > 0 && te_.versionedScalar(n.name))
                return "G." + TaskEmitter::olderScalar(n.name, lag_);
            if (gi.isReduction)
                return te_.reductionValue(n.name, "G");
            if (gi.type.isArray())
                notTranslated(n.range, "whole-array use of `" + n.name + "` in a stage");
            return "G." + cppName(n.name);
        }
        return cppName(n.name); // a local (`class` -> `class_`)
    }
    bool arrayValue(const std::string& name) const override { return localArray(name); }
    // The type of a fixed-size array the stage call holds as a std::array (a local, a copy of a
    // static part, a parameter bound to an object's field), or null.
    const semantic::Type* valueStaticArray(const std::string& name) const {
        if (te_.isGlobal(name) && !sig_.params.count(name))
            return nullptr;
        if (auto p = sig_.params.find(name); p != sig_.params.end()) {
            if (p->second.isArray || p->second.isReductionSlot)
                return nullptr;
            for (size_t i = 0; i < inst_.stage->params.size(); ++i)
                if (inst_.stage->params[i].text == name && inst_.params[i].type.kind == TypeKind::StaticArray)
                    return &inst_.params[i].type;
            return nullptr;
        }
        auto it = inst_.locals.find(name);
        return it != inst_.locals.end() && it->second.kind == TypeKind::StaticArray ? &it->second : nullptr;
    }
    // A local of this stage call holding an array value (LocalArray): a copy, not a part.
    bool localArray(const std::string& name) const {
        if (sig_.params.count(name) || sig_.directArrays.count(name) || te_.isGlobal(name) || loopVars_.count(name))
            return false;
        auto it = inst_.locals.find(name);
        return it != inst_.locals.end() && it->second.kind == TypeKind::DynamicArray;
    }
    // `v at (current - k)`: v, with k in `lag` (of nested epochs, the innermost's); anything else
    // as it is (`lag` unchanged).
    static const ast::Expr* stripVersion(const ast::Expr* e, int& lag) {
        auto* ep = innermostEpoch(*e);
        if (!ep)
            return e;
        lag = static_cast<int>(ep->lag);
        return ep->operand.get();
    }
    // The older version a section is taken of, `(v at (current - 1))[1...2]`, or null.
    static const ast::Epoch* epochBase(const ast::Expr& e) {
        auto* sub = e.as<ast::Subscript>();
        auto* ep = sub ? innermostEpoch(*sub->base) : nullptr;
        return ep && ep->operand->as<ast::NameRef>() ? ep : nullptr;
    }
    // Whether array value `e` (an epoch, section or name) is rooted at a part this LPU holds.
    bool rootedAtPart(const ast::Expr& e) const {
        const ast::Expr* x = &withoutEpochs(e);
        if (auto* sub = x->as<ast::Subscript>())
            x = sub->base.get();
        auto* n = x->as<ast::NameRef>();
        if (!n)
            return false;
        auto it = sig_.params.find(n->name);
        return it != sig_.params.end() ? it->second.isArray : sig_.directArrays.count(n->name) != 0;
    }
    // Whether `e` is one element of a part, `x[i]`, whose type is a static array: a value as
    // element() reads it, not an array rooted at the part.
    bool partElement(const ast::Expr& e) const {
        auto* sub = withoutEpochs(e).as<ast::Subscript>();
        return sub && rootedAtPart(e) && !keepsDimension(*sub, typeOf(*sub->base));
    }
    // The array parameter whose view is `view`, or null.
    const StageParam* paramOfView(const std::string& view) const {
        for (const auto& [name, sp] : sig_.params)
            if (sp.isArray && sp.cppName == view)
                return &sp;
        return nullptr;
    }
    // The dimensions of view `view` (a parameter's or a direct array's, lag suffix stripped) that
    // stride() or block_stride() cut, in the view's own numbering.
    std::set<int> stridedOfView(const std::string& view) const {
        if (const StageParam* sp = paramOfView(view))
            return te_.stridedDims(*sp);
        if (view.rfind("d_", 0) == 0 && sig_.directArrays.count(view.substr(2)))
            return te_.stridedDims(view.substr(2));
        return {};
    }
    // Whether view `view` is a parameter bound to sections: loops over its strided dimensions
    // go through every held position and must keep to the section's lo...hi.
    bool sectionView(const std::string& view) const {
        const StageParam* sp = paramOfView(view);
        return sp && !sp->sectionDims.empty();
    }
    // The view of this LPU's part of array `array` (a parameter or a task-global used directly)
    // and the task-global it is rooted at.
    std::pair<std::string, std::string> arrayView(const std::string& array, SourceRange at) const {
        if (auto it = sig_.params.find(array); it != sig_.params.end() && it->second.isArray)
            return {it->second.cppName, it->second.global};
        if (sig_.directArrays.count(array))
            return {"d_" + array, array};
        notTranslated(at, "element access on `" + array + "`");
    }
    std::string element(const ast::Subscript& s, const std::string& array, const std::vector<std::string>& idx,
                        int lag) override {
        if (localArray(array)) { // a LocalArray value of this stage call
            std::string args;
            for (auto& i : idx)
                args += (args.empty() ? "" : ", ") + std::string("static_cast<int64_t>(") + i + ")";
            return cppName(array) + ".at({" + args + "})";
        }
        auto [view, global] = arrayView(array, s.range);
        std::string base = view;
        if (lag > 0)
            view += "_" + std::to_string(lag);
        std::set<int> strided = stridedOfView(base);
        std::string args;
        if (!strided.empty() && te_.in().debug) {
            // --debug: every index checked against the indices the LPU holds, naming the IT line.
            for (auto& i : idx)
                args += (args.empty() ? "" : ", ") + i;
            return view + ".checked_held(" + cString(te_.where(s.range) + ": `" + array + "`") + ", " + args + ")";
        }
        if (!strided.empty()) {
            // Strided parts: local positions; a loop index running over this very part is
            // already a position.
            // Other dimensions keep their global index (View::at_mix): no translation per element.
            unsigned positions = 0;
            for (size_t d = 0; d < idx.size(); ++d) {
                std::string p;
                // (`s` may leave out trailing dimensions: a section `m[2]` of an element `(m[2])[j]`.)
                auto n = d < s.items.size() && s.items[d].index ? s.items[d].index->as<ast::NameRef>() : nullptr;
                auto lp = n ? loopPos_.find(n->name) : loopPos_.end();
                if (lp != loopPos_.end() && lp->second.first == base && lp->second.second == static_cast<int>(d)) {
                    p = cppName(n->name) + "_p";
                    positions |= 1u << d;
                } else if (strided.count(static_cast<int>(d))) {
                    p = view + ".pos_of(" + std::to_string(d) + ", " + idx[d] + ", " +
                        cString(te_.where(s.range) + ": `" + array + "`") + ")";
                    positions |= 1u << d;
                } else {
                    p = idx[d];
                }
                args += (args.empty() ? "" : ", ") + p;
            }
            return view + ".template at_mix<" + std::to_string(positions) + "u>(" + args + ")";
        }
        for (auto& i : idx)
            args += (args.empty() ? "" : ", ") + i;
        if (te_.in().debug)
            return view + ".checked(" + cString(te_.where(s.range) + ": `" + array + "`") + ", " + args + ")";
        return view + "(" + args + ")";
    }
    std::string dimensionRange(const ast::Expr& at, const std::string& array, int k, bool local) override {
        if (localArray(array)) {
            const std::string r = cppName(array) + ".ranges[" + std::to_string(k) + "]";
            return "Range{static_cast<int32_t>(" + r + ".min), static_cast<int32_t>(" + r + ".max)}";
        }
        if (auto it = sig_.params.find(array); it != sig_.params.end()) {
            if (!it->second.isArray)
                notTranslated(at.range, "dimension attribute of a non-array");
            // A view knows its whole range too: a section passed as the argument has its own.
            return it->second.cppName + (local ? ".range(" : ".whole_range(") + std::to_string(k) + ")";
        } else if (local) {
            if (!sig_.directArrays.count(array))
                notTranslated(at.range, "`local` attribute of `" + array + "`");
            return "d_" + array + ".range(" + std::to_string(k) + ")";
        }
        return "T.whole_range(" + std::to_string(te_.arrayIndex(array)) + ", " + std::to_string(k) + ")";
    }
    std::string lpuId(const ast::Expr&) override { return "LPU.coords"; }
    // `&` arguments that are not C++ lvalues of the parameter's type: a loop index (int64_t) or
    // a parameter bound to a constant (`const`). semantic/check guarantees that the function does
    // not assign such a parameter (guide: Stages and statements), so a temporary copy is passed.
    std::string referenceArg(const ast::Expr& e) override {
        if (auto n = e.as<ast::NameRef>()) {
            auto it = sig_.params.find(n->name);
            bool constant = it != sig_.params.end() && !it->second.isArray && !it->second.isReductionSlot &&
                            (!it->second.literal.empty() || constants_.count(n->name));
            if (loopVars_.count(n->name) || constant)
                return "it_lvalue(static_cast<" + cppType(typeOf(e)) + ">(" + emit(e) + "))";
        }
        return emit(e);
    }
    std::string partitionParam(const std::string& p) override { return "p_" + p; }
    bool partArray(const std::string& name) const override {
        auto it = sig_.params.find(name);
        return it != sig_.params.end() ? it->second.isArray : sig_.directArrays.count(name) != 0;
    }
    // A function sees this LPU's part of an array as a whole array of the held indices: a copy,
    // written back after the call for a `&` parameter (guide: Functions).
    std::string partArgument(const ast::Expr& a, bool byReference) override {
        int lag = lag_;
        const ast::Expr* e = stripVersion(&a, lag);
        if (typeOf(a).kind == TypeKind::List) // each LPU has a list of its own: passed as it is
            return emit(a);
        const ast::Epoch* older = epochBase(*e); // `(v at (current - 1))[1...2]`: `v[1...2] at (current - 1)`
        if (older)
            lag = static_cast<int>(older->lag);
        if (!older && (!rootedAtPart(*e) || partElement(*e))) { // an array value of the stage call (a local, `lpuId`, a
                                                                // section of a static array, an element `x[i]`)
            // A section of a stage-local array to `&`: a copy written back when the call ends.
            if (auto s = e->as<ast::Subscript>(); byReference && s && isSection(*e) && s->base->as<ast::NameRef>() &&
                                                  localArray(s->base->as<ast::NameRef>()->name))
                return sectionArgument(*s);
            const bool lvalue = e->as<ast::NameRef>() != nullptr;
            return byReference && !lvalue ? "it_lvalue(" + emit(a) + ")" : emit(a);
        }
        // A section (`m[k]`, `m[...][c]`, `v[i...j]`): the LPU's part of it, a slice of its view.
        auto* sub = e->as<ast::Subscript>();
        auto* n = (older ? older->operand.get() : sub ? sub->base.get() : e)->as<ast::NameRef>();
        if (!n)
            notTranslated(a.range, "passing this array value to a function from a stage (copy it into an array first)");
        const auto viewAndGlobal = arrayView(n->name, a.range);
        std::string view = viewAndGlobal.first;
        // A part that stride() or block_stride() cuts is passed with the indices the LPU holds
        // along those dimensions (part_array); the capability check let only functions that
        // use it as such receive it (backend/held_part_uses.h).
        if (lag > 0)
            view += "_" + std::to_string(lag);
        const semantic::Type t = typeOf(a);
        const std::string where = cString(te_.where(a.range));
        if (t.kind == TypeKind::StaticArray) // a whole static task-global: the function takes a std::array
            return byReference ? "itrt::task::StaticPartArgument<" + cppType(t) + ", " + cppElement(t) + ", " +
                                     std::to_string(t.arrayDims()) + ">(" + view + ").value()"
                               : "itrt::task::static_part<" + cppType(t) + ">(" + view + ")";
        if (sub) {
            const std::string items = sectionItems(
                sub, typeOf(*sub->base).arrayDims(), [&](const ast::Expr& x) { return emit(x); },
                [&](int d) {
                    const std::string r = view + ".whole_range(" + std::to_string(d) + ")";
                    return "{false, " + r + ".min, " + r + ".max}";
                });
            view =
                "itrt::task::slice<" + std::to_string(t.arrayDims()) + ">(" + view + ", " + items + ", " + where + ")";
        }
        if (byReference)
            return "itrt::task::PartArgument<" + cppElement(t) + ", " + std::to_string(t.arrayDims()) + ">(" + view +
                   ", " + where + ").array()";
        return "itrt::task::part_array(" + view + ", " + where + ")";
    }

private:
    // The task-globals of the task this stage instance belongs to.
    const std::vector<semantic::GlobalInfo>& taskGlobals() const {
        for (const auto& t : te_.in().checked->tasks)
            for (const auto& i : t.stageInstances)
                if (&i == &inst_)
                    return t.globals;
        throw std::logic_error("stage instance without a task");
    }

    void stmt(Out& o, const ast::Stmt& s) {
        o << lineComment(te_.in(), s.range);
        using K = ast::StmtKind;
        switch (s.kind) {
        case K::ExprStmt: {
            const ast::Expr& e = *s.as<ast::ExprStmt>()->expr;
            auto* a = e.as<ast::Assign>();
            if (std::string st = a ? staticSectionAssign(*a) : ""; !st.empty()) {
                o << st << ";\n";
                return;
            }
            if (a && typeOf(*a->value).kind == TypeKind::DynamicArray) {
                auto* target = a->target->as<ast::NameRef>();
                if (target && localArray(target->name)) // a copy: this LPU's part of a section, or a value
                    o << cppName(target->name) << " = " << partArgument(*a->value, false) << ";\n";
                else
                    o << sectionCopy(*a) << ";\n";
                return;
            }
            if (a && typeOf(*a->value).kind == TypeKind::StaticArray) {
                o << staticArrayAssign(*a) << ";\n";
                return;
            }
            o << emit(e) << ";\n";
            return;
        }
        case K::ParallelLoop: parallelLoop(o, *s.as<ast::ParallelLoop>()); return;
        case K::SequentialFor: {
            auto* f = s.as<ast::SequentialFor>();
            const std::string ix = cppName(f->index.text);
            const std::string step =
                f->step ? "itrt::task::loop_step(" + emit(*f->step) + ", " + whereOf(f->step->range) + ")" : "1";
            // Over a dimension of a stage-local copy of a part cut by stride(), or over the LPU's
            // own indices of such a part (`x.local.dimensionK.range`): the indices it holds.
            int dim = 0;
            const ast::NameRef* held = dimensionRangeOf(*f->rangeExpr, &dim);
            const ast::NameRef* own = localDimensionRangeOf(*f->rangeExpr, &dim);
            std::string ownView =
                own && partArray(own->name) && !localArray(own->name) ? arrayView(own->name, f->range).first : "";
            if (!ownView.empty() && !stridedOfView(ownView).count(dim - 1))
                ownView.clear();
            if (held && localArray(held->name) && te_.heldPart(*inst_.stage, held->name))
                openSequentialFor(o, "r_" + ix, ix, "", step, cppName(held->name), dim - 1);
            else if (!ownView.empty())
                openSequentialFor(o, "r_" + ix, ix, "", step, ownView, dim - 1);
            else
                openSequentialFor(o, "r_" + ix, ix, emit(*f->rangeExpr), step);
            loopVars_.insert(f->index.text);
            if (f->restriction)
                o << "if (!(" << emit(*f->restriction) << ")) continue;\n";
            body(o, f->body);
            o << "}\n}\n";
            loopVars_.erase(f->index.text);
            return;
        }
        case K::While:
            emitDoWhile(
                o, *s.as<ast::While>(), [&](const ast::Expr& c) { return emit(c); },
                [&](const ast::Block& b) { body(o, b); });
            return;
        case K::If:
            emitIf(
                o, *s.as<ast::If>(), [&](const ast::Expr& c) { return emit(c); },
                [&](const ast::Block& b) { body(o, b); });
            return;
        case K::Extern: {
            // Native code sees task-global scalars, parameters and locals by their IT names (guide:
            // Native code: @Extern): by an alias where the C++ name differs (`i_lo` -> `i_lo_`).
            std::map<std::string, std::string> aliases;
            for (const auto& g : taskGlobals())
                if (!g.type.isArray() && !sig_.params.count(g.name) && !loopVars_.count(g.name))
                    aliases[g.name] = te_.scalarRef(g.name, "G");
            for (const auto& [name, p] : sig_.params)
                if (!p.isArray && !loopVars_.count(name))
                    aliases[name] = p.cppName;
            for (const auto& [name, type] : inst_.locals)
                if (!sig_.params.count(name) && !loopVars_.count(name))
                    aliases[name] = cppName(name);
            o << externBlock(*s.as<ast::Extern>(), aliases, loopVars_);
            return;
        }
        case K::ReduceStmt: notTranslated(s.range, "`reduce` outside a parallel loop body of its own");
        case K::Return: notTranslated(s.range, "`return` in a stage");
        }
    }

    // Whole static arrays (`Array[3] of T`) in a stage: a part of a static task array reads as a
    // std::array holding this LPU's elements (static_part), and assigning one writes the LPU's
    // elements of the part (StaticPartArgument writes its copy back when the statement ends).
    std::string staticArrayAssign(const ast::Assign& a) {
        const ast::Expr& v = *a.value;
        std::string value = rootedAtPart(v) && !partElement(v) ? partArgument(v, false) : emit(v);
        auto* target = a.target->as<ast::NameRef>();
        if (!target || !partArray(target->name))
            return emit(*a.target) + " = " + value;
        const semantic::Type t = typeOf(*a.target);
        return "itrt::task::StaticPartArgument<" + cppType(t) + ", " + cppElement(t) + ", " +
               std::to_string(t.arrayDims()) + ">(" + arrayView(target->name, a.range).first + ").value() = " + value;
    }

    // `target = a[...]`, `target = a[i...j][k]`, `target = a`: the section of this LPU's part of
    // `a` copied by position into its part of the array `target` (guide: Arrays: sections). Into
    // a section of a part, or from an array value of the stage call (a local array, `lpuId`, a
    // function's result): the value as the stage call holds it, copied by position into the
    // indices of the target this LPU holds (copy_into_part / copy_into_section).
    std::string sectionCopy(const ast::Assign& a) {
        // `v at (current) = ...`, `(v at (current))[1...2] = ...`: only the current version is written.
        auto* target = withoutEpochs(*a.target).as<ast::NameRef>();
        auto* targetSub = withoutEpochs(*a.target).as<ast::Subscript>();
        const std::string where = cString(te_.where(a.range));
        if (targetSub) {
            // `(m[...][2...5])[3][4...5] = ...`: one section of m (composedItems).
            const ast::Subscript* inner = withoutEpochs(*targetSub->base).as<ast::Subscript>();
            auto* base = withoutEpochs(inner ? *inner->base : *targetSub->base).as<ast::NameRef>();
            if (!base)
                notTranslated(a.target->range, "assigning an array to a section of a computed value");
            const std::string view = arrayView(base->name, a.target->range).first;
            const int dims = typeOf(*base).arrayDims();
            const std::string items = sectionItems(
                composedItems(inner, *targetSub, dims), dims, [&](const ast::Expr& x) { return emit(x); },
                [&](int d) {
                    const std::string r = view + ".whole_range(" + std::to_string(d) + ")";
                    return "{false, " + r + ".min, " + r + ".max}";
                });
            const std::string slice = "itrt::task::slice<" + std::to_string(typeOf(*a.target).arrayDims()) + ">(" +
                                      view + ", " + items + ", " + where + ")";
            // A whole part (`m[...][c] = v`), also one stride() cuts: position by position from its view.
            int lag = 0;
            const ast::Expr* whole = stripVersion(a.value.get(), lag);
            if (auto* n = whole->as<ast::NameRef>();
                n && rootedAtPart(*whole) && typeOf(*whole).arrayDims() == typeOf(*a.target).arrayDims()) {
                std::string source = arrayView(n->name, whole->range).first;
                if (lag > 0)
                    source += "_" + std::to_string(lag);
                return "itrt::task::copy_part_into_section(" + slice + ", " + source + ", " + where + ")";
            }
            return "itrt::task::copy_into_section(itrt::task::slice<" + std::to_string(typeOf(*a.target).arrayDims()) +
                   ">(" + view + ", " + items + ", " + where + "), " + partArgument(*a.value, false) + ", " + where +
                   ")";
        }
        if (!target)
            notTranslated(a.target->range, "assigning an array to something other than an array name");
        if (!rootedAtPart(*a.value) && !epochBase(*a.value))
            return "itrt::task::copy_into_part(" + arrayView(target->name, a.target->range).first + ", " +
                   partArgument(*a.value, false) + ", " + where + ")";
        int lag = 0;
        const ast::Expr* value = stripVersion(a.value.get(), lag);
        const ast::NameRef* source = value->as<ast::NameRef>();
        const ast::Subscript* sub = value->as<ast::Subscript>();
        if (const ast::Epoch* older = epochBase(*value)) { // `(v at (current - 1))[1...2]`
            lag = static_cast<int>(older->lag);
            source = older->operand->as<ast::NameRef>();
        } else if (sub) {
            source = sub->base->as<ast::NameRef>();
        }
        if (!source || typeOf(*value).kind != TypeKind::DynamicArray)
            notTranslated(a.value->range,
                          "this array value in a stage (a section or whole array of a task-global is copied)");
        // Plain names, not bindings: clang 14 lambdas cannot capture structured bindings.
        std::string view = arrayView(source->name, value->range).first;
        const std::string targetView = arrayView(target->name, a.target->range).first;
        if (lag > 0)
            view += "_" + std::to_string(lag);
        if (!sub && typeOf(*a.target).arrayDims() == typeOf(*value).arrayDims()) // `w = v`: by index
            return "itrt::task::copy_whole_part(" + targetView + ", " + view + ", " + cString(te_.where(a.range)) + ")";
        const int dims = typeOf(*source).arrayDims();
        // `target = a` (no subscript, sub null): every dimension whole.
        const std::string items = sectionItems(
            sub, dims, [&](const ast::Expr& x) { return emit(x); },
            [&](int d) {
                const std::string r = view + ".whole_range(" + std::to_string(d) + ")";
                return "{false, " + r + ".min, " + r + ".max}";
            });
        return "itrt::task::copy_section(" + targetView + ", " + view + ", " + items + ", " +
               cString(te_.where(a.range)) + ")";
    }

    // Binds each index of a loop to (array view, dimension) (guide: Parallel loops).
    std::map<std::string, std::string> viewGlobal_;                // view name -> task-global
    std::map<std::string, std::pair<std::string, int>> loopPos_;   // strided loop index -> (view, dim)
    std::set<std::string> localLoopArrays_;                        // loop collections that are LocalArrays
    std::map<std::string, std::vector<int64_t>> staticLoopArrays_; // ... that are std::arrays: lengths
    // The first and last index of dimension d of a loop's collection: a part's bounds, or the
    // range of a stage-local array, which may run downwards (a parallel loop has no order).
    std::pair<std::string, std::string> loopBounds(const std::string& view, int dim) const {
        if (auto st = staticLoopArrays_.find(view); st != staticLoopArrays_.end())
            return {"int64_t{0}", std::to_string(st->second.at(static_cast<size_t>(dim)) - 1)};
        const std::string d = std::to_string(dim);
        if (localLoopArrays_.count(view)) {
            const std::string r = view + ".ranges[" + d + "]";
            return {"std::min(" + r + ".min, " + r + ".max)", "std::max(" + r + ".min, " + r + ".max)"};
        }
        return {view + ".lo[" + d + "]", view + ".hi[" + d + "]"};
    }
    void bindIndices(const ast::ParallelLoop& p,
                     std::vector<std::pair<std::string, std::pair<std::string, int>>>& out) {
        std::vector<const ast::Subscript*> subs;
        collectSubscripts(p.body, subs);
        for (auto& g : p.groups) {
            std::string arr = g.collection.text;
            auto it = sig_.params.find(arr);
            std::string view, global;
            int dims = 0;
            if (it != sig_.params.end() && it->second.isArray) {
                view = it->second.cppName;
                global = it->second.global;
            } else if (sig_.directArrays.count(arr)) {
                view = "d_" + arr;
                global = arr;
            } else if (localArray(arr)) { // a LocalArray of this stage call: its own ranges
                view = cppName(arr);
                localLoopArrays_.insert(view);
                dims = inst_.locals.at(arr).arrayDims();
            } else if (const semantic::Type* st = valueStaticArray(arr)) {
                view = it != sig_.params.end() ? it->second.cppName : cppName(arr); // a std::array: from 0
                staticLoopArrays_[view] = st->lengths;
                dims = st->arrayDims();
            } else {
                notTranslated(g.range, "a parallel loop over `" + arr + "`");
            }
            viewGlobal_[view] = global;
            if (!global.empty())
                dims = te_.global(global).type.arrayDims();
            else if (it != sig_.params.end() && it->second.isArray) // a view of a field's section
                dims = it->second.dims;
            for (size_t k = 0; k < g.indices.size(); ++k) {
                const std::string& idx = g.indices[k].text;
                int dim = -1;
                if (g.dimensionIndex > 0)
                    dim = g.dimensionIndex - 1;
                else if (static_cast<int>(g.indices.size()) == dims)
                    dim = static_cast<int>(k);
                else if (dims == 1)
                    dim = 0;
                else {
                    for (auto* s : subs) {
                        auto* n = s->base->as<ast::NameRef>();
                        if (!n || n->name != arr)
                            continue;
                        for (size_t d = 0; d < s->items.size(); ++d) {
                            auto* in = s->items[d].index ? s->items[d].index->as<ast::NameRef>() : nullptr;
                            if (in && in->name == idx && (dim < 0 || static_cast<int>(d) < dim))
                                dim = static_cast<int>(d);
                        }
                    }
                }
                if (dim < 0)
                    notTranslated(g.range, "binding index `" + idx + "` to a dimension");
                out.push_back({idx, {view, dim}});
            }
        }
    }

    // A loop nest semantic/idiom recognises as gemm or gemv becomes a call of the runtime's
    // dense kernels (OpenBLAS), with the loops as the fallback the kernels ask for when the
    // parts are not dense row-major blocks: `if (!itrt::task::dense_gemm(...)) { loops }`.
    // Arrays split by stride()/block_stride() on the way here never qualify (positions, not
    // intervals). Returns the call, or "" for the loops alone.
    std::string denseCall(const ast::ParallelLoop& p) {
        if (!te_.in().blas)
            return "";
        std::optional<semantic::DenseIdiom> d = semantic::matchDenseIdiom(p, inst_);
        if (!d)
            return "";
        std::vector<std::pair<std::string, std::pair<std::string, int>>> idx;
        bindIndices(p, idx);
        if (p.body.stmts.size() == 2) // the reduction form: the summed index is the inner loop's
            bindIndices(*p.body.stmts[0]->as<ast::ParallelLoop>(), idx);
        for (auto& [name, vd] : idx)
            if (!stridedOfView(vd.first).empty())
                return "";
        std::map<std::string, std::string> views; // stage parameter -> C++ view
        for (const std::string* a : {&d->out, &d->a, &d->b}) {
            auto it = sig_.params.find(*a);
            if (it == sig_.params.end() || !it->second.isArray || !te_.stridedDims(it->second).empty())
                return "";
            views[*a] = it->second.cppName;
        }
        auto span = [&](const std::string& index) {
            for (auto& [name, vd] : idx)
                if (name == index) {
                    std::string dim = std::to_string(vd.second);
                    return "itrt::task::IndexSpan{" + vd.first + ".lo[" + dim + "], " + vd.first + ".hi[" + dim + "]}";
                }
            throw std::logic_error("dense idiom index `" + index + "` without a loop");
        };
        auto flag = [](bool b) { return b ? std::string("true") : std::string("false"); };
        std::string tail = std::to_string(d->alpha) + ", " + std::to_string(d->beta) + ")";
        te_.noteBlasCall();
        if (d->kind == semantic::DenseIdiom::Kind::Gemm)
            return "itrt::task::dense_gemm(" + views[d->out] + ", " + views[d->a] + ", " + flag(d->transA) + ", " +
                   views[d->b] + ", " + flag(d->transB) + ", " + span(d->m) + ", " + span(d->n) + ", " + span(d->k) +
                   ", " + tail;
        return "itrt::task::dense_gemv(" + views[d->out] + ", " + views[d->a] + ", " + flag(d->transA) + ", " +
               views[d->b] + ", " + span(d->m) + ", " + span(d->k) + ", " + tail;
    }

    void parallelLoop(Out& o, const ast::ParallelLoop& p) {
        if (std::string dense = denseCall(p); !dense.empty())
            o << "// dense linear algebra: BLAS when the parts are dense blocks, else the loops\n"
              << "if (!" << dense << ") ";
        std::vector<std::pair<std::string, std::pair<std::string, int>>> idx;
        bindIndices(p, idx);
        // Loop order: the index used most often as the last subscript goes innermost (unit
        // stride); the others keep the order written.
        std::vector<const ast::Subscript*> subs;
        collectSubscripts(p.body, subs);
        std::map<std::string, int> lastUse;
        for (auto* s : subs)
            if (!s->items.empty() && s->items.back().index)
                if (auto n = s->items.back().index->as<ast::NameRef>())
                    ++lastUse[n->name];
        if (idx.size() > 1) {
            size_t best = idx.size() - 1;
            for (size_t k = 0; k < idx.size(); ++k)
                if (lastUse[idx[k].first] > lastUse[idx[best].first])
                    best = k;
            auto inner = idx[best];
            idx.erase(idx.begin() + static_cast<long>(best));
            idx.push_back(inner);
        }
        // Restrictions: each conjunct is tested in the loop of the last index it uses.
        std::vector<const ast::Expr*> conj;
        for (auto& g : p.groups)
            if (g.restriction)
                splitAnd(*g.restriction, conj);
        std::vector<std::vector<const ast::Expr*>> at(idx.size() + 1);
        for (auto* c : conj) {
            std::set<std::string> names;
            collectNames(*c, names);
            size_t level = 0;
            for (size_t k = 0; k < idx.size(); ++k)
                if (names.count(idx[k].first))
                    level = k + 1;
            at[level].push_back(c);
        }
        // A reduction body (guide: Reductions).
        const ast::ReduceStmt* rs = nullptr;
        const ast::Assign* ra = nullptr;
        const ast::ReduceExpr* re = nullptr;
        if (p.body.stmts.size() == 1) {
            rs = p.body.stmts[0]->as<ast::ReduceStmt>();
            if (auto es = p.body.stmts[0]->as<ast::ExprStmt>())
                if ((ra = es->expr->as<ast::Assign>()))
                    re = ra->value->as<ast::ReduceExpr>();
        }
        if (!rs && !re)
            ra = nullptr;
        o << "{\n";
        std::string acc;
        bool entry = false;
        if (rs || re) {
            const ast::ReduceOperator& op = rs ? rs->op : re->op;
            const ast::Expr& operand = rs ? *rs->operand : *re->operand;
            std::string opName = op.text;
            if (!op.isLiteral) {
                auto it = sig_.params.find(op.text);
                if (it == sig_.params.end() || it->second.literal.empty())
                    notTranslated(op.range, "this reduction operator");
                opName = it->second.literal;
            }
            semantic::Type t = typeOf(operand);
            std::string ct =
                cppType(t.kind == TypeKind::RealLiteral ? semantic::Type::simple(TypeKind::RealDouble) : t);
            entry = reduceOpName(opName).find("entry") != std::string::npos;
            o << "using R_ = itrt::Reducer<" << reduceOpName(opName) << ", " << ct << ">;\n";
            o << "R_::Value acc_ = R_::identity();\n";
            acc = "acc_";
        }
        auto boxWrite = boxWrites_.find(&p);
        if (boxWrite != boxWrites_.end()) {
            // Empty until the loops set it: nothing is written when an outer loop runs no turn.
            const int n = boxWrite->second.dims;
            o << "int64_t written_lo[" << n << "], written_hi[" << n << "];  // the box this loop writes\n";
            o << "for (int d = 0; d < " << n << "; ++d) written_lo[d] = 1, written_hi[d] = 0;\n";
        }
        for (auto* c : at[0])
            o << "if (" << emit(*c) << ") {\n";
        std::string onceTests; // the innermost loop over held positions: reachTests at its first turn
        for (size_t k = 0; k < idx.size(); ++k) {
            auto& [name, vd] = idx[k];
            loopVars_.insert(name);
            const std::string ix = cppName(name);
            std::string d = std::to_string(vd.second);
            if (stridedOfView(vd.first).count(vd.second)) {
                loopPos_[name] = vd;
                if (k + 1 == idx.size())
                    onceTests = reachTests(p, idx, true);
                if (!onceTests.empty())
                    o << "bool " << ix << "_reached = false;\n";
                o << "for (int64_t " << ix << "_p = 0; " << ix << "_p < " << vd.first << ".len[" << d << "]; ++" << ix
                  << "_p) {\nconst int64_t " << ix << " = " << vd.first << ".global_at(" << d << ", " << ix << "_p);\n";
                if (sectionView(vd.first)) // the section may keep part of the held indices
                    o << "if (" << ix << " < " << vd.first << ".lo[" << d << "] || " << ix << " > " << vd.first
                      << ".hi[" << d << "]) continue;\n";
            } else {
                // Restrictions `i > e`, `i <= e`, ... with e invariant in this loop tighten its
                // bounds instead of testing every iteration.
                auto [lo, hi] = loopBounds(vd.first, vd.second);
                std::vector<const ast::Expr*> rest;
                std::set<std::string> inner;
                for (size_t q = k; q < idx.size(); ++q)
                    inner.insert(idx[q].first);
                for (auto* c : at[k + 1]) {
                    auto b = c->as<ast::Binary>();
                    using B = ast::BinaryOp;
                    bool cmp = b && (b->op == B::Less || b->op == B::Greater || b->op == B::LessEqual ||
                                     b->op == B::GreaterEqual);
                    const ast::Expr* other = nullptr;
                    bool left = false;
                    if (cmp) {
                        auto ln = b->lhs->as<ast::NameRef>();
                        auto rn = b->rhs->as<ast::NameRef>();
                        if (ln && ln->name == name) {
                            other = b->rhs.get();
                            left = true;
                        } else if (rn && rn->name == name) {
                            other = b->lhs.get();
                        }
                    }
                    std::set<std::string> names;
                    if (other)
                        collectNames(*other, names);
                    bool invariant = other && std::none_of(names.begin(), names.end(),
                                                           [&](const std::string& n) { return inner.count(n) != 0; });
                    if (!invariant) {
                        rest.push_back(c);
                        continue;
                    }
                    B op = b->op;
                    if (!left) // e < i  is  i > e
                        op = op == B::Less        ? B::Greater
                             : op == B::Greater   ? B::Less
                             : op == B::LessEqual ? B::GreaterEqual
                                                  : B::LessEqual;
                    std::string e = "static_cast<int64_t>(" + emit(*other) + ")";
                    if (op == B::Greater)
                        lo = "std::max<int64_t>(" + lo + ", " + e + " + 1)";
                    else if (op == B::GreaterEqual)
                        lo = "std::max<int64_t>(" + lo + ", " + e + ")";
                    else if (op == B::Less)
                        hi = "std::min<int64_t>(" + hi + ", " + e + " - 1)";
                    else
                        hi = "std::min<int64_t>(" + hi + ", " + e + ")";
                }
                at[k + 1] = rest;
                o << "const int64_t " << ix << "_lo = " << lo << ", " << ix << "_hi = " << hi << ";\n";
                if (boxWrite != boxWrites_.end())
                    o << "written_lo[" << d << "] = " << ix << "_lo, written_hi[" << d << "] = " << ix << "_hi;\n";
                if (k + 1 == idx.size() && rest.empty())
                    reachChecks(o, p, idx);
                o << "for (int64_t " << ix << " = " << ix << "_lo; " << ix << " <= " << ix << "_hi; ++" << ix
                  << ") {\n";
            }
            for (auto* c : at[k + 1])
                o << "if (!(" << emit(*c) << ")) continue;\n";
            if (!onceTests.empty())
                o << "if (!" << ix << "_reached) {\n" << ix << "_reached = true;\n" << onceTests << "}\n";
        }
        if (rs || re) {
            const ast::Expr& operand = rs ? *rs->operand : *re->operand;
            if (entry) {
                if (idx.size() != 1)
                    notTranslated(p.range, "an entry reduction over several indices");
                // The tie-break key: the index's position in its dimension's order (an inverted
                // range runs from its larger end).
                const auto& [loopVar, over] = idx[0];
                o << "acc_ = R_::combine(acc_, R_::Value{" << emit(operand) << ", static_cast<int32_t>(" << loopVar
                  << "), static_cast<int32_t>(" << over.first << ".dir[" << over.second << "] * " << loopVar
                  << ")});\n";
            } else {
                o << "acc_ = R_::combine(acc_, " << emit(operand) << ");\n";
            }
        } else {
            body(o, p.body);
        }
        for (auto& [name, vd] : idx) {
            o << "}\n";
            loopVars_.erase(name);
            loopPos_.erase(name);
        }
        for (size_t k = 0; k < at[0].size(); ++k)
            o << "}\n";
        if (boxWrite != boxWrites_.end())
            o << "T.epoch_wrote(" << boxWrite->second.array << ", LPU, written_lo, written_hi);\n";
        if (rs) {
            auto it = sig_.params.find(rs->target.text);
            if (it != sig_.params.end() && it->second.isReductionSlot) {
                o << it->second.cppName << " = R_::combine(" << it->second.cppName << ", acc_);\n";
            } else {
                ast::NameRef n;
                n.name = rs->target.text;
                std::string target = nameRef(n);
                o << (entry ? "if (!acc_.empty()) " + target + " = acc_.index;\n" : target + " = acc_;\n");
            }
        } else if (re) {
            std::string target = emit(*ra->target);
            o << (entry ? "if (!acc_.empty()) " + target + " = acc_.index;\n" : target + " = acc_;\n");
        }
        o << "}\n";
    }

    // Before the innermost loop of a nest that runs every turn (no per-turn test): each
    // subscript of a part that the body evaluates at every turn, `y[i]` or `m[r][c + 1]` with
    // loop indices, must stay inside the LPU's part over the loop's whole range. One test per
    // entry of the loop instead of none: an array shorter than the one the loop runs over
    // (input files of different lengths) is an error naming the line, not a read past the part.
    // (--debug checks every element instead.)
    void reachChecks(Out& o, const ast::ParallelLoop& p,
                     const std::vector<std::pair<std::string, std::pair<std::string, int>>>& idx) {
        const std::string tests = reachTests(p, idx, false);
        if (!tests.empty())
            o << "if (" << cppName(idx.back().first) << "_lo <= " << cppName(idx.back().first) << "_hi) {\n"
              << tests << "}\n";
    }
    // The tests of reachChecks; with `invariantOnly`, only those of subscripts that do not depend
    // on a loop index, which a loop over the held positions of a stride() part makes at its first
    // turn that runs the body (its turns are not an interval of indices).
    std::string reachTests(const ast::ParallelLoop& p,
                           const std::vector<std::pair<std::string, std::pair<std::string, int>>>& idx,
                           bool invariantOnly) {
        if (te_.in().debug)
            return "";
        std::vector<const ast::Subscript*> subs;
        if (!unconditionalSubscripts(p, subs))
            return "";
        const std::string& inner = idx.back().first;
        std::set<std::tuple<std::string, size_t, std::string, int64_t>> checked; // view, dimension, index, offset
        std::string tests;
        for (const ast::Subscript* s : subs) {
            const ast::Expr* base = s->base.get();
            while (auto ep = base->as<ast::Epoch>())
                base = ep->operand.get();
            auto n = base->as<ast::NameRef>();
            if (!n || localArray(n->name) || !partArray(n->name) || loopVars_.count(n->name))
                continue;
            const std::string view = arrayView(n->name, s->range).first;
            const std::set<int> strided = stridedOfView(view);
            const std::string what = cString(te_.where(s->range) + ": `" + n->name + "`");
            const auto reach = [&](size_t d, const std::string& first, const std::string& last) {
                return view + ".reach(" + what + ", " + std::to_string(d) + ", " + first + ", " + last + ");\n";
            };
            for (size_t d = 0; d < s->items.size(); ++d) {
                if (s->items[d].kind != ast::SubscriptItem::Kind::Index || !s->items[d].index)
                    break;
                const auto indexed = indexPlusConstant(*s->items[d].index);
                const std::string& var = indexed.first; // (clang 14 lambdas cannot capture structured bindings)
                const int64_t offset = indexed.second;
                if (var.empty() || strided.count(static_cast<int>(d)))
                    continue;
                // A scalar parameter the stage never changes (`u[i][k]`, LU's step `k`): one index
                // for the whole loop (a 13x9 matrix given to a square LU wrote past its parts).
                if (!loopVars_.count(var)) {
                    if (!invariantParameter(var) || !checked.insert({view, d, var, offset}).second)
                        continue;
                    const std::string at = cppName(var) + offsetText(offset);
                    tests += reach(d, at, at);
                    continue;
                }
                if (invariantOnly)
                    continue;
                const auto overThis = [&](const auto& level) {
                    return level.first == var && level.second == std::make_pair(view, static_cast<int>(d));
                };
                if (offset == 0 && std::any_of(idx.begin(), idx.end(), overThis))
                    continue; // the index runs over this very dimension
                if (!checked.insert({view, d, var, offset}).second)
                    continue;
                const std::string ix = cppName(var);
                const std::string off = offsetText(offset);
                const std::string first = (var == inner ? ix + "_lo" : ix) + off;
                const std::string last = (var == inner ? ix + "_hi" : ix) + off;
                tests += reach(d, first, last);
            }
        }
        return tests;
    }
    static std::string offsetText(int64_t offset) {
        return offset == 0  ? std::string()
               : offset > 0 ? " + " + std::to_string(offset)
                            : " - " + std::to_string(-offset);
    }
    // A scalar parameter bound to a value the stage body never changes: the same at every turn.
    bool invariantParameter(const std::string& name) const {
        auto it = sig_.params.find(name);
        return it != sig_.params.end() && !it->second.isArray && !it->second.isReductionSlot &&
               it->second.literal.empty() && !stageMayWrite(*inst_.stage, name);
    }
    // `i`, `i + 3`, `i - 1`: the name and the constant; an empty name for anything else.
    static std::pair<std::string, int64_t> indexPlusConstant(const ast::Expr& e) {
        if (auto n = e.as<ast::NameRef>())
            return {n->name, 0};
        auto b = e.as<ast::Binary>();
        if (!b || (b->op != ast::BinaryOp::Add && b->op != ast::BinaryOp::Sub))
            return {};
        auto ln = b->lhs->as<ast::NameRef>();
        auto rl = b->rhs->as<ast::IntLiteral>();
        if (ln && rl)
            return {ln->name, b->op == ast::BinaryOp::Add ? rl->value : -rl->value};
        auto ll = b->lhs->as<ast::IntLiteral>();
        auto rn = b->rhs->as<ast::NameRef>();
        if (ll && rn && b->op == ast::BinaryOp::Add)
            return {rn->name, ll->value};
        return {};
    }
    // The subscripts a loop body evaluates at every turn: those in its top-level expression
    // statements and reductions, outside the right operand of `and`/`or`. False when the body
    // may leave the stage or run code of its own (`return`, native code).
    static bool unconditionalSubscripts(const ast::ParallelLoop& p, std::vector<const ast::Subscript*>& out) {
        struct Leaves : ast::Visitor {
            bool found = false;
            void visitReturn(const ast::Return&) override { found = true; }
            void visitExtern(const ast::Extern&) override { found = true; }
        } leaves;
        leaves.visitBlock(p.body);
        if (leaves.found)
            return false;
        struct Always : ast::Visitor {
            std::vector<const ast::Subscript*>* out;
            void visitSubscript(const ast::Subscript& node) override {
                out->push_back(&node);
                ast::Visitor::visitSubscript(node);
            }
            void visitBinary(const ast::Binary& node) override {
                if (node.op == ast::BinaryOp::And || node.op == ast::BinaryOp::Or)
                    visitExpr(*node.lhs);
                else
                    ast::Visitor::visitBinary(node);
            }
        } always;
        // A block's statements in order; of an `if` its first condition, and the subscripts that
        // every branch evaluates when there is an `else` (`if (t[i] > 0) { u[i] = t[i] } else {
        // u[i] = 0 }` writes `u[i]` at every turn: a tester's loop over a padded array wrote past
        // the unpadded one's part, unchecked).
        std::function<void(const ast::Block&, std::vector<const ast::Subscript*>&)> block =
            [&](const ast::Block& b, std::vector<const ast::Subscript*>& into) {
                always.out = &into;
                for (const auto& st : b.stmts) {
                    if (auto es = st->as<ast::ExprStmt>()) {
                        always.visitExpr(*es->expr);
                    } else if (auto rs = st->as<ast::ReduceStmt>()) {
                        always.visitExpr(*rs->operand);
                    } else if (auto is = st->as<ast::If>(); is && !is->branches.empty()) {
                        always.visitExpr(*is->branches.front().condition);
                        if (!is->elseBody)
                            continue;
                        std::vector<std::vector<const ast::Subscript*>> arms;
                        for (const ast::IfBranch& br : is->branches)
                            block(br.body, arms.emplace_back());
                        block(*is->elseBody, arms.emplace_back());
                        always.out = &into;
                        for (const ast::Subscript* sub : arms.front()) {
                            const std::string key = semantic::exprText(*sub);
                            if (std::all_of(arms.begin() + 1, arms.end(), [&](const auto& arm) {
                                    return std::any_of(arm.begin(), arm.end(), [&](const ast::Subscript* other) {
                                        return semantic::exprText(*other) == key;
                                    });
                                }))
                                into.push_back(sub);
                        }
                    }
                }
            };
        block(p.body, out);
        return true;
    }

    // Version-dependent arrays that the stage writes on a box known before the loop runs
    // (epoch_writes.h): the loop reports the box to the runtime (TaskInstance::epoch_wrote), so
    // that an Epoch entry rotates the versions and copies only the cells outside it.
    struct BoxWrite {
        int array;
        int dims;
    };
    std::map<const ast::ParallelLoop*, BoxWrite> boxWrites_;
    void findBoxWrites() {
        std::set<std::string> arrays(sig_.directArrays.begin(), sig_.directArrays.end());
        for (const auto& [pn, sp] : sig_.params)
            if (sp.isArray && !sp.global.empty())
                arrays.insert(sp.global);
        for (const auto& a : arrays)
            if (const ast::ParallelLoop* loop = te_.boxWritingLoopOf(inst_, a, te_.stageLps()))
                boxWrites_[loop] = {te_.arrayIndex(a), te_.global(a).type.arrayDims()};
    }

    TaskEmitter& te_;
    const semantic::StageInstance& inst_;
    const StageSig& sig_;
    std::set<std::string> loopVars_;
    std::set<std::string> constants_; // parameters bound to a literal or `partition.p`
};

// Whether parameter i is bound to a section of a fixed-size field (`cfg.k[1...2]`,
// `boxes[0].weights[0...1]`) at every call of the instance: TaskEmitter::fieldSectionArgument
// passes a view of the field. (An instance's calls bind the same type rooted at the same
// task-global, and a section of an object's field is the only array of its element type
// rooted there, so its calls agree.)
static bool sectionOfField(const semantic::StageInstance& inst, size_t i) {
    for (const ast::StageCall* call : inst.calls) {
        auto sub = i < call->args.size() && call->args[i].value ? call->args[i].value->as<ast::Subscript>() : nullptr;
        if (!sub || !sub->base->as<ast::FieldAccess>())
            return false;
    }
    return !inst.calls.empty();
}

// For array parameter `i` of a stage instance: the dimensions of its task-global that each of
// its own dimensions stands for, over the instance's calls that pass a section (`m[k][...]`
// keeps dimension 2 as dimension 1); empty when no call passes a section.
static std::vector<std::set<int>> sectionDimsAt(const semantic::StageInstance& inst, size_t i, int dims) {
    std::vector<std::set<int>> out;
    for (const ast::StageCall* call : inst.calls) {
        if (i >= call->args.size() || !call->args[i].value)
            continue;
        auto sub = call->args[i].value->as<ast::Subscript>();
        if (!sub)
            continue;
        out.resize(static_cast<size_t>(dims));
        size_t j = 0;
        for (size_t d = 0; d < sub->items.size() && j < out.size(); ++d)
            if (sub->items[d].kind != ast::SubscriptItem::Kind::Index)
                out[j++].insert(static_cast<int>(d));
        for (size_t d = sub->items.size(); j < out.size(); ++d) // `m[k]`: the rest are whole
            out[j++].insert(static_cast<int>(d));
    }
    // A call passing the whole array keeps the numbering.
    for (const ast::StageCall* call : inst.calls)
        if (i < call->args.size() && call->args[i].value && call->args[i].value->as<ast::NameRef>() && !out.empty())
            for (size_t j = 0; j < out.size(); ++j)
                out[j].insert(static_cast<int>(j));
    return out;
}

int TaskEmitter::olderScalarParams(Out& o, const semantic::ParamBinding& b, const std::string& name) const {
    const bool element = isGlobal(b.rootGlobal) && global(b.rootGlobal).type.isArray() && versionsOf(b.rootGlobal) > 1;
    if (b.constant || (!versionedScalar(b.rootGlobal) && !element))
        return 1;
    for (int k = 1; k < versionsOf(b.rootGlobal); ++k)
        o << ", const " << cppType(b.type) << " " << name << "_older" << k;
    return versionsOf(b.rootGlobal);
}

void TaskEmitter::emitStage(Out& o, size_t k) {
    const semantic::StageInstance& inst = info_->stageInstances[k];
    StageSig& sig = sigs_[k];
    const ast::StageDef& def = *inst.stage;
    sig.fn = "stage_" + def.name.text + "_" + std::to_string(k);
    stageLps_ = inst.calls.empty() ? -1 : plan_.flow.at(nodeOf(*inst.calls.front())).context;
    o << lineComment(in_, def.range);
    // G, T, LPU start with a capital: no IT variable (lowercase first) can hide them.
    o << "static void " << sig.fn << "(Globals& G, itrt::task::TaskInstance& T, const Lpu& LPU";
    // Reductions inside, by parameter.
    std::map<std::string, std::pair<std::string, std::string>> slotOps; // param -> (op, operand type)
    std::function<void(const ast::Block&)> scan = [&](const ast::Block& b) {
        for (auto& s : b.stmts) {
            if (auto p = s->as<ast::ParallelLoop>()) {
                if (p->body.stmts.size() == 1)
                    if (auto r = p->body.stmts[0]->as<ast::ReduceStmt>()) {
                        auto t = inst.exprTypes.count(r->operand.get()) ? inst.exprTypes.at(r->operand.get())
                                                                        : semantic::Type::error();
                        if (t.kind == TypeKind::RealLiteral)
                            t = semantic::Type::simple(TypeKind::RealDouble);
                        std::string op = r->op.text;
                        if (!r->op.isLiteral) {
                            // An operator parameter: the string literal this invocation binds to it
                            // (semantic/check requires one).
                            for (size_t q = 0; q < def.params.size(); ++q)
                                if (def.params[q].text == r->op.text && inst.params[q].isStringLiteral)
                                    op = inst.params[q].literalString;
                        }
                        slotOps[r->target.text] = {op, cppType(t)};
                    }
                scan(p->body);
            } else if (auto f = s->as<ast::SequentialFor>()) {
                scan(f->body);
            } else if (auto w = s->as<ast::While>()) {
                scan(w->body);
            } else if (auto i = s->as<ast::If>()) {
                for (auto& br : i->branches)
                    scan(br.body);
                if (i->elseBody)
                    scan(*i->elseBody);
            }
        }
    };
    scan(def.body);
    for (size_t i = 0; i < def.params.size(); ++i) {
        const std::string& pn = def.params[i].text;
        const semantic::ParamBinding& b = inst.params[i];
        StageParam sp;
        sp.cppName = cppName(pn); // `operator` -> `operator_`
        sp.global = b.rootGlobal;
        sp.literal = b.isStringLiteral ? b.literalString : "";
        if (!b.spaceTarget.empty()) {
            sp.isReductionSlot = true;
            auto it = slotOps.find(pn);
            if (it == slotOps.end())
                notTranslated(def.range, "a `Space X:` argument not used as a reduction target");
            sp.reduceOp = reduceOpName(it->second.first);
            sp.reduceType = it->second.second;
            o << ", itrt::Reducer<" << sp.reduceOp << ", " << sp.reduceType << ">::Value& " << sp.cppName;
        } else if (b.type.kind == TypeKind::StaticArray && isGlobal(b.rootGlobal) &&
                   global(b.rootGlobal).type.kind != TypeKind::StaticArray) {
            // A fixed-size field of a task-global object (`b.weights`), or of an element of a
            // task array of objects (`boxes[0].weights`): that object's own std::array.
            o << ", " << (b.constant ? "const " : "") << cppType(b.type) << "& " << sp.cppName;
            sp.olderVersions = olderScalarParams(o, b, sp.cppName);
        } else if (b.type.isArray()) {
            sp.isArray = true;
            sp.dims = b.type.arrayDims();
            sp.element = cppElement(b.type);
            if (b.rootGlobal.empty())
                notTranslated(def.range, "array arguments not named by a task-global");
            if (sectionOfField(inst, i)) {
                sp.global.clear(); // a view of an object's std::array: no part, one version, not strided
            } else {
                sp.sectionDims = sectionDimsAt(inst, i, sp.dims);
                sp.versions = versionsOf(b.rootGlobal);
            }
            o << ", const View<" << sp.element << ", " << sp.dims << ">* " << sp.cppName << "_v";
        } else if (b.isStringLiteral) {
            sp.literal = b.literalString;
            o << ", const std::string& " << sp.cppName;
        } else if (b.constant || (b.type.kind != TypeKind::List && !stageMayWrite(def, pn))) {
            o << ", const " << cppType(b.type) << " " << sp.cppName;
            sp.olderVersions = olderScalarParams(o, b, sp.cppName);
        } else {
            o << ", " << cppType(b.type) << "& " << sp.cppName;
            sp.olderVersions = olderScalarParams(o, b, sp.cppName);
        }
        sig.params[pn] = sp;
        sig.order.push_back(pn);
    }
    for (const std::string& gname : inst.globalsUsed) {
        if (!isGlobal(gname) || !global(gname).type.isArray())
            continue;
        sig.directArrays.insert(gname);
        o << ", const View<" << cppElement(global(gname).type) << ", " << global(gname).type.arrayDims() << ">* d_"
          << gname << "_v";
    }
    o << ") {\n";
    // Views as locals: the translation is folded into each view's origin once per LPU.
    for (auto& [pn, sp] : sig.params)
        if (sp.isArray)
            for (int v = 0; v < sp.versions; ++v)
                o << "const auto " << sp.cppName << (v ? "_" + std::to_string(v) : "") << " = " << sp.cppName << "_v["
                  << v << "];\n";
    for (const std::string& a : sig.directArrays)
        for (int v = 0; v < versionsOf(a); ++v)
            o << "const auto d_" << a << (v ? "_" + std::to_string(v) : "") << " = d_" << a << "_v[" << v << "];\n";
    std::set<std::string> loops;
    loopIndexNames(def.body, loops);
    NamesOutsideTheirLoops outside;
    outside.visitBlock(def.body);
    for (auto& [name, type] : inst.locals) {
        if ((loops.count(name) && !outside.names.count(name)) || sig.params.count(name) || isGlobal(name))
            continue;
        o << cppType(type) << " " << cppName(name) << "{};\n";
    }
    StageBody body(*this, inst, sig);
    body.body(o, def.body);
    o << "(void)G;\n(void)T;\n(void)LPU;\n}\n\n";
}

} // namespace itc::backend
