// Implements backward_ranges.h: one walk over every code body, keeping the enclosing sequential
// loops (index and literal range) and the conditions of the enclosing `if`s.
#include "semantic/check/backward_ranges.h"

#include "frontend/ast/ast_visitor.h"
#include "semantic/check/index_offset.h"
#include "semantic/usage/expr_text.h"
#include "semantic/usage/names_read.h"

#include <fmt/format.h>

#include <string>
#include <vector>

namespace itc::semantic::check {

namespace {

struct Walk : ast::Visitor {
    struct Loop {
        std::string index;
        const ast::RangeLiteral* range; // null when the range is not a literal
    };
    DiagnosticEngine& diags;
    std::vector<Loop> loops;
    std::vector<const ast::Expr*> guards; // conditions of the enclosing `if` branches

    explicit Walk(DiagnosticEngine& d) : diags(d) {}

    // `x + c` with c > 0 and x an enclosing loop's index: that loop, and c.
    const Loop* shiftedIndex(const ast::Expr* first, std::int64_t& by) const {
        std::optional<IndexOffset> o = indexOffset(first);
        if (!o || o->by <= 0)
            return nullptr;
        for (auto it = loops.rbegin(); it != loops.rend(); ++it)
            if (it->index == o->name) {
                by = o->by;
                return &*it;
            }
        return nullptr;
    }

    void check(const ast::SequentialFor& f) {
        auto* r = f.rangeExpr ? f.rangeExpr->as<ast::RangeLiteral>() : nullptr;
        if (!r || !r->first || !r->last)
            return;
        std::int64_t by = 0;
        const Loop* outer = shiftedIndex(r->first.get(), by);
        if (!outer || !outer->range || !outer->range->first || !outer->range->last ||
            mentions(r->last.get(), outer->index))
            return;
        const std::string last = exprText(*r->last);
        if (exprText(*outer->range->first) != last && exprText(*outer->range->last) != last)
            return;
        for (const ast::Expr* g : guards)
            if (mentions(g, outer->index))
                return;
        // `and i < n` on the loop itself tests the outer index alone: no turn runs then. (One that
        // also tests the loop's own index, `and j > i`, still lets j = n + 1 through.)
        if (mentions(f.restriction.get(), outer->index) && !mentions(f.restriction.get(), f.index.text))
            return;
        diags.report(
            DiagKind::RangeRunsBackwards, r->range,
            fmt::format("when `{0}` is `{1}`, this range is `[{1} + {2}...{1}]`, whose first index is past its "
                        "last: in IT such a range runs backwards (from {1} + {2} down to {1}), it is not "
                        "empty, so the loop runs past the end of `{0}`'s range; if it should not run then, "
                        "guard it (`if ({0} < {1}) {{ ... }}`)",
                        outer->index, last, by),
            Severity::Warning);
    }

    void visitSequentialFor(const ast::SequentialFor& f) override {
        check(f);
        visitIfSet(f.rangeExpr);
        visitIfSet(f.step);
        visitIfSet(f.restriction);
        loops.push_back({f.index.text, f.rangeExpr ? f.rangeExpr->as<ast::RangeLiteral>() : nullptr});
        visitBlock(f.body);
        loops.pop_back();
    }
    void visitIf(const ast::If& node) override {
        const std::size_t outer = guards.size();
        for (const ast::IfBranch& b : node.branches) {
            visitIfSet(b.condition);
            guards.push_back(b.condition.get()); // later branches and else run when it is FALSE
            visitBlock(b.body);
        }
        if (node.elseBody)
            visitBlock(*node.elseBody);
        guards.resize(outer);
    }
};

} // namespace

void warnRangesRunningBackwards(const ast::Program& program, DiagnosticEngine& diags) {
    Walk walk(diags);
    walk.visitProgram(program);
}

} // namespace itc::semantic::check
