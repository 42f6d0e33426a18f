// Task environments in sequential code: the coordinator and the functions it gives environments
// to read and write their items the same way, through the program's environment objects
// (itrt::task::Env); only the expression naming the running program differs.
#pragma once

#include "backend/emitter.h"

#include <string>

namespace itc::backend {

class EnvironmentBody : public SequentialBody {
public:
    EnvironmentBody(const BackendInput& in, const semantic::ExprTypes* types,
                    const std::map<std::string, semantic::Type>* locals, std::string program)
        : SequentialBody(in, types, locals), program_(std::move(program)) {}

protected:
    // `env.item`: a copy of an array or list item, the value of any other.
    std::string fieldOfName(const ast::FieldAccess& f, const std::string& base) override;
    // `env.item.dimensionK`: the ranges an environment array has now.
    std::string fieldDimensionRange(const ast::Expr& at, const ast::FieldAccess& f, int k, bool local) override;
    // `env.item[i][j]`: the element as the last task left it; a section is a copy.
    std::string fieldElement(const ast::Subscript& s, const ast::FieldAccess& f) override;
    // `f(env.x)` to a `&` parameter: a copy the function changes, given back to the item.
    std::string referenceArg(const ast::Expr& e) override;
    // `get_cursor(env.l)`, `insert_at(env.l, c, v)`, ...: the environment's decoded copy of the
    // list item (Env::coordinator_list), which cursors point into; a change goes back at once.
    std::string listOperand(const ast::Expr& e, std::string& commit) override;
    // `env.item = value`, `env.item[i][j] = value`, chains; other targets as SequentialBody.
    std::string assign(const ast::Assign& a) override;
    // `env.cfg.scale = v`, `env.cfg.w[1] = v`, `env.cells[3].k = v`: the object (or element) is a
    // copy given back to the item when the statement ends (EnvScalarRef, EnvElementRef).
    std::string target(const ast::Expr& t) override;

private:
    bool isEnvironment(const std::string& local) const;
    std::string arrayCopy(const ast::FieldAccess& f, const std::string& base);
    std::string envAssign(const ast::FieldAccess& f, const std::string& env, const ast::Expr& value, SourceRange at);
    std::string envElementAssign(const ast::Assign& a, const ast::Subscript& s, const ast::FieldAccess& f,
                                 const std::string& env);
    std::string sectionView(const ast::FieldAccess& target, const std::string& env, const ast::Subscript& s);

    std::string program_;        // C++ expression of the running itrt::task::Program
    bool writingObject_ = false; // emitting an assignment's target: objects of items are given back
};

} // namespace itc::backend
