// The type checker of code bodies and expressions: the coordinator, Initialize, stage bodies
// (one instance per binding of the parameters), function bodies, and the conditions and
// arguments of the Computation section. It resolves names in the order each body kind
// defines (guide: Stages and statements, Functions), infers locals from their first assignment
// (guide: Types), types every expression into an ExprTypes map and applies the placement rules of
// each body kind. An erroneous subexpression gets the error type, which every rule accepts
// silently.
#pragma once

#include "semantic/check/context.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace itc::semantic::check {

enum class BodyKind { Coordinator, Initialize, Stage, Function, Flow };

class BodyChecker {
public:
    BodyChecker(CheckState& state, BodyKind kind, const TaskSym* task, ExprTypes* types);

    // Scope set-up, before checking.
    void setArgsName(const std::string& name) { argsName_ = name; }
    // A parameter with a known type. `binding` (stages only) says how it is bound.
    void declareParam(const std::string& name, Type type, SourceRange declared, const ParamBinding* binding = nullptr);
    void declareLocal(const std::string& name, Type type, SourceRange declared);
    void setStage(const ast::StageDef* stage) { stage_ = stage; }
    void setFunction(const ast::FunctionDef* fn) { function_ = fn; }
    void setFlowSpace(const std::string& space) { flowSpace_ = space; }
    // Flow expressions that are neither conditions nor stage arguments (`Repeat for` ranges
    // and steps) may not use `local.` or `lpuId` (guide: lpuId).
    void setFlowRangeContext(bool on) { flowRange_ = on; }

    void checkBlock(const ast::Block& block);
    Type checkExpr(const ast::Expr& e);
    // Checks a condition: it must be Boolean.
    void checkCondition(const ast::Expr& e, const char* what);
    // A warning for an expression statement whose value nothing uses (`x[i] == v` for `=`).
    void warnIfUnused(const ast::Expr& e);
    // Checks a Range-valued expression (loop and membership ranges).
    void checkRange(const ast::Expr& e);
    // Checks an Integer-valued expression (steps, membership elements).
    void checkInteger(const ast::Expr& e, const char* what);
    // A loop's `step`: an Integer, and positive when it is a constant (a run-time check covers
    // the others).
    void checkStep(const ast::Expr& e, const char* what);

    std::map<std::string, Type> localTypes() const;
    const std::vector<std::pair<Type, SourceRange>>& returns() const { return returns_; }
    StageFacts& facts() { return facts_; }

private:
    enum class Role { LoopIndex, Param, Global, Local };
    struct Var {
        Type type;
        Role role = Role::Local;
        SourceRange declared;
        const ParamBinding* binding = nullptr;
        std::size_t paramIndex = 0;
        bool readOnly = false;
        bool madeByNew = false;          // coordinator local holding an array made with `new` (guide: Types)
        bool integerFromLiteral = false; // an Integer local whose first value was an Integer literal (`s = 0`)
        std::string argsText;            // its first value, an `args` value (it holds text)
    };
    struct LoopFrame {
        bool parallel = false;
        std::size_t indexCount = 0;
        bool reductionAllowed = false;
        std::map<std::string, Var> indices;
    };

    Var* lookup(const std::string& name);
    // Suggestion candidates of "did you mean" hints (frontend/diagnostics/did_you_mean.h).
    std::vector<std::string> namesInScope() const;             // every name lookup() could find here
    std::vector<std::string> functionNames() const;            // the program's functions and the built-ins
    std::string taskSuggestion(const std::string& name) const; // `; did you mean "Task"?` or ""
    static std::vector<std::string> environmentNames(const TaskSym& task);
    static std::vector<std::string> fieldNames(const std::vector<VarInfo>& fields);
    Type checkExprInner(const ast::Expr& e);
    Type checkName(const ast::NameRef& e);
    Type checkBinary(const ast::Binary& e);
    void warnTruncatingLiteralDivision(const ast::Expr& x);
    Type checkUnary(const ast::Unary& e);
    Type checkAssign(const ast::Assign& e);
    void takeSinglePrecision(const ast::Expr& e);
    void warnRealIntoIntegerLocal(const ast::Assign& e, const Type& target, const Type& value);
    Type checkFieldAccess(const ast::FieldAccess& e);
    Type checkProperty(const ast::Property& e);
    Type checkSubscript(const ast::Subscript& e);
    void checkLpuIdEntry(const ast::Subscript& e);
    Type checkCall(const ast::Call& e);
    Type checkBuiltin(const ast::Call& e);
    Type checkNewObject(const ast::NewObject& e);
    Type checkExecute(const ast::Execute& e);
    Type checkEpoch(const ast::Epoch& e);
    Type checkReduceExpr(const ast::ReduceExpr& e);
    std::string reducePlacementMessage() const;
    Type reductionResult(const ast::ReduceOperator& op, const ast::Expr& operand, SourceRange where);
    Type checkLValue(const ast::Expr& target, const ast::Assign& assign);
    bool checkCoordinatorDimensionTarget(const ast::Expr& target);

    void checkStmt(const ast::Stmt& s);
    void checkParallelLoop(const ast::ParallelLoop& loop);
    void checkSequentialFor(const ast::SequentialFor& loop);
    void checkReduceStmt(const ast::ReduceStmt& s);
    void checkReturn(const ast::Return& s);

    bool requireValue(const Type& t, const ast::Expr& e);
    const char* bodyName() const;
    bool isStageParam(const std::string& name, std::size_t& index) const;

    CheckState& state_;
    BodyKind kind_;
    const TaskSym* task_;
    ExprTypes* types_;
    std::string argsName_;
    const ast::StageDef* stage_ = nullptr;
    const ast::FunctionDef* function_ = nullptr;
    std::string flowSpace_ = "Root";
    bool flowRange_ = false;

    std::map<std::string, Var> params_;
    std::map<std::string, Var> locals_;
    std::vector<std::string> localOrder_;
    std::vector<LoopFrame> loops_;
    std::vector<std::pair<Type, SourceRange>> returns_;
    StageFacts facts_;
    const ast::Expr* allowedReduce_ = nullptr;  // the reduce(...) of a well-placed `v = reduce(...)`
    const ast::Expr* negatedLiteral_ = nullptr; // the literal of `-2147483648`, which may be 2^31
    int epochWriteDepth_ = 0;                   // > 0 while checking an assignment target
};

} // namespace itc::semantic::check
