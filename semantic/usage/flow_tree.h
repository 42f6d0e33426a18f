// Pass: the Computation section of one task -> its flow tree, with the context space (LPS) of
// every flow part (guide: The Computation section). It reports nothing: the flow's space rules
// (declared spaces, nesting, `Repeat foreach` placement) are checked by semantic/check/.
// Guarantees: every node has a valid context (an erroneous Space block keeps its outer context).
#pragma once

#include "frontend/ast/ast.h"
#include "frontend/diagnostics/diagnostics.h"
#include "semantic/partition/lps_tree.h"

#include <string>
#include <vector>

namespace itc::semantic {

struct FlowNode {
    enum class Kind { Root, Space, RepeatFor, RepeatWhile, RepeatForeach, Condition, Epoch, Call };
    Kind kind = Kind::Root;
    int parent = -1;             // -1 for the root node
    std::vector<int> children;   // in flow order
    int context = kRootLps;      // the LPS this part runs in (for Space: the entered space)
    int outerContext = kRootLps; // Space nodes: the context the block was entered from
    std::string label;           // `Repeat for counter_1 in [1...max_iterations]`, `Space B`, ...
    SourceRange range;
    // Borrowed AST node; valid only while the program it came from is alive.
    const ast::FlowPart* source = nullptr;
    bool isLoop() const { return kind == Kind::RepeatFor || kind == Kind::RepeatWhile || kind == Kind::RepeatForeach; }
};

struct FlowTree {
    std::vector<FlowNode> nodes; // [0] is the root (the whole Computation section, in Root)
    const FlowNode& at(int id) const { return nodes.at(static_cast<std::size_t>(id)); }
    // The innermost enclosing node of `kind` above `id` (excluding `id`), or -1.
    int enclosing(int id, FlowNode::Kind kind) const;
};

FlowTree buildFlowTree(const ast::TaskDef& task, const LpsTree& lps, DiagnosticEngine& diags);

} // namespace itc::semantic
