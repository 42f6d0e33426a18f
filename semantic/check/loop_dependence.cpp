// Implements loop_dependence.h: per outermost parallel loop of a stage, the subscripts written
// and read, each dimension's index seen as `v + c` (v a parallel-loop index of the nest, c a
// literal) when it has that form. A write `a[i]` and a read `a[i - 1]` of the same array, at the
// current version, with the same index in every dimension and another offset in some, depend.
#include "semantic/check/loop_dependence.h"

#include "frontend/ast/ast_visitor.h"
#include "semantic/check/index_offset.h"
#include "semantic/usage/expr_text.h"

#include <fmt/format.h>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace itc::semantic::check {

namespace {

// Each dimension's index as `v + c` with `v` a parallel-loop index of the nest, or nothing if
// any dimension has another form.
std::optional<std::vector<IndexOffset>> offsetsOf(const ast::Subscript& s, const std::set<std::string>& indices) {
    std::vector<IndexOffset> out;
    for (const ast::SubscriptItem& item : s.items) {
        if (item.kind != ast::SubscriptItem::Kind::Index)
            return std::nullopt;
        std::optional<IndexOffset> o = indexOffset(item.index.get());
        if (!o || !indices.count(o->name))
            return std::nullopt;
        out.push_back(*o);
    }
    return out;
}

const std::string* arrayNamed(const ast::Subscript& s) {
    auto* n = s.base ? s.base->as<ast::NameRef>() : nullptr;
    return n ? &n->name : nullptr;
}

// True if `e` uses `%` on an expression that names `index`: `i % 2 == colour` splits the
// iterations into classes, and a read at an offset may fall in a class the loop does not write
// (red-black sweeps), which this check does not work out.
bool splitsByRemainder(const ast::Expr* e, const std::string& index) {
    struct Finder : ast::Visitor {
        const std::string& index;
        bool inRemainder = false, found = false;
        explicit Finder(const std::string& i) : index(i) {}
        void visitBinary(const ast::Binary& b) override {
            const bool outer = inRemainder;
            inRemainder = inRemainder || b.op == ast::BinaryOp::Mod;
            ast::Visitor::visitBinary(b);
            inRemainder = outer;
        }
        void visitNameRef(const ast::NameRef& n) override { found = found || (inRemainder && n.name == index); }
    } f(index);
    if (e)
        f.visitExpr(*e);
    return f.found;
}

// The writes and the current-version reads of subscripted arrays in one loop nest.
struct NestAccesses : ast::Visitor {
    std::set<std::string> indices;   // the nest's parallel-loop indices
    std::set<std::string> splitting; // indices whose restriction uses `%`
    std::vector<const ast::Subscript*> writes, reads;

    void visitParallelLoop(const ast::ParallelLoop& loop) override {
        for (const ast::IndexGroup& g : loop.groups)
            for (const ast::Name& i : g.indices) {
                indices.insert(i.text);
                if (splitsByRemainder(g.restriction.get(), i.text))
                    splitting.insert(i.text);
            }
        ast::Visitor::visitParallelLoop(loop);
    }
    void visitAssign(const ast::Assign& a) override {
        if (auto* s = a.target ? a.target->as<ast::Subscript>() : nullptr) {
            writes.push_back(s);
            for (const ast::SubscriptItem& i : s->items) { // reads inside the target's subscripts
                visitIfSet(i.index);
                visitIfSet(i.first);
                visitIfSet(i.last);
            }
        } else {
            visitIfSet(a.target);
        }
        visitIfSet(a.value);
    }
    void visitSubscript(const ast::Subscript& s) override {
        reads.push_back(&s);
        ast::Visitor::visitSubscript(s);
    }
    void visitEpoch(const ast::Epoch& e) override {
        if (e.lag == 0) // `at (current)` is the version written now
            ast::Visitor::visitEpoch(e);
    }
};

void warnNest(const ast::ParallelLoop& loop, DiagnosticEngine& diags) {
    NestAccesses nest;
    nest.visitParallelLoop(loop);
    std::set<std::string> reported;
    for (const ast::Subscript* r : nest.reads) {
        const std::string* array = arrayNamed(*r);
        if (!array || reported.count(*array))
            continue;
        auto read = offsetsOf(*r, nest.indices);
        if (!read)
            continue;
        for (const ast::Subscript* w : nest.writes) {
            const std::string* written = arrayNamed(*w);
            if (!written || *written != *array || w->items.size() != r->items.size())
                continue;
            auto write = offsetsOf(*w, nest.indices);
            if (!write)
                continue;
            bool same = true, shifted = false, split = false;
            for (std::size_t d = 0; d < read->size(); ++d) {
                same = same && (*read)[d].name == (*write)[d].name;
                shifted = shifted || (*read)[d].by != (*write)[d].by;
                split = split || nest.splitting.count((*read)[d].name);
            }
            if (!same || !shifted || split)
                continue;
            reported.insert(*array);
            auto& d = diags.report(
                DiagKind::LoopCarriedRead, r->range,
                fmt::format("this parallel loop reads `{}`, an element of `{}` that another of its iterations writes "
                            "(`{}`): the iterations of `do {{ }} for` may run in any order, or at once, so the value "
                            "read, and the result, depend on the order and on the partition; write a recurrence as "
                            "`do in sequence {{ }} for`, or read the earlier values from an older version (`{} at "
                            "(current - 1)` in an Epoch) or from a copy",
                            exprText(*r), *array, exprText(*w), exprText(*r)),
                Severity::Warning);
            DiagnosticEngine::addNote(d, w->range, "written here");
            break;
        }
    }
}

} // namespace

void warnLoopCarriedReads(const ast::StageDef& stage, DiagnosticEngine& diags) {
    // The outermost parallel loops; each one's nest is checked as a whole.
    struct Outermost : ast::Visitor {
        DiagnosticEngine& diags;
        explicit Outermost(DiagnosticEngine& d) : diags(d) {}
        void visitParallelLoop(const ast::ParallelLoop& loop) override { warnNest(loop, diags); }
    } walk(diags);
    walk.visitBlock(stage.body);
}

} // namespace itc::semantic::check
