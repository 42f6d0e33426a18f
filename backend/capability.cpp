// The backend's capability check (capability.h). It walks every code body the way the emitters
// translate it — the same names in the same kinds of body, the same special forms of assignments
// and arguments — and where the emitters have no translation it records a Refusal naming the
// construct and its reason (backend/limits.def). Plan facts it needs (stage spaces, storage
// spaces, strided dimensions, sub-partition spaces) come from the task plan.
#include "backend/capability.h"
#include "backend/held_part_uses.h"

#include "backend/emitter.h"
#include "semantic/builtins/builtins.h"
#include "semantic/check/ast_walk.h"
#include "semantic/plan/storage.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

namespace itc::backend {

namespace {

using semantic::Type;
using semantic::TypeKind;

struct LimitInfo {
    Limit limit;
    const char* key;
    const char* advice;
};
constexpr LimitInfo kLimits[] = {
#define ITC_BACKEND_LIMIT(enumerator, key, advice) {Limit::enumerator, key, advice},
#include "backend/limits.def"
#undef ITC_BACKEND_LIMIT
};

const LimitInfo& infoOf(Limit l) { return kLimits[static_cast<size_t>(l)]; }

const ast::Expr* stripEpoch(const ast::Expr* e) { return &withoutEpochs(*e); }

// The kinds of code body, each with its own meaning of names (the emitters' ExprEmitter hooks).
enum class BodyKind { Coordinator, Function, Initialize, Stage, Flow };

class CapabilityCheck {
public:
    explicit CapabilityCheck(const BackendInput& in) : in_(in), cp_(*in.checked) {}

    std::vector<Refusal> run() {
        coordinator();
        for (const auto& f : cp_.functions)
            function(f);
        for (size_t i = 0; i < in_.program->tasks.size(); ++i)
            task(in_.program->tasks[i]);
        heldArrays();
        std::stable_sort(out_.begin(), out_.end(), [](const Refusal& a, const Refusal& b) {
            return std::tie(a.at.begin.line, a.at.begin.column) < std::tie(b.at.begin.line, b.at.begin.column);
        });
        std::vector<Refusal> unique;
        for (auto& r : out_)
            if (std::none_of(unique.begin(), unique.end(), [&](const Refusal& u) {
                    return u.limit == r.limit && u.at.begin.line == r.at.begin.line &&
                           u.at.begin.column == r.at.begin.column;
                }))
                unique.push_back(std::move(r));
        return unique;
    }

    // The arrays that may hold parts cut by stride() or block_stride(): function parameters that
    // receive one (from a stage or a condition, or passed on by another such function), and local
    // arrays of stages and functions a copy of one goes into.
    struct HeldInfo {
        int dims = 0;
        SourceRange given; // the argument or copy that first gives it one
        bool local = false;
    };
    std::map<std::pair<const ast::FunctionDef*, std::string>, HeldInfo> held_;
    std::map<std::pair<const ast::StageDef*, std::string>, HeldInfo> heldLocals_;

private:
    // An array that may hold a strided part must use it only as held_part_uses.h allows; the
    // function parameters it is passed on to, and the locals it is copied into (`isLocal`), then
    // hold it too (`hold`). Returns nothing; refuses what it must.
    void checkHeldUses(const ast::Block& body, const std::string& name, const std::string& owner, const HeldInfo& info,
                       const std::function<bool(const std::string&)>& isLocal,
                       const std::function<void(const std::string&, const HeldInfo&)>& hold) {
        const HeldArrayUses uses = heldArrayUses(body, name, info.dims, info.local);
        if (uses.found)
            refuse(Limit::StridedPartCopy, uses.at,
                   "`" + name + "` " + uses.what + " in " + owner + ": this " +
                       (info.local ? "local array holds a copy of" : "parameter receives") +
                       " a part cut by stride() or block_stride() (line " + std::to_string(info.given.begin.line) +
                       "), which may only be indexed element by element, looped over by its dimension ranges "
                       "(`for i in " +
                       name + ".dimension1.range`), copied into a local array and passed on whole to functions");
        for (const auto& [target, at] : uses.copiedTo) {
            if (isLocal(target))
                hold(target, HeldInfo{info.dims, at, true});
            else
                refuse(Limit::StridedPartCopy, at,
                       "`" + name + "` copied into `" + target + "` in " + owner +
                           ", which is no local array of it: `" + name +
                           "` holds a part cut by stride() or block_stride() (line " +
                           std::to_string(info.given.begin.line) + ")");
        }
        for (const auto& [call, i] : uses.passedOn)
            for (const auto& d : in_.program->functions)
                if (d.name.text == call->callee.text)
                    if (std::string p = functionParameter(d, i); !p.empty() && !held_.count({&d, p}))
                        held_.insert({{&d, p}, HeldInfo{info.dims, call->args[i].value->range, false}});
    }

    // The local arrays of the stage just walked that hold strided parts, and those they are
    // copied into (b_ still describes the stage).
    void checkHeldLocals(const ast::StageDef& stage) {
        std::vector<std::string> todo;
        for (const auto& [key, _] : heldLocals_)
            if (key.first == &stage)
                todo.push_back(key.second);
        while (!todo.empty()) {
            const std::string name = todo.back();
            todo.pop_back();
            checkHeldUses(
                stage.body, name, "stage `" + stage.name.text + "`", heldLocals_.at({&stage, name}),
                [&](const std::string& n) { return stageLocalArray(n); },
                [&](const std::string& n, const HeldInfo& info) {
                    if (heldLocals_.insert({{&stage, n}, info}).second)
                        todo.push_back(n);
                });
        }
    }

    // Every function parameter or local that may hold a strided part, through the functions and
    // locals it goes on to.
    void heldArrays() {
        std::set<std::pair<const ast::FunctionDef*, std::string>> done;
        for (bool more = true; more;) {
            more = false;
            const auto holders = held_; // checking adds entries
            for (const auto& [key, info] : holders) {
                if (!done.insert(key).second)
                    continue;
                more = true;
                const ast::FunctionDef& fn = *key.first;
                checkHeldUses(
                    fn.body, key.second, "function `" + fn.name.text + "`", info,
                    [&](const std::string& n) { // not a parameter, nor the colon form's result
                        for (size_t i = 0; !functionParameter(fn, i).empty(); ++i)
                            if (functionParameter(fn, i) == n)
                                return false;
                        for (const auto& d : fn.results)
                            for (const auto& r : d.names)
                                if (r.text == n)
                                    return false;
                        return true;
                    },
                    [&](const std::string& n, const HeldInfo& local) {
                        held_.insert({{&fn, n}, local});
                    });
            }
        }
    }

