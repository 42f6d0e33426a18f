// Which cells of an array's current epoch version a stage writes: recognises the box-writing
// parallel loop described in epoch_writes.h by walking the stage body once.
#include "backend/epoch_writes.h"

#include "backend/emitter.h"

#include "frontend/ast/ast_visitor.h"

#include <set>
#include <vector>

namespace itc::backend {

namespace {

using namespace ast;

// The variable at the root of an assignable or passed expression: x, x.f, x[i], (x) at (...).
const NameRef* rootName(const Expr* e) {
    while (e) {
        if (auto n = e->as<NameRef>())
            return n;
        if (auto ep = e->as<ast::Epoch>())
            e = ep->operand.get();
        else if (auto s = e->as<Subscript>())
            e = s->base.get();
        else if (auto f = e->as<FieldAccess>())
            e = f->base.get();
        else
            return nullptr;
    }
    return nullptr;
}

// Every name a block may change: assignment targets, loop indices, reduction targets, and the
// variables passed to calls (a `&` parameter may change them).
class ChangedNames : public Visitor {
public:
    std::set<std::string> names;
    void visitAssign(const Assign& node) override {
        if (auto n = rootName(node.target.get()))
            names.insert(n->name);
        Visitor::visitAssign(node);
    }
    void visitCall(const Call& node) override {
        for (const CallArg& a : node.args)
            if (auto n = rootName(a.value.get()))
                names.insert(n->name);
        Visitor::visitCall(node);
    }
    void visitParallelLoop(const ParallelLoop& node) override {
        for (const IndexGroup& g : node.groups)
            for (const Name& i : g.indices)
                names.insert(i.text);
        Visitor::visitParallelLoop(node);
    }
    void visitSequentialFor(const SequentialFor& node) override {
        names.insert(node.index.text);
        Visitor::visitSequentialFor(node);
    }
    void visitReduceStmt(const ReduceStmt& node) override {
        names.insert(node.target.text);
        Visitor::visitReduceStmt(node);
    }
};

class NamesIn : public Visitor {
public:
    std::set<std::string> names;
    void visitNameRef(const NameRef& node) override { names.insert(node.name); }
};

// The assignment `name[i1]...[iN] = ...` to the current version, with the loop's indices in
// dimension order; nullptr for any other statement.
const Assign* boxWrite(const Stmt& s, const std::string& name, const IndexGroup& g) {
    auto es = s.as<ExprStmt>();
    auto as = es ? es->expr->as<Assign>() : nullptr;
    if (!as)
        return nullptr;
    const Expr* t = as->target.get();
    if (auto ep = t->as<ast::Epoch>()) {
        if (ep->lag != 0)
            return nullptr;
        t = ep->operand.get();
    }
    auto sub = t->as<Subscript>();
    auto base = sub ? sub->base->as<NameRef>() : nullptr;
    if (!base || base->name != name || sub->items.size() != g.indices.size())
        return nullptr;
    for (size_t d = 0; d < sub->items.size(); ++d) {
        const SubscriptItem& it = sub->items[d];
        auto idx = it.kind == SubscriptItem::Kind::Index && it.index ? it.index->as<NameRef>() : nullptr;
        if (!idx || idx->name != g.indices[d].text)
            return nullptr;
    }
    return as;
}

// Checks every other use of `name` in the stage: reads of versions before the current one,
// dimension attributes, and nothing else.
class OtherUses : public Visitor {
public:
    OtherUses(const std::string& name, const std::set<const Assign*>& writes) : name_(name), writes_(writes) {}
    bool ok = true;

