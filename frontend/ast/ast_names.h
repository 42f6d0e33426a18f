// Names of AST kinds and enum values, generated from node_kinds.def and the enums of ast.h.
// Used by the AST printer and by diagnostics of later phases.
#pragma once

#include "frontend/ast/ast.h"

#include <string>
#include <string_view>

namespace itc::ast {

std::string_view kindName(ExprKind kind);
std::string_view kindName(StmtKind kind);
std::string_view kindName(FlowKind kind);

std::string_view binaryOpSpelling(BinaryOp op); // "+", "and", "**", ...
std::string_view unaryOpSpelling(UnaryOp op);   // "-", "!"
std::string_view linkModeSpelling(LinkMode mode);
std::string_view partitionFunctionName(PartitionFunction f);
std::string_view subpartitionOrderName(SubpartitionOrder order);
std::string_view executeLabelName(ExecuteArg::Label label);

// A type as IT spells it: "2d Array of Real double-precision", "Array[3] of Integer", ...
std::string typeToString(const TypeExpr& type);

} // namespace itc::ast
