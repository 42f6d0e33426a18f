#include "backend/held_part_uses.h"

#include "frontend/ast/ast_visitor.h"
#include "semantic/builtins/builtins.h"

#include <algorithm>
#include <regex>
#include <set>

namespace itc::backend {

namespace {
// The `x` of `x.dimensionK.range` (K in *dim, from 1), or null.
const ast::Expr* dimensionRangeBase(const ast::Expr& e, int* dim) {
    auto range = e.as<ast::Property>();
    if (!range || range->property != ast::PropertyKind::Range)
        return nullptr;
    auto dimension = range->base->as<ast::Property>();
    if (!dimension || dimension->property != ast::PropertyKind::Dimension || dimension->dimensionIndex < 1)
        return nullptr;
    if (dim)
        *dim = dimension->dimensionIndex;
    return dimension->base.get();
}
} // namespace

const ast::NameRef* dimensionRangeOf(const ast::Expr& e, int* dim) {
    const ast::Expr* base = dimensionRangeBase(e, dim);
    return base ? base->as<ast::NameRef>() : nullptr;
}

const ast::NameRef* localDimensionRangeOf(const ast::Expr& e, int* dim) {
    const ast::Expr* base = dimensionRangeBase(e, dim);
    auto local = base ? base->as<ast::Property>() : nullptr;
    return local && local->property == ast::PropertyKind::Local ? local->base->as<ast::NameRef>() : nullptr;
}

std::string functionParameter(const ast::FunctionDef& fn, size_t i) {
    if (fn.form == ast::FunctionDef::Form::Brace)
        return i < fn.params.size() ? fn.params[i].name.text : "";
    size_t k = 0;
    for (const auto& d : fn.arguments)
        for (const auto& n : d.names)
            if (k++ == i)
                return n.text;
    return "";
}

namespace {

// Marks the occurrences of the array that are allowed uses; every other occurrence is one such a
// part does not allow.
class ArrayUses : public ast::Visitor {
public:
    ArrayUses(const std::string& name, int dims, bool assignable) : name_(name), dims_(dims), assignable_(assignable) {}

    HeldArrayUses result;

    void visitAssign(const ast::Assign& a) override {
        if (assignable_ && isArray(*a.target))
            supported_.insert(a.target.get());
        if (auto t = a.target->as<ast::NameRef>(); t && t->name != name_ && isArray(*a.value)) {
            supported_.insert(a.value.get());
            result.copiedTo.push_back({t->name, a.range});
        }
        ast::Visitor::visitAssign(a);
    }
    void visitReturn(const ast::Return& r) override {
        if (r.value && isArray(*r.value))
            outOfReach(r.value->range, "returned");
        ast::Visitor::visitReturn(r);
    }
    void visitParallelLoop(const ast::ParallelLoop& p) override {
        for (const auto& g : p.groups)
            if (g.collection.text == name_)
                outOfReach(g.range, "looped over by a parallel loop");
        ast::Visitor::visitParallelLoop(p);
    }

    void visitSubscript(const ast::Subscript& s) override {
        if (isArray(*s.base) && static_cast<int>(s.items.size()) == dims_ &&
            std::all_of(s.items.begin(), s.items.end(),
                        [](const ast::SubscriptItem& it) { return it.kind == ast::SubscriptItem::Kind::Index; }))
            supported_.insert(s.base.get());
        else if (isArray(*s.base))
            outOfReach(s.range, "sectioned");
        ast::Visitor::visitSubscript(s);
    }
    void visitSequentialFor(const ast::SequentialFor& f) override {
        if (auto n = dimensionRangeOf(*f.rangeExpr); n && n->name == name_)
            supported_.insert(n);
        ast::Visitor::visitSequentialFor(f);
    }
    void visitFieldAccess(const ast::FieldAccess& f) override {
        if (auto n = dimensionRangeOf(*f.base);
            n && n->name == name_ && (f.field.text == "min" || f.field.text == "max"))
            supported_.insert(n);
        ast::Visitor::visitFieldAccess(f);
    }
    void visitCall(const ast::Call& c) override {
        const bool user = !semantic::builtinNamed(c.callee.text);
        for (size_t i = 0; i < c.args.size(); ++i)
            if (c.args[i].value && isArray(*c.args[i].value)) {
                if (user) {
                    supported_.insert(c.args[i].value.get());
                    result.passedOn.push_back({&c, i});
                } else {
                    outOfReach(c.args[i].value->range, "passed to `" + c.callee.text + "`");
                }
            }
        ast::Visitor::visitCall(c);
    }
    void visitProperty(const ast::Property& p) override {
        if (auto n = dimensionRangeOf(p); n && n->name == name_ && !supported_.count(n))
            outOfReach(p.range, "used through its dimension range as a Range value (which would also hold indices the "
                                "LPU does not)");
        ast::Visitor::visitProperty(p);
    }
    void visitNameRef(const ast::NameRef& n) override {
        if (n.name == name_ && !supported_.count(&n))
            outOfReach(n.range, "used as a whole array (assigned, copied, or as a value)");
    }
    void visitExtern(const ast::Extern& x) override {
        if (std::regex_search(x.code, std::regex("\\b" + name_ + "\\b")))
            outOfReach(x.range, "read in native code, which sees the array's storage");
    }

private:
    bool isArray(const ast::Expr& e) const {
        auto n = e.as<ast::NameRef>();
        return n && n->name == name_;
    }
    void outOfReach(SourceRange at, std::string what) {
        if (result.found)
            return;
        result.found = true;
        result.at = at;
        result.what = std::move(what);
    }

    const std::string& name_;
    const int dims_;
    const bool assignable_;
    std::set<const ast::Expr*> supported_;
};

} // namespace

HeldArrayUses heldArrayUses(const ast::Block& body, const std::string& name, int dims, bool assignable) {
    ArrayUses uses(name, dims, assignable);
    uses.visitBlock(body);
    return uses.result;
}

} // namespace itc::backend