    // ---- the body being checked --------------------------------------------------------------
    struct Body {
        BodyKind kind = BodyKind::Coordinator;
        const semantic::ExprTypes* types = nullptr;
        const std::map<std::string, Type>* locals = nullptr;
        std::string argsName; // the coordinator's `args`
        // Stages.
        std::map<std::string, std::pair<bool, std::string>> params; // name -> (is an array, root global)
        std::set<std::string> directArrays;                         // task-global arrays used by name
        int lps = -1;                                               // the stage's space
        // The Computation section: whether an LPU evaluates the expression (not a Repeat range).
        bool inSpace = true;
        // A flow condition (Where/If, Repeat while): the spaces other than its own whose stages
        // it guards. Their LPUs test it themselves, on their ancestor's parts.
        std::set<int> guardedSpaces;
    };
    Body b_;
    std::set<std::string> loopVars_;
    const semantic::TaskInfo* info_ = nullptr;
    const semantic::TaskPlan* plan_ = nullptr;

    void refuse(Limit l, SourceRange at, std::string construct) { out_.push_back({l, at, std::move(construct)}); }

    Type typeOf(const ast::Expr& e) const {
        if (b_.types)
            if (auto it = b_.types->find(&e); it != b_.types->end())
                return it->second;
        return Type::error();
    }
    Type localType(const std::string& n) const {
        if (b_.locals)
            if (auto it = b_.locals->find(n); it != b_.locals->end())
                return it->second;
        return Type::error();
    }
    bool isEnvironment(const ast::Expr& e) const {
        auto n = e.as<ast::NameRef>();
        return n && localType(n->name).kind == TypeKind::TaskEnvironment;
    }
    const semantic::GlobalInfo* global(const std::string& n) const {
        if (!info_ || loopVars_.count(n) || b_.params.count(n))
            return nullptr;
        for (const auto& g : info_->globals)
            if (g.name == n)
                return &g;
        return nullptr;
    }
    bool isTaskArray(const std::string& n) const {
        if (!info_)
            return false;
        for (const auto& g : info_->globals)
            if (g.name == n)
                return g.type.isArray();
        return false;
    }
    bool wholeArrays() const {
        return b_.kind == BodyKind::Coordinator || b_.kind == BodyKind::Function || b_.kind == BodyKind::Initialize;
    }
    // A task-global array seen as a part here (stages: parameters and direct uses).
    bool partArray(const std::string& n) const {
        if (b_.kind == BodyKind::Stage) {
            auto it = b_.params.find(n);
            return it != b_.params.end() ? it->second.first : b_.directArrays.count(n) != 0;
        }
        return b_.kind == BodyKind::Flow && b_.inSpace && isTaskArray(n);
    }
    bool heldAsTaskArray(const ast::Expr& e) const {
        const ast::Expr& a = withoutEpochs(e); // every version of it is
        auto n = a.as<ast::NameRef>();
        auto f = a.as<ast::FieldAccess>();
        return (n && partArray(n->name)) || (f && typeOf(*f->base).kind == TypeKind::TaskEnvironment);
    }
    bool isSection(const ast::Expr& e) const {
        return isArraySection(e, [&](const ast::Expr& x) { return typeOf(x); });
    }
    // A stage-local array value (LocalArray), not a part.
    bool stageLocalArray(const std::string& n) const {
        if (b_.params.count(n) || b_.directArrays.count(n) || isTaskArray(n) || loopVars_.count(n))
            return false;
        return localType(n).kind == TypeKind::DynamicArray;
    }
    // The root global of a stage's part name (parameter or direct use), or "".
    std::string partGlobal(const std::string& n) const {
        if (auto it = b_.params.find(n); it != b_.params.end())
            return it->second.first ? it->second.second : "";
        return b_.directArrays.count(n) ? n : "";
    }
    bool strided(const std::string& global, int lps) const {
        return plan_ && !semantic::stridedDimensions(plan_->storage, plan_->lps, global, lps).empty();
    }

    // ---- expressions (ExprEmitter::emit and the hooks of each body) ----------------------
    void exprOpt(const ast::ExprPtr& e) {
        if (e)
            expr(*e);
    }
    void items(const ast::Subscript& s) {
        for (const auto& it : s.items) {
            exprOpt(it.index);
            exprOpt(it.first);
            exprOpt(it.last);
        }
    }

    void expr(const ast::Expr& e) {
        using K = ast::ExprKind;
        switch (e.kind) {
        case K::Unary: expr(*e.as<ast::Unary>()->operand); return;
        case K::Binary:
            expr(*e.as<ast::Binary>()->lhs);
            expr(*e.as<ast::Binary>()->rhs);
            return;
        case K::Assign:
            expr(*e.as<ast::Assign>()->target);
            expr(*e.as<ast::Assign>()->value);
            return;
        case K::FieldAccess: fieldAccess(*e.as<ast::FieldAccess>()); return;
        case K::Property: property(*e.as<ast::Property>()); return;
        case K::Subscript: subscript(e, *e.as<ast::Subscript>()); return;
        case K::Call: call(*e.as<ast::Call>()); return;
        case K::NewObject:
            for (const auto& a : e.as<ast::NewObject>()->args)
                exprOpt(a.value);
            return;
        case K::RangeLiteral:
            expr(*e.as<ast::RangeLiteral>()->first);
            expr(*e.as<ast::RangeLiteral>()->last);
            return;
        case K::Epoch: expr(*e.as<ast::Epoch>()->operand); return;
        case K::ReduceExpr:
            expr(*e.as<ast::ReduceExpr>()->operand);
            return; // placed by semantic/check
        // Literals, lpuId, partition.p, names: a task array is used whole only as a copy or an
        // argument (partArgument, staticArrayAssign), semantic/check types every other whole use
        // as an error.
        default: return;
        }
    }

