// The type checker of code bodies (see body_checker.h). Expressions first, then statements.
#include "semantic/check/body_checker.h"

#include "semantic/check/ast_walk.h"
#include "semantic/check/check_functions.h"
#include "semantic/check/collect_symbols.h"
#include "frontend/ast/ast_names.h"
#include "frontend/diagnostics/did_you_mean.h"
#include "semantic/usage/expr_text.h"
#include "semantic/usage/names_read.h"

#include <fmt/format.h>

#include <map>

namespace itc::semantic::check {

namespace {

bool isIntegerLike(const Type& t) { return t.isError() || t.kind == TypeKind::Integer || t.kind == TypeKind::ArgValue; }

// The root variable of an assignable access path, or null.
const ast::NameRef* accessRoot(const ast::Expr* e) {
    while (e) {
        switch (e->kind) {
        case ast::ExprKind::NameRef: return e->as<ast::NameRef>();
        case ast::ExprKind::FieldAccess: e = e->as<ast::FieldAccess>()->base.get(); break;
        case ast::ExprKind::Subscript: e = e->as<ast::Subscript>()->base.get(); break;
        case ast::ExprKind::Property: e = e->as<ast::Property>()->base.get(); break;
        case ast::ExprKind::Epoch: e = e->as<ast::Epoch>()->operand.get(); break;
        default: return nullptr;
        }
    }
    return nullptr;
}

bool mentionsDimension(const ast::Expr* e) {
    while (e) {
        if (auto* p = e->as<ast::Property>()) {
            if (p->property == ast::PropertyKind::Dimension)
                return true;
            e = p->base.get();
        } else if (auto* f = e->as<ast::FieldAccess>()) {
            e = f->base.get();
        } else {
            return false;
        }
    }
    return false;
}

// The first partition instruction that takes Partition parameter `param` as its block count or
// size (which must be positive; a padding may be 0), or null.
const ast::PartitionInstruction* countingUse(const ast::PartitionSection& section, const std::string& param) {
    auto inConfigs = [&](const std::vector<ast::DataConfig>& configs) -> const ast::PartitionInstruction* {
        for (const auto& c : configs)
            for (const auto& ins : c.instructions)
                if (!ins.replicated && ins.function != ast::PartitionFunction::Stride && !ins.args.empty() &&
                    ins.args[0].param && ins.args[0].param->text == param)
                    return &ins;
        return nullptr;
    };
    for (const auto& space : section.spaces) {
        if (const auto* use = inConfigs(space.configs))
            return use;
        if (space.subpartition)
            if (const auto* use = inConfigs(space.subpartition->configs))
                return use;
    }
    return nullptr;
}

} // namespace

BodyChecker::BodyChecker(CheckState& state, BodyKind kind, const TaskSym* task, ExprTypes* types)
    : state_(state), kind_(kind), task_(task), types_(types) {}

void BodyChecker::declareParam(const std::string& name, Type type, SourceRange declared, const ParamBinding* binding) {
    Var v;
    v.type = std::move(type);
    v.role = Role::Param;
    v.declared = declared;
    v.binding = binding;
    v.paramIndex = params_.size();
    params_.emplace(name, std::move(v));
}

void BodyChecker::declareLocal(const std::string& name, Type type, SourceRange declared) {
    Var v;
    v.type = std::move(type);
    v.role = Role::Local;
    v.declared = declared;
    if (locals_.emplace(name, std::move(v)).second)
        localOrder_.push_back(name);
}

std::map<std::string, Type> BodyChecker::localTypes() const {
    std::map<std::string, Type> out;
    for (const auto& [n, v] : locals_)
        if (v.role == Role::Local)
            out[n] = v.type;
    return out;
}

const char* BodyChecker::bodyName() const {
    switch (kind_) {
    case BodyKind::Coordinator: return "the coordinator";
    case BodyKind::Initialize: return "Initialize";
    case BodyKind::Stage: return "a stage";
    case BodyKind::Function: return "a function";
    case BodyKind::Flow: return "the Computation section";
    }
    return "?";
}

bool BodyChecker::isStageParam(const std::string& name, std::size_t& index) const {
    if (!stage_)
        return false;
    for (std::size_t i = 0; i < stage_->params.size(); ++i)
        if (stage_->params[i].text == name) {
            index = i;
            return true;
        }
    return false;
}

BodyChecker::Var* BodyChecker::lookup(const std::string& name) {
    for (auto it = loops_.rbegin(); it != loops_.rend(); ++it) {
        auto f = it->indices.find(name);
        if (f != it->indices.end())
            return &f->second;
    }
    if (kind_ != BodyKind::Flow) {
        auto p = params_.find(name);
        if (p != params_.end())
            return &p->second;
    }
    if (task_ && (kind_ == BodyKind::Stage || kind_ == BodyKind::Initialize || kind_ == BodyKind::Flow)) {
        auto g = task_->globals.find(name);
        if (g != task_->globals.end()) {
            // Globals are materialized as Vars on demand so that callers get a uniform view.
            auto [it, fresh] = locals_.try_emplace("\x01" + name);
            if (fresh) {
                it->second.type = g->second.type;
                it->second.role = Role::Global;
                it->second.declared = g->second.declared;
            }
            return &it->second;
        }
    }
    auto l = locals_.find(name);
    if (l != locals_.end())
        return &l->second;
    return nullptr;
}

std::vector<std::string> BodyChecker::namesInScope() const {
    std::vector<std::string> names;
    for (const LoopFrame& f : loops_)
        for (const auto& [name, var] : f.indices)
            names.push_back(name);
    if (kind_ != BodyKind::Flow)
        for (const auto& [name, var] : params_)
            names.push_back(name);
    if (task_ && (kind_ == BodyKind::Stage || kind_ == BodyKind::Initialize || kind_ == BodyKind::Flow))
        for (const auto& [name, global] : task_->globals)
            names.push_back(name);
    // Locals, but not the globals materialized by lookup() nor undefined names declared (with
    // the error type) to silence their later uses.
    for (const auto& [name, var] : locals_)
        if (name[0] != '\x01' && !var.type.isError())
            names.push_back(name);
    return names;
}

std::vector<std::string> BodyChecker::functionNames() const {
    std::vector<std::string> names = namesOf(state_.functions);
    names.insert(names.end(), builtinFunctionNames().begin(), builtinFunctionNames().end());
    return names;
}

std::string BodyChecker::taskSuggestion(const std::string& name) const {
    std::string near = nearestName(name, namesOf(state_.tasks));
    return near.empty() ? "" : "; did you mean \"" + near + "\"?";
}

std::vector<std::string> BodyChecker::environmentNames(const TaskSym& task) {
    std::vector<std::string> names;
    for (const auto& [name, global] : task.globals)
        if (global.environmental)
            names.push_back(name);
    return names;
}

std::vector<std::string> BodyChecker::fieldNames(const std::vector<VarInfo>& fields) {
    std::vector<std::string> names;
    for (const VarInfo& f : fields)
        names.push_back(f.name);
    return names;
}

// ---------------------------------------------------------------------------------------------
// Expressions
// ---------------------------------------------------------------------------------------------

Type BodyChecker::checkExpr(const ast::Expr& e) {
    Type t = checkExprInner(e);
    if (types_)
        (*types_)[&e] = t;
    return t;
}

bool BodyChecker::requireValue(const Type& t, const ast::Expr& e) {
    if (t.kind == TypeKind::Void) {
        state_.rep.error(DiagKind::VoidValue, e.range,
                         "this call produces no value; a function without `return` can only be "
                         "called as a statement");
        return false;
    }
    return true;
}

Type BodyChecker::checkExprInner(const ast::Expr& e) {
    using K = ast::ExprKind;
    switch (e.kind) {
    case K::IntLiteral: {
        // An Integer is 32 bits: a larger literal would wrap silently. `-2147483648` is the
        // negation of 2147483648, which only there is in range.
        const std::int64_t v = e.as<ast::IntLiteral>()->value;
        const std::int64_t most = &e == negatedLiteral_ ? std::int64_t{2147483648} : std::int64_t{2147483647};
        if (v > most)
            state_.rep.error(DiagKind::IntegerOutOfRange, e.range,
                             fmt::format("integer literal `{}` is outside the range of an Integer "
                                         "(-2147483648...2147483647); Integers are 32 bits, use a Real for larger "
                                         "values",
                                         v));
        return Type::integer();
    }
    case K::RealLiteral: return Type::simple(TypeKind::RealLiteral);
    case K::CharLiteral: return Type::simple(TypeKind::Character);
    case K::StringLiteral: {
        // A String holds at most 255 characters: a longer literal could not be stored or moved.
        constexpr std::size_t kMaxString = 255;
        if (const std::string& text = e.as<ast::StringLiteral>()->value; text.size() > kMaxString)
            state_.rep.error(DiagKind::StringTooLong, e.range,
                             fmt::format("this String literal has {} characters; a String holds at most {}: split "
                                         "it, or keep the text in a file",
                                         text.size(), kMaxString));
        return Type::simple(TypeKind::String);
    }
    case K::BoolLiteral: return Type::boolean();
    case K::NameRef: return checkName(*e.as<ast::NameRef>());
    case K::Unary: return checkUnary(*e.as<ast::Unary>());
    case K::Binary: return checkBinary(*e.as<ast::Binary>());
    case K::Assign: return checkAssign(*e.as<ast::Assign>());
    case K::FieldAccess: return checkFieldAccess(*e.as<ast::FieldAccess>());
    case K::Property: return checkProperty(*e.as<ast::Property>());
    case K::Subscript: return checkSubscript(*e.as<ast::Subscript>());
    case K::Call: return checkCall(*e.as<ast::Call>());
    case K::NewObject: return checkNewObject(*e.as<ast::NewObject>());
    case K::NewCollection: return resolveDeclaredType(state_, e.as<ast::NewCollection>()->type);
    case K::ReduceExpr: return checkReduceExpr(*e.as<ast::ReduceExpr>());
    case K::LpuId: {
        Type t = Type::dynamicArray(1, Type::integer());
        if (kind_ == BodyKind::Stage) {
            if (!facts_.lpuIdUse)
                facts_.lpuIdUse = e.range;
            return t;
        }
        if (kind_ == BodyKind::Flow && flowRange_) {
            state_.rep.error(DiagKind::LpuIdNotAllowed, e.range,
                             "`lpuId` is not available in a `Repeat for` range or step; it is used "
                             "only in Computation conditions and stage arguments");
            return Type::error();
        }
        if (kind_ == BodyKind::Flow) {
            bool unpart = flowSpace_ == "Root";
            if (!unpart && task_) {
                auto it = task_->spaces.find(flowSpace_);
                unpart = it != task_->spaces.end() && it->second.unpartitioned;
            }
            if (unpart) {
                state_.rep.error(DiagKind::LpuIdNotAllowed, e.range,
                                 flowSpace_ == "Root" ? std::string("`lpuId` is used in Root, which has a single "
                                                                    "un-partitioned LPU; use it inside a partitioned "
                                                                    "`Space` block")
                                                      : fmt::format("`lpuId` is used in Space {}, which is "
                                                                    "un-partitioned; use it inside a partitioned space",
                                                                    flowSpace_));
                return Type::error();
            }
            return t;
        }
        state_.rep.error(DiagKind::LpuIdNotAllowed, e.range,
                         fmt::format("`lpuId` is not available in {}; it exists only in stages and "
                                     "in Computation conditions and arguments",
                                     bodyName()));
        return Type::error();
    }
    case K::PartitionParam: {
        auto* p = e.as<ast::PartitionParam>();
        if (kind_ != BodyKind::Initialize && kind_ != BodyKind::Flow) {
            state_.rep.error(DiagKind::PartitionParamNotAllowed, e.range,
                             fmt::format("`partition.{}` is not visible in {}; partition parameters "
                                         "are used in Initialize and Computation (copy it into a "
                                         "task-global in Initialize to use it in a stage)",
                                         p->param.text, bodyName()));
            return Type::error();
        }
        if (task_) {
            bool found = false;
            for (const auto& n : task_->partitionParams)
                found |= n == p->param.text;
            if (!found) {
                state_.rep.error(DiagKind::UnknownPartitionParam, p->param.range,
                                 fmt::format("the Partition section of task \"{}\" has no parameter "
                                             "{}; declare it in `Partition ({})`",
                                             task_->def->name.text, q(p->param.text), p->param.text));
                return Type::error();
            }
        }
        return Type::integer();
    }
    case K::RangeLiteral: {
        auto* r = e.as<ast::RangeLiteral>();
        checkInteger(*r->first, "the first index of a range");
        checkInteger(*r->last, "the last index of a range");
        return Type::range();
    }
    case K::Epoch: return checkEpoch(*e.as<ast::Epoch>());
    case K::Execute: return checkExecute(*e.as<ast::Execute>());
    }
    return Type::error();
}

Type BodyChecker::checkName(const ast::NameRef& e) {
    if (kind_ == BodyKind::Coordinator && e.name == argsName_) {
        state_.rep.error(DiagKind::InvalidArgsUse, e.range,
                         fmt::format("{} holds the command-line arguments and is used only as "
                                     "`{}.key`",
                                     q(argsName_), argsName_));
        return Type::error();
    }
    if (Var* v = lookup(e.name)) {
        if (v->role == Role::Global)
            facts_.globalsUsed.insert(e.name);
        return v->type;
    }
    if (task_ && kind_ != BodyKind::Function && kind_ != BodyKind::Coordinator &&
        !state_.unknownInTask.insert({task_, e.name}).second) {
        if (kind_ != BodyKind::Flow)
            declareLocal(e.name, Type::error(), e.range);
        return Type::error();
    }
    std::string hint;
    if (kind_ == BodyKind::Function)
        hint = "; a function sees only its parameters and locals";
    else if (kind_ == BodyKind::Flow)
        hint = "; the Computation section sees only task-globals";
    else
        hint = "; assign it before reading it";
    std::string near = nearestName(e.name, namesInScope());
    if (!near.empty())
        hint = "; did you mean " + q(near) + "?";
    if (kind_ != BodyKind::Coordinator && state_.coordinator && e.name == state_.coordinator->argsName.text)
        hint = fmt::format("; {} (the command-line arguments) exists only in the coordinator: pass the value "
                           "to the task with `initialize:` or an environment item",
                           q(e.name));
    state_.rep.error(DiagKind::UnknownName, e.range, fmt::format("{} is not defined here{}", q(e.name), hint));
    // Silence later uses of the same name.
    if (kind_ != BodyKind::Flow)
        declareLocal(e.name, Type::error(), e.range);
    return Type::error();
}

Type BodyChecker::checkUnary(const ast::Unary& e) {
    if (e.op == ast::UnaryOp::Negate && e.operand && e.operand->as<ast::IntLiteral>())
        negatedLiteral_ = e.operand.get();
    Type t = checkExpr(*e.operand);
    if (t.isError() || !requireValue(t, *e.operand))
        return Type::error();
    if (e.op == ast::UnaryOp::Negate) {
        if (t.kind == TypeKind::ArgValue)
            return t;
        if (t.isNumeric())
            return t.kind == TypeKind::Character ? Type::integer() : t;
        state_.rep.error(DiagKind::InvalidOperands, e.range,
                         fmt::format("unary `-` needs a number, but the operand is {}", qt(t)));
        return Type::error();
    }
    if (t.kind == TypeKind::Boolean || t.kind == TypeKind::ArgValue)
        return Type::boolean();
    state_.rep.error(DiagKind::InvalidOperands, e.range,
                     fmt::format("`!` needs a `Boolean`, but the operand is {}; Booleans never "
                                 "convert to or from numbers",
                                 qt(t)));
    return Type::error();
}

// `1/4 * (...)` in Real arithmetic, or assigned to a Real: two Integer literals whose quotient
// is not whole divide as Integers (0 here), which silently zeroes a formula copied from paper
// (the paper's five-point stencil). Integer uses (`r = 7 / 2`) are left alone.
void BodyChecker::warnTruncatingLiteralDivision(const ast::Expr& x) {
    const auto* division = x.as<ast::Binary>();
    if (!division || division->op != ast::BinaryOp::Div)
        return;
    const ast::Binary& e = *division;
    const auto literal = [](const ast::Expr& x) -> std::optional<std::int64_t> {
        if (const auto* i = x.as<ast::IntLiteral>())
            return i->value;
        if (const auto* u = x.as<ast::Unary>(); u && u->op == ast::UnaryOp::Negate && u->operand)
            if (const auto* i = u->operand->as<ast::IntLiteral>())
                return -i->value;
        return std::nullopt;
    };
    const auto n = literal(*e.lhs), d = literal(*e.rhs);
    if (!n || !d || *d == 0 || *n % *d == 0)
        return;
    state_.rep.diagnostics().report(
        DiagKind::TruncatingLiteralDivision, e.opRange.valid() ? e.opRange : e.range,
        fmt::format("`{}/{}` divides two Integers, which gives the Integer {} (truncated); write `{}.0/{}` for the "
                    "Real {}",
                    *n, *d, *n / *d, *n, *d, static_cast<double>(*n) / static_cast<double>(*d)),
        Severity::Warning);
}

Type BodyChecker::checkBinary(const ast::Binary& e) {
    Type a = checkExpr(*e.lhs);
    Type b = checkExpr(*e.rhs);
    if (!requireValue(a, *e.lhs) || !requireValue(b, *e.rhs))
        return Type::error();
    if (a.isError() || b.isError())
        return Type::error();
    using B = ast::BinaryOp;
    auto bad = [&](const char* need) {
        state_.rep.error(DiagKind::InvalidOperands, e.opRange.valid() ? e.opRange : e.range,
                         fmt::format("`{}` needs {}, but the operands are {} and {}", ast::binaryOpSpelling(e.op), need,
                                     qt(a), qt(b)));
        return Type::error();
    };
    bool argA = a.kind == TypeKind::ArgValue, argB = b.kind == TypeKind::ArgValue;
    bool numA = a.isNumeric() || argA, numB = b.isNumeric() || argB;
    // An `args` value takes its type from the other operand; two of them give none, and Integer
    // and Real arithmetic differ (7 / 2).
    auto untyped = [&] {
        state_.rep.error(DiagKind::InvalidOperands, e.opRange.valid() ? e.opRange : e.range,
                         fmt::format("`{}` between two command-line values: nothing says whether they are "
                                     "Integers or Reals; give one a type first (`args.a * 1` is an Integer, "
                                     "`args.a * 1.0` a Real)",
                                     ast::binaryOpSpelling(e.op)));
        return Type::error();
    };
    switch (e.op) {
    case B::Add:
    case B::Sub:
    case B::Mul:
    case B::Div:
    case B::Mod:
        if (!numA || !numB)
            return bad("numbers");
        if (argA && argB)
            return untyped();
        if (b.isReal()) // `1/4 * x` with a Real x
            warnTruncatingLiteralDivision(*e.lhs);
        if (a.isReal())
            warnTruncatingLiteralDivision(*e.rhs);
        return promote(a, b);
    case B::Power: {
        if (!numA || !numB)
            return bad("numbers");
        if (argA && argB)
            return untyped();
        Type p = promote(a, b);
        // Integer ** a non-negative Integer is an Integer: a negative constant exponent (`2 ** -1`)
        // makes a double; an exponent only known at run time keeps the Integer type.
        const auto* neg = e.rhs->as<ast::Unary>();
        const bool negativeConstant =
            neg && neg->op == ast::UnaryOp::Negate && neg->operand && (neg->operand->as<ast::IntLiteral>() != nullptr);
        if ((p.kind == TypeKind::Integer || p.kind == TypeKind::ArgValue) && !negativeConstant)
            return p;
        return Type::simple(TypeKind::RealDouble);
    }
    case B::ShiftLeft:
    case B::ShiftRight:
    case B::BitAnd:
    case B::BitXor:
    case B::BitOr: {
        auto intLike = [](const Type& t) {
            return t.kind == TypeKind::Integer || t.kind == TypeKind::Character || t.kind == TypeKind::ArgValue;
        };
        if (!intLike(a) || !intLike(b))
            return bad("Integers");
        return Type::integer();
    }
    case B::Less:
    case B::Greater:
    case B::LessEqual:
    case B::GreaterEqual:
        if (!numA || !numB)
            return bad("numbers or characters");
        return Type::boolean();
    case B::Equal:
    case B::NotEqual:
        if (!isEqualityComparable(a, b))
            return bad("two numbers, characters, Booleans or strings");
        return Type::boolean();
    case B::And:
    case B::Or:
        if ((a.kind != TypeKind::Boolean && !argA) || (b.kind != TypeKind::Boolean && !argB))
            return bad("Booleans");
        return Type::boolean();
    }
    return Type::error();
}

Type BodyChecker::checkLValue(const ast::Expr& target, const ast::Assign& assign) {
    using K = ast::ExprKind;
    switch (target.kind) {
    case K::NameRef:
    case K::FieldAccess:
    case K::Subscript:
    case K::Property:
    case K::Epoch: break;
    default:
        state_.rep.error(DiagKind::NotAssignable, target.range,
                         "this expression cannot be assigned; the target of `=` must be a "
                         "variable, field, element or sub-range");
        return Type::error();
    }
    if (target.kind == K::Property) {
        auto* p = target.as<ast::Property>();
        if (p->property != ast::PropertyKind::Dimension) {
            state_.rep.error(DiagKind::NotAssignable, target.range,
                             "only `x.dimension`, `x.dimensionK` and the `min`/`max` of a range "
                             "can be assigned");
            return Type::error();
        }
    }
    if (mentionsDimension(&target) && kind_ != BodyKind::Initialize && kind_ != BodyKind::Coordinator) {
        state_.rep.error(DiagKind::DimensionAssignmentPlace, target.range,
                         fmt::format("dimension ranges cannot be assigned in {}; set them in the "
                                     "task's Initialize section (or on a `new` array in the "
                                     "coordinator)",
                                     bodyName()));
        return Type::error();
    }
    if (kind_ == BodyKind::Coordinator && mentionsDimension(&target) && !checkCoordinatorDimensionTarget(target))
        return Type::error();
    {
        const ast::Expr* r = &target;
        while (true) {
            if (auto* sub = r->as<ast::Subscript>())
                r = sub->base.get();
            else if (auto* f = r->as<ast::FieldAccess>())
                r = f->base.get();
            else if (auto* p = r->as<ast::Property>())
                r = p->base.get();
            else
                break;
        }
        if (r->kind == ast::ExprKind::LpuId || r->kind == ast::ExprKind::PartitionParam) {
            state_.rep.error(DiagKind::NotAssignable, target.range,
                             r->kind == ast::ExprKind::LpuId ? "`lpuId` is read-only"
                                                             : "partition parameters are read-only");
            return Type::error();
        }
    }
    if (const ast::NameRef* root = accessRoot(&target)) {
        if (kind_ == BodyKind::Coordinator && root->name == argsName_) {
            state_.rep.error(DiagKind::NotAssignable, target.range,
                             fmt::format("command-line arguments (`{}.key`) are read-only", argsName_));
            return Type::error();
        }
        if (Var* v = lookup(root->name)) {
            if (v->role == Role::LoopIndex && root == &target) {
                state_.rep.error(DiagKind::NotAssignable, target.range,
                                 fmt::format("loop index {} cannot be assigned", q(root->name)));
                return Type::error();
            }
            if (v->role == Role::Param && v->binding && v->binding->constant) {
                state_.rep.error(DiagKind::AssignToConstantParameter, target.range,
                                 fmt::format("parameter {} of stage {} is bound to a constant at this "
                                             "invocation and must not be assigned; pass a task-global "
                                             "instead",
                                             q(root->name), q(stage_ ? stage_->name.text : "?")));
                return Type::error();
            }
        }
    }
    (void)assign;
    ++epochWriteDepth_;
    Type t;
    if (auto* n = target.as<ast::NameRef>()) {
        Var* v = lookup(n->name);
        t = v ? v->type : checkExpr(target);
        if (v && v->role == Role::Global)
            facts_.globalsUsed.insert(n->name);
        if (types_)
            (*types_)[&target] = t;
    } else {
        t = checkExpr(target);
    }
    --epochWriteDepth_;
    if (t.kind == TypeKind::LocalView || (t.kind == TypeKind::Dimension && target.kind != K::Property)) {
        state_.rep.error(DiagKind::NotAssignable, target.range, "this expression cannot be assigned");
        return Type::error();
    }
    return t;
}

// The coordinator sets dimension ranges only on arrays it made with `new`; environmental
// items get theirs from their task (Initialize, linked data) or from the data bound to them.
bool BodyChecker::checkCoordinatorDimensionTarget(const ast::Expr& target) {
    const ast::Expr* array = &target;
    while (true) {
        if (auto* f = array->as<ast::FieldAccess>()) {
            array = f->base.get();
        } else if (auto* p = array->as<ast::Property>()) {
            array = p->base.get();
            if (p->property == ast::PropertyKind::Dimension)
                break;
        } else {
            return true;
        }
    }
    std::string spelled;
    if (auto* n = array->as<ast::NameRef>()) {
        Var* v = lookup(n->name);
        if (!v || v->type.isError() || v->madeByNew)
            return true;
        spelled = n->name;
    } else if (auto* f = array->as<ast::FieldAccess>()) {
        auto* env = f->base->as<ast::NameRef>();
        Var* v = env ? lookup(env->name) : nullptr;
        if (!v || v->type.isError())
            return true;
        if (v->type.kind == TypeKind::TaskEnvironment) {
            state_.rep.error(DiagKind::DimensionAssignmentNotNew, target.range,
                             fmt::format("the coordinator cannot set the dimension ranges of the "
                                         "environmental item `{}.{}`; its ranges come from its "
                                         "task's Initialize section or from the data bound or "
                                         "linked to it (see the guide: Types)",
                                         env->name, f->field.text));
            return false;
        }
        return true;
    } else {
        return true;
    }
    state_.rep.error(DiagKind::DimensionAssignmentNotNew, target.range,
                     fmt::format("the coordinator can set dimension ranges only on an array it made "
                                 "with `new`, and {} was not; create it with `{} = new ...` "
                                 "before setting its ranges (see the guide: Types)",
                                 q(spelled), spelled));
    return false;
}

Type BodyChecker::checkAssign(const ast::Assign& e) {
    // The value first: `x = x + 1` with a new `x` reads an undefined name.
    Type value;
    value = checkExpr(*e.value);
    if (!requireValue(value, *e.value))
        value = Type::error();
    if (value.kind == TypeKind::Args)
        value = Type::error();
    if (auto* n = e.target->as<ast::NameRef>()) {
        if (kind_ == BodyKind::Coordinator && n->name == argsName_) {
            state_.rep.error(DiagKind::InvalidArgsUse, n->range,
                             fmt::format("{} holds the command-line arguments and cannot be "
                                         "assigned",
                                         q(argsName_)));
            return Type::error();
        }
        if (!lookup(n->name)) {
            // First assignment: the local takes the value's type (guide: Types).
            if (kind_ == BodyKind::Flow) {
                state_.rep.error(
                    DiagKind::UnknownName, n->range,
                    fmt::format("{} is not a task-global{}", q(n->name), didYouMean(n->name, namesInScope())));
                return Type::error();
            }
            Type t = inferredLocalType(value);
            if (t.kind == TypeKind::Dimension || t.kind == TypeKind::LocalView) {
                state_.rep.error(DiagKind::TypeMismatch, e.value->range,
                                 fmt::format("a variable cannot hold a {}; use `.range` to get a "
                                             "`Range`",
                                             typeName(t)));
                t = Type::error();
            }
            if (t.kind == TypeKind::TaskEnvironment && kind_ != BodyKind::Coordinator)
                t = Type::error();
            declareLocal(n->name, t, n->range);
            const ast::Unary* minus = e.value->as<ast::Unary>();
            locals_[n->name].integerFromLiteral =
                t.kind == TypeKind::Integer && (e.value->kind == ast::ExprKind::IntLiteral ||
                                                (minus && minus->operand->kind == ast::ExprKind::IntLiteral));
            if (value.kind == TypeKind::ArgValue)
                locals_[n->name].argsText = exprText(*e.value);
            if (kind_ == BodyKind::Coordinator) {
                const Var* from = nullptr;
                if (auto* r = e.value->as<ast::NameRef>())
                    from = lookup(r->name);
                locals_[n->name].madeByNew = e.value->kind == ast::ExprKind::NewCollection || (from && from->madeByNew);
            }
            if (types_)
                (*types_)[e.target.get()] = t;
            return t;
        }
    }
    Type target = checkLValue(*e.target, e);
    if (target.kind == TypeKind::Dimension && value.kind == TypeKind::Dimension && target.dims != value.dims) {
        state_.rep.error(DiagKind::TypeMismatch, e.value->range,
                         fmt::format("the target has {} dimension{}, but the value gives {}; "
                                     "dimensionalities must match (assign one dimension with "
                                     "`x.dimensionJ = y.dimensionK`)",
                                     target.dims, target.dims == 1 ? "" : "s", value.dims));
        return target;
    }
    if (!isAssignable(target, value)) {
        std::string why;
        if (target.kind == TypeKind::Boolean || value.kind == TypeKind::Boolean)
            why = "; Booleans never convert to or from numbers";
        else if (target.kind == TypeKind::TaskEnvironment && value.kind == TypeKind::TaskEnvironment)
            why = "; an environment object serves only the task it was created for";
        else if (auto* n = e.target->as<ast::NameRef>();
                 n && locals_.count(n->name) && !locals_[n->name].argsText.empty())
            why = fmt::format("; {} is text because its first value (line {}) came from the command line: give "
                              "that value a type there (`{} = {} * 1` for an Integer, `* 1.0` for a Real)",
                              q(n->name), locals_[n->name].declared.begin.line, n->name, locals_[n->name].argsText);
        state_.rep.error(
            DiagKind::TypeMismatch, e.value->range,
            fmt::format("cannot assign a value of type {} to a target of type {}{}", qt(value), qt(target), why));
    }
    if (target.kind == TypeKind::RealSingle && value.kind == TypeKind::RealLiteral)
        takeSinglePrecision(*e.value);
    warnRealIntoIntegerLocal(e, target, value);
    if (target.isReal())
        warnTruncatingLiteralDivision(*e.value);
    return target;
}

// `s = 0` then `s = s + x[i]` with Real elements: the first value made `s` an Integer, so every
// sum is truncated, silently (probe AX: a prefix sum of Reals came out as zeros). Said when the
// Integer came from a literal, the usual slip; `bin = 0` then `bin = v / w` is truncated too.
void BodyChecker::warnRealIntoIntegerLocal(const ast::Assign& e, const Type& target, const Type& value) {
    auto* n = e.target->as<ast::NameRef>();
    if (!n || target.kind != TypeKind::Integer || !value.isReal())
        return;
    auto it = locals_.find(n->name);
    if (it == locals_.end() || !it->second.integerFromLiteral)
        return;
    state_.rep.warning(DiagKind::RealIntoIntegerLocal, e.value->range,
                       fmt::format("a {} value is assigned to {}, which is an Integer because its first value "
                                   "(line {}) is an Integer literal: the value is truncated; write that first "
                                   "value as a Real (`{} = 0.0`) if {} should hold Reals",
                                   typeName(value), q(n->name), it->second.declared.begin.line, n->name, q(n->name)));
}

// Real literals with no real operand of a known precision take the target's (the reference,
// Lexical rules): `s = 16777217.0 - 1.0` computes in single precision when `s` is single.
void BodyChecker::takeSinglePrecision(const ast::Expr& e) {
    if (!types_)
        return;
    auto it = types_->find(&e);
    if (it == types_->end() || it->second.kind != TypeKind::RealLiteral)
        return;
    it->second = Type::simple(TypeKind::RealSingle);
    if (auto* b = e.as<ast::Binary>()) {
        takeSinglePrecision(*b->lhs);
        takeSinglePrecision(*b->rhs);
    } else if (auto* u = e.as<ast::Unary>()) {
        takeSinglePrecision(*u->operand);
    }
}

Type BodyChecker::checkFieldAccess(const ast::FieldAccess& e) {
    const std::string& field = e.field.text;
    if (auto* n = e.base->as<ast::NameRef>(); n && kind_ == BodyKind::Coordinator && n->name == argsName_) {
        if (types_)
            (*types_)[e.base.get()] = Type::simple(TypeKind::Args);
        return Type::simple(TypeKind::ArgValue); // guide: The coordinator
    }
    Type base = checkExpr(*e.base);
    if (base.isError())
        return Type::error();
    switch (base.kind) {
    case TypeKind::TaskEnvironment: {
        const TaskSym* t = state_.findTask(base.name);
        if (!t || t->duplicated)
            return Type::error();
        auto it = t->globals.find(field);
        if (it == t->globals.end() || !it->second.environmental) {
            // Once per item: a line missing from the Environment section is one mistake.
            if (!state_.unknownEnvironmentItems.insert({t, field}).second)
                return Type::error();
            if (it != t->globals.end())
                state_.rep.error(DiagKind::UnknownEnvironmentItem, e.field.range,
                                 fmt::format("{} is a task-global of task \"{}\", but its Environment section "
                                             "does not list it; add `{}: link` (or `create`) there to use it "
                                             "through the environment",
                                             q(field), base.name, field));
            else
                state_.rep.error(DiagKind::UnknownEnvironmentItem, e.field.range,
                                 fmt::format("task \"{}\" has no environmental item {}; only names "
                                             "listed in its Environment section can be used{}",
                                             base.name, q(field), didYouMean(field, environmentNames(*t))));
            return Type::error();
        }
        return it->second.type;
    }
    case TypeKind::Class:
    case TypeKind::Range: {
        const std::vector<VarInfo>* fields = state_.classFields(base.kind == TypeKind::Range ? "Range" : base.name);
        if (!fields)
            return Type::error();
        for (const VarInfo& f : *fields)
            if (f.name == field)
                return f.type;
        state_.rep.error(
            DiagKind::UnknownField, e.field.range,
            fmt::format("{} has no field {}{}", qt(base), q(field), didYouMean(field, fieldNames(*fields))));
        return Type::error();
    }
    default:
        state_.rep.error(DiagKind::UnknownField, e.field.range,
                         fmt::format("a value of type {} has no field {}", qt(base), q(field)));
        return Type::error();
    }
}

Type BodyChecker::checkProperty(const ast::Property& e) {
    Type base = checkExpr(*e.base);
    if (base.isError())
        return Type::error();
    switch (e.property) {
    case ast::PropertyKind::Local:
        if (kind_ == BodyKind::Flow && flowRange_) {
            state_.rep.error(DiagKind::LocalNotAllowed, e.propertyRange.valid() ? e.propertyRange : e.range,
                             "`local` is not available in a `Repeat for` range or step (every LPU of the "
                             "loop's space takes the same turns); loop over the whole range and test "
                             "`Where k in a.local.dimension1.range` inside, or loop in a stage");
            return Type::error();
        }
        if (kind_ != BodyKind::Stage && kind_ != BodyKind::Flow) {
            state_.rep.error(DiagKind::LocalNotAllowed, e.propertyRange.valid() ? e.propertyRange : e.range,
                             fmt::format("`local` is not available in {}; LPU-local parts exist only "
                                         "in stages and in Computation conditions and arguments",
                                         bodyName()));
            return Type::error();
        }
        if (!base.isArray()) {
            state_.rep.error(DiagKind::NotAnArray, e.range,
                             fmt::format("`.local` applies to arrays, but this is {}", qt(base)));
            return Type::error();
        }
        return Type::localView(base);
    case ast::PropertyKind::Dimension: {
        Type array = base.kind == TypeKind::LocalView ? *base.element : base;
        if (!array.isArray()) {
            state_.rep.error(DiagKind::NotAnArray, e.range,
                             fmt::format("dimension attributes apply to arrays, but this is {}", qt(array)));
            return Type::error();
        }
        int dims = array.arrayDims();
        if (e.dimensionIndex > dims) {
            state_.rep.error(DiagKind::InvalidDimensionAttribute, e.propertyRange.valid() ? e.propertyRange : e.range,
                             fmt::format("`dimension{}` does not exist: the array is {}", e.dimensionIndex, qt(array)));
            return Type::error();
        }
        return Type::dimension(e.dimensionIndex == 0 ? dims : 1);
    }
    case ast::PropertyKind::Range:
        if (base.kind != TypeKind::Dimension) {
            state_.rep.error(DiagKind::InvalidDimensionAttribute, e.propertyRange.valid() ? e.propertyRange : e.range,
                             fmt::format("`.range` applies to a dimension such as `a.dimension1`, "
                                         "but this is {}",
                                         qt(base)));
            return Type::error();
        }
        if (base.dims != 1) {
            state_.rep.error(DiagKind::InvalidDimensionAttribute, e.propertyRange.valid() ? e.propertyRange : e.range,
                             fmt::format("the array has {} dimensions, so `.dimension.range` is "
                                         "ambiguous; name one, as in `.dimension1.range`",
                                         base.dims));
            return Type::error();
        }
        return Type::range();
    }
    return Type::error();
}

// `lpuId[k]` with a constant k: an entry of the space's coordinates, so 0 <= k < its dimensions
// (a stage's largest k is checked where it is invoked, check_flow).
void BodyChecker::checkLpuIdEntry(const ast::Subscript& e) {
    if (e.items.size() != 1 || !e.items[0].index)
        return;
    auto lit = e.items[0].index->as<ast::IntLiteral>();
    if (!lit)
        return;
    const SourceRange at = e.items[0].index->range;
    if (lit->value < 0) {
        state_.rep.error(DiagKind::LpuIdNotAllowed, at,
                         fmt::format("`lpuId` has no entry {}: its entries are numbered from 0, one per dimension "
                                     "of the space",
                                     lit->value));
        return;
    }
    if (kind_ == BodyKind::Stage) {
        if (!facts_.lpuIdEntry || facts_.lpuIdEntry->first < lit->value)
            facts_.lpuIdEntry = std::make_pair(lit->value, at);
        return;
    }
    if (kind_ != BodyKind::Flow || !task_)
        return;
    auto it = task_->spaces.find(flowSpace_);
    if (it == task_->spaces.end() || !it->second.config || it->second.unpartitioned)
        return;
    const int dims = it->second.config->dimensionality;
    if (lit->value >= dims)
        state_.rep.error(DiagKind::LpuIdNotAllowed, at,
                         fmt::format("`lpuId[{}]` does not exist in Space {}, which has {} dimension{}: `lpuId` has "
                                     "entries 0...{}",
                                     lit->value, flowSpace_, dims, dims == 1 ? "" : "s", dims - 1));
}

Type BodyChecker::checkSubscript(const ast::Subscript& e) {
    Type base = checkExpr(*e.base);
    for (const auto& item : e.items) {
        if (item.index)
            checkInteger(*item.index, "an array index");
        if (item.first)
            checkInteger(*item.first, "a sub-range bound");
        if (item.last)
            checkInteger(*item.last, "a sub-range bound");
    }
    if (base.isError())
        return Type::error();
    if (!base.isArray()) {
        state_.rep.error(DiagKind::NotAnArray, e.base->range,
                         fmt::format("only arrays can be subscripted, but this is {}", qt(base)));
        return Type::error();
    }
    if (e.base->kind == ast::ExprKind::LpuId)
        checkLpuIdEntry(e);
    int dims = base.arrayDims();
    if (static_cast<int>(e.items.size()) > dims) {
        // `q[i][0]` on a `1d Array of Real[3]`: one subscript list, as for `m[i][j]` of a 2d array.
        const std::string elementHint =
            base.elementType().kind == TypeKind::StaticArray
                ? fmt::format("; its elements are {}: put the element in parentheses to subscript it, `({}{})[k]`",
                              qt(base.elementType()), exprText(*e.base), dims == 1 ? "[i]" : "[i][j]")
                : "";
        state_.rep.error(DiagKind::SubscriptCount, e.items[dims].range.valid() ? e.items[dims].range : e.range,
                         fmt::format("{} subscripts on an array of type {}, which has {} "
                                     "dimension{}{}",
                                     e.items.size(), qt(base), dims, dims == 1 ? "" : "s", elementHint));
        return Type::error();
    }
    if (kind_ == BodyKind::Initialize && !e.base->as<ast::Subscript>()) {
        const ast::NameRef* root = accessRoot(e.base.get());
        if (root && task_ && task_->globals.count(root->name)) {
            const bool section = std::any_of(e.items.begin(), e.items.end(), [](const ast::SubscriptItem& i) {
                return i.kind != ast::SubscriptItem::Kind::Index;
            });
            state_.rep.error(DiagKind::ElementAccessInInitialize, e.range,
                             section ? fmt::format("Initialize cannot take a section of {}: its elements do not "
                                                   "exist yet; pass {} whole (a function called here sees its "
                                                   "ranges) and compute the section's bounds from them",
                                                   q(root->name), q(root->name))
                                     : fmt::format("Initialize cannot touch the elements of {}: arrays are not "
                                                   "allocated yet; set values in a stage",
                                                   q(root->name)));
            return Type::error();
        }
    }
    int kept = 0;
    for (const auto& item : e.items)
        kept += item.kind != ast::SubscriptItem::Kind::Index;
    kept += dims - static_cast<int>(e.items.size());
    if (kept == 0)
        return *base.element;
    return Type::dynamicArray(kept, *base.element);
}

Type BodyChecker::checkEpoch(const ast::Epoch& e) {
    if (kind_ != BodyKind::Stage) {
        state_.rep.error(DiagKind::EpochNotAllowed, e.range,
                         fmt::format("epoch versions (`at (current ...)`) are available only in "
                                     "stages, not in {}",
                                     bodyName()));
        checkExpr(*e.operand);
        return Type::error();
    }
    // `rate * (u[i - 1] + u[i + 1]) * 0.5 at (current - 1)`: the version is the literal's, and
    // the neighbours are read at `current` (probe h29/s2: wrong results without a word).
    switch (e.operand->kind) {
    case ast::ExprKind::IntLiteral:
    case ast::ExprKind::RealLiteral:
    case ast::ExprKind::CharLiteral:
    case ast::ExprKind::BoolLiteral:
    case ast::ExprKind::StringLiteral:
        state_.rep.diagnostics().report(
            DiagKind::EpochOnLiteral, e.range,
            "`at (current ...)` applies to the literal before it, which has no versions, not to the "
            "expression around it; put it on the arrays it should read (`u[i] at (current - 1)`) or "
            "on the parenthesized expression (`(a * u[i]) at (current - 1)`)",
            Severity::Warning);
        break;
    default: break;
    }
    if (const ast::NameRef* root = accessRoot(e.operand.get())) {
        if (Var* v = lookup(root->name); v && (v->role == Role::Local || v->role == Role::LoopIndex)) {
            state_.rep.error(DiagKind::EpochNotAllowed, e.range,
                             fmt::format("{} is a {}; epoch versions exist only for task-global data", q(root->name),
                                         v->role == Role::Local ? "local" : "loop index"));
            return Type::error();
        }
    }
    // The version written is the innermost epoch's on the way to the target's root: of nested
    // epochs the inner one applies, `((d at (current - 1)) at (current))[i] = x` writes current - 1.
    const ast::Epoch* written = &e;
    for (const ast::Expr* x = e.operand.get(); x && epochWriteDepth_ > 0;) {
        if (auto ep = x->as<ast::Epoch>()) {
            written = ep;
            x = ep->operand.get();
        } else if (auto s = x->as<ast::Subscript>())
            x = s->base.get();
        else if (auto f = x->as<ast::FieldAccess>())
            x = f->base.get();
        else
            break;
    }
    if (epochWriteDepth_ > 0 && written->lag > 0) {
        state_.rep.error(DiagKind::EpochWrite, written->range,
                         fmt::format("`at (current - {})` names an old version, which is read-only; "
                                     "only `current` can be written",
                                     written->lag));
        return Type::error();
    }
    if (!facts_.epochUse)
        facts_.epochUse = e.range; // any epoch expression needs `Epoch`
    int saved = epochWriteDepth_;
    epochWriteDepth_ = 0;
    Type t = checkExpr(*e.operand);
    epochWriteDepth_ = saved;
    return t;
}

// ---------------------------------------------------------------------------------------------
// Calls
// ---------------------------------------------------------------------------------------------

Type BodyChecker::checkCall(const ast::Call& e) {
    const std::string& name = e.callee.text;
    for (const auto& a : e.args)
        if (a.isSpaceArg()) {
            state_.rep.error(DiagKind::InvalidReductionTarget, a.range,
                             "`Space X: v` arguments are allowed only in stage invocations of the "
                             "Computation section");
            return Type::error();
        }
    if (task_ && task_->stages.count(name)) {
        state_.rep.error(DiagKind::StageCallInBody, e.callee.range,
                         kind_ == BodyKind::Stage
                             ? fmt::format("stage {} cannot be called from another stage; invoke "
                                           "stages from the Computation section",
                                           q(name))
                             : fmt::format("stage {} cannot be called from {}; invoke stages from the "
                                           "Computation section",
                                           q(name), bodyName()));
        return Type::error();
    }
    if (isBuiltinFunction(name))
        return checkBuiltin(e);
    auto it = state_.functions.find(name);
    if (it == state_.functions.end()) {
        for (const auto& a : e.args)
            checkExpr(*a.value);
        bool isStage = false;
        for (const auto& [tn, t] : state_.tasks)
            isStage |= t.stages.count(name) != 0;
        state_.rep.error(DiagKind::UnknownFunction, e.callee.range,
                         fmt::format("no function named {} is defined{}", q(name),
                                     isStage ? "; stages can be invoked only from a task's "
                                               "Computation section"
                                             : didYouMean(name, functionNames())));
        return Type::error();
    }
    const ast::FunctionDef& fn = *it->second;
    std::vector<Type> argTypes;
    bool bad = false;
    for (const auto& a : e.args) {
        Type t = checkExpr(*a.value);
        if (!requireValue(t, *a.value))
            t = Type::error();
        if (t.kind == TypeKind::Dimension || t.kind == TypeKind::LocalView) { // a parameter is a variable
            state_.rep.error(DiagKind::TypeMismatch, a.value->range,
                             fmt::format("a function parameter cannot hold a {}; pass `.range` to give it a "
                                         "`Range`",
                                         typeName(t)));
            t = Type::error();
        }
        bad |= t.isError();
        argTypes.push_back(inferredLocalType(t));
    }
    std::size_t expected = fn.form == ast::FunctionDef::Form::Brace ? fn.params.size() : 0;
    if (fn.form == ast::FunctionDef::Form::Paper)
        for (const auto& d : fn.arguments)
            expected += d.names.size();
    if (argTypes.size() != expected) {
        if (auto* d = state_.rep.error(DiagKind::CallArity, e.range,
                                       fmt::format("function {} takes {} argument{}, but {} {} given", q(name),
                                                   expected, expected == 1 ? "" : "s", argTypes.size(),
                                                   argTypes.size() == 1 ? "is" : "are")))
            DiagnosticEngine::addNote(*d, fn.name.range, "declared here");
        return Type::error();
    }
    if (fn.form == ast::FunctionDef::Form::Brace) {
        // `&p` passes by reference (guide: Functions): the argument must be a location.
        for (std::size_t i = 0; i < fn.params.size(); ++i) {
            if (!fn.params[i].byReference)
                continue;
            // The Computation section tests and passes data; it changes none (its conditions may
            // be evaluated by the LPUs of several spaces, and nothing would carry the change).
            if (kind_ == BodyKind::Flow) {
                if (auto* d = state_.rep.error(
                        DiagKind::ReferenceArgumentInFlow, e.args[i].value->range,
                        fmt::format("the Computation section passes this to the reference parameter `&{}` of {}, "
                                    "which could change it, but the Computation section changes no data: make the "
                                    "parameter a value (`{}`), or change the data in a stage",
                                    fn.params[i].name.text, q(name), fn.params[i].name.text)))
                    DiagnosticEngine::addNote(*d, fn.params[i].name.range, "declared here");
                return Type::error();
            }
            auto k = e.args[i].value->kind;
            if ((k != ast::ExprKind::NameRef && k != ast::ExprKind::Subscript && k != ast::ExprKind::FieldAccess) ||
                !accessRoot(e.args[i].value.get())) { // not `f(x)[i]`: nothing to write back to
                if (auto* d = state_.rep.error(
                        DiagKind::NotAssignable, e.args[i].value->range,
                        fmt::format("parameter {} of {} is passed by reference (`&{}`), so the "
                                    "argument must be a variable, or a field, element or section of one",
                                    q(fn.params[i].name.text), q(name), fn.params[i].name.text)))
                    DiagnosticEngine::addNote(*d, fn.params[i].name.range, "declared here");
                return Type::error();
            }
            // A stage parameter bound to a constant must not be assigned (guide: Stages and
            // statements), not even through a function's reference parameter.
            const ast::NameRef* root = accessRoot(e.args[i].value.get());
            Var* v = root ? lookup(root->name) : nullptr;
            if (!v || v->role != Role::Param || !v->binding || !v->binding->constant)
                continue;
            if (auto where = referenceParamAssignment(state_, fn, i)) {
                if (auto* d =
                        state_.rep.error(DiagKind::ConstantParameterByReference, e.args[i].value->range,
                                         fmt::format("parameter {} of stage {} is bound to a constant at this "
                                                     "invocation, but {} assigns it through its reference parameter "
                                                     "`&{}`; bind a task-global to {} instead, or copy it into a local "
                                                     "first",
                                                     q(root->name), q(stage_ ? stage_->name.text : "?"), q(name),
                                                     fn.params[i].name.text, q(root->name))))
                    DiagnosticEngine::addNote(*d, *where, "the reference parameter is assigned here");
            }
        }
    }
    if (fn.form == ast::FunctionDef::Form::Paper) {
        std::size_t i = 0;
        for (const auto& d : fn.arguments) {
            Type pt = typeFromAst(d.type);
            for (std::size_t k = 0; k < d.names.size(); ++k, ++i)
                if (!isAssignable(pt, argTypes[i]))
                    state_.rep.error(DiagKind::TypeMismatch, e.args[i].range,
                                     fmt::format("argument {} of {} must be {}, but this is {}", i + 1, q(name), qt(pt),
                                                 qt(argTypes[i])));
        }
    }
    if (bad && fn.form == ast::FunctionDef::Form::Brace)
        return Type::error();
    if (state_.recursive.count(&fn))
        return Type::error();
    return instantiateFunction(state_, fn, argTypes, e.range);
}

Type BodyChecker::checkBuiltin(const ast::Call& e) {
    const std::string& name = e.callee.text;
    if (isIoBuiltin(name) && kind_ != BodyKind::Coordinator) {
        state_.rep.error(kind_ == BodyKind::Stage ? DiagKind::ForbiddenInStage : DiagKind::IoOutsideCoordinator,
                         e.callee.range,
                         fmt::format("{} may appear only in the coordinator, not in {}", q(name), bodyName()));
        return Type::error();
    }
    std::vector<Type> t;
    for (const auto& a : e.args) {
        Type at = checkExpr(*a.value);
        if (!requireValue(at, *a.value))
            at = Type::error();
        t.push_back(at);
    }
    auto arity = [&](std::size_t n) {
        if (e.args.size() == n)
            return true;
        state_.rep.error(DiagKind::CallArity, e.range,
                         fmt::format("{} takes {} argument{}, but {} {} given", q(name), n, n == 1 ? "" : "s",
                                     e.args.size(), e.args.size() == 1 ? "is" : "are"));
        return false;
    };
    auto mismatch = [&](std::size_t i, const std::string& need) {
        state_.rep.error(DiagKind::TypeMismatch, e.args[i].range,
                         fmt::format("argument {} of {} must be {}, but this is {}", i + 1, q(name), need, qt(t[i])));
        return Type::error();
    };
    auto isString = [](const Type& x) {
        return x.isError() || x.kind == TypeKind::String || x.kind == TypeKind::ArgValue;
    };
    auto isList = [](const Type& x) { return x.isError() || x.kind == TypeKind::List; };
    auto isCursor = [](const Type& x) { return x.isError() || x.kind == TypeKind::Cursor; };
    if (name == "bind_input" || name == "bind_output") {
        if (!arity(3))
            return Type::error();
        if (!t[0].isError() && t[0].kind != TypeKind::TaskEnvironment)
            return mismatch(0, "a task environment");
        auto* item = e.args[1].value->as<ast::StringLiteral>();
        if (!item)
            return mismatch(1, "a string literal naming an environmental item");
        if (!isString(t[2]))
            return mismatch(2, "a file name (`String`)");
        if (t[0].isError())
            return Type::simple(TypeKind::Void);
        const TaskSym* task = state_.findTask(t[0].name);
        if (!task || task->duplicated)
            return Type::simple(TypeKind::Void);
        auto it = task->globals.find(item->value);
        if (it == task->globals.end() || !it->second.environmental) {
            if (!state_.unknownEnvironmentItems.insert({task, item->value}).second)
                return Type::error();
            if (it != task->globals.end())
                state_.rep.error(DiagKind::UnknownEnvironmentItem, e.args[1].range,
                                 fmt::format("{} is a task-global of task \"{}\", but its Environment section "
                                             "does not list it; add `{}: link` (or `create`) there to use it "
                                             "through the environment",
                                             q(item->value), t[0].name, item->value));
            else
                state_.rep.error(DiagKind::UnknownEnvironmentItem, e.args[1].range,
                                 fmt::format("task \"{}\" has no environmental item {}{}", t[0].name, q(item->value),
                                             didYouMean(item->value, environmentNames(*task))));
            return Type::error();
        }
        if (!it->second.type.isError() && !it->second.type.isArray() && it->second.type.kind != TypeKind::List) {
            state_.rep.error(DiagKind::IoOnScalar, e.args[1].range,
                             fmt::format("{} is {}, a scalar; files hold only arrays and lists", q(item->value),
                                         qt(it->second.type)));
            return Type::error();
        }
        return Type::simple(TypeKind::Void);
    }
    if (name == "load" || name == "store") {
        if (!arity(2))
            return Type::error();
        const Type& r = t[0];
        if (!r.isError() && !r.isArray() && r.kind != TypeKind::List) {
            if (r.isScalar() || r.kind == TypeKind::Class) {
                state_.rep.error(DiagKind::IoOnScalar, e.args[0].range,
                                 fmt::format("{} cannot {} a value of type {}; files hold only arrays "
                                             "and lists",
                                             q(name), name == "load" ? "read into" : "write", qt(r)));
                return Type::error();
            }
            return mismatch(0, "an array or list");
        }
        if (!isString(t[1]))
            return mismatch(1, "a file name (`String`)");
        if (name == "load" && !accessRoot(e.args[0].value.get())) {
            state_.rep.error(DiagKind::NotAssignable, e.args[0].range,
                             "`load` reads into a variable (an array or list, an environment item, an element or "
                             "section of one), and this is a computed value; load into a variable and use that");
            return Type::error();
        }
        return Type::simple(TypeKind::Void);
    }
    if (name == "get_cursor") {
        if (!arity(1))
            return Type::error();
        if (!isList(t[0]))
            return mismatch(0, "a list");
        return t[0].isError() ? Type::error() : Type::cursor(*t[0].element);
    }
    if (name == "value" || name == "advance") {
        if (!arity(1))
            return Type::error();
        if (!isCursor(t[0]))
            return mismatch(0, "a list cursor (from `get_cursor`)");
        if (name == "advance")
            return Type::boolean();
        return t[0].isError() ? Type::error() : *t[0].element;
    }
    if (name == "insert_at" || name == "remove_at") {
        if (!arity(name == "insert_at" ? 3 : 2))
            return Type::error();
        if (!isList(t[0]))
            return mismatch(0, "a list");
        if (!isCursor(t[1]))
            return mismatch(1, "a list cursor (from `get_cursor`)");
        if (name == "insert_at" && !t[0].isError() && !isAssignable(*t[0].element, t[2]))
            return mismatch(2, qt(*t[0].element));
        return Type::simple(TypeKind::Void);
    }
    if (name == "set_capacity") {
        if (!arity(2))
            return Type::error();
        if (!isList(t[0]))
            return mismatch(0, "a list");
        if (!isIntegerLike(t[1]) && t[1].kind != TypeKind::Character)
            return mismatch(1, "an `Integer`");
        return Type::simple(TypeKind::Void);
    }
    return Type::error();
}

Type BodyChecker::checkNewObject(const ast::NewObject& e) {
    std::map<std::string, SourceRange> seen;
    for (const auto& a : e.args) {
        auto [it, fresh] = seen.emplace(a.name.text, a.name.range);
        if (!fresh) {
            state_.rep.error(DiagKind::InvalidNewArguments, a.name.range,
                             fmt::format("{} is given twice", q(a.name.text)));
            return Type::error();
        }
    }
    if (e.type.kind == ast::TypeKind::TaskEnvironment) {
        if (kind_ != BodyKind::Coordinator) {
            state_.rep.error(DiagKind::TaskEnvironmentOutsideCoordinator, e.range,
                             fmt::format("task environments exist only in the coordinator, not in {}", bodyName()));
            return Type::error();
        }
        const ast::StringLiteral* taskName = nullptr;
        for (const auto& a : e.args) {
            if (a.name.text != "name") {
                state_.rep.error(DiagKind::InvalidNewArguments, a.name.range,
                                 fmt::format("`new TaskEnvironment` takes only `name:`, not {}", q(a.name.text)));
                return Type::error();
            }
            taskName = a.value->as<ast::StringLiteral>();
            if (!taskName) {
                checkExpr(*a.value);
                state_.rep.error(DiagKind::InvalidNewArguments, a.value->range,
                                 "`name:` must be a string literal naming a task, as in "
                                 "`name: \"Heat Flow\"`");
                return Type::error();
            }
            if (types_)
                (*types_)[a.value.get()] = Type::simple(TypeKind::String);
        }
        if (!taskName) {
            state_.rep.error(DiagKind::InvalidNewArguments, e.range,
                             "`new TaskEnvironment` needs `name:` with the task's name, as in "
                             "`new TaskEnvironment(name: \"Heat Flow\")`");
            return Type::error();
        }
        if (!state_.findTask(taskName->value)) {
            state_.rep.error(
                DiagKind::UnknownTask, taskName->range,
                fmt::format("no task is named \"{}\"{}", taskName->value, taskSuggestion(taskName->value)));
            return Type::error();
        }
        return Type::taskEnvironment(taskName->value);
    }
    std::string cls = e.type.kind == ast::TypeKind::Range ? "Range" : e.type.className;
    if (e.type.kind != ast::TypeKind::Range && e.type.kind != ast::TypeKind::Class) {
        state_.rep.error(DiagKind::InvalidNewArguments, e.range,
                         "named arguments are given only to classes, `Range` and `TaskEnvironment`");
        return Type::error();
    }
    Type result = resolveDeclaredType(state_, e.type);
    if (result.isError()) {
        for (const auto& a : e.args)
            checkExpr(*a.value);
        return Type::error();
    }
    const std::vector<VarInfo>* fields = state_.classFields(cls);
    for (const auto& a : e.args) {
        Type v = checkExpr(*a.value);
        const VarInfo* f = nullptr;
        if (fields)
            for (const VarInfo& x : *fields)
                if (x.name == a.name.text)
                    f = &x;
        if (!f) {
            state_.rep.error(DiagKind::UnknownField, a.name.range,
                             fmt::format("{} has no field {}{}", qt(result), q(a.name.text),
                                         fields ? didYouMean(a.name.text, fieldNames(*fields)) : ""));
            continue;
        }
        if (requireValue(v, *a.value) && !isAssignable(f->type, v))
            state_.rep.error(DiagKind::TypeMismatch, a.value->range,
                             fmt::format("field {} has type {}, but this value is {}", q(f->name), qt(f->type), qt(v)));
    }
    return result;
}

Type BodyChecker::checkExecute(const ast::Execute& e) {
    if (kind_ != BodyKind::Coordinator) {
        state_.rep.error(kind_ == BodyKind::Stage ? DiagKind::ForbiddenInStage : DiagKind::IoOutsideCoordinator,
                         e.range, fmt::format("`execute` may appear only in the coordinator, not in {}", bodyName()));
        return Type::error();
    }
    using L = ast::ExecuteArg::Label;
    const ast::ExecuteArg* byLabel[4] = {nullptr, nullptr, nullptr, nullptr};
    const char* labelNames[4] = {"task", "environment", "initialize", "partition"};
    bool ok = true;
    for (const auto& a : e.args) {
        int l = static_cast<int>(a.label);
        if (byLabel[l]) {
            if (auto* d =
                    state_.rep.error(DiagKind::ExecuteDuplicateLabel, a.labelRange.valid() ? a.labelRange : a.range,
                                     fmt::format("`{}:` is given twice; each `execute` label "
                                                 "appears at most once",
                                                 labelNames[l])))
                DiagnosticEngine::addNote(*d,
                                          byLabel[l]->labelRange.valid() ? byLabel[l]->labelRange : byLabel[l]->range,
                                          "first given here");
            ok = false;
            continue;
        }
        byLabel[l] = &a;
    }
    std::vector<std::vector<Type>> types(4);
    for (int l = 0; l < 4; ++l)
        if (byLabel[l])
            for (const auto& v : byLabel[l]->values) {
                if (l == 0 && v->as<ast::StringLiteral>()) {
                    if (types_)
                        (*types_)[v.get()] = Type::simple(TypeKind::String);
                    types[l].push_back(Type::simple(TypeKind::String));
                    continue;
                }
                Type t = checkExpr(*v);
                if (!requireValue(t, *v))
                    t = Type::error();
                types[l].push_back(t);
            }
    if (!ok)
        return Type::simple(TypeKind::Void);
    for (int l = 0; l < 2; ++l)
        if (!byLabel[l]) {
            state_.rep.error(DiagKind::ExecuteMissingLabel, e.range,
                             fmt::format("`execute` needs `{}:`{}", labelNames[l],
                                         l == 0 ? " with the task's name" : " with the task's environment object"));
            return Type::simple(TypeKind::Void);
        }
    const ast::ExecuteArg& taskArg = *byLabel[static_cast<int>(L::Task)];
    auto* lit = taskArg.values.empty() ? nullptr : taskArg.values[0]->as<ast::StringLiteral>();
    if (!lit) {
        state_.rep.error(DiagKind::TypeMismatch, taskArg.range, "`task:` must be a string literal naming a task");
        return Type::simple(TypeKind::Void);
    }
    auto tit = state_.tasks.find(lit->value);
    if (tit == state_.tasks.end()) {
        state_.rep.error(DiagKind::UnknownTask, lit->range,
                         fmt::format("no task is named \"{}\"{}", lit->value, taskSuggestion(lit->value)));
        return Type::simple(TypeKind::Void);
    }
    if (tit->second.duplicated)
        return Type::simple(TypeKind::Void);
    TaskSym& task = tit->second;
    const Type& env = types[1].empty() ? Type::error() : types[1][0];
    if (!env.isError()) {
        if (env.kind != TypeKind::TaskEnvironment) {
            state_.rep.error(DiagKind::TypeMismatch, byLabel[1]->values[0]->range,
                             fmt::format("`environment:` must be a task environment, but this is {}", qt(env)));
        } else if (env.name != lit->value) {
            if (auto* d =
                    state_.rep.error(DiagKind::EnvironmentTaskMismatch, byLabel[1]->values[0]->range,
                                     fmt::format("this environment was created for task \"{}\", not \"{}\"; create "
                                                 "one with `new TaskEnvironment(name: \"{}\")`",
                                                 env.name, lit->value, lit->value)))
                (void)d;
        }
    }
    // initialize: matches the Initialize parameters (guide: The coordinator).
    std::size_t initParams = task.def->initialize ? task.def->initialize->params.size() : 0;
    std::size_t initGiven = byLabel[2] ? byLabel[2]->values.size() : 0;
    // `initialize:` / `partition:` giving another number of values than the section has parameters.
    auto countMismatch = [&](const ast::ExecuteArg* arg, const char* section, const char* label, std::size_t params,
                             std::size_t given) {
        state_.rep.error(
            DiagKind::ExecuteArgumentCount, arg ? arg->range : e.range,
            params == 0
                ? fmt::format("task \"{}\" has no {} parameters, but `{}:` gives {}", lit->value, section, label, given)
                : fmt::format("task \"{}\" has {} {} parameter{}, but {} {} given with `{}:`", lit->value, params,
                              section, params == 1 ? "" : "s", given, given == 1 ? "is" : "are", label));
    };
    if (initGiven != initParams) {
        countMismatch(byLabel[2], "Initialize", "initialize", initParams, initGiven);
    } else if (initParams) {
        for (std::size_t i = 0; i < initParams; ++i) {
            const std::string& p = task.def->initialize->params[i].text;
            auto g = task.globals.find(p);
            if (g != task.globals.end() && !isAssignable(g->second.type, types[2][i]))
                state_.rep.error(DiagKind::TypeMismatch, byLabel[2]->values[i]->range,
                                 fmt::format("Initialize parameter {} is the task-global of type {}, "
                                             "but this value is {}",
                                             q(p), qt(g->second.type), qt(types[2][i])));
        }
        if (!task.initializeArgTypes)
            task.initializeArgTypes = types[2];
    }
    std::size_t partParams = task.partitionParams.size();
    std::size_t partGiven = byLabel[3] ? byLabel[3]->values.size() : 0;
    if (partGiven != partParams) {
        countMismatch(byLabel[3], "Partition", "partition", partParams, partGiven);
    } else {
        for (std::size_t i = 0; i < partGiven; ++i) {
            const ast::Expr& v = *byLabel[3]->values[i];
            if (!isIntegerLike(types[3][i])) {
                state_.rep.error(DiagKind::TypeMismatch, v.range,
                                 fmt::format("partition arguments are Integers, but this is {}", qt(types[3][i])));
                continue;
            }
            // A constant 0 for a parameter that counts or sizes blocks: an error now, not at the
            // run's start (padding may be 0).
            if (const auto* zero = v.as<ast::IntLiteral>(); zero && zero->value == 0)
                if (const ast::PartitionInstruction* use = countingUse(task.def->partition, task.partitionParams[i])) {
                    auto* d = state_.rep.error(
                        DiagKind::TypeMismatch, v.range,
                        fmt::format("partition argument {} of task \"{}\" cannot be 0: it is the {} of `{}`, "
                                    "which must be positive",
                                    task.partitionParams[i], task.def->name.text,
                                    use->function == ast::PartitionFunction::BlockCount ? "count" : "block size",
                                    partitionFunctionName(use->function)));
                    if (d)
                        DiagnosticEngine::addNote(*d, use->functionRange, "used here");
                }
            // A negative constant is no count, size or padding: an error now, not at the run's start.
            const auto* neg = v.as<ast::Unary>();
            if (neg && neg->op == ast::UnaryOp::Negate && neg->operand->as<ast::IntLiteral>() &&
                neg->operand->as<ast::IntLiteral>()->value > 0)
                state_.rep.error(DiagKind::TypeMismatch, v.range,
                                 fmt::format("partition argument {} of task \"{}\" cannot be negative: partition "
                                             "parameters are counts, sizes and paddings",
                                             task.partitionParams[i], task.def->name.text));
        }
    }
    return Type::simple(TypeKind::Void);
}

// ---------------------------------------------------------------------------------------------
// Reductions
// ---------------------------------------------------------------------------------------------

Type BodyChecker::reductionResult(const ast::ReduceOperator& op, const ast::Expr& operand, SourceRange where) {
    Type t = checkExpr(operand);
    if (!requireValue(t, operand))
        t = Type::error();
    std::string name;
    if (op.isLiteral) {
        name = op.text;
    } else {
        std::size_t index = 0;
        Var* v = lookup(op.text);
        if (!isStageParam(op.text, index) || !v || v->role != Role::Param) {
            state_.rep.error(DiagKind::ReductionOperatorNotLiteral, op.range,
                             fmt::format("the reduction operator must be a string literal such as "
                                         "`\"sum\"`, or a stage parameter bound to one; {} is neither",
                                         q(op.text)));
            return Type::error();
        }
        if (!v->binding)
            return Type::error(); // stage checked without an invocation
        if (!v->binding->isStringLiteral) {
            state_.rep.error(DiagKind::ReductionOperatorNotLiteral, op.range,
                             fmt::format("parameter {} is used as a reduction operator, so every "
                                         "invocation must bind it to a string literal such as "
                                         "`\"sum\"`",
                                         q(op.text)));
            return Type::error();
        }
        name = v->binding->literalString;
    }
    // The operators and the operand each accepts: the runtime's list (reduce_ops.def).
    enum OperatorKind { Arith, Order, Entry, Logic, Bits };
    static const std::map<std::string, OperatorKind> operators = [] {
        constexpr OperatorKind arithmetic = Arith, order = Order, entry = Entry, logic = Logic, bits = Bits;
        std::map<std::string, OperatorKind> m;
        std::map<std::string, std::string> nameOf;
#define ITRT_REDUCE_OP(enumerator, name, kind) m[(name)] = (kind), nameOf[#enumerator] = (name);
#define ITRT_REDUCE_ALIAS(alias, enumerator) m[(alias)] = m.at(nameOf.at(#enumerator));
#include "runtime/engine/reduce_ops.def"
#undef ITRT_REDUCE_ALIAS
#undef ITRT_REDUCE_OP
        return m;
    }();
    static const std::vector<std::string> operatorNames = {
#define ITRT_REDUCE_OP(enumerator, name, kind) name,
#include "runtime/engine/reduce_ops.def"
#undef ITRT_REDUCE_OP
    };
    static const std::string operatorList = [] {
        std::string list;
        for (const std::string& n : operatorNames)
            list += (list.empty() ? "`" : ", `") + n + "`";
        return list;
    }();
    auto known = operators.find(name);
    if (known == operators.end()) {
        state_.rep.error(DiagKind::UnknownReductionOperator, op.range,
                         didYouMean(name, operatorNames).empty()
                             ? fmt::format("{} is not a reduction operator; use one of {}", q(name), operatorList)
                             : fmt::format("{} is not a reduction operator{} (the operators are {})", q(name),
                                           didYouMean(name, operatorNames), operatorList));
        return Type::error();
    }
    const OperatorKind cls = known->second;
    if (cls == Entry && !loops_.empty() && loops_.back().parallel && loops_.back().indexCount != 1) {
        state_.rep.error(DiagKind::EntryReductionIndexCount, where,
                         fmt::format("`{}` gives the loop index of the extreme element, so its loop "
                                     "must have exactly one index, but it has {}",
                                     name, loops_.back().indexCount));
        return Type::error();
    }
    if (t.isError())
        return cls == Entry ? Type::integer() : Type::error();
    Type operandType = t.kind == TypeKind::ArgValue ? Type::error() : t;
    bool ok = false;
    const char* need = "";
    switch (cls) {
    case Arith:
        ok = t.isNumeric() && t.kind != TypeKind::Character;
        need = "a number";
        break;
    case Order:
    case Entry:
        ok = t.isNumeric();
        need = "a number or a character";
        break;
    case Logic:
        ok = t.kind == TypeKind::Boolean;
        need = "a `Boolean`";
        break;
    case Bits:
        ok = t.kind == TypeKind::Integer;
        need = "an `Integer`";
        break;
    }
    if (!ok) {
        state_.rep.error(DiagKind::ReductionOperandType, operand.range,
                         fmt::format("`{}` reduces {}, but the operand is {}", name, need, qt(t)));
        return Type::error();
    }
    if (cls == Entry)
        return Type::integer();
    return operandType;
}

// `reduce` outside any loop, or with a sequential loop (`do in sequence`, a while loop) as the
// innermost loop around it.
std::string BodyChecker::reducePlacementMessage() const {
    if (loops_.empty())
        return "`reduce` must be inside a parallel loop `do { } for`, which it reduces over";
    return "`reduce` must be directly inside a parallel loop `do { } for`: it reduces over the innermost loop "
           "around it, which here is sequential; make the reduction the body of a parallel loop of its own";
}

Type BodyChecker::checkReduceExpr(const ast::ReduceExpr& e) {
    if (kind_ != BodyKind::Stage) {
        state_.rep.error(DiagKind::ParallelOutsideStage, e.range,
                         fmt::format("`reduce` appears only inside parallel loops of stages, not in {}", bodyName()));
        return Type::error();
    }
    if (allowedReduce_ != &e) {
        state_.rep.error(DiagKind::ReductionPlacement, e.range,
                         loops_.empty() || !loops_.back().parallel
                             ? reducePlacementMessage()
                             : std::string("`v = reduce(...)` must be the only statement of its "
                                           "parallel loop's body; move other statements to a "
                                           "separate loop"));
        return Type::error();
    }
    return reductionResult(e.op, *e.operand, e.range);
}

void BodyChecker::checkReduceStmt(const ast::ReduceStmt& s) {
    // The target parameter counts as a reduction target even if the statement is misplaced,
    // so that its `Space X: v` argument is not reported a second time.
    std::size_t targetIndex = 0;
    if (isStageParam(s.target.text, targetIndex) && lookup(s.target.text) && lookup(s.target.text)->role == Role::Param)
        facts_.reductionTargetParams.insert(targetIndex);
    if (kind_ != BodyKind::Stage) {
        state_.rep.error(DiagKind::ParallelOutsideStage, s.range,
                         fmt::format("`reduce` appears only inside parallel loops of stages, not in {}", bodyName()));
        return;
    }
    if (loops_.empty() || !loops_.back().parallel || !loops_.back().reductionAllowed) {
        state_.rep.error(DiagKind::ReductionPlacement, s.range,
                         loops_.empty() || !loops_.back().parallel
                             ? reducePlacementMessage()
                             : std::string("`reduce(...)` must be the only statement of its parallel "
                                           "loop's body; move other statements to a separate loop"));
        return;
    }
    Type result = reductionResult(s.op, *s.operand, s.range);
    Var* v = lookup(s.target.text);
    if (!v) {
        declareLocal(s.target.text, inferredLocalType(result), s.target.range);
        return;
    }
    switch (v->role) {
    case Role::LoopIndex:
        state_.rep.error(DiagKind::NotAssignable, s.target.range,
                         fmt::format("loop index {} cannot receive a reduction", q(s.target.text)));
        return;
    case Role::Global:
        state_.rep.error(DiagKind::InvalidReductionTarget, s.target.range,
                         fmt::format("task-global {} cannot be a reduction target directly; make it a "
                                     "`Reduction` variable, pass it as `Space X: {}` and reduce into "
                                     "the parameter",
                                     q(s.target.text), s.target.text));
        return;
    case Role::Param: {
        if (v->binding && v->binding->spaceTarget.empty()) {
            state_.rep.error(DiagKind::InvalidReductionTarget, s.target.range,
                             fmt::format("parameter {} receives a cross-LPU reduction, so its argument "
                                         "must be `Space X: v` with `v` a `Reduction` task-global",
                                         q(s.target.text)));
            return;
        }
        break;
    }
    case Role::Local: break;
    }
    if (!isAssignable(v->type, result))
        state_.rep.error(DiagKind::TypeMismatch, s.operand->range,
                         fmt::format("the reduction gives {}, which cannot be stored in {} of type {}", qt(result),
                                     q(s.target.text), qt(v->type)));
}

// ---------------------------------------------------------------------------------------------
// Statements
// ---------------------------------------------------------------------------------------------

void BodyChecker::checkCondition(const ast::Expr& e, const char* what) {
    // `if (done = TRUE)`: legal (an assignment is an expression with the value assigned), but it
    // sets `done` and tests the value given, which is rarely what was meant.
    if (e.as<ast::Assign>())
        state_.rep.diagnostics().report(DiagKind::AssignmentAsCondition, e.range,
                                        fmt::format("{} assigns with `=`, so it sets the variable and tests the value "
                                                    "given; to compare, write `==`",
                                                    what),
                                        Severity::Warning);
    Type t = checkExpr(e);
    if (!requireValue(t, e))
        return;
    if (t.isError() || t.kind == TypeKind::Boolean || t.kind == TypeKind::ArgValue)
        return;
    state_.rep.error(DiagKind::ConditionNotBoolean, e.range,
                     fmt::format("{} must be `Boolean`, but this is {}; write a comparison such as "
                                 "`x != 0`",
                                 what, qt(t)));
}

void BodyChecker::checkRange(const ast::Expr& e) {
    Type t = checkExpr(e);
    if (t.isError() || t.kind == TypeKind::Range)
        return;
    std::string hint = t.kind == TypeKind::Dimension ? "; add `.range`" : "";
    state_.rep.error(DiagKind::NotARange, e.range,
                     fmt::format("a `Range` is required here, but this is {}{}", qt(t), hint));
}

void BodyChecker::checkInteger(const ast::Expr& e, const char* what) {
    Type t = checkExpr(e);
    if (!requireValue(t, e))
        return;
    if (isIntegerLike(t))
        return;
    if (t.kind == TypeKind::Character)
        return;
    state_.rep.error(DiagKind::IndexNotInteger, e.range,
                     fmt::format("{} must be an `Integer`, but this is {}", what, qt(t)));
}

void BodyChecker::checkStep(const ast::Expr& e, const char* what) {
    checkInteger(e, what);
    std::optional<std::int64_t> constant;
    if (auto l = e.as<ast::IntLiteral>())
        constant = l->value;
    else if (auto u = e.as<ast::Unary>(); u && u->op == ast::UnaryOp::Negate && u->operand->as<ast::IntLiteral>())
        constant = -u->operand->as<ast::IntLiteral>()->value;
    if (constant && *constant <= 0)
        state_.rep.error(
            DiagKind::NonPositiveStep, e.range,
            fmt::format("{} is {}, but it must be a positive Integer: the loop would never end", what, *constant));
}

void BodyChecker::checkBlock(const ast::Block& block) {
    for (const ast::StmtPtr& s : block.stmts)
        checkStmt(*s);
}

void BodyChecker::warnIfUnused(const ast::Expr& e) {
    // `x[i] == v` meant as an assignment is legal (an expression is a statement) and does nothing.
    using K = ast::ExprKind;
    switch (e.kind) {
    case K::Assign:
    case K::Call:
    case K::NewObject:
    case K::NewCollection:
    case K::ReduceExpr:
    case K::Execute: return; // these act, or are checked elsewhere
    default: break;
    }
    const auto* b = e.as<ast::Binary>();
    const bool equality = b && b->op == ast::BinaryOp::Equal;
    state_.rep.diagnostics().report(DiagKind::ValueNotUsed, equality && b->opRange.valid() ? b->opRange : e.range,
                                    equality ? std::string("this `==` compares and nothing uses the result; to "
                                                           "assign, write `=`")
                                             : std::string("this statement computes a value that nothing uses; "
                                                           "assign it (`x = ...`) or remove it"),
                                    Severity::Warning);
}

void BodyChecker::checkStmt(const ast::Stmt& s) {
    using K = ast::StmtKind;
    switch (s.kind) {
    case K::ExprStmt: {
        const ast::Expr& e = *s.as<ast::ExprStmt>()->expr;
        checkExpr(e);
        warnIfUnused(e);
        break;
    }
    case K::ParallelLoop: checkParallelLoop(*s.as<ast::ParallelLoop>()); break;
    case K::SequentialFor: checkSequentialFor(*s.as<ast::SequentialFor>()); break;
    case K::While: {
        auto* w = s.as<ast::While>();
        LoopFrame f;
        loops_.push_back(std::move(f));
        checkBlock(w->body);
        loops_.pop_back();
        checkCondition(*w->condition, "the `while` condition");
        break;
    }
    case K::If: {
        auto* i = s.as<ast::If>();
        for (const auto& b : i->branches) {
            checkCondition(*b.condition, "an `if` condition");
            checkBlock(b.body);
        }
        if (i->elseBody)
            checkBlock(*i->elseBody);
        break;
    }
    case K::ReduceStmt: checkReduceStmt(*s.as<ast::ReduceStmt>()); break;
    case K::Return: checkReturn(*s.as<ast::Return>()); break;
    case K::Extern:
        if (const auto* x = s.as<ast::Extern>(); x->language != "C++")
            state_.rep.error(DiagKind::UnknownNativeLanguage, x->range,
                             fmt::format("@Extern code in \"{}\": the only native language is \"C++\" (write "
                                         "`@Language \"C++\"`)",
                                         x->language));
        break;
    }
}

void BodyChecker::checkReturn(const ast::Return& s) {
    if (kind_ == BodyKind::Stage) {
        state_.rep.error(DiagKind::ForbiddenInStage, s.range,
                         "a stage cannot `return`; it communicates only through its parameters and "
                         "task-globals");
        return;
    }
    if (kind_ != BodyKind::Function || !function_ || function_->form != ast::FunctionDef::Form::Brace) {
        state_.rep.error(DiagKind::ReturnNotAllowed, s.range,
                         kind_ == BodyKind::Function
                             ? std::string("a paper-form function returns its `Results` variable; "
                                           "assign it instead of using `return`")
                             : fmt::format("`return` is allowed only in brace-form functions, not in {}", bodyName()));
        return;
    }
    Type t = s.value ? checkExpr(*s.value) : Type::simple(TypeKind::Void);
    if (s.value && !requireValue(t, *s.value))
        t = Type::error();
    returns_.push_back({t, s.value ? s.value->range : s.range});
}

void BodyChecker::checkSequentialFor(const ast::SequentialFor& loop) {
    checkRange(*loop.rangeExpr);
    if (loop.step)
        checkStep(*loop.step, "the loop step");
    LoopFrame f;
    Var v;
    v.type = Type::integer();
    v.role = Role::LoopIndex;
    v.declared = loop.index.range;
    f.indices.emplace(loop.index.text, v);
    f.indexCount = 1;
    loops_.push_back(std::move(f));
    if (loop.restriction)
        checkCondition(*loop.restriction, "a loop restriction");
    checkBlock(loop.body);
    loops_.pop_back();
}

void BodyChecker::checkParallelLoop(const ast::ParallelLoop& loop) {
    if (kind_ != BodyKind::Stage) {
        state_.rep.error(DiagKind::ParallelOutsideStage, loop.range,
                         fmt::format("parallel loops `do {{ }} for` appear only in stages, not in {}; "
                                     "use `do in sequence {{ }} for`",
                                     bodyName()));
        return;
    }
    LoopFrame frame;
    frame.parallel = true;
    bool failed = false;
    for (const ast::IndexGroup& g : loop.groups) {
        Var* coll = lookup(g.collection.text);
        Type ct = Type::error();
        if (!coll) {
            state_.rep.error(DiagKind::UnknownName, g.collection.range,
                             fmt::format("{} is not defined here{}", q(g.collection.text),
                                         didYouMean(g.collection.text, namesInScope())));
            declareLocal(g.collection.text, Type::error(), g.collection.range);
        } else {
            ct = coll->type;
            if (coll->role == Role::Global)
                facts_.globalsUsed.insert(g.collection.text);
        }
        int dims = ct.arrayDims();
        if (!ct.isError() && !ct.isArray()) {
            state_.rep.error(
                DiagKind::NotAnArray, g.collection.range,
                fmt::format("a parallel loop ranges over an array, but {} is {}", q(g.collection.text), qt(ct)));
            failed = true;
        } else if (!ct.isError()) {
            if (g.dimensionIndex > dims) {
                state_.rep.error(DiagKind::InvalidDimensionAttribute, g.range,
                                 fmt::format("`dimension{}` does not exist: {} is {}", g.dimensionIndex,
                                             q(g.collection.text), qt(ct)));
                failed = true;
            } else if (g.dimensionIndex > 0 && g.indices.size() > 1) {
                state_.rep.error(DiagKind::SubscriptCount, g.range,
                                 fmt::format("`in {}.dimension{}` binds exactly one index, but {} are "
                                             "given",
                                             g.collection.text, g.dimensionIndex, g.indices.size()));
                failed = true;
            } else if (static_cast<int>(g.indices.size()) > dims) {
                state_.rep.error(DiagKind::SubscriptCount, g.range,
                                 fmt::format("{} indices range over {}, which has only {} dimension{}",
                                             g.indices.size(), q(g.collection.text), dims, dims == 1 ? "" : "s"));
                failed = true;
            } else if (g.dimensionIndex == 0 && static_cast<int>(g.indices.size()) < dims) {
                // Each index binds to the lowest dimension where it appears alone as a
                // subscript of the collection in the body.
                for (const ast::Name& idx : g.indices) {
                    if (dimensionBoundByUse(loop.body, g.collection.text, idx.text) < 0) {
                        state_.rep.error(DiagKind::LoopIndexUnbound, idx.range,
                                         fmt::format("index {} cannot be bound to a dimension of {}: "
                                                     "it never appears alone as a subscript of {} "
                                                     "in the loop body; write `{} in {}.dimensionK`",
                                                     q(idx.text), q(g.collection.text), q(g.collection.text), idx.text,
                                                     g.collection.text));
                        failed = true;
                    }
                }
            }
        }
        for (const ast::Name& idx : g.indices) {
            bool dup = frame.indices.count(idx.text) != 0;
            for (const auto& outer : loops_)
                dup |= outer.indices.count(idx.text) != 0;
            if (dup) {
                state_.rep.error(DiagKind::DuplicateLoopIndex, idx.range,
                                 fmt::format("loop index {} is already an index of this or an "
                                             "enclosing loop; choose another name",
                                             q(idx.text)));
                failed = true;
                continue;
            }
            Var v;
            v.type = Type::integer();
            v.role = Role::LoopIndex;
            v.declared = idx.range;
            frame.indices.emplace(idx.text, v);
            ++frame.indexCount;
        }
    }
    (void)failed;
    // A reduction must be the loop body's only statement.
    if (loop.body.stmts.size() == 1) {
        const ast::Stmt& only = *loop.body.stmts[0];
        if (only.kind == ast::StmtKind::ReduceStmt)
            frame.reductionAllowed = true;
        if (auto* es = only.as<ast::ExprStmt>())
            if (auto* a = es->expr->as<ast::Assign>())
                if (auto* r = a->value->as<ast::ReduceExpr>()) {
                    frame.reductionAllowed = true;
                    allowedReduce_ = r;
                    // The target is assigned once, after the loop: its indices are gone then.
                    const ast::NameRef* index = nullptr;
                    walkExpr(*a->target, [&](const ast::Expr& x) {
                        if (auto* n = x.as<ast::NameRef>(); n && !index && frame.indices.count(n->name))
                            index = n;
                    });
                    if (index)
                        state_.rep.error(DiagKind::ReductionPlacement, index->range,
                                         fmt::format("the target of `reduce` uses `{}`, an index of the loop it "
                                                     "reduces over, but it is assigned once, after that loop; "
                                                     "reduce in an inner loop (`do {{ do {{ r[{}] = reduce(...) }} "
                                                     "for j in ... }} for {} in ...`) or use a target without it",
                                                     index->name, index->name, index->name));
                }
    }
    loops_.push_back(std::move(frame));
    for (const ast::IndexGroup& g : loop.groups)
        if (g.restriction)
            checkCondition(*g.restriction, "a loop restriction");
    checkBlock(loop.body);
    loops_.pop_back();
}

} // namespace itc::semantic::check