    void visitEpoch(const ast::Epoch& node) override {
        lags_.push_back(node.lag);
        Visitor::visitEpoch(node);
        lags_.pop_back();
    }
    void visitAssign(const Assign& node) override {
        if (writes_.count(&node)) { // its subscripts are the loop indices
            visitIfSet(node.value);
            return;
        }
        if (auto n = rootName(node.target.get()); n && n->name == name_)
            ok = false;
        Visitor::visitAssign(node);
    }
    void visitSubscript(const Subscript& node) override {
        auto base = node.base->as<NameRef>();
        if (base && base->name == name_) {
            if (lags_.empty() || lags_.back() == 0)
                ok = false; // a read of the current version
            for (const SubscriptItem& i : node.items) {
                visitIfSet(i.index);
                visitIfSet(i.first);
                visitIfSet(i.last);
            }
            return;
        }
        Visitor::visitSubscript(node);
    }
    void visitProperty(const Property& node) override {
        if (auto base = node.base->as<NameRef>(); base && base->name == name_)
            return; // `name.local.dimensionK...`: metadata only
        Visitor::visitProperty(node);
    }
    void visitNameRef(const NameRef& node) override {
        if (node.name == name_)
            ok = false; // the whole array
    }
    void visitCall(const Call& node) override {
        for (const CallArg& a : node.args)
            if (auto n = rootName(a.value.get()); n && n->name == name_)
                ok = false;
        Visitor::visitCall(node);
    }
    void visitReduceStmt(const ReduceStmt& node) override {
        if (node.target.text == name_)
            ok = false;
        Visitor::visitReduceStmt(node);
    }
    void visitExtern(const Extern&) override { ok = false; }

private:
    const std::string& name_;
    const std::set<const Assign*>& writes_;
    std::vector<std::int64_t> lags_;
};

// Every restriction conjunct bounds one index by an expression that stays the same while the
// loop runs.
bool boundsAreInvariant(const ParallelLoop& loop) {
    const IndexGroup& g = loop.groups.front();
    if (!g.restriction)
        return true;
    ChangedNames changed;
    changed.visitBlock(loop.body);
    std::set<std::string> fixed = changed.names;
    for (const Name& i : g.indices)
        fixed.insert(i.text);
    std::vector<const Expr*> conj;
    splitAnd(*g.restriction, conj);
    for (const Expr* c : conj) {
        auto b = c->as<Binary>();
        if (!b || (b->op != BinaryOp::Less && b->op != BinaryOp::Greater && b->op != BinaryOp::LessEqual &&
                   b->op != BinaryOp::GreaterEqual))
            return false;
        auto isIndex = [&](const Expr& e) {
            auto n = e.as<NameRef>();
            if (!n)
                return false;
            for (const Name& i : g.indices)
                if (i.text == n->name)
                    return true;
            return false;
        };
        const Expr* other = isIndex(*b->lhs) ? b->rhs.get() : isIndex(*b->rhs) ? b->lhs.get() : nullptr;
        if (!other)
            return false;
        NamesIn names;
        names.visitExpr(*other);
        for (const auto& n : names.names)
            if (fixed.count(n))
                return false;
    }
    return true;
}

} // namespace

const ast::ParallelLoop* boxWritingLoop(const ast::StageDef& stage, const std::string& name, int dims) {
    const ParallelLoop* loop = nullptr;
    std::set<const Assign*> writes;
    for (const StmtPtr& s : stage.body.stmts) {
        auto p = s->as<ParallelLoop>();
        if (!p || p->groups.size() != 1)
            continue;
        const IndexGroup& g = p->groups.front();
        if (g.collection.text != name || g.dimensionIndex != 0 || static_cast<int>(g.indices.size()) != dims)
            continue;
        bool any = false;
        for (const StmtPtr& b : p->body.stmts)
            if (const Assign* w = boxWrite(*b, name, g)) {
                writes.insert(w);
                any = true;
            }
        if (!any)
            continue;
        if (loop)
            return nullptr; // two loops write it
        loop = p;
    }
    if (!loop || !boundsAreInvariant(*loop))
        return nullptr;
    OtherUses uses(name, writes);
    uses.visitBlock(stage.body);
    return uses.ok ? loop : nullptr;
}

} // namespace itc::backend