    // A section of a static array held as std::array (a class field, a local), as a target.
    bool staticSectionTarget(const ast::Expr& t) const {
        auto s = t.as<ast::Subscript>();
        return s && typeOf(*s->base).kind == TypeKind::StaticArray && !heldAsTaskArray(*s->base) && typeOf(t).isArray();
    }

    // The bodies that hold task environments (EnvironmentBody): the coordinator, and functions
    // it passes environments to.
    bool environmentBody() const { return b_.kind == BodyKind::Coordinator || b_.kind == BodyKind::Function; }

    void fieldAccess(const ast::FieldAccess& f) {
        if (auto n = f.base->as<ast::NameRef>(); n && environmentBody())
            if (n->name == b_.argsName || localType(n->name).kind == TypeKind::TaskEnvironment)
                return; // `args.key`, `env.item`
        expr(*f.base);
    }

    // Dimension attributes. semantic/check types `.range` of anything but a dimension, `.local`
    // or a dimension used as a value, and dimensions of non-arrays as errors.
    void property(const ast::Property& p) {
        const ast::Expr* base = p.base.get();
        if (p.property == ast::PropertyKind::Range) {
            base = stripEpoch(base); // every version of an array has the same ranges
            if (auto dim = base->as<ast::Property>(); dim && dim->property == ast::PropertyKind::Dimension)
                property(*dim);
            else
                expr(*base);
            return;
        }
        if (p.property != ast::PropertyKind::Dimension)
            return;
        const ast::Expr* arr = base;
        auto l = base->as<ast::Property>();
        const bool local = l && l->property == ast::PropertyKind::Local;
        if (local)
            arr = l->base.get();
        arr = stripEpoch(arr); // every version of an array has the same ranges
        const int k = p.dimensionIndex == 0 ? 0 : p.dimensionIndex - 1;
        const Type at = typeOf(*arr);
        if (at.kind == TypeKind::StaticArray && !heldAsTaskArray(*arr) && k < static_cast<int>(at.lengths.size()))
            return; // a constant: 0 to length - 1
        if (arr->as<ast::FieldAccess>()) {
            fieldAccess(*arr->as<ast::FieldAccess>());
            return;
        }
        if (auto s = arr->as<ast::Subscript>(); s && isSection(*arr)) {
            // `(v at (current - 1))[1...2]` has the ranges of `v[1...2]`.
            auto n = stripEpoch(s->base.get())->as<ast::NameRef>();
            if (n && (partArray(n->name) || (!local && b_.kind == BodyKind::Flow && isTaskArray(n->name)))) {
                items(*s); // ExprEmitter::sectionDimensionRange: from the subscripts (and whole ranges), no copy
                return;
            }
        }
        if (auto s = arr->as<ast::Subscript>(); s && typeOf(*s->base).kind == TypeKind::StaticArray && at.isArray()) {
            items(*s); // ExprEmitter::staticSection: from the subscripts and the lengths
            if (!s->base->as<ast::NameRef>())
                expr(*s->base);
            return;
        }
        if (!arr->as<ast::NameRef>() && at.kind == TypeKind::DynamicArray) // a computed array: a value, all of it held
            expr(*arr);
        // Names: every body translates the dimensions of the arrays semantic/check lets it name.
    }

    void subscript(const ast::Expr& e, const ast::Subscript& s) {
        items(s);
        if (s.base->kind == ast::ExprKind::LpuId)
            return;
        // `(v[2...5])[i]` is an element of `v` (ExprEmitter::sectionElement), checked as that.
        if (auto se = sectionElementShape(s);
            se && !typeOf(e).isArray() && keepsDimension(*se->section, typeOf(*se->section->base)) &&
            (typeOf(*se->array).kind == TypeKind::DynamicArray || heldAsTaskArray(*se->array)) &&
            partArray(se->array->name)) {
            items(*se->section);
            if (b_.kind == BodyKind::Flow)
                conditionReadElsewhere(se->array->name, s.range);
            return;
        }
        // `(v at (current - k))[i]` is the element `v[i] at (current - k)`, checked as that (of a
        // dynamic array or a task-global held in parts); a section so written is the LPU's part
        // of it, a value (ExprEmitter's Subscript).
        auto ep = innermostEpoch(*s.base);
        if (ep && epochSectionOfPart(e)) {
            partArgument(e);
            return;
        }
        if (ep && (!ep->operand->as<ast::NameRef>() ||
                   (typeOf(*ep->operand).kind != TypeKind::DynamicArray && !heldAsTaskArray(*ep->operand)))) {
            // Any other array at an older version is a value: computed (`(f(v) at (current - 1))[i]`),
            // a section of a part (`(v[1...4] at (current - 1))[2...3]`), a fixed-size field or
            // parameter (`(c.w at (current - 1))[1]`, a std::array), `lpuId`.
            valueOf(*ep->operand);
            return;
        }
        auto n = (ep ? ep->operand.get() : s.base.get())->as<ast::NameRef>();
        if (b_.kind == BodyKind::Flow && n && isTaskArray(n->name))
            conditionReadElsewhere(n->name, s.range);
        if (b_.kind == BodyKind::Flow && !b_.inSpace && n && isTaskArray(n->name)) {
            refuse(Limit::RepeatRangePerLpu, s.range,
                   "an element of `" + n->name + "` in the range of a `Repeat for` of " + spaceName(b_.lps) +
                       rangeOfSeveralLpus());
            return;
        }
        const Type baseType = typeOf(*s.base);
        if (baseType.kind == TypeKind::StaticArray && !heldAsTaskArray(*s.base)) {
            expr(*s.base);
            return;
        }
        if (auto f = s.base->as<ast::FieldAccess>()) {
            fieldAccess(*f);
            return;
        }
        if (!n) { // a computed array (semantic/check types every other subscripted value as one)
            valueOf(*s.base);
            return;
        }
        // A section of a part here is a copy (an argument, an assigned value; partArgument and
        // sectionCopy) or the base of a dimension attribute (property): semantic/check types every
        // other use as an error.
    }

