// Kind and enum names of the AST (see ast_names.h).
#include "frontend/ast/ast_names.h"

#include <fmt/format.h>

namespace itc::ast {

std::string_view kindName(ExprKind kind) {
    switch (kind) {
#define EXPR_KIND(k)  \
    case ExprKind::k: \
        return #k;
#include "frontend/ast/node_kinds.def"
#undef EXPR_KIND
    }
    return "?";
}

std::string_view kindName(StmtKind kind) {
    switch (kind) {
#define STMT_KIND(k)  \
    case StmtKind::k: \
        return #k;
#include "frontend/ast/node_kinds.def"
#undef STMT_KIND
    }
    return "?";
}

std::string_view kindName(FlowKind kind) {
    switch (kind) {
#define FLOW_KIND(k)  \
    case FlowKind::k: \
        return #k;
#include "frontend/ast/node_kinds.def"
#undef FLOW_KIND
    }
    return "?";
}

std::string_view binaryOpSpelling(BinaryOp op) {
    switch (op) {
    case BinaryOp::Add: return "+";
    case BinaryOp::Sub: return "-";
    case BinaryOp::Mul: return "*";
    case BinaryOp::Div: return "/";
    case BinaryOp::Mod: return "%";
    case BinaryOp::Power: return "**";
    case BinaryOp::ShiftLeft: return "<<";
    case BinaryOp::ShiftRight: return ">>";
    case BinaryOp::BitAnd: return "&";
    case BinaryOp::BitXor: return "^";
    case BinaryOp::BitOr: return "|";
    case BinaryOp::Less: return "<";
    case BinaryOp::Greater: return ">";
    case BinaryOp::LessEqual: return "<=";
    case BinaryOp::GreaterEqual: return ">=";
    case BinaryOp::Equal: return "==";
    case BinaryOp::NotEqual: return "!=";
    case BinaryOp::And: return "and";
    case BinaryOp::Or: return "or";
    }
    return "?";
}

std::string_view unaryOpSpelling(UnaryOp op) { return op == UnaryOp::Negate ? "-" : "!"; }

std::string_view linkModeSpelling(LinkMode mode) {
    switch (mode) {
    case LinkMode::Link: return "link";
    case LinkMode::Create: return "create";
    case LinkMode::LinkOrCreate: return "link-or-create";
    }
    return "?";
}

std::string_view partitionFunctionName(PartitionFunction f) {
    switch (f) {
    case PartitionFunction::BlockSize: return "block_size";
    case PartitionFunction::BlockCount: return "block_count";
    case PartitionFunction::Stride: return "stride";
    case PartitionFunction::BlockStride: return "block_stride";
    }
    return "?";
}

std::string_view subpartitionOrderName(SubpartitionOrder order) {
    switch (order) {
    case SubpartitionOrder::Increasing: return "increasing";
    case SubpartitionOrder::Decreasing: return "decreasing";
    case SubpartitionOrder::Unordered: return "unordered";
    case SubpartitionOrder::Ordered: return "ordered";
    }
    return "?";
}

std::string_view executeLabelName(ExecuteArg::Label label) {
    switch (label) {
    case ExecuteArg::Label::Task: return "task";
    case ExecuteArg::Label::Environment: return "environment";
    case ExecuteArg::Label::Initialize: return "initialize";
    case ExecuteArg::Label::Partition: return "partition";
    }
    return "?";
}

std::string typeToString(const TypeExpr& type) {
    std::string element = type.element ? typeToString(*type.element) : "?";
    switch (type.kind) {
    case TypeKind::Integer: return "Integer";
    case TypeKind::RealSingle: return "Real single-precision";
    case TypeKind::RealDouble: return "Real double-precision";
    case TypeKind::Character: return "Character";
    case TypeKind::Boolean: return "Boolean";
    case TypeKind::String: return "String";
    case TypeKind::Range: return "Range";
    case TypeKind::Class: return type.className;
    case TypeKind::TaskEnvironment: return "TaskEnvironment";
    case TypeKind::StaticArray: {
        std::string out = "Array";
        for (std::int64_t n : type.lengths)
            out += fmt::format("[{}]", n);
        return out + " of " + element;
    }
    case TypeKind::DynamicArray: return fmt::format("{}d Array of {}", type.dimensionality, element);
    case TypeKind::List: return "List of " + element;
    }
    return "?";
}

} // namespace itc::ast
