// Builds the flow tree top-down, carrying the context space along.
#include "semantic/usage/flow_tree.h"

#include "semantic/usage/expr_text.h"

namespace itc::semantic {

int FlowTree::enclosing(int id, FlowNode::Kind kind) const {
    for (int p = at(id).parent; p != -1; p = at(p).parent)
        if (at(p).kind == kind)
            return p;
    return -1;
}

namespace {

class FlowBuilder {
public:
    explicit FlowBuilder(const LpsTree& lps) : lps_(lps) {}

    FlowTree run(const ast::TaskDef& task) {
        FlowNode root;
        root.label = "Computation";
        root.range = task.computationRange;
        tree_.nodes.push_back(root);
        build(task.computation, 0, kRootLps);
        return std::move(tree_);
    }

private:
    void build(const ast::FlowList& list, int parent, int context) {
        for (const ast::FlowPtr& part : list) {
            FlowNode n;
            n.parent = parent;
            n.context = context;
            n.outerContext = context;
            n.range = part->range;
            n.source = part.get();
            int childContext = context;
            const ast::FlowList* body = nullptr;
            switch (part->kind) {
            case ast::FlowKind::SpaceBlock: {
                const auto* s = part->as<ast::SpaceBlock>();
                n.kind = FlowNode::Kind::Space;
                n.label = "Space " + s->space.text;
                body = &s->body;
                // Unknown spaces and bad nesting are flow errors of semantic/check/ (UnknownSpace,
                // SpaceNotDescendant); here such a block simply keeps its outer context.
                int id = lps_.find(s->space.text);
                if (id != kNoLps && (context == kRootLps || lps_.isProperAncestor(context, id)))
                    childContext = id;
                n.context = childContext;
                break;
            }
            case ast::FlowKind::RepeatFor: {
                const auto* r = part->as<ast::RepeatFor>();
                n.kind = FlowNode::Kind::RepeatFor;
                n.label = "Repeat for " + r->variable.text + " in " +
                          (r->rangeExpr ? exprText(*r->rangeExpr) : std::string("?")) +
                          (r->step ? " step " + exprText(*r->step) : std::string());
                body = &r->body;
                break;
            }
            case ast::FlowKind::RepeatWhile: {
                const auto* r = part->as<ast::RepeatWhile>();
                n.kind = FlowNode::Kind::RepeatWhile;
                n.label = "Repeat while " + (r->condition ? exprText(*r->condition) : "?");
                body = &r->body;
                break;
            }
            case ast::FlowKind::RepeatForeach: {
                const auto* r = part->as<ast::RepeatForeach>();
                n.kind = FlowNode::Kind::RepeatForeach;
                n.label = "Repeat foreach sub-partition";
                body = &r->body;
                // Without a Sub-partition in `context`: ForeachWithoutSubpartition (semantic/check/).
                break;
            }
            case ast::FlowKind::Condition: {
                const auto* c = part->as<ast::Condition>();
                n.kind = FlowNode::Kind::Condition;
                std::string cond = c->condition ? exprText(*c->condition) : "?";
                if (c->membershipRange)
                    cond += " in " + exprText(*c->membershipRange);
                n.label = std::string(c->spelledIf ? "If " : "Where ") + cond;
                body = &c->body;
                break;
            }
            case ast::FlowKind::EpochBlock: {
                n.kind = FlowNode::Kind::Epoch;
                n.label = "Epoch";
                body = &part->as<ast::EpochBlock>()->body;
                break;
            }
            case ast::FlowKind::StageCall: {
                const auto* c = part->as<ast::StageCall>();
                n.kind = FlowNode::Kind::Call;
                std::string args;
                for (const ast::CallArg& a : c->args) {
                    if (!args.empty())
                        args += ", ";
                    args += a.isSpaceArg()
                                ? "Space " + a.space->text + ": " + (a.variable ? a.variable->text : std::string())
                                : (a.value ? exprText(*a.value) : std::string());
                }
                n.label = c->stage.text + "(" + args + ")";
                break;
            }
            }
            int id = static_cast<int>(tree_.nodes.size());
            tree_.nodes.push_back(std::move(n));
            tree_.nodes[static_cast<std::size_t>(parent)].children.push_back(id);
            if (body)
                build(*body, id, childContext);
        }
    }

    const LpsTree& lps_;
    FlowTree tree_;
};

} // namespace

FlowTree buildFlowTree(const ast::TaskDef& task, const LpsTree& lps, DiagnosticEngine& diags) {
    (void)diags; // the flow's space rules are reported by semantic/check/
    return FlowBuilder(lps).run(task);
}

} // namespace itc::semantic