    // An array value that is subscripted: a section of a part is the LPU's part of it, as a
    // function sees it (ExprEmitter's Subscript), anything else is computed.
    void valueOf(const ast::Expr& a) {
        if (sectionOfPart(a) || epochSectionOfPart(a))
            partArgument(a);
        else
            expr(a);
    }
    // `v[1...4]` of a part `v` (also of a fixed-size task-global).
    bool sectionOfPart(const ast::Expr& a) const {
        auto sub = a.as<ast::Subscript>();
        auto n = sub && typeOf(a).isArray() ? sub->base->as<ast::NameRef>() : nullptr;
        return n && partArray(n->name);
    }

    void call(const ast::Call& c) {
        const std::string& f = c.callee.text;
        if (semantic::isBuiltinOf(f, semantic::BuiltinFamily::List)) {
            for (const auto& a : c.args) {
                const bool part =
                    f == "insert_at" && &a == &c.args.back() && !wholeArrays() && typeOf(*a.value).isArray();
                if (part)
                    partArgument(*a.value);
                else
                    exprOpt(a.value);
            }
            return;
        }
        if (b_.kind == BodyKind::Coordinator && coordinatorBuiltin(c))
            return;
        const ast::FunctionDef* fn = nullptr;
        for (const auto& d : in_.program->functions)
            if (d.name.text == f)
                fn = &d;
        for (size_t i = 0; i < c.args.size(); ++i) {
            const ast::Expr& a = *c.args[i].value;
            const bool byRef =
                fn && fn->form == ast::FunctionDef::Form::Brace && i < fn->params.size() && fn->params[i].byReference;
            const Type at = typeOf(a);
            if (byRef && isSection(a) && wholeArrays()) {
                auto s = a.as<ast::Subscript>();
                items(*s);
                referenceArgument(*s->base);
                continue;
            }
            if ((at.kind == TypeKind::DynamicArray || at.kind == TypeKind::List ||
                 (at.kind == TypeKind::StaticArray && heldAsTaskArray(a))) &&
                !wholeArrays()) {
                if (fn) {
                    const HeldTarget target{fn, nullptr, functionParameter(*fn, i)};
                    partArgument(a, &target);
                } else {
                    partArgument(a);
                }
                continue;
            }
            if (byRef) {
                referenceArgument(a);
                continue;
            }
            expr(a);
        }
        if (!wholeArrays())
            partWithItsSection(c, fn);
    }

    // A stage's function call passing a part and a section of it (`f(m, m[lo])`) to `&`
    // parameters: each is a copy written back when the call ends (PartArgument; the same part
    // or section twice shares one), so one copy's write-back would undo the other's.
    void partWithItsSection(const ast::Call& c, const ast::FunctionDef* fn) {
        if (!fn || fn->form != ast::FunctionDef::Form::Brace)
            return;
        std::map<std::string, std::pair<bool, const ast::Expr*>> seen; // root: (passed whole, a section)
        for (size_t i = 0; i < c.args.size() && i < fn->params.size(); ++i) {
            const ast::Expr& a = *c.args[i].value;
            if (!fn->params[i].byReference || !typeOf(a).isArray())
                continue;
            const ast::Expr* e = stripEpoch(&a);
            auto sub = e->as<ast::Subscript>();
            auto n = (sub ? stripEpoch(sub->base.get()) : e)->as<ast::NameRef>();
            if (!n || !partArray(n->name))
                continue;
            auto& [whole, section] = seen[n->name];
            if (sub)
                section = e;
            else
                whole = true;
            if (whole && section) {
                refuse(Limit::PartAndSectionArgument, c.range,
                       "passing `" + n->name + "` and a section of it to `&` parameters of one call");
                return;
            }
        }
    }

    // A `&` argument (the emitters' referenceArg): an environment item of any type an item may
    // have is passed as a copy given back to the item.
    void referenceArgument(const ast::Expr& a) {
        if (environmentBody())
            if (auto f = a.as<ast::FieldAccess>(); f && isEnvironment(*f->base))
                return;
        expr(a);
    }

    // Where a part goes: a function's parameter, or a stage-local array it is copied into (none
    // for a list).
    struct HeldTarget {
        const ast::FunctionDef* fn = nullptr;
        const ast::StageDef* stage = nullptr;
        std::string name;
    };
    // Notes that `target` may receive the strided part `a`; false when it is nothing that may.
    bool holdsStrided(const HeldTarget* target, const ast::Expr& a) {
        if (!target || target->name.empty() || typeOf(a).kind != TypeKind::DynamicArray)
            return false;
        if (target->fn)
            held_.insert({{target->fn, target->name}, HeldInfo{typeOf(a).arrayDims(), a.range, false}});
        else
            heldLocals_.insert({{target->stage, target->name}, HeldInfo{typeOf(a).arrayDims(), a.range, true}});
        return true;
    }
    // A whole array or list passed to a function where arrays are parts (stages, conditions).
    void partArgument(const ast::Expr& a, const HeldTarget* target = nullptr) {
        if (b_.kind == BodyKind::Flow) { // the flow's partArgument: a whole part or a section of it
            auto sub = a.as<ast::Subscript>();
            auto n = (sub ? sub->base.get() : &a)->as<ast::NameRef>();
            if (!n || !isTaskArray(n->name)) { // a computed array (a function's result) or a section of one: a value
                expr(a);
                return;
            }
            if (sub)
                items(*sub);
            if (b_.inSpace)
                conditionReadElsewhere(n->name, a.range);
            if (!b_.inSpace)
                refuse(Limit::RepeatRangePerLpu, a.range,
                       "passing task array `" + n->name + "` to a function in the range or step of a `Repeat for` of " +
                           spaceName(b_.lps) + rangeOfSeveralLpus());
            else if (strided(n->name, b_.lps) && !holdsStrided(target, a))
                refuse(Limit::StridedPartCopy, a.range,
                       "passing `" + n->name +
                           "`, whose parts are cut by stride() or block_stride(), to this function in a condition");
            return;
        }
        const ast::Expr* e = stripEpoch(&a);
        if (typeOf(a).kind == TypeKind::List) {
            expr(a);
            return;
        }
        if (!rootedAtPart(*e) && !epochSectionOfPart(*e)) {
            expr(a);
            return;
        }
        auto sub = e->as<ast::Subscript>();
        auto n = (sub ? stripEpoch(sub->base.get()) : e)->as<ast::NameRef>(); // rootedAtPart: a name
        // A section fixing every strided dimension (a row `m[i]` of rows dealt out by stride()) is
        // an interval: the LPU holding it holds it whole. (Numbered as the global's when the
        // parameter has all of its dimensions.)
        const std::string g = partGlobal(n->name);
        const semantic::GlobalInfo* gi = nullptr; // by name, whatever the stage's parameters are called
        for (const auto& tg : info_->globals)
            if (tg.name == g)
                gi = &tg;
        const bool interval =
            sub && gi && typeOf(*sub->base).arrayDims() == gi->type.arrayDims() && !keepsStridedDimension(*sub, g);
        if (strided(g, b_.lps) && !interval && !holdsStrided(target, a))
            refuse(Limit::StridedPartCopy, a.range,
                   "copying `" + n->name +
                       "`, whose parts are cut by stride() or block_stride(), into a list or a section of a task "
                       "array");
        if (sub)
            items(*sub);
    }

