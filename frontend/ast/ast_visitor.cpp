// Default traversal of the read-only AST visitor (see ast_visitor.h).
#include "frontend/ast/ast_visitor.h"

namespace itc::ast {

void Visitor::visitExpr(const Expr& node) {
    switch (node.kind) {
#define EXPR_KIND(k)  \
    case ExprKind::k: \
        return visit##k(static_cast<const k&>(node));
#include "frontend/ast/node_kinds.def"
#undef EXPR_KIND
    }
}

void Visitor::visitStmt(const Stmt& node) {
    switch (node.kind) {
#define STMT_KIND(k)  \
    case StmtKind::k: \
        return visit##k(static_cast<const k&>(node));
#include "frontend/ast/node_kinds.def"
#undef STMT_KIND
    }
}

void Visitor::visitFlow(const FlowPart& node) {
    switch (node.kind) {
#define FLOW_KIND(k)  \
    case FlowKind::k: \
        return visit##k(static_cast<const k&>(node));
#include "frontend/ast/node_kinds.def"
#undef FLOW_KIND
    }
}

void Visitor::visitArgs(const std::vector<CallArg>& args) {
    for (const CallArg& a : args)
        visitIfSet(a.value);
}

void Visitor::visitFlowList(const FlowList& list) {
    for (const FlowPtr& f : list)
        visitFlow(*f);
}

// ---- components -----------------------------------------------------------------------------

void Visitor::visitProgram(const Program& node) {
    for (const ClassDef& c : node.classes)
        visitClassDef(c);
    for (const FunctionDef& f : node.functions)
        visitFunctionDef(f);
    for (const TaskDef& t : node.tasks)
        visitTaskDef(t);
    for (const Coordinator& c : node.coordinators)
        visitCoordinator(c);
}

void Visitor::visitClassDef(const ClassDef& node) {
    for (const VarDecl& d : node.fields)
        visitVarDecl(d);
}

void Visitor::visitFunctionDef(const FunctionDef& node) {
    for (const VarDecl& d : node.arguments)
        visitVarDecl(d);
    for (const VarDecl& d : node.results)
        visitVarDecl(d);
    visitBlock(node.body);
}

void Visitor::visitCoordinator(const Coordinator& node) { visitBlock(node.body); }

void Visitor::visitTaskDef(const TaskDef& node) {
    for (const VarDecl& d : node.define)
        visitVarDecl(d);
    for (const Linkage& l : node.environment)
        visitLinkage(l);
    if (node.initialize)
        visitInitialize(*node.initialize);
    for (const StageDef& s : node.stages)
        visitStageDef(s);
    visitFlowList(node.computation);
    visitPartitionSection(node.partition);
}

void Visitor::visitInitialize(const InitializeSection& node) { visitBlock(node.body); }
void Visitor::visitStageDef(const StageDef& node) { visitBlock(node.body); }

void Visitor::visitBlock(const Block& node) {
    for (const StmtPtr& s : node.stmts)
        visitStmt(*s);
}

void Visitor::visitPartitionSection(const PartitionSection& node) {
    for (const SpaceConfig& s : node.spaces)
        visitSpaceConfig(s);
}

void Visitor::visitSpaceConfig(const SpaceConfig& node) {
    for (const DataConfig& d : node.configs)
        visitDataConfig(d);
    if (node.subpartition)
        visitSubpartition(*node.subpartition);
}

void Visitor::visitSubpartition(const SubpartitionConfig& node) {
    for (const DataConfig& d : node.configs)
        visitDataConfig(d);
}

// ---- expressions ----------------------------------------------------------------------------

void Visitor::visitIntLiteral(const IntLiteral&) {}
void Visitor::visitRealLiteral(const RealLiteral&) {}
void Visitor::visitCharLiteral(const CharLiteral&) {}
void Visitor::visitStringLiteral(const StringLiteral&) {}
void Visitor::visitBoolLiteral(const BoolLiteral&) {}
void Visitor::visitNameRef(const NameRef&) {}
void Visitor::visitUnary(const Unary& node) { visitIfSet(node.operand); }
void Visitor::visitBinary(const Binary& node) {
    visitIfSet(node.lhs);
    visitIfSet(node.rhs);
}
void Visitor::visitAssign(const Assign& node) {
    visitIfSet(node.target);
    visitIfSet(node.value);
}
void Visitor::visitFieldAccess(const FieldAccess& node) { visitIfSet(node.base); }
void Visitor::visitProperty(const Property& node) { visitIfSet(node.base); }
void Visitor::visitSubscript(const Subscript& node) {
    visitIfSet(node.base);
    for (const SubscriptItem& i : node.items) {
        visitIfSet(i.index);
        visitIfSet(i.first);
        visitIfSet(i.last);
    }
}
void Visitor::visitCall(const Call& node) { visitArgs(node.args); }
void Visitor::visitNewObject(const NewObject& node) {
    for (const NamedArg& a : node.args)
        visitIfSet(a.value);
}
void Visitor::visitNewCollection(const NewCollection&) {}
void Visitor::visitReduceExpr(const ReduceExpr& node) { visitIfSet(node.operand); }
void Visitor::visitLpuId(const LpuId&) {}
void Visitor::visitPartitionParam(const PartitionParam&) {}
void Visitor::visitRangeLiteral(const RangeLiteral& node) {
    visitIfSet(node.first);
    visitIfSet(node.last);
}
void Visitor::visitEpoch(const Epoch& node) { visitIfSet(node.operand); }
void Visitor::visitExecute(const Execute& node) {
    for (const ExecuteArg& a : node.args)
        for (const ExprPtr& v : a.values)
            visitIfSet(v);
}

// ---- statements -----------------------------------------------------------------------------

void Visitor::visitExprStmt(const ExprStmt& node) { visitIfSet(node.expr); }
void Visitor::visitParallelLoop(const ParallelLoop& node) {
    for (const IndexGroup& g : node.groups)
        visitIfSet(g.restriction);
    visitBlock(node.body);
}
void Visitor::visitSequentialFor(const SequentialFor& node) {
    visitIfSet(node.rangeExpr);
    visitIfSet(node.step);
    visitIfSet(node.restriction);
    visitBlock(node.body);
}
void Visitor::visitWhile(const While& node) {
    visitBlock(node.body);
    visitIfSet(node.condition);
}
void Visitor::visitIf(const If& node) {
    for (const IfBranch& b : node.branches) {
        visitIfSet(b.condition);
        visitBlock(b.body);
    }
    if (node.elseBody)
        visitBlock(*node.elseBody);
}
void Visitor::visitReduceStmt(const ReduceStmt& node) { visitIfSet(node.operand); }
void Visitor::visitReturn(const Return& node) { visitIfSet(node.value); }
void Visitor::visitExtern(const Extern&) {}

// ---- flow -----------------------------------------------------------------------------------

void Visitor::visitSpaceBlock(const SpaceBlock& node) { visitFlowList(node.body); }
void Visitor::visitRepeatFor(const RepeatFor& node) {
    visitIfSet(node.rangeExpr);
    visitIfSet(node.step);
    visitFlowList(node.body);
}
void Visitor::visitRepeatForeach(const RepeatForeach& node) { visitFlowList(node.body); }
void Visitor::visitRepeatWhile(const RepeatWhile& node) {
    visitIfSet(node.condition);
    visitFlowList(node.body);
}
void Visitor::visitCondition(const Condition& node) {
    visitIfSet(node.condition);
    visitIfSet(node.membershipRange);
    visitFlowList(node.body);
}
void Visitor::visitEpochBlock(const EpochBlock& node) { visitFlowList(node.body); }
void Visitor::visitStageCall(const StageCall& node) { visitArgs(node.args); }

std::vector<const Extern*> externBlocks(const Program& program) {
    struct Collect : Visitor {
        std::vector<const Extern*> blocks;
        void visitExtern(const Extern& x) override { blocks.push_back(&x); }
    } c;
    c.visitProgram(program);
    return c.blocks;
}

} // namespace itc::ast
