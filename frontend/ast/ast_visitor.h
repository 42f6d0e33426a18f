// A read-only AST visitor: one overridable hook per node kind (generated from node_kinds.def)
// and per program component. Every default hook visits the node's children in source order,
// so a pass overrides only what it cares about and calls the base hook to keep recursing.
#pragma once

#include "frontend/ast/ast.h"

namespace itc::ast {

class Visitor {
public:
    virtual ~Visitor() = default;

    // Entry points and dispatch over the three node families.
    virtual void visitProgram(const Program& node);
    void visitExpr(const Expr& node);
    void visitStmt(const Stmt& node);
    void visitFlow(const FlowPart& node);

    // Components and other plain structs.
    virtual void visitClassDef(const ClassDef& node);
    virtual void visitFunctionDef(const FunctionDef& node);
    virtual void visitCoordinator(const Coordinator& node);
    virtual void visitTaskDef(const TaskDef& node);
    virtual void visitVarDecl(const VarDecl& node) {}
    virtual void visitLinkage(const Linkage& node) {}
    virtual void visitInitialize(const InitializeSection& node);
    virtual void visitStageDef(const StageDef& node);
    virtual void visitBlock(const Block& node);
    virtual void visitPartitionSection(const PartitionSection& node);
    virtual void visitSpaceConfig(const SpaceConfig& node);
    virtual void visitDataConfig(const DataConfig& node) {}
    virtual void visitSubpartition(const SubpartitionConfig& node);

    // One hook per node kind: visitIntLiteral, visitParallelLoop, visitSpaceBlock, ...
#define EXPR_KIND(k) virtual void visit##k(const k& node);
#define STMT_KIND(k) virtual void visit##k(const k& node);
#define FLOW_KIND(k) virtual void visit##k(const k& node);
#include "frontend/ast/node_kinds.def"
#undef EXPR_KIND
#undef STMT_KIND
#undef FLOW_KIND

protected:
    void visitIfSet(const ExprPtr& e) {
        if (e)
            visitExpr(*e);
    }
    void visitArgs(const std::vector<CallArg>& args);
    void visitFlowList(const FlowList& list);
};

// The program's @Extern blocks, in source order.
std::vector<const Extern*> externBlocks(const Program& program);

} // namespace itc::ast