    // `(v at (current - 1))[1...2]`, a section of an older version of a part: as
    // `v[1...2] at (current - 1)` (the emitters' partArgument and sectionCopy take both).
    bool epochSectionOfPart(const ast::Expr& e) const {
        auto sub = e.as<ast::Subscript>();
        auto ep = sub && typeOf(e).isArray() ? innermostEpoch(*sub->base) : nullptr;
        auto n = ep ? ep->operand->as<ast::NameRef>() : nullptr;
        return n && partArray(n->name); // a dynamic array or a fixed-size task-global
    }

    bool rootedAtPart(const ast::Expr& e) const {
        const ast::Expr* x = stripEpoch(&e);
        if (auto sub = x->as<ast::Subscript>())
            x = sub->base.get();
        auto n = x->as<ast::NameRef>();
        return n && partArray(n->name);
    }

    // The coordinator's own built-ins (`bind_*`, `load`, `store`); true when `c` is one.
    bool coordinatorBuiltin(const ast::Call& c) {
        const std::string& f = c.callee.text;
        if (f == "bind_input" || f == "bind_output") {
            for (const auto& a : c.args)
                exprOpt(a.value);
            return true;
        }
        if (f != "load" && f != "store")
            return false;
        const ast::Expr& target = *c.args.at(0).value;
        for (size_t i = 1; i < c.args.size(); ++i)
            exprOpt(c.args[i].value);
        if (auto fa = target.as<ast::FieldAccess>(); fa && isEnvironment(*fa->base))
            return true;
        const Type t = typeOf(target);
        // A fixed-size array reads and writes as the dynamic array of its lengths.
        const Type ft = t.kind == TypeKind::StaticArray ? Type::dynamicArray(t.arrayDims(), t.elementType()) : t;
        // semantic/check: `load` reads into a variable, an element or a section of one, `store`
        // writes an array or a list.
        if (f == "load") {
            auto n = target.as<ast::NameRef>();
            const Type lt = n ? localType(n->name) : Type::error();
            const bool whole = n && (lt.kind == TypeKind::DynamicArray || lt.kind == TypeKind::List);
            if (!hasStoreCodec(whole ? lt : ft, cp_))
                refuse(Limit::ElementCodec, c.range, "`load` of a `" + semantic::typeName(t) + "`");
            else if (!whole)
                expr(target);
            return true;
        }
        expr(target);
        if (!hasStoreCodec(ft, cp_))
            refuse(Limit::ElementCodec, c.range, "`store` of a `" + semantic::typeName(t) + "`");
        return true;
    }

    // ---- sequential bodies: the coordinator, functions, Initialize (SequentialBody::stmt) ----
    void sequentialBlock(const ast::Block& block) {
        for (const auto& s : block.stmts)
            sequentialStmt(*s);
    }
    void sequentialStmt(const ast::Stmt& s) {
        using K = ast::StmtKind;
        switch (s.kind) {
        case K::ExprStmt: {
            const ast::Expr& e = *s.as<ast::ExprStmt>()->expr;
            if (auto x = e.as<ast::Execute>())
                execute(*x);
            else if (auto a = e.as<ast::Assign>())
                sequentialAssign(*a);
            else
                expr(e);
            return;
        }
        case K::SequentialFor:
        case K::While:
        case K::If: controlStmt(s, &CapabilityCheck::sequentialBlock); return;
        case K::Return: exprOpt(s.as<ast::Return>()->value); return;
        default: return; // native code; parallel statements are stage-only (semantic/check)
        }
    }

    // `do in sequence { } for`, `do { } while`, `if`: the same in every kind of body, with the
    // body's own statement walk for the blocks.
    void controlStmt(const ast::Stmt& s, void (CapabilityCheck::*block)(const ast::Block&)) {
        if (auto f = s.as<ast::SequentialFor>()) {
            expr(*f->rangeExpr);
            exprOpt(f->step);
            const bool added = loopVars_.insert(f->index.text).second;
            exprOpt(f->restriction);
            (this->*block)(f->body);
            if (added)
                loopVars_.erase(f->index.text);
        } else if (auto w = s.as<ast::While>()) {
            expr(*w->condition);
            (this->*block)(w->body);
        } else if (auto i = s.as<ast::If>()) {
            for (const auto& br : i->branches) {
                expr(*br.condition);
                (this->*block)(br.body);
            }
            if (i->elseBody)
                (this->*block)(*i->elseBody);
        }
    }

    void execute(const ast::Execute& x) {
        for (const auto& a : x.args)
            for (const auto& v : a.values)
                exprOpt(v);
    }

