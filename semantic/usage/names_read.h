// The names an expression reads: every name (NamesRead), or only those whose data it reads
// (DataRead: not an array named only for its dimensions, `v.dimension1.range`, which every
// process knows). Used by the condition stages of the plan and by the checks of stage bodies.
#pragma once

#include "frontend/ast/ast_visitor.h"

#include <algorithm>
#include <string>
#include <vector>

namespace itc::semantic {

// The names an expression reads, in the order of their first use.
class NamesRead : public ast::Visitor {
public:
    std::vector<std::string> names;
    bool partitionParameter = false;
    void visitPartitionParam(const ast::PartitionParam&) override { partitionParameter = true; }
    void visitNameRef(const ast::NameRef& n) override {
        if (std::find(names.begin(), names.end(), n.name) == names.end())
            names.push_back(n.name);
    }
};

// The names an expression reads data of: not those named only for their dimensions
// (`v.dimension1.range`, `v[1...2].dimension1`), which every process knows.
class DataRead : public NamesRead {
public:
    void visitProperty(const ast::Property& p) override {
        const ast::Expr* base = p.base.get();
        while (auto inner = base->as<ast::Property>())
            base = inner->base.get();
        if (base->as<ast::NameRef>())
            return;
        if (auto s = base->as<ast::Subscript>(); s && s->base->as<ast::NameRef>()) {
            for (const auto& i : s->items)
                for (const ast::ExprPtr* e : {&i.index, &i.first, &i.last})
                    if (*e)
                        visitExpr(**e);
            return;
        }
        NamesRead::visitProperty(p);
    }
};

// True if `e` names `name` anywhere.
inline bool mentions(const ast::Expr* e, const std::string& name) {
    if (!e)
        return false;
    NamesRead read;
    read.visitExpr(*e);
    return std::find(read.names.begin(), read.names.end(), name) != read.names.end();
}

// The dimension (0-based) an index of a loop over `array` with fewer indices than dimensions
// binds to: the lowest one in which it alone subscripts `array` in `body`; -1 when there is
// none (semantic/check reports that; data usage then leaves the binding unknown).
inline int dimensionBoundByUse(const ast::Block& body, const std::string& array, const std::string& index) {
    struct Finder : ast::Visitor {
        const std::string *array = nullptr, *index = nullptr;
        int best = -1;
        void visitSubscript(const ast::Subscript& s) override {
            if (auto* base = s.base->as<ast::NameRef>(); base && base->name == *array)
                for (std::size_t k = 0; k < s.items.size(); ++k) {
                    const ast::SubscriptItem& it = s.items[k];
                    auto* n =
                        it.kind == ast::SubscriptItem::Kind::Index && it.index ? it.index->as<ast::NameRef>() : nullptr;
                    if (n && n->name == *index && (best < 0 || static_cast<int>(k) < best))
                        best = static_cast<int>(k);
                }
            ast::Visitor::visitSubscript(s);
        }
    } finder;
    finder.array = &array;
    finder.index = &index;
    finder.visitBlock(body);
    return finder.best;
}

} // namespace itc::semantic
