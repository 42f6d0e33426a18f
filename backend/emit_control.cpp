// Control statements whose C++ shape is the same in every kind of body (stage, function,
// coordinator, Initialize): only how conditions and blocks are emitted differs.
#include "backend/emitter.h"

namespace itc::backend {

void emitIf(Out& o, const ast::If& i, const std::function<std::string(const ast::Expr&)>& cond,
            const std::function<void(const ast::Block&)>& block) {
    for (size_t k = 0; k < i.branches.size(); ++k) {
        o << (k ? "} else if (" : "if (") << cond(*i.branches[k].condition) << ") {\n";
        block(i.branches[k].body);
    }
    if (i.elseBody) {
        o << "} else {\n";
        block(*i.elseBody);
    }
    o << "}\n";
}

void emitDoWhile(Out& o, const ast::While& w, const std::function<std::string(const ast::Expr&)>& cond,
                 const std::function<void(const ast::Block&)>& block) {
    o << "do {\n";
    block(w.body);
    o << "} while (" << cond(*w.condition) << ");\n";
}

} // namespace itc::backend