    void sequentialAssign(const ast::Assign& a) {
        const ast::Expr& t = *a.target;
        if (environmentBody()) {
            if (auto sub = t.as<ast::Subscript>())
                if (auto f = sub->base->as<ast::FieldAccess>(); f && isEnvironment(*f->base)) {
                    environmentElementAssign(a, *sub, *f);
                    return;
                }
            if (auto f = t.as<ast::FieldAccess>(); f && isEnvironment(*f->base)) {
                if (auto chain = a.value->as<ast::Assign>()) {
                    sequentialAssign(*chain);
                    environmentAssign(*f, *chain->target, false);
                } else {
                    environmentAssign(*f, *a.value, true);
                }
                return;
            }
            if (auto no = a.value->as<ast::NewObject>(); no && b_.kind == BodyKind::Coordinator &&
                                                         t.as<ast::NameRef>() &&
                                                         no->type.kind == ast::TypeKind::TaskEnvironment) {
                for (const auto& arg : no->args)
                    exprOpt(arg.value);
                return;
            }
        }
        if (auto chain = a.value->as<ast::Assign>()) {
            expr(t);
            sequentialAssign(*chain);
            return;
        }
        expr(t);
        expr(*a.value);
    }

    // `env.item[i][j] = value` (Coordinator::envElementAssign).
    void environmentElementAssign(const ast::Assign& a, const ast::Subscript& s, const ast::FieldAccess&) {
        items(s);
        expr(*a.value);
    }

    // `env.item = value` (Coordinator::envAssign); `checkValue`: the value is not a chain's
    // target already checked as one.
    void environmentAssign(const ast::FieldAccess& f, const ast::Expr& value, bool checkValue) {
        Type vt = typeOf(value);
        if (vt.kind == TypeKind::Error)
            vt = typeOf(f);
        if (auto vf = value.as<ast::FieldAccess>(); vf && isEnvironment(*vf->base)) {
            const Type st = typeOf(*vf);
            if (st.isArray() || st.kind == TypeKind::List || typeOf(f).isArray() || typeOf(f).kind == TypeKind::List)
                return; // shared
        }
        auto codec = [&](const Type& collection) {
            // Lists move serialised and are written as data files through their file forms.
            const bool ok =
                collection.kind == TypeKind::List ? hasStoreCodec(collection, cp_) : hasFileCodec(collection, cp_);
            if (!ok)
                refuse(Limit::ElementCodec, value.range,
                       "giving environment item `" + f.field.text + "` a `" + semantic::typeName(collection) + "`");
        };
        if (checkValue && !(value.as<ast::Subscript>() && vt.isArray()))
            expr(value);
        if (auto sub = value.as<ast::Subscript>(); sub && vt.isArray()) {
            if (auto vn = sub->base->as<ast::NameRef>(); vn && localType(vn->name).kind == TypeKind::DynamicArray) {
                if (checkValue)
                    expr(value);
                codec(vt);
                return;
            }
            auto vf = sub->base->as<ast::FieldAccess>();
            if (vf && isEnvironment(*vf->base)) { // a view of another environment's item
                items(*sub);
                return;
            }
            if (checkValue)
                expr(value); // a copy of the section (a fixed-size field's, a function result's)
            codec(vt);
            return;
        }
        if (value.as<ast::NameRef>() && vt.kind == TypeKind::DynamicArray) {
            codec(vt);
            return;
        }
        if (vt.kind == TypeKind::List) {
            codec(vt);
            return;
        }
        if (vt.kind == TypeKind::DynamicArray && value.kind != ast::ExprKind::NewCollection &&
            value.kind != ast::ExprKind::NewObject) {
            codec(vt);
            return;
        }
        if (vt.kind == TypeKind::StaticArray) { // a copy with indices from 0
            codec(vt);
            return;
        }
        if (vt.kind == TypeKind::DynamicArray && value.kind == ast::ExprKind::NewCollection)
            codec(vt); // a new array without ranges: the task linking it sets them
    }

    // ---- the coordinator and functions -------------------------------------------------------
    void coordinator() {
        const ast::Coordinator& c = in_.program->coordinators.at(0);
        b_ = Body{};
        b_.kind = BodyKind::Coordinator;
        b_.types = &cp_.exprTypes;
        b_.locals = &cp_.coordinatorLocals;
        b_.argsName = c.argsName.text;
        info_ = nullptr;
        plan_ = nullptr;
        sequentialBlock(c.body);
    }

    void function(const semantic::FunctionInstance& f) {
        b_ = Body{};
        b_.kind = BodyKind::Function;
        b_.types = &f.exprTypes;
        b_.locals = &f.locals;
        info_ = nullptr;
        plan_ = nullptr;
        sequentialBlock(f.function->body);
    }

    // ---- tasks -------------------------------------------------------------------------------
    void task(const ast::TaskDef& def) {
        info_ = cp_.findTask(def.name.text);
        plan_ = nullptr;
        for (const auto& p : in_.plan->tasks)
            if (p.task == def.name.text)
                plan_ = &p;
        if (!info_ || !plan_)
            return;
        // Task arrays are parts of raw memory that move as bytes and are stored through codecs.
        for (const auto& g : info_->globals) {
            if (g.type.isArray() && !hasElementCodec(g.type.elementType(), cp_))
                refuse(Limit::TaskArrayElement, g.declared,
                       "a task array of `" + semantic::typeName(g.type.elementType()) +
                           "` (task arrays move as bytes and are stored element by element)");
            else if (g.environmental && g.type.kind == TypeKind::List && !hasStoreCodec(g.type, cp_))
                refuse(Limit::ElementCodec, g.declared,
                       "an environmental `" + semantic::typeName(g.type) +
                           "` (environment lists keep an element codec)");
        }
        nodes_.clear();
        int next = 1;
        numberFlowNodes(def.computation, next, nodes_);
        if (def.initialize) {
            b_ = Body{};
            b_.kind = BodyKind::Initialize;
            b_.types = &cp_.exprTypes;
            b_.locals = &info_->initializeLocals;
            sequentialBlock(def.initialize->body);
        }
        for (const auto& inst : info_->stageInstances)
            stage(inst);
        b_ = Body{};
        b_.kind = BodyKind::Flow;
        b_.types = &cp_.exprTypes;
        flow(def.computation, semantic::kRootLps, -1);
    }

