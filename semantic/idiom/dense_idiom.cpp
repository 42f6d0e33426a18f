// Implements dense_idiom.h: pattern matching on the AST of one parallel loop, with the stage
// instance's parameter bindings deciding element types and aliasing.
#include "semantic/idiom/dense_idiom.h"

#include "frontend/ast/ast_visitor.h"
#include "semantic/check/ast_walk.h"

#include <algorithm>
#include <set>

namespace itc::semantic {

namespace {

// `arr[i][j]` where every subscript is a plain name (a loop index, checked later).
struct Access {
    std::string array;
    std::vector<std::string> idx;
    bool operator==(const Access&) const = default;
};

std::optional<Access> accessOf(const ast::Expr& e) {
    auto* s = e.as<ast::Subscript>();
    if (!s)
        return std::nullopt;
    auto* base = s->base->as<ast::NameRef>();
    if (!base)
        return std::nullopt;
    Access a{base->name, {}};
    for (const auto& item : s->items) {
        if (item.kind != ast::SubscriptItem::Kind::Index || !item.index)
            return std::nullopt;
        auto* n = item.index->as<ast::NameRef>();
        if (!n)
            return std::nullopt;
        a.idx.push_back(n->name);
    }
    return a;
}

// `x * y` with both factors array accesses.
std::optional<std::pair<Access, Access>> productOf(const ast::Expr& e) {
    auto* b = e.as<ast::Binary>();
    if (!b || b->op != ast::BinaryOp::Mul)
        return std::nullopt;
    auto x = accessOf(*b->lhs), y = accessOf(*b->rhs);
    if (!x || !y)
        return std::nullopt;
    return std::make_pair(*x, *y);
}

// The indices of a loop's groups, in order; nothing when a group restricts them (`and`) or an
// index repeats.
std::optional<std::vector<std::string>> loopIndices(const ast::ParallelLoop& loop) {
    std::vector<std::string> out;
    for (const auto& g : loop.groups) {
        if (g.restriction)
            return std::nullopt;
        for (const auto& i : g.indices) {
            if (std::find(out.begin(), out.end(), i.text) != out.end())
                return std::nullopt;
            out.push_back(i.text);
        }
    }
    return out;
}

// `out = out + v`, `out = v + out`, `out = out - v` (beta 1, alpha +1/-1) or `out = v`
// (beta 0): the update of `out` by the value `v` the caller recognises.
struct Update {
    Access out;
    const ast::Expr* value = nullptr;
    int alpha = 1, beta = 1;
};

std::optional<Update> updateOf(const ast::Stmt& s, bool allowOverwrite) {
    auto* es = s.as<ast::ExprStmt>();
    auto* as = es ? es->expr->as<ast::Assign>() : nullptr;
    if (!as)
        return std::nullopt;
    auto out = accessOf(*as->target);
    if (!out)
        return std::nullopt;
    if (auto* b = as->value->as<ast::Binary>(); b && (b->op == ast::BinaryOp::Add || b->op == ast::BinaryOp::Sub)) {
        auto l = accessOf(*b->lhs), r = accessOf(*b->rhs);
        if (l && *l == *out)
            return Update{*out, b->rhs.get(), b->op == ast::BinaryOp::Sub ? -1 : 1, 1};
        if (b->op == ast::BinaryOp::Add && r && *r == *out)
            return Update{*out, b->lhs.get(), 1, 1};
        return std::nullopt;
    }
    if (allowOverwrite)
        return Update{*out, as->value.get(), 1, 0};
    return std::nullopt;
}

// The stage parameter named `name` when it is bound to an array of `dims` dimensions.
const ParamBinding* arrayParam(const StageInstance& inst, const std::string& name, int dims) {
    for (size_t i = 0; i < inst.stage->params.size() && i < inst.params.size(); ++i)
        if (inst.stage->params[i].text == name) {
            const ParamBinding& b = inst.params[i];
            if (b.type.kind != TypeKind::DynamicArray || b.type.arrayDims() != dims || !b.type.element ||
                b.rootGlobal.empty())
                return nullptr;
            return &b;
        }
    return nullptr;
}

// Roles of the indices: out[m][n] (or out[m]), factors over {m, k} and {k, n} (or {k}).
std::optional<DenseIdiom> idiomOf(const Access& out, const Access& f1, const Access& f2, int alpha, int beta,
                                  const std::set<std::string>& indices, const StageInstance& inst) {
    DenseIdiom d;
    d.alpha = alpha;
    d.beta = beta;
    if (out.idx.empty() || out.idx.size() > 2)
        return std::nullopt;
    d.kind = out.idx.size() == 2 ? DenseIdiom::Kind::Gemm : DenseIdiom::Kind::Gemv;
    d.m = out.idx[0];
    if (d.kind == DenseIdiom::Kind::Gemm)
        d.n = out.idx[1];
    // The summed index: the one loop index the output does not use.
    std::set<std::string> rest = indices;
    rest.erase(d.m);
    rest.erase(d.n);
    if (rest.size() != 1 || indices.size() != (d.kind == DenseIdiom::Kind::Gemm ? 3u : 2u) || d.m == d.n)
        return std::nullopt;
    d.k = *rest.begin();
    auto orient = [](const Access& f, const std::string& row, const std::string& col, bool& trans) {
        if (f.idx == std::vector<std::string>{row, col})
            return (trans = false), true;
        if (f.idx == std::vector<std::string>{col, row})
            return (trans = true), true;
        return false;
    };
    const Access* a = &f1;
    const Access* b = &f2;
    if (d.kind == DenseIdiom::Kind::Gemm) {
        if (!orient(*a, d.m, d.k, d.transA))
            std::swap(a, b);
        if (!orient(*a, d.m, d.k, d.transA) || !orient(*b, d.k, d.n, d.transB))
            return std::nullopt;
    } else {
        if (a->idx.size() != 2)
            std::swap(a, b);
        if (!orient(*a, d.m, d.k, d.transA) || b->idx != std::vector<std::string>{d.k})
            return std::nullopt;
    }
    d.out = out.array;
    d.a = a->array;
    d.b = b->array;
    const ParamBinding* po = arrayParam(inst, d.out, static_cast<int>(out.idx.size()));
    const ParamBinding* pa = arrayParam(inst, d.a, 2);
    const ParamBinding* pb = arrayParam(inst, d.b, static_cast<int>(b->idx.size()));
    if (!po || !pa || !pb)
        return std::nullopt;
    // The output must not be read through another name: BLAS reads inputs while writing it.
    if (po->rootGlobal == pa->rootGlobal || po->rootGlobal == pb->rootGlobal)
        return std::nullopt;
    d.element = po->type.elementType().kind;
    if (d.element != TypeKind::RealSingle && d.element != TypeKind::RealDouble)
        return std::nullopt;
    if (pa->type.elementType().kind != d.element || pb->type.elementType().kind != d.element)
        return std::nullopt;
    return d;
}

// Whether the stage body holds native code (which may read any local by its IT name).
bool hasExtern(const ast::Block& b) {
    struct Find : ast::Visitor {
        bool found = false;
        void visitExtern(const ast::Extern&) override { found = true; }
    } find;
    find.visitBlock(b);
    return find.found;
}

// The reduction form: `do { t = reduce("sum", x * y) } for k in ...` then an update by `t`.
std::optional<DenseIdiom> matchReduction(const ast::ParallelLoop& loop, const std::vector<std::string>& outer,
                                         const StageInstance& inst) {
    if (loop.body.stmts.size() != 2)
        return std::nullopt;
    auto* inner = loop.body.stmts[0]->as<ast::ParallelLoop>();
    if (!inner || inner->body.stmts.size() != 1)
        return std::nullopt;
    auto innerIdx = loopIndices(*inner);
    if (!innerIdx || innerIdx->size() != 1)
        return std::nullopt;
    auto* es = inner->body.stmts[0]->as<ast::ExprStmt>();
    auto* as = es ? es->expr->as<ast::Assign>() : nullptr;
    auto* target = as ? as->target->as<ast::NameRef>() : nullptr;
    auto* re = as ? as->value->as<ast::ReduceExpr>() : nullptr;
    if (!target || !re || !re->op.isLiteral || re->op.text != "sum")
        return std::nullopt;
    auto factors = productOf(*re->operand);
    auto update = updateOf(*loop.body.stmts[1], true);
    if (!factors || !update)
        return std::nullopt;
    auto* used = update->value->as<ast::NameRef>();
    if (!used || used->name != target->name)
        return std::nullopt;
    // `t` must be a stage local that nothing else reads: the kernel does not leave a value in it.
    const std::string& t = target->name;
    if (!inst.locals.count(t) || std::count(inst.globalsUsed.begin(), inst.globalsUsed.end(), t) ||
        std::any_of(inst.stage->params.begin(), inst.stage->params.end(),
                    [&](const ast::Name& p) { return p.text == t; }))
        return std::nullopt;
    if (hasExtern(inst.stage->body))
        return std::nullopt;
    int uses = 0;
    check::walkBlock(inst.stage->body, [&](const ast::Expr& e) {
        if (auto* n = e.as<ast::NameRef>(); n && n->name == t)
            ++uses;
    });
    if (uses != 2)
        return std::nullopt;
    std::set<std::string> indices(outer.begin(), outer.end());
    if (indices.count(innerIdx->front()) || std::find(outer.begin(), outer.end(), t) != outer.end())
        return std::nullopt;
    indices.insert(innerIdx->front());
    auto d = idiomOf(update->out, factors->first, factors->second, update->alpha, update->beta, indices, inst);
    // The summed index must be the inner loop's.
    if (d && d->k != innerIdx->front())
        return std::nullopt;
    return d;
}

} // namespace

std::optional<DenseIdiom> matchDenseIdiom(const ast::ParallelLoop& loop, const StageInstance& inst) {
    if (!inst.stage)
        return std::nullopt;
    auto indices = loopIndices(loop);
    if (!indices)
        return std::nullopt;
    if (loop.body.stmts.size() == 2)
        return matchReduction(loop, *indices, inst);
    if (loop.body.stmts.size() != 1)
        return std::nullopt;
    auto update = updateOf(*loop.body.stmts[0], false);
    if (!update)
        return std::nullopt;
    auto factors = productOf(*update->value);
    if (!factors)
        return std::nullopt;
    return idiomOf(update->out, factors->first, factors->second, update->alpha, update->beta,
                   std::set<std::string>(indices->begin(), indices->end()), inst);
}

} // namespace itc::semantic
