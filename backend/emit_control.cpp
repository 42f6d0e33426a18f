// Control statements whose C++ shape is the same in every kind of body (stage, function,
// coordinator, Initialize): only how conditions and blocks are emitted differs.
#include "backend/emitter.h"

#include <string>

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

void openSequentialFor(Out& o, const std::string& r, const std::string& var, const std::string& range,
                       const std::string& step, const std::string& heldArray, int dim) {
    if (!heldArray.empty()) {
        o << "{\nconst itrt::task::HeldIndices " << r << " = itrt::task::held_indices(" << heldArray << ", " << dim
          << ");\n";
        o << "const int64_t " << r << "_step = " << step << ";\n";
        o << "for (int64_t " << var << "_k = 0; " << var << "_k < " << r << ".count; " << var << "_k += " << r
          << "_step) {\n";
        o << "const int64_t " << var << " = " << r << ".at(" << var << "_k);\n";
        return;
    }
    o << "{\nconst Range " << r << " = " << range << ";\n";
    o << "const int64_t " << r << "_step = " << step << ";\n";
    o << "const int64_t " << r << "_dir = " << r << ".min <= " << r << ".max ? 1 : -1;\n";
    o << "for (int64_t " << var << " = " << r << ".min; " << r << "_dir > 0 ? " << var << " <= " << r
      << ".max : " << var << " >= " << r << ".max; " << var << " += " << r << "_dir * " << r << "_step) {\n";
}

} // namespace itc::backend