    std::map<const ast::FlowPart*, int> nodes_;
    int contextOf(const ast::FlowPart& f) const {
        auto it = nodes_.find(&f);
        return it == nodes_.end() ? semantic::kRootLps : plan_->flow.at(it->second).context;
    }

    // A condition of space b_.lps that reads `array` guards stages of other spaces: their LPUs test
    // it on the condition space's parts, which hold the data only if they are the parts those
    // stages work in too (the same storage); otherwise nothing brings the data there first, or
    // the parts are in another process.
    void conditionReadElsewhere(const std::string& array, SourceRange at) {
        for (int space : b_.guardedSpaces)
            if (int held = plan_->storage.storageOf(array, space); held != plan_->storage.storageOf(array, b_.lps)) {
                refuse(Limit::ConditionArrayElsewhere, at,
                       "a condition of " + spaceName(b_.lps) + " that reads `" + array + "` around stages of " +
                           spaceName(space) + ", " +
                           (held == semantic::kNoLps ? "whose LPUs would test it without holding `" + array + "`"
                                                     : "which keeps parts of its own of it"));
                return;
            }
    }
    // Why a `Repeat for` range of a space cannot read its parts (Root's are decided by a stage,
    // semantic/plan/condition_stages.cpp).
    static std::string rangeOfSeveralLpus() {
        return " (every process evaluates the range once for all the space's LPUs, which hold different parts)";
    }
    std::string spaceName(int lps) const {
        return lps == semantic::kRootLps ? std::string("Root") : "Space " + plan_->lps.at(lps).name;
    }
    // The spaces other than `lps` whose stages run inside `body`.
    std::set<int> stageSpacesIn(const ast::FlowList& body, int lps) const {
        std::set<int> out;
        std::function<void(const ast::FlowList&)> walk = [&](const ast::FlowList& list) {
            for (const auto& f : list) {
                if (auto call = f->as<ast::StageCall>()) {
                    if (int c = contextOf(*call); c != lps)
                        out.insert(c);
                } else if (const ast::FlowList* inner = ast::nestedFlow(*f)) {
                    walk(*inner);
                }
            }
        };
        walk(body);
        return out;
    }

    // The Computation section. `lps`: the space entered; `foreach`: the space of the enclosing
    // `Repeat foreach`, or -1.
    void flow(const ast::FlowList& list, int lps, int foreach) {
        for (const auto& f : list) {
            if (auto s = f->as<ast::SpaceBlock>()) {
                flow(s->body, plan_->lps.find(s->space.text), foreach);
            } else if (auto r = f->as<ast::RepeatFor>()) {
                b_.lps = lps;
                b_.inSpace = false;
                expr(*r->rangeExpr);
                exprOpt(r->step);
                b_.inSpace = true;
                flow(r->body, lps, foreach);
            } else if (auto w = f->as<ast::RepeatWhile>()) {
                b_.lps = lps; // the space whose LPUs evaluate the condition
                b_.guardedSpaces = stageSpacesIn(w->body, lps);
                exprOpt(w->condition);
                b_.guardedSpaces.clear();
                flow(w->body, lps, foreach);
            } else if (auto fe = f->as<ast::RepeatForeach>()) {
                // Sub-partitions are computed once per LPU: a space whose parts change every turn
                // of an enclosing loop would need them anew at every turn.
                if (foreach >= 0 && plan_->lps.changesEveryTurn(lps))
                    refuse(Limit::NestedForeach, fe->range,
                           "a `Repeat foreach sub-partition` of Space " + plan_->lps.at(lps).name +
                               ", whose parts change every turn of the enclosing one");
                flow(fe->body, lps, lps);
            } else if (auto c = f->as<ast::Condition>()) {
                b_.lps = lps;
                b_.guardedSpaces = stageSpacesIn(c->body, lps);
                exprOpt(c->condition);
                exprOpt(c->membershipRange);
                b_.guardedSpaces.clear();
                flow(c->body, lps, foreach);
            } else if (auto e = f->as<ast::EpochBlock>()) {
                flow(e->body, lps, foreach);
            } else if (auto call = f->as<ast::StageCall>()) {
                stageCall(*call, contextOf(*call));
            }
        }
    }

    const semantic::StageInstance* instanceOf(const ast::StageCall& call) const {
        for (const auto& inst : info_->stageInstances)
            if (std::find(inst.calls.begin(), inst.calls.end(), &call) != inst.calls.end())
                return &inst;
        return nullptr;
    }

    // The arguments of a stage call (TaskEmitter::emitStageCall), every form semantic/check allows
    // as an argument: task arrays and sections of them as views of the part; elements of parts,
    // task-global scalars and objects, and paths of fields and elements of fixed-size fields
    // (`cfg.k[2]`, `shelf[1].weights`) as lvalues; sections of fixed-size fields as views of
    // the object's array (TaskEmitter::fieldSectionArgument). Only the indices need a look.
    void stageCall(const ast::StageCall& call, int) {
        const semantic::StageInstance* inst = instanceOf(call);
        if (!inst)
            return;
        for (size_t i = 0; i < inst->params.size() && i < call.args.size(); ++i) {
            const semantic::ParamBinding& b = inst->params[i];
            const ast::CallArg& ca = call.args[i];
            if (!ca.value || !b.spaceTarget.empty() || b.isStringLiteral)
                continue;
            const ast::Expr& v = *ca.value;
            if (b.constant) {
                expr(v);
                continue;
            }
            if (auto sub = v.as<ast::Subscript>(); sub && b.type.isArray() && sub->base->as<ast::Subscript>()) {
                // The plan and the stage's views take a section argument's subscripts as written.
                refuse(Limit::SectionOfSectionArgument, v.range,
                       "a section of a section of a task array as a stage argument");
                continue;
            }
            // The indices along the argument's path of fields, elements and sections.
            for (const ast::Expr* x = &v;;) {
                if (auto f = x->as<ast::FieldAccess>()) {
                    x = f->base.get();
                } else if (auto sub = x->as<ast::Subscript>()) {
                    items(*sub);
                    x = sub->base.get();
                } else {
                    break;
                }
            }
        }
    }

    // ---- stages (StageBody) ------------------------------------------------------------------
    const ast::StageDef* stage_ = nullptr; // the stage being checked
    void stage(const semantic::StageInstance& inst) {
        stage_ = inst.stage;
        b_ = Body{};
        b_.kind = BodyKind::Stage;
        b_.types = &inst.exprTypes;
        b_.locals = &inst.locals;
        b_.lps = inst.calls.empty() ? -1 : contextOf(*inst.calls.front());
        const ast::StageDef& def = *inst.stage;
        for (size_t i = 0; i < def.params.size() && i < inst.params.size(); ++i) {
            const semantic::ParamBinding& b = inst.params[i];
            b_.params[def.params[i].text] = {b.spaceTarget.empty() && b.type.isArray(), b.rootGlobal};
        }
        for (const auto& g : inst.globalsUsed)
            if (isTaskArray(g) && !b_.params.count(g))
                b_.directArrays.insert(g);
        loopVars_.clear();
        stageBlock(def.body);
        checkHeldLocals(def);
    }

    void stageBlock(const ast::Block& block) {
        for (const auto& s : block.stmts)
            stageStmt(*s);
    }

    void stageStmt(const ast::Stmt& s) {
        using K = ast::StmtKind;
        switch (s.kind) {
        case K::ExprStmt: {
            const ast::Expr& e = *s.as<ast::ExprStmt>()->expr;
            auto a = e.as<ast::Assign>();
            if (a && staticSectionTarget(*a->target)) { // ExprEmitter::staticSectionAssign
                expr(*a->target);
                expr(*a->value);
                return;
            }
            if (a && typeOf(*a->value).kind == TypeKind::DynamicArray) {
                auto target = a->target->as<ast::NameRef>();
                if (target && stageLocalArray(target->name)) { // a copy of this LPU's part of a section, or a value
                    const HeldTarget local{nullptr, stage_, target->name};
                    partArgument(*a->value, &local);
                } else
                    sectionCopy(*a);
                return;
            }
            if (a && typeOf(*a->value).kind == TypeKind::StaticArray) { // StageBody::staticArrayAssign
                auto target = a->target->as<ast::NameRef>();
                if (!target || !partArray(target->name))
                    expr(*a->target);
                if (rootedAtPart(*a->value))
                    partArgument(*a->value);
                else
                    expr(*a->value);
                return;
            }
            expr(e);
            return;
        }
        case K::ParallelLoop: {
            auto p = s.as<ast::ParallelLoop>();
            std::vector<std::string> added;
            for (const auto& g : p->groups) {
                // over a part or a stage-local array (semantic/check allows nothing else)
                for (const auto& i : g.indices)
                    if (loopVars_.insert(i.text).second)
                        added.push_back(i.text);
            }
            for (const auto& g : p->groups)
                exprOpt(g.restriction);
            stageBlock(p->body);
            for (const auto& i : added)
                loopVars_.erase(i);
            return;
        }
        case K::SequentialFor:
        case K::While:
        case K::If: controlStmt(s, &CapabilityCheck::stageBlock); return;
        case K::ReduceStmt: expr(*s.as<ast::ReduceStmt>()->operand); return;
        default: return; // native code; `return` is not allowed in stages (semantic/check)
        }
    }

    // Whether section `s` of `global` keeps a dimension its parts cut by stride() or
    // block_stride() (a fixed index there is fine: the row `m[k]` of a stride() part is held whole).
    bool keepsStridedDimension(const ast::Subscript& s, const std::string& global) const {
        if (!plan_)
            return false;
        for (int d : semantic::stridedDimensions(plan_->storage, plan_->lps, global, b_.lps))
            if (d >= static_cast<int>(s.items.size()) ||
                s.items[static_cast<size_t>(d)].kind != ast::SubscriptItem::Kind::Index)
                return true;
        return false;
    }

    // `target = value` into a part or a section of one (StageBody::sectionCopy): a section or
    // whole part of a task array, or an array value of the stage call.
    void sectionCopy(const ast::Assign& a) {
        // `v at (current) = ...`, `(v at (current))[1...2] = ...`: only the current version is written.
        const ast::Expr& written = withoutEpochs(*a.target);
        auto targetSub = written.as<ast::Subscript>();
        const bool heldStaticSection = targetSub && typeOf(*targetSub->base).kind == TypeKind::StaticArray &&
                                       heldAsTaskArray(*targetSub->base) && typeOf(written).isArray();
        if (targetSub && !isSection(written) && !heldStaticSection)
            targetSub = nullptr;
        // `(m[...][2...5])[3][4...5] = ...`: one section of m (composedItems).
        if (auto inner = targetSub ? stripEpoch(targetSub->base.get())->as<ast::Subscript>() : nullptr)
            items(*inner);
        // semantic/check types every other target of an array value as an error: a task array or
        // a section of one (StageBody::sectionCopy).
        if (targetSub)
            items(*targetSub);
        const ast::Expr* value = stripEpoch(a.value.get());
        if (!targetSub && (rootedAtPart(*value) || epochSectionOfPart(*value))) { // part to part (copy_section)
            if (auto sub = value->as<ast::Subscript>())
                items(*sub);
            return;
        }
        if (targetSub && value->as<ast::NameRef>() && rootedAtPart(*value) &&
            typeOf(*value).arrayDims() == typeOf(*a.target).arrayDims())
            return;             // a whole part into a section, position by position (copy_part_into_section)
        partArgument(*a.value); // the value as an array of the stage call, copied into the target
    }

    const BackendInput& in_;
    const semantic::CheckedProgram& cp_;
    std::vector<Refusal> out_;
};

} // namespace

const char* limitKey(Limit l) { return infoOf(l).key; }
const char* limitAdvice(Limit l) { return infoOf(l).advice; }

std::vector<Refusal> untranslatedConstructs(const BackendInput& in) { return CapabilityCheck(in).run(); }

StridedHolders stridedPartHolders(const BackendInput& in) {
    CapabilityCheck check(in);
    check.run();
    StridedHolders r;
    for (const auto& [key, _] : check.held_)
        r.parameters.insert(key);
    for (const auto& [key, _] : check.heldLocals_)
        r.stageLocals.insert(key);
    return r;
}

} // namespace itc::backend
