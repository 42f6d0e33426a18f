// A task's run(): array declarations, Initialize (guide: Tasks), the space descriptions for the
// launch (partition arguments substituted, guide: The Partition section), the synchronisations of
// the plan, and the flow (guide: The Computation section) as one coroutine per space that every LPU
// of the space runs as a VDP of the channel engine.
#include "backend/epoch_writes.h"
#include "backend/task_emitter.h"
#include "semantic/check/ast_walk.h"
#include "frontend/ast/ast_names.h"
#include "frontend/ast/ast_visitor.h"

#include <algorithm>
#include <functional>
#include <map>

namespace itc::backend {

using semantic::TypeKind;

TaskEmitter::TaskEmitter(const BackendInput& in, const ast::TaskDef& def, const semantic::TaskInfo& info,
                         const semantic::TaskPlan& plan, int index)
    : in_(in), def_(def), info_(&info), plan_(plan), index_(index) {
    ns_ = "task_" + ident(def.name.text);
    int a = 0;
    for (const auto& g : info.globals) {
        globals_[g.name] = &g;
        // Static arrays too: arrays whose ranges are fixed (0 to length - 1) before Initialize.
        if (g.type.isArray() && !g.isReduction)
            arrayIndex_[g.name] = a++;
    }
    analyse();
}

int TaskEmitter::lpsOf(const std::string& letter) const {
    int l = plan_.lps.find(letter);
    if (l < 0)
        throw std::logic_error("unknown space " + letter);
    return l;
}

int TaskEmitter::versionsOf(const std::string& array) const {
    auto it = plan_.versionDepth.find(array);
    return it == plan_.versionDepth.end() ? 1 : std::max(1, it->second);
}

std::string TaskEmitter::reductionValue(const std::string& v, const std::string& globals) const {
    // Each LPU's flow keeps the result of its ancestor in v's space (collected or received); a
    // Reduction variable no stage reduces into is an ordinary scalar (reducedInto) kept there too.
    return globals + ".r_" + v;
}

bool TaskEmitter::reducedInto(const std::string& v) const { return global(v).isReduction && reductionLps_.count(v); }

bool TaskEmitter::readInFlow(const std::string& v) const {
    for (const auto& acc : plan_.usage.accesses)
        if (const semantic::VarAccess* a = acc.find(v); a && a->read)
            return true;
    return false;
}

bool TaskEmitter::namedInInitialize(const std::string& v) const {
    if (!def_.initialize)
        return false;
    for (const auto& p : def_.initialize->params)
        if (p.text == v)
            return true;
    bool named = false;
    semantic::check::walkBlock(def_.initialize->body, [&](const ast::Expr& e) {
        if (auto n = e.as<ast::NameRef>(); n && n->name == v)
            named = true;
    });
    return named;
}

// A task-global scalar in `globals` (a Globals object): a Reduction variable's value is r_<name>.
// Initialize and the environment set its starting value in every LPU's copy; a reduction into it
// overwrites that.
std::string TaskEmitter::scalarRef(const std::string& v, const std::string& globals) const {
    return global(v).isReduction ? globals + ".r_" + v : globals + "." + cppName(v);
}

const semantic::ArrayStorage::TurnCopy* TaskEmitter::turnCopy(const std::string& array, int lps) const {
    auto it = plan_.storage.arrays.find(array);
    return it == plan_.storage.arrays.end() ? nullptr : it->second.turnCopy(lps);
}

int TaskEmitter::storageOf(const std::string& array, int lps) const {
    int s = plan_.storage.storageOf(array, lps);
    if (s == semantic::kNoLps)
        throw std::logic_error("array " + array + " has no parts in space " + std::to_string(lps));
    return s;
}

std::set<int> TaskEmitter::stridedDims(const std::string& array) const { return stridedDims(array, stageLps_); }

std::set<int> TaskEmitter::stridedDims(const std::string& array, int lps) const {
    return semantic::stridedDimensions(plan_.storage, plan_.lps, array, lps);
}

std::set<int> TaskEmitter::stridedDims(const StageParam& p) const {
    if (p.global.empty()) // a view of a field's section
        return {};
    std::set<int> strided = stridedDims(p.global);
    if (p.sectionDims.empty() || strided.empty())
        return strided;
    std::set<int> out;
    for (size_t j = 0; j < p.sectionDims.size(); ++j)
        for (int d : p.sectionDims[j])
            if (strided.count(d))
                out.insert(static_cast<int>(j));
    return out;
}

std::string TaskEmitter::where(SourceRange r) const {
    std::string file = in_.programFile;
    return file + ":" + std::to_string(r.begin.line);
}

void numberFlowNodes(const ast::FlowList& list, int& next, std::map<const ast::FlowPart*, int>& out) {
    for (const auto& f : list) {
        out[f.get()] = next++;
        if (const ast::FlowList* body = ast::nestedFlow(*f))
            numberFlowNodes(*body, next, out);
    }
}

int TaskEmitter::nodeOf(const ast::FlowPart& f) const { return nodeOf_.at(&f); }

// Everything the plan decided: homes, written arrays, reduction spaces, and where in the flow
// each synchronisation takes place. The backend adds no synchronisation of its own.
void TaskEmitter::analyse() {
    int next = 1;
    numberFlowNodes(def_.computation, next, nodeOf_);
    if (next != static_cast<int>(plan_.flow.nodes.size()))
        throw std::logic_error("the flow tree does not match the Computation section");
    for (const auto& [a, st] : plan_.storage.arrays) {
        if (st.home == semantic::kNoLps)
            continue;
        home_[a] = st.home;
        if (st.written)
            written_.insert(a);
    }
    for (const auto& acc : plan_.usage.accesses)
        for (const auto& v : acc.vars)
            if (v.reduced)
                reductionLps_[v.var] = v.reductionLps;
    const auto& syncs = plan_.dependencies.syncs;
    for (size_t i = 0; i < syncs.size(); ++i) {
        const auto& s = syncs[i];
        const int k = static_cast<int>(i);
        using P = semantic::Synchronization::Point;
        switch (s.point) {
        case P::TaskStart: syncStart_.push_back(k); break;
        case P::TaskEnd: syncEnd_.push_back(k); break;
        case P::BeforeAccess:
        case P::SpaceEntry: syncBefore_[s.node].push_back(k); break;
        case P::AfterStage: syncAfter_[s.node].push_back(k); break;
        case P::SpaceExit: syncExit_[s.node].push_back(k); break;
        }
        if (isMovement(s.kind)) {
            if (s.scalar)
                movedScalars_.insert(s.var);
            else
                movedArrays_.insert(s.var);
        }
        if (s.kind == semantic::SyncKind::Reduction)
            reductionAt_[{s.node, s.var}] = k;
    }
    sigs_.resize(info_->stageInstances.size());
    // Task arrays are parts of raw memory that move as bytes and are stored through codecs.
    for (const auto& g : info_->globals)
        if (g.type.isArray() && !hasElementCodec(g.type.elementType(), *in_.checked))
            notTranslated(g.declared, "a task array of `" + semantic::typeName(g.type.elementType()) + "`");
}

// Lists and values holding Strings have no fixed size: they move and are published as
// value_bytes.
bool TaskEmitter::movesSerialised(const semantic::Type& t) const {
    return t.kind == TypeKind::List || hasString(t, *in_.checked);
}

bool TaskEmitter::isMovement(semantic::SyncKind k) {
    using K = semantic::SyncKind;
    return k == K::GatherUp || k == K::ScatterDown || k == K::Redistribution || k == K::ReplicaBroadcast;
}

void TaskEmitter::emit(Out& o) {
    o << lineComment(in_, def_.range);
    o << "namespace " << ns_ << " {\n\n";
    o << "// Task-global scalars (each LPU's flow has its own copy) and the Reduction results it knows.\n";
    o << "struct Globals {\n";
    for (const auto& g : info_->globals) {
        if (g.isReduction)
            o << cppType(g.type) << " r_" << g.name << "{};\n";
        else if (!g.type.isArray())
            o << cppType(g.type) << " " << cppName(g.name) << "{};\n";
        if (versionedScalar(g.name))
            for (int k = 1; k < versionsOf(g.name); ++k)
                o << cppType(g.type) << " " << olderScalar(g.name, k) << "{};\n";
    }
    o << "};\n\n";
    for (const auto& p : plan_.lps.params)
        o << "// partition parameter: " << p << "\n";
    o << "static int64_t p_unused_ = 0;\n\n";
    for (size_t k = 0; k < info_->stageInstances.size(); ++k) {
        // The partition parameters are not visible in stages (guide: Tasks), so no p_ parameters.
        emitStage(o, k);
    }
    emitRun(o);
    o << "} // namespace " << ns_ << "\n\n";
}

bool TaskEmitter::versionedScalar(const std::string& name) const {
    return isGlobal(name) && !global(name).type.isArray() && versionsOf(name) > 1;
}

std::string TaskEmitter::olderScalar(const std::string& name, int lag) {
    return "older" + std::to_string(lag) + "_" + ident(name);
}

std::string TaskEmitter::flowExpr(const ast::Expr& e, int lps, const std::string& lpuVar, int lag) {
    struct Flow : ExprEmitter {
        TaskEmitter& te;
        std::string w;
        // Inside `Repeat foreach sub-partition`: the turn, whose piece `local` and elements mean.
        std::string sub;
        Flow(TaskEmitter& t, const semantic::ExprTypes* ty, std::string lpu)
            : ExprEmitter(ty), te(t), w(std::move(lpu)), sub(t.foreachParent_ >= 0 ? ", " + t.subVar_ : "") {}
        std::string nameRef(const ast::NameRef& n) override {
            if (te.isGlobal(n.name)) {
                if (lag_ > 0 && te.versionedScalar(n.name))
                    return "g." + olderScalar(n.name, lag_);
                if (te.global(n.name).isReduction) // the result this flow knows (moved as the plan says)
                    return te.reductionValue(n.name, "g");
                return "g." + cppName(n.name);
            }
            notTranslated(n.range, "name `" + n.name + "` in the Computation section");
        }
        bool partArray(const std::string& name) const override { return !w.empty() && rangesKnown(name); }
        bool rangesKnown(const std::string& name) const override {
            return te.isGlobal(name) && te.global(name).type.isArray();
        }
        // The view of `array` the LPU evaluating the condition holds: inside `Repeat foreach
        // sub-partition`, the turn's piece, as its stages see it.
        std::string view(const std::string& array, int lag) const {
            const semantic::Type& at = te.global(array).type;
            return "t." + std::string(sub.empty() ? "view<" : "piece_view<") + cppElement(at) + ", " +
                   std::to_string(at.arrayDims()) + ">(" + std::to_string(te.arrayIndex(array)) + ", " + w + sub +
                   ", " + std::to_string(lag) + ")";
        }
        // An element in a condition: read from the part of the LPU evaluating it.
        std::string element(const ast::Subscript& s, const std::string& array, const std::vector<std::string>& idx,
                            int lag) override {
            if (!partArray(array))
                notTranslated(s.range, "array element access here");
            std::string args;
            for (const auto& i : idx)
                args += ", " + i;
            return view(array, lag) + ".held_value(" + cString(te.where(s.range)) + args + ")";
        }
        std::string dimensionRange(const ast::Expr& at, const std::string& array, int k, bool local) override {
            if (!te.isGlobal(array) || !te.global(array).type.isArray())
                notTranslated(at.range, "this dimension attribute");
            std::string a = std::to_string(te.arrayIndex(array));
            if (local) {
                if (w.empty())
                    notTranslated(at.range, "`local` outside a space");
                return "t.local_range(" + a + ", " + w + ", " + std::to_string(k) + sub + ")";
            }
            return "t.whole_range(" + a + ", " + std::to_string(k) + ")";
        }
        std::string lpuId(const ast::Expr& at) override {
            if (w.empty())
                notTranslated(at.range, "`lpuId` outside a space");
            return w + ".coords";
        }
        // A task array, or a section of one, passed to a function in a condition: the part of the
        // LPU evaluating it, copied as a stage passes it (part_array; a fixed-size array's
        // std::array). Epochs are not named in the Computation section (semantic/check).
        std::string partArgument(const ast::Expr& a, bool byReference) override {
            auto sub = a.as<ast::Subscript>();
            auto n = (sub ? sub->base.get() : &a)->as<ast::NameRef>();
            if ((!n || !partArray(n->name)) && !byReference) // a computed array or a section of one: a value
                return emit(a);
            if (!n || !partArray(n->name) || byReference)
                notTranslated(a.range, "passing this array to a function in a condition");
            const semantic::Type& at = te.global(n->name).type;
            std::string part = view(n->name, 0);
            const std::string where = cString(te.where(a.range));
            if (at.kind == TypeKind::StaticArray && !sub)
                return "itrt::task::static_part<" + cppType(at) + ">(" + part + ")";
            if (sub) { // the LPU's part of the section, a slice of its view
                const std::string items = sectionItems(
                    sub, at.arrayDims(), [&](const ast::Expr& x) { return emit(x); },
                    [&](int d) {
                        const std::string r = part + ".whole_range(" + std::to_string(d) + ")";
                        return "{false, " + r + ".min, " + r + ".max}";
                    });
                part = "itrt::task::slice<" + std::to_string(typeOf(a).arrayDims()) + ">(" + part + ", " + items +
                       ", " + where + ")";
            }
            return "itrt::task::part_array(" + part + ", " + where + ")";
        }
        void startAtVersion(int lag) { lag_ = lag; } // `e at (current - lag)`
    } f(*this, &in_.checked->exprTypes, lpuVar);
    (void)lps;
    f.startAtVersion(lag);
    return f.emit(e);
}

void TaskEmitter::emitInitialize(Out& o) {
    if (!def_.initialize)
        return;
    const auto& init = *def_.initialize;
    o << lineComment(in_, init.range);
    for (const auto& p : init.params) {
        if (!isGlobal(p.text))
            continue;
        if (global(p.text).type.isArray()) // its parts start as a copy of the argument
            o << "t.initial_value(" << arrayIndex(p.text) << ", i_" << p.text << ");\n";
        else
            o << scalarRef(p.text, "g") << " = i_" << p.text << ";\n";
    }
    for (const auto& local : info_->initializeLocals) {
        const std::string& name = local.first; // a plain name: clang 14 lambdas cannot capture bindings
        const semantic::Type& type = local.second;
        bool param = std::any_of(init.params.begin(), init.params.end(), [&](auto& p) { return p.text == name; });
        if (!param) // L_ (capital): never one of run()'s own names (g, t, prog, env, i_..., p_...)
            o << cppType(type) << " L_" << name << "{};\n";
    }
    // Initialize is a sequential body (loops, if, native code) run once per task in run(),
    // where task-globals are g.<name>, non-global parameters i_<name>, locals L_<name>.
    struct Init : SequentialBody {
        TaskEmitter& te;
        std::set<std::string> params;
        Init(TaskEmitter& t, const BackendInput& in, const semantic::ExprTypes* ty,
             const std::map<std::string, semantic::Type>* locals)
            : SequentialBody(in, ty, locals), te(t) {}
        std::map<std::string, std::string> externAliases() const override {
            std::map<std::string, std::string> r;
            for (const auto& [name, type] : *locals_)
                if (!type.isError() && !type.isArray())
                    r[name] = params.count(name) ? "i_" + name : "L_" + name;
            for (const auto& l : loopVars_)
                r[l] = "L_" + l;
            for (const auto& g : te.info_->globals)
                if (!g.type.isArray())
                    r[g.name] = te.scalarRef(g.name, "g");
            return r;
        }
        std::string nameRef(const ast::NameRef& n) override {
            if (params.count(n.name) && !te.isGlobal(n.name))
                return "i_" + n.name;
            if (te.isGlobal(n.name)) {
                // An array (a function argument): its shape, for its elements are not there yet.
                const semantic::Type& t = te.global(n.name).type;
                if (t.kind == TypeKind::DynamicArray)
                    return "itrt::task::array_shape<" + cppElement(t) + ">(t.whole_ranges(" +
                           std::to_string(te.arrayIndex(n.name)) + "))";
                if (t.kind == TypeKind::StaticArray)
                    return cppType(t) + "{}";
                return te.scalarRef(n.name, "g");
            }
            return "L_" + n.name;
        }
        std::string referenceArg(const ast::Expr& e) override {
            auto* n = e.as<ast::NameRef>();
            if (n && te.isGlobal(n->name) && te.global(n->name).type.isArray()) // a copy the call may change
                return "it_lvalue(" + emit(e) + ")";
            return SequentialBody::referenceArg(e);
        }
        std::string dimensionLvalue(const ast::Expr& array, int d) override {
            auto n = array.as<ast::NameRef>();
            if (n && te.isGlobal(n->name))
                return "t.range(" + std::to_string(te.arrayIndex(n->name)) + ", " + std::to_string(d) + ")";
            return SequentialBody::dimensionLvalue(array, d);
        }
        std::string dimensionRange(const ast::Expr& at, const std::string& array, int k, bool local) override {
            if (!te.isGlobal(array)) // a parameter or a local made with `new`: a LocalArray
                return SequentialBody::dimensionRange(at, array, k, local);
            return "t.whole_range(" + std::to_string(te.arrayIndex(array)) + ", " + std::to_string(k) + ")";
        }
        // `x.dimensionK`, `x.dimensionK.range` as an assignable DimRange; -1 for all dimensions.
        std::optional<std::pair<std::string, int>> dimTarget(const ast::Expr& e) {
            const ast::Expr* x = &e;
            if (auto r = x->as<ast::Property>(); r && r->property == ast::PropertyKind::Range)
                x = r->base.get();
            auto d = x->as<ast::Property>();
            if (!d || d->property != ast::PropertyKind::Dimension)
                return std::nullopt;
            auto n = d->base->as<ast::NameRef>();
            if (!n || !te.isGlobal(n->name))
                return std::nullopt;
            return std::make_pair(std::to_string(te.arrayIndex(n->name)), d->dimensionIndex - 1);
        }
        std::string assign(const ast::Assign& a) override {
            if (dimTarget(*a.target)) {
                // `u.dimension1 = l.dimension1 = a.dimension2`, `x.dimension = y.dimension1`:
                // every target takes the ranges of the last name in the chain. A whole
                // `.dimension` stands for dimension 1 when the other side names one.
                // Other arrays on either side (a parameter, a local): bound by bound, as in
                // functions.
                std::vector<std::pair<std::string, int>> targets;
                const ast::Expr* v = &a;
                while (auto chain = v->as<ast::Assign>()) {
                    auto t = dimTarget(*chain->target);
                    if (!t)
                        return SequentialBody::assign(a);
                    targets.push_back(*t);
                    v = chain->value.get();
                }
                auto src = dimTarget(*v);
                if (!src)
                    return SequentialBody::assign(a);
                std::string out;
                for (const auto& [t, d] : targets) {
                    std::string one;
                    if (d < 0 && src->second < 0)
                        one = "t.copy_ranges(" + t + ", " + src->first + ")";
                    else
                        one = "t.range(" + t + ", " + std::to_string(std::max(0, d)) + ") = t.range(" + src->first +
                              ", " + std::to_string(std::max(0, src->second)) + ")";
                    out += (out.empty() ? "" : ", ") + one;
                }
                return out;
            }
            if (auto f = a.target->as<ast::FieldAccess>(); f && (f->field.text == "min" || f->field.text == "max"))
                if (auto d = dimTarget(*f->base))
                    return "t.range(" + d->first + ", " + std::to_string(std::max(0, d->second)) + ")." +
                           f->field.text + " = " + assignedValue(a);
            return SequentialBody::assign(a); // locals: as in functions
        }
    } ie(*this, in_, &in_.checked->exprTypes, &info_->initializeLocals);
    for (const auto& p : init.params)
        ie.params.insert(p.text);
    ie.block(o, init.body);
}

void TaskEmitter::emitSpaces(Out& o) {
    o << "// The spaces (LPSes) of the Partition section, with the partition arguments of this execution.\n";
    for (size_t l = 0; l < plan_.lps.spaces.size(); ++l) {
        const auto& s = plan_.lps.spaces[l];
        const auto& pl = plan_.spaces[l];
        int pps = l == 0 ? plan_.rootPps : (pl.placement ? pl.placement->pps : 0);
        o << "{\nitrt::task::LpsDesc d;\nd.name = " << cString(s.name) << ";\nd.parent = " << s.parent
          << ";\nd.dims = " << s.dims << ";\nd.pps = " << pps << ";\n";
        auto arg = [&](const std::optional<semantic::SymbolicArg>& a) -> std::string {
            if (!a)
                return "0";
            return a->param ? "p_" + *a->param : std::to_string(a->literal);
        };
        auto configs = [&](const std::vector<semantic::ArrayPartition>& arrays, const std::string& field) {
            for (const auto& ap : arrays) {
                if (ap.whole || !arrayIndex_.count(ap.array))
                    continue;
                o << "d." << field << ".push_back({" << arrayIndex(ap.array) << ", itrt::ArrayConfig{"
                  << cString(ap.array) << ", {";
                for (size_t k = 0; k < ap.instructions.size(); ++k) {
                    const auto& di = ap.instructions[k];
                    if (k)
                        o << ", ";
                    if (di.replicated) {
                        o << "itrt::DimInstruction::replicate()";
                        continue;
                    }
                    // the runtime's enumerator of the function (runtime/data/partition_functions.def)
                    static const std::map<std::string_view, std::string_view> enumerators = {
#define ITRT_PARTITION_FN(enumerator, spelling, takesArgument, mayPad) {spelling, #enumerator},
#include "runtime/data/partition_functions.def"
                    };
                    o << "itrt::DimInstruction::split(" << di.arrayDim - 1
                      << ", itrt::PartitionSpec{itrt::PartitionFn::"
                      << enumerators.at(ast::partitionFunctionName(di.function)) << ", "
                      << (di.argument ? arg(di.argument) : "1") << ", " << arg(di.paddingFront) << ", "
                      << arg(di.paddingBack) << ", 1})";
                }
                o << "}}});\n";
            }
        };
        configs(s.arrays, "configs");
        if (s.subpartition) {
            o << "d.sub_dims = " << s.subpartition->dims << ";\n";
            o << "d.sub_order = itrt::VisitOrder::"
              << (s.subpartition->order == ast::SubpartitionOrder::Decreasing ? "decreasing" : "increasing") << ";\n";
            configs(s.subpartition->arrays, "sub_configs");
        }
        if (s.dividesSubpartitions)
            o << "d.divides_sub = true;\n";
        if (pl.placement && pl.placement->inParentProcess)
            o << "d.in_parent_process = true;\n";
        o << "t.add_lps(std::move(d));\n}\n";
    }
}

// ---- run(): set-up, synchronisations, the flow as one coroutine per space ----------------------

size_t TaskEmitter::instanceIndex(const ast::StageCall& call) const {
    for (size_t k = 0; k < info_->stageInstances.size(); ++k) {
        const auto& c = info_->stageInstances[k].calls;
        if (std::find(c.begin(), c.end(), &call) != c.end())
            return k;
    }
    throw std::logic_error("stage call without an instance: " + call.stage.text);
}

// Whether the LPUs of space `x` take part in synchronisation `k` of the plan.
bool TaskEmitter::participates(int k, int x) const {
    return plan_.dependencies.syncs[static_cast<size_t>(k)].involves(x);
}

std::string TaskEmitter::syncName(int k) const {
    const auto& s = plan_.dependencies.syncs[static_cast<size_t>(k)];
    auto space = [&](int l) { return l == 0 ? std::string("Root") : "Space " + plan_.lps.at(l).name; };
    std::string t = "task " + def_.name.text + ": ";
    using K = semantic::SyncKind;
    switch (s.kind) {
    case K::PaddingExchange: {
        std::string label = plan_.flow.at(s.node).label;
        return t + "padding exchange of " + s.var + " at exit of " + label;
    }
    case K::Reduction: return t + "reduction of " + s.var + " into " + space(s.toLps);
    case K::Token:
        return t +
               (s.point == semantic::Synchronization::Point::SpaceEntry ? "entry into "
                : s.handsDown()                                         ? "hand-over to "
                                                                        : "exit from ") +
               space(s.toLps);
    case K::ReplicaBroadcast: return t + "replica broadcast of " + s.var + " in " + space(s.fromLps);
    default:
        return t + semantic::syncKindName(s.kind) + " of " + s.var + " from " + space(s.fromLps) + " to " +
               space(s.toLps);
    }
}

// The run() line that declares synchronisation `k` to the runtime (numbered as the plan numbers it).
std::string TaskEmitter::registration(int k) {
    const auto& s = plan_.dependencies.syncs[static_cast<size_t>(k)];
    const std::string name = cString(syncName(k));
    using K = semantic::SyncKind;
    switch (s.kind) {
    case K::PaddingExchange:
        return "t.padding_sync(" + std::to_string(arrayIndex(s.var)) + ", " + std::to_string(s.fromLps) + ", " +
               std::to_string(s.viaLps) + ", " + name + ");";
    case K::Token:
        return "t.token_sync(" + std::to_string(s.fromLps) + ", " + std::to_string(s.toLps) + ", " +
               (s.handsDown() ? "true" : "false") + ", " + name + ");";
    case K::Reduction: {
        const auto& [op, type] = reductionOps_.at(k);
        std::string list;
        for (int l : s.readers)
            list += (list.empty() ? "" : ", ") + std::to_string(l);
        return "t.reduction_sync(" + std::to_string(s.fromLps) + ", " + std::to_string(s.toLps) +
               ", itrt::make_combiner<" + op + ", " + type + ">(), {" + list + "}, " + name + ");";
    }
    case K::None: break;
    default:
        if (s.scalar) {
            const auto& g = global(s.var);
            std::string type = cppType(g.type);
            return "t.scalar_sync(" + std::to_string(arrayIndexOrSlot(s.var)) + ", " + std::to_string(s.fromLps) +
                   ", " + std::to_string(s.toLps) + ", sizeof(" + type + "), " + name +
                   (s.fromAnyLpu ? ", itrt::task::ScalarSenders::every_lpu" : "") + ");";
        }
        using Senders = semantic::Synchronization::Senders;
        return "t.move_sync(" + std::to_string(arrayIndex(s.var)) + ", " + std::to_string(s.fromLps) + ", " +
               std::to_string(s.toLps) + ", itrt::task::MoveSenders::" +
               (s.senders == Senders::Every           ? "every"
                : s.senders == Senders::WrittenInTask ? "written_in_task"
                                                      : "changed") +
               ", " + name + ");";
    }
    throw std::logic_error("a synchronisation of kind none");
}

// The synchronisations `list` (plan numbers) that the LPUs of space `x` take part in, here.
void TaskEmitter::emitSyncs(Out& o, const std::vector<int>& list, int x) {
    using K = semantic::SyncKind;
    for (int k : list) {
        if (!participates(k, x))
            continue;
        const auto& s = plan_.dependencies.syncs[static_cast<size_t>(k)];
        std::string what = syncName(k);
        std::string comment = " " + commentText("// " + what.substr(what.find(": ") + 2)) + "\n";
        if (s.kind == K::PaddingExchange || s.kind == K::Token) {
            o << "co_await c.exchange(" << k << ");" << comment;
        } else if (isMovement(s.kind)) {
            if (s.scalar && movesSerialised(global(s.var).type)) {
                // A list or String moves serialised; the receiver takes the writer's whole value.
                o << "co_await c.move_bytes(" << k << ", value_bytes(g." << cppName(s.var)
                  << "), [&g](const std::byte* p, size_t n) { value_from_bytes(g." << cppName(s.var) << ", p, n); });"
                  << comment;
            } else if (s.scalar) {
                std::string ref = scalarRef(s.var, "g");
                o << "co_await c.move(" << k << ", &" << ref << ");" << comment;
            } else {
                o << "co_await c.move(" << k << ");" << comment;
            }
        }
    }
}

// Whether flow part `f` (inside space `lps`) gives the LPUs of space `x` anything to do.
bool TaskEmitter::relevant(const ast::FlowPart& f, int lps, int x) const {
    const int n = nodeOf(f);
    auto anySync = [&](const std::map<int, std::vector<int>>& at) {
        auto it = at.find(n);
        if (it == at.end())
            return false;
        return std::any_of(it->second.begin(), it->second.end(), [&](int k) { return participates(k, x); });
    };
    if (anySync(syncBefore_) || anySync(syncAfter_) || anySync(syncExit_))
        return true;
    auto any = [&](const ast::FlowList& l, int inner) {
        for (const auto& p : l)
            if (relevant(*p, inner, x))
                return true;
        return false;
    };
    if (auto s = f.as<ast::SpaceBlock>())
        return any(s->body, lpsOf(s->space.text));
    // The plan counts on every space whose stages (or the conditions its LPUs test) read a
    // `Repeat for` variable to run the loop and set it itself, also when nothing of its own
    // happens inside (a Root stage, or a Root `If k == 3`, after a Space A loop).
    if (auto r = f.as<ast::RepeatFor>(); r && spaceUses(def_.computation, x, r->variable.text))
        return true;
    if (const ast::FlowList* body = ast::nestedFlow(f))
        return any(*body, lps);
    return f.as<ast::StageCall>() && lps == x;
}

namespace {
// Whether `e` names `v`.
bool names(const ast::Expr* e, const std::string& v) {
    struct Finder : ast::Visitor {
        const std::string& v;
        bool found = false;
        explicit Finder(const std::string& name) : v(name) {}
        void visitNameRef(const ast::NameRef& n) override { found = found || n.name == v; }
    } finder(v);
    if (e)
        finder.visitExpr(*e);
    return finder.found;
}
} // namespace

// Whether a stage call of space `x` in `list` uses task-global `v`, or a flow condition or loop
// header that the LPUs of `x` evaluate (those around a stage of theirs) reads it.
bool TaskEmitter::spaceUses(const ast::FlowList& list, int x, const std::string& v) const {
    for (const auto& f : list) {
        if (auto call = f->as<ast::StageCall>()) {
            if (plan_.flow.at(nodeOf(*call)).context == x && globalsUsedBy(*call).count(v))
                return true;
            continue;
        }
        const ast::FlowList* body = ast::nestedFlow(*f);
        if (!body)
            continue;
        bool header = false;
        if (auto c = f->as<ast::Condition>())
            header = names(c->condition.get(), v) || names(c->membershipRange.get(), v);
        else if (auto w = f->as<ast::RepeatWhile>())
            header = names(w->condition.get(), v);
        else if (auto r = f->as<ast::RepeatFor>())
            header = names(r->rangeExpr.get(), v) || names(r->step.get(), v);
        if ((header && hasStageOf(*body, x)) || spaceUses(*body, x, v))
            return true;
    }
    return false;
}

// Whether `list` holds a stage call of space `x`.
bool TaskEmitter::hasStageOf(const ast::FlowList& list, int x) const {
    for (const auto& f : list) {
        if (auto call = f->as<ast::StageCall>()) {
            if (plan_.flow.at(nodeOf(*call)).context == x)
                return true;
        } else if (const ast::FlowList* body = ast::nestedFlow(*f); body && hasStageOf(*body, x)) {
            return true;
        }
    }
    return false;
}

std::string TaskEmitter::flowParams() const {
    std::string s;
    for (const auto& p : plan_.lps.params)
        s += ", int64_t p_" + p;
    return s;
}

// Reduction operators and value types, known from the stage signatures of the reducing calls.
void TaskEmitter::collectReductionOps(const ast::FlowList& list) {
    for (const auto& f : list) {
        if (const ast::FlowList* body = ast::nestedFlow(*f))
            collectReductionOps(*body);
        else if (auto call = f->as<ast::StageCall>()) {
            const size_t k = instanceIndex(*call);
            const semantic::StageInstance& inst = info_->stageInstances[k];
            for (size_t i = 0; i < inst.stage->params.size(); ++i) {
                const StageParam& sp = sigs_[k].params.at(inst.stage->params[i].text);
                if (!sp.isReductionSlot)
                    continue;
                auto it = reductionAt_.find({nodeOf(*call), call->args[i].variable->text});
                if (it != reductionAt_.end())
                    reductionOps_[it->second] = {sp.reduceOp, sp.reduceType};
            }
        }
    }
}

void TaskEmitter::emitRun(Out& o) {
    collectReductionOps(def_.computation);
    // The spaces whose LPUs have work in the flow: one coroutine each.
    std::vector<int> spaces;
    for (int x = 0; x < static_cast<int>(plan_.lps.spaces.size()); ++x) {
        bool any = false;
        for (int k : syncStart_)
            any = any || participates(k, x);
        for (int k : syncEnd_)
            any = any || participates(k, x);
        for (const auto& f : def_.computation)
            any = any || relevant(*f, 0, x);
        if (any)
            spaces.push_back(x);
    }
    // Environmental scalars that only a `Repeat for` header sets (no stage writes them): the
    // environment keeps their value at the end of the flow of a space that runs the loop (its
    // LPU 0), as the task's own stages there see it.
    std::map<std::string, int> loopPublisher;
    for (const auto& g : info_->globals)
        if (g.environmental && !g.type.isArray() && g.type.kind != TypeKind::List && !g.isReduction &&
            !scalarReachesRootAtEnd(g.name))
            for (int x : spaces)
                if (loopSetsVariable(def_.computation, 0, x, g.name)) {
                    loopPublisher[g.name] = x;
                    break;
                }
    for (int x : spaces) {
        const std::string& name = plan_.lps.at(x).name;
        o << "// The flow of Space " << name << " for one of its LPUs: a coroutine that the runtime resumes\n"
          << "// until it has to wait for packets of other LPUs (co_await).\n";
        o << "static itrt::task::LpuFlow flow_" << ident(name) << "(itrt::task::FlowContext& c, Globals g"
          << flowParams() << ") {\n";
        o << "itrt::task::TaskInstance& t = c.task();\nconst Lpu& lpu = c.lpu();\n";
        emitSyncs(o, syncStart_, x);
        emitFlow(o, def_.computation, 0, x);
        emitSyncs(o, syncEnd_, x);
        // Reduction results the environment keeps: LPU 0 of the target space publishes them.
        for (const auto& g : info_->globals)
            if (g.environmental && g.isReduction && reductionLps_.count(g.name) && reductionLps_.at(g.name) == x)
                o << "if (lpu.id == 0) c.publish(" << arrayIndexOrSlot(g.name) << ", &g.r_" << g.name << ", sizeof g.r_"
                  << g.name << ");\n";
        for (const auto& [v, publisher] : loopPublisher)
            if (publisher == x)
                o << "if (lpu.id == 0) c.publish(" << arrayIndexOrSlot(v) << ", &" << scalarRef(v, "g") << ", sizeof "
                  << scalarRef(v, "g") << ");  // the environment keeps the loop variable's value\n";
        // Environmental scalars written by stages: Root's copy, which the writers' reached.
        if (x == 0)
            for (const auto& g : info_->globals)
                if (g.environmental && !reducedInto(g.name) && !g.type.isArray() && scalarReachesRootAtEnd(g.name)) {
                    if (movesSerialised(g.type))
                        o << "{\nauto b = value_bytes(g." << cppName(g.name) << ");\nc.publish("
                          << arrayIndexOrSlot(g.name) << ", b.data(), b.size());\n}\n";
                    else
                        o << "c.publish(" << arrayIndexOrSlot(g.name) << ", &" << scalarRef(g.name, "g") << ", sizeof "
                          << scalarRef(g.name, "g") << ");\n";
                }
        o << "(void)t;\n(void)lpu;\n";
        for (const auto& p : plan_.lps.params)
            o << "(void)p_" << p << ";\n";
        o << "co_return;\n}\n\n";
    }

    o << "// Runs one execution of the task (all ranks call it in the same order).\n";
    o << "void run(itrt::task::Program& prog, itrt::task::Env& env";
    if (def_.initialize)
        for (const auto& p : def_.initialize->params) {
            semantic::Type t = isGlobal(p.text) ? global(p.text).type : info_->initializeLocals.at(p.text);
            o << ", " << cppType(t) << " i_" << p.text;
        }
    o << flowParams() << ") {\n";
    o << "itrt::task::TaskInstance t(prog, " << cString(def_.name.text) << ", env);\nGlobals g{};\n";
    // Environmental scalars.
    for (const auto& g : info_->globals) {
        if (g.environmental && g.type.kind == TypeKind::List && g.mode == ast::LinkMode::Create)
            o << "env.start_created_list(" << cString(g.name) << ");\n";
        if (!g.environmental || g.type.isArray() || g.mode == ast::LinkMode::Create)
            continue;
        if (g.type.kind == TypeKind::List) {
            std::string get = "env.get_list(" + cString(g.name) + ", g." + cppName(g.name) + ", " +
                              listCodecOf(g.type) + listRankArg(g.type) + ")";
            if (g.mode == ast::LinkMode::Link)
                o << "if (!" << get << ")\nitrt::fail_collective(t.at_execute() + "
                  << cString("task `" + def_.name.text + "` links list `" + g.name +
                             "`, but it has not been created, bound to an input file or assigned")
                  << ");\n";
            else
                o << get << ";\n";
            continue;
        }
        o << "if (env.scalar(" << cString(g.name) << ") && env.scalar(" << cString(g.name) << ")->set) "
          << scalarRef(g.name, "g") << " = env.get<" << cppType(g.type) << ">(" << cString(g.name) << ");\n";
        if (g.mode == ast::LinkMode::Link) // a linked item must exist (link-or-create starts from zero)
            o << "else\nitrt::fail_collective(t.at_execute() + "
              << cString("task `" + def_.name.text + "` links `" + g.name +
                         "`, but no value has been assigned to it (assign it in the coordinator, `env." + g.name +
                         " = ...`, or let an earlier task produce it; `link-or-create` starts it at zero)")
              << ");\n";
        // An earlier task's Reduction result kept per LPU of a space with several LPUs: the item
        // holds one LPU's value, no value for all of this task's LPUs to start from.
        if (readInFlow(g.name) && !namedInInitialize(g.name)) // (Initialize may give it its start)
            o << "if (env.scalar(" << cString(g.name) << ") && !env.scalar(" << cString(g.name)
              << ")->per_lpu.empty())\nitrt::fail_collective(t.at_execute() + "
              << cString("task `" + def_.name.text + "` reads `" + g.name + "`, which an earlier task reduced into `")
              << " + env.scalar(" << cString(g.name) << ")->per_lpu + "
              << cString(": " + g.name +
                         "`, one result per LPU there: the environment keeps no one value of it to start from "
                         "(reduce into `Space Root: " +
                         g.name + "` to hand the result on)")
              << ");\n";
    }
    o << "// Arrays: index, name, dimensions, element, environment link, home space, versions, written.\n";
    for (const auto& g : info_->globals) {
        if (!arrayIndex_.count(g.name))
            continue;
        int home = home_.count(g.name) ? home_.at(g.name) : -1;
        int mode = g.mode == ast::LinkMode::Link ? 0 : g.mode == ast::LinkMode::Create ? 1 : 2;
        o << "t.declare_array(" << arrayIndex(g.name) << ", " << cString(g.name) << ", " << g.type.arrayDims()
          << ", sizeof(" << cppElement(g.type) << "), &" << codecOf(g.type.elementType()) << ", "
          << (g.environmental ? "true" : "false") << ", " << mode << ", " << home << ", " << versionsOf(g.name) << ", "
          << (written_.count(g.name) ? "true" : "false") << ");\n";
        if (g.type.kind == TypeKind::StaticArray)
            for (size_t d = 0; d < g.type.lengths.size(); ++d)
                o << "t.range(" << arrayIndex(g.name) << ", " << d << ") = itrt::DimRange{0, " << g.type.lengths[d] - 1
                  << "};  // a static array\n";
    }
    emitInitialize(o);
    for (const auto& g : info_->globals)
        if (g.type.kind == TypeKind::List)
            o << "if (g." << cppName(g.name) << ".capacity < 0)\nitrt::fail_collective(t.at_execute() + "
              << cString("task `" + def_.name.text + "`: list `" + g.name +
                         "` has no capacity after Initialize (call set_capacity there)")
              << ");\n";
    emitSpaces(o);
    for (const auto& [a, st] : plan_.storage.arrays) {
        if (st.home == semantic::kNoLps || !arrayIndex_.count(a))
            continue;
        for (int l : st.spaces)
            if (l != st.home)
                o << "t.add_storage(" << arrayIndex(a) << ", " << l << "); // Space " << plan_.lps.at(l).name
                  << " keeps parts of its own of " << a << "\n";
        for (const auto& [user, where] : st.storageOf)
            if (user != where)
                o << "t.view_in(" << arrayIndex(a) << ", " << user << ", " << where << "); // Space "
                  << plan_.lps.at(user).name << " sees views into Space " << plan_.lps.at(where).name << "'s parts of "
                  << a << "\n";
        for (const auto& [space, copy] : st.turnCopies)
            o << "t.turn_copy(" << arrayIndex(a) << ", " << space << ", " << (copy.writtenBack ? "true" : "false")
              << "); // Space " << plan_.lps.at(space).name << " works in per-turn copies of " << a << "\n";
    }
    // At the task's start every version of a scalar equals its starting value.
    for (const auto& g : info_->globals)
        if (versionedScalar(g.name))
            for (int k = 1; k < versionsOf(g.name); ++k)
                o << "g." << olderScalar(g.name, k) << " = " << scalarRef(g.name, "g") << ";\n";
    o << "t.launch();\n";
    if (!plan_.dependencies.syncs.empty())
        o << "// The synchronisations of the task plan, numbered as the flows use them.\n";
    for (size_t k = 0; k < plan_.dependencies.syncs.size(); ++k)
        o << registration(static_cast<int>(k)) << " // " << k << "\n";
    if (!plan_.dependencies.syncs.empty()) {
        // Where each one happens in the IT source, for the report of a hung run.
        o << "t.sync_lines({";
        for (size_t k = 0; k < plan_.dependencies.syncs.size(); ++k)
            o << (k ? ", " : "") << plan_.flow.at(plan_.dependencies.syncs[k].node).range.begin.line;
        o << "});\n";
    }
    o << "t.run_flow({";
    for (size_t i = 0; i < spaces.size(); ++i) {
        o << (i ? ", " : "") << "{" << spaces[i] << ", [&](itrt::task::FlowContext& c) { return flow_"
          << ident(plan_.lps.at(spaces[i]).name) << "(c, g";
        for (const auto& p : plan_.lps.params)
            o << ", p_" << p;
        o << "); }}";
    }
    o << "});\n";
    o << "t.finish();\n";
    for (const auto& g : info_->globals) {
        if (!g.environmental || g.type.isArray())
            continue;
        if (reducedInto(g.name)) {
            o << "{\n"
              << cppType(g.type) << " v{};\nt.published(" << arrayIndexOrSlot(g.name) << ", "
              << reductionLps_.at(g.name) << ", &v, sizeof v);\nenv.set<" << cppType(g.type) << ">(" << cString(g.name)
              << ", v);\n}\n";
            // Made per LPU of a space below Root: one LPU's value, which is no one result.
            if (int lps = reductionLps_.at(g.name); lps != 0)
                o << "if (t.lpus(" << lps << ").size() > 1) env.mark_per_lpu(" << cString(g.name) << ", "
                  << cString("Space " + plan_.lps.at(lps).name) << ");\n";
        } else {
            const bool list = g.type.kind == TypeKind::List;
            // The item takes Root's value (a list by set_list, a String by its characters).
            auto setItem = [&](const std::string& value) {
                if (list)
                    return "env.set_list(" + cString(g.name) + ", " + value + ", " + listCodecOf(g.type) + ");\n";
                return "env.set<" + cppType(g.type) + ">(" + cString(g.name) + ", " + value + ");\n";
            };
            if (movesSerialised(g.type) && scalarReachesRootAtEnd(g.name)) {
                o << "{\n"
                  << cppType(g.type) << " v{};\nauto b = t.published_bytes(" << arrayIndexOrSlot(g.name)
                  << ", 0);\nvalue_from_bytes(v, b.data(), b.size());\n"
                  << setItem("v") << "}\n";
                continue;
            }
            if (list) {
                o << setItem("g." + cppName(g.name));
                continue;
            }
            if (scalarReachesRootAtEnd(g.name) || loopPublisher.count(g.name)) {
                const int from = loopPublisher.count(g.name) ? loopPublisher.at(g.name) : 0;
                o << "{\n"
                  << cppType(g.type) << " v{};\nt.published(" << arrayIndexOrSlot(g.name) << ", " << from
                  << ", &v, sizeof v);\nenv.set<" << cppType(g.type) << ">(" << cString(g.name) << ", v);\n}\n";
                continue;
            }
            o << "env.set<" << cppType(g.type) << ">(" << cString(g.name) << ", " << scalarRef(g.name, "g") << ");\n";
        }
    }
    o << "(void)p_unused_;\n}\n\n";
}

// Whether the plan moves scalar `v` to Root at the end of the task (an environmental scalar
// written by stages).
// The task-globals a stage call touches: those its body uses and those passed to it.
std::set<std::string> TaskEmitter::globalsUsedBy(const ast::StageCall& call) const {
    const auto& inst = info_->stageInstances[instanceIndex(call)];
    std::set<std::string> used(inst.globalsUsed.begin(), inst.globalsUsed.end());
    for (const auto& b : inst.params)
        if (!b.rootGlobal.empty())
            used.insert(b.rootGlobal);
    return used;
}

// A space whose parts change every turn of the enclosing `Repeat foreach sub-partition`: one that
// divides the foreach space's sub-partitions, and every space below it.
bool TaskEmitter::turnSpace(int lps) const {
    if (foreachParent_ < 0 || lps == foreachParent_ || lps <= 0)
        return false;
    const auto& l = plan_.lps.at(lps);
    if (l.dividesSubpartitions && l.parent == foreachParent_)
        return true;
    return l.parent != foreachParent_ && turnSpace(l.parent);
}

bool TaskEmitter::scalarReachesRootAtEnd(const std::string& v) const {
    for (int k : syncEnd_) {
        const auto& s = plan_.dependencies.syncs[static_cast<size_t>(k)];
        if (s.scalar && s.var == v && s.toLps == 0)
            return true;
    }
    // Stages invoked in Root write Root's own copy, which needs no movement.
    for (const auto& a : plan_.usage.accesses)
        if (a.kind == semantic::FlowAccess::Kind::Stage && a.lps == 0)
            if (const auto* va = a.find(v); va && va->written)
                return true;
    return false;
}

// Environmental Reduction results are published under their Define position.
// Whether a `Repeat for` of `variable` in `list` (run in space `lps`) is run by the LPUs of `x`.
bool TaskEmitter::loopSetsVariable(const ast::FlowList& list, int lps, int x, const std::string& variable) const {
    for (const auto& f : list) {
        if (auto r = f->as<ast::RepeatFor>(); r && r->variable.text == variable && relevant(*f, lps, x))
            return true;
        const int inner = f->as<ast::SpaceBlock>() ? lpsOf(f->as<ast::SpaceBlock>()->space.text) : lps;
        if (const ast::FlowList* body = ast::nestedFlow(*f); body && loopSetsVariable(*body, inner, x, variable))
            return true;
    }
    return false;
}

int TaskEmitter::arrayIndexOrSlot(const std::string& v) const {
    int i = 0;
    for (const auto& g : info_->globals) {
        if (g.name == v)
            return i;
        ++i;
    }
    throw std::logic_error("no task-global " + v);
}

static void stageCallsIn(const ast::FlowList& list, std::vector<const ast::StageCall*>& out);
static void stageCallsIn(const ast::FlowPart& f, std::vector<const ast::StageCall*>& out) {
    if (auto c = f.as<ast::StageCall>())
        out.push_back(c);
    else if (const ast::FlowList* body = ast::nestedFlow(f))
        stageCallsIn(*body, out);
}
static void stageCallsIn(const ast::FlowList& list, std::vector<const ast::StageCall*>& out) {
    for (const auto& f : list)
        stageCallsIn(*f, out);
}

static bool containsEpoch(const ast::FlowList& list) {
    for (const auto& f : list) {
        if (f->as<ast::EpochBlock>())
            return true;
        if (const ast::FlowList* body = ast::nestedFlow(*f); body && containsEpoch(*body))
            return true;
    }
    return false;
}

// Whether entering `epoch` in the flow of space x may rotate the versions of `array` without
// copying its part (guide: Epochs): the first thing in the epoch that uses the array must be a
// call (possibly inside Where/If), made by this very flow, of a stage that writes the current
// version on a box and reads none of it (epoch_writes.h); complete_epoch after that call copies
// the cells outside the box. Skipped calls are fine: the stage then reports no box and every
// cell is copied.
const ast::StageCall* TaskEmitter::rotatingCall(const ast::EpochBlock& epoch, const std::string& array, int lps,
                                                int x) const {
    if (lps != x || foreachParent_ >= 0)
        return nullptr;
    // No other space may work in views of these parts (the plan never views versioned arrays).
    auto st = plan_.storage.arrays.find(array);
    if (st == plan_.storage.arrays.end())
        return nullptr;
    for (const auto& [space, where] : st->second.storageOf)
        if (where == x && space != x)
            return nullptr;
    // The first flow part that uses the array, looking into Where/If blocks: those only guard
    // the call (complete_epoch after it runs in every LPU).
    std::function<const ast::StageCall*(const ast::FlowList&)> first =
        [&](const ast::FlowList& list) -> const ast::StageCall* {
        for (const auto& f : list) {
            std::vector<const ast::StageCall*> calls;
            stageCallsIn(*f, calls);
            bool uses = false;
            for (auto* c : calls)
                uses = uses || globalsUsedBy(*c).count(array);
            if (!uses)
                continue;
            if (auto cond = f->as<ast::Condition>())
                return first(cond->body);
            return f->as<ast::StageCall>();
        }
        return nullptr;
    };
    const ast::StageCall* call = first(epoch.body);
    if (!call || plan_.flow.at(nodeOf(*call)).context != x || plan_.storage.storageOf(array, x) != x)
        return nullptr;
    return boxWritingLoopOf(info_->stageInstances[instanceIndex(*call)], array, x) ? call : nullptr;
}

const ast::ParallelLoop* TaskEmitter::boxWritingLoopOf(const semantic::StageInstance& inst, const std::string& array,
                                                       int lps) const {
    // A strided part is no box: its loop cannot report one (and the flow must not rotate).
    if (versionsOf(array) < 2 || !stridedDims(array, lps).empty())
        return nullptr;
    // The one name the stage body has for the array.
    std::vector<std::string> names;
    for (size_t i = 0; i < inst.params.size() && i < inst.stage->params.size(); ++i) {
        if (inst.params[i].rootGlobal != array)
            continue;
        if (inst.params[i].type.kind != TypeKind::DynamicArray)
            return nullptr; // an element passed by reference: written anywhere
        names.push_back(inst.stage->params[i].text);
    }
    for (const auto& g : inst.globalsUsed)
        if (g == array)
            names.push_back(g);
    if (names.size() != 1)
        return nullptr;
    return boxWritingLoop(*inst.stage, names.front(), global(array).type.arrayDims());
}

// The flow of space `x`: the parts of the Computation section that concern its LPUs.
void TaskEmitter::emitFlow(Out& o, const ast::FlowList& list, int lps, int x) {
    auto at = [](const std::map<int, std::vector<int>>& m, int n) -> const std::vector<int>& {
        static const std::vector<int> none;
        auto it = m.find(n);
        return it == m.end() ? none : it->second;
    };
    for (const auto& f : list) {
        if (!relevant(*f, lps, x))
            continue;
        const int node = nodeOf(*f);
        o << lineComment(in_, f->range);
        // Before a Repeat while, its condition's inputs are synchronised at every test instead.
        if (!f->as<ast::RepeatWhile>())
            emitSyncs(o, at(syncBefore_, node), x);
        if (auto s = f->as<ast::SpaceBlock>()) {
            const int inner = lpsOf(s->space.text);
            // Turn copies are filled once the entry token allowed it and written back before the
            // exit token lets the parent LPU go on (semantic/plan/storage.h, TurnCopy).
            std::vector<std::pair<std::string, const semantic::ArrayStorage::TurnCopy*>> copies;
            if (inner == x)
                for (const auto& [a, st] : plan_.storage.arrays)
                    if (const auto* tc = st.turnCopy(x); tc && arrayIndex_.count(a))
                        copies.push_back({a, tc});
            // Entered from the parent's block, a space under a parent that works in a turn copy
            // too fills from and returns to that copy (it holds the turn's values).
            auto parentCopy = [&](const std::string& a) {
                const int parent = plan_.lps.at(inner).parent;
                return lps == parent && turnCopy(a, parent) ? "true" : "false";
            };
            for (const auto& [a, tc] : copies)
                o << "t.fill_turn_copy(" << arrayIndex(a) << ", lpu, " << subVar_ << ", " << parentCopy(a) << ");  // "
                  << commentText(tc->why) << "\n";
            emitFlow(o, s->body, inner, x);
            for (const auto& [a, tc] : copies)
                if (tc->writtenBack)
                    o << "t.write_back_turn_copy(" << arrayIndex(a) << ", lpu, " << subVar_ << ", " << parentCopy(a)
                      << ");\n";
            emitSyncs(o, at(syncExit_, node), x);
        } else if (auto r = f->as<ast::RepeatFor>()) {
            std::string n = "rep_" + std::to_string(loopCounter_++);
            o << "{\nconst Range " << n << " = " << flowExpr(*r->rangeExpr, lps, "") << ";\n";
            o << "const int64_t " << n << "_step = "
              << (r->step ? "itrt::task::loop_step(" + flowExpr(*r->step, lps, "") + ", " +
                                cString(where(r->step->range)) + ")"
                          : "1")
              << ";\n";
            o << "const int64_t " << n << "_dir = " << n << ".min <= " << n << ".max ? 1 : -1;\n";
            o << "for (int64_t " << n << "_i = " << n << ".min; " << n << "_dir > 0 ? " << n << "_i <= " << n
              << ".max : " << n << "_i >= " << n << ".max; " << n << "_i += " << n << "_dir * " << n << "_step) {\n";
            o << "g." << cppName(r->variable.text) << " = static_cast<int32_t>(" << n << "_i);\n";
            emitFlow(o, r->body, lps, x);
            o << "}\n}\n";
        } else if (auto w = f->as<ast::RepeatWhile>()) {
            // Movements the plan put before the loop go once; the condition's inputs at every test.
            std::vector<int> once, everyTest;
            for (int k : at(syncBefore_, node))
                (plan_.dependencies.syncs[static_cast<size_t>(k)].beforeLoop ? once : everyTest).push_back(k);
            emitSyncs(o, once, x);
            const bool loops =
                std::any_of(everyTest.begin(), everyTest.end(), [&](int k) { return participates(k, x); }) ||
                std::any_of(w->body.begin(), w->body.end(), [&](const auto& p) { return relevant(*p, lps, x); });
            if (loops) {
                o << "for (;;) {\n";
                emitSyncs(o, everyTest, x);
                o << "if (!(" << flowExpr(*w->condition, lps, "lpu") << ")) break;\n";
                emitFlow(o, w->body, lps, x);
                o << "}\n";
            }
        } else if (auto fe = f->as<ast::RepeatForeach>()) {
            if (foreachParent_ >= 0 && plan_.lps.changesEveryTurn(lps))
                notTranslated(fe->range, "a `Repeat foreach sub-partition` of a space whose parts change every turn");
            // A loop inside another keeps the outer turn in its own variable.
            const int outerParent = foreachParent_, outerLps = foreachLps_;
            const std::string outerVar = subVar_;
            if (outerParent >= 0)
                outerTurns_.push_back({outerParent, outerVar});
            subVar_ = outerTurns_.empty() ? "sub" : "sub_" + std::to_string(outerTurns_.size());
            std::vector<const ast::StageCall*> calls;
            stageCallsIn(fe->body, calls);
            foreachParent_ = lps;
            for (auto* call : calls) {
                const int c = plan_.flow.at(nodeOf(*call)).context;
                // A space dividing the partitions (not the sub-partitions) works in its whole parts
                // at every turn.
                if (c == lps || !turnSpace(c))
                    continue;
                // Its parts change every turn: they must be views of the foreach space's parts
                // (an array its stages only pass on, never read or write, needs no parts there).
                for (const auto& a : globalsUsedBy(*call))
                    if (const int st = plan_.storage.storageOf(a, c);
                        arrayIndex_.count(a) && st != semantic::kNoLps && st != plan_.storage.storageOf(a, lps))
                        notTranslated(call->range,
                                      "a space that divides sub-partitions and needs parts of its own of `" + a +
                                          "` (a stride, padding or a mapping across processes)");
            }
            // Every LPU of every space takes as many turns as the LPU with the most sub-partitions,
            // so that the synchronisations inside meet the same number of times everywhere; in the
            // turns beyond its own count an LPU skips its stages and contributes identities.
            foreachLps_ = x == lps ? lps : -1;
            o << "for (int64_t " << subVar_ << " = 0, " << subVar_ << "_n = t.max_subpartitions(" << lps << "); "
              << subVar_ << " < " << subVar_ << "_n; ++" << subVar_ << ") {\n";
            emitFlow(o, fe->body, lps, x);
            o << "}\n";
            foreachLps_ = outerLps;
            foreachParent_ = outerParent;
            subVar_ = outerVar;
            if (outerParent >= 0)
                outerTurns_.pop_back();
        } else if (auto c = f->as<ast::Condition>()) {
            guards_.push_back({lps, c, foreachParent_, subVar_, ""});
            emitGuardEntry(o, guards_.back(), x);
            emitFlow(o, c->body, lps, x);
            guards_.pop_back();
        } else if (auto e = f->as<ast::EpochBlock>()) {
            std::vector<const ast::StageCall*> calls;
            stageCallsIn(e->body, calls);
            // The parts of space x that stages inside the epoch work in age by one version.
            // A space working in turn copies ages its copy when the Epoch is inside its own
            // block (entered after the copy was filled); an Epoch around its block ages the
            // storage the copy is filled from.
            std::set<std::string> arrays, turnCopies;
            for (auto* call : calls) {
                const int callLps = plan_.flow.at(nodeOf(*call)).context;
                for (const auto& a : globalsUsedBy(*call)) {
                    if (!arrayIndex_.count(a) || versionsOf(a) < 2)
                        continue;
                    if (turnCopy(a, callLps) && lps == callLps) {
                        if (x == callLps)
                            turnCopies.insert(a);
                    } else if (plan_.storage.storageOf(a, callLps) == x) {
                        arrays.insert(a);
                    }
                }
            }
            // Task-global scalars that stages of this flow inside the epoch use: this flow's copy
            // ages (each flow keeps its own Globals).
            std::set<std::string> scalars;
            for (auto* call : calls)
                if (plan_.flow.at(nodeOf(*call)).context == x)
                    for (const auto& v : globalsUsedBy(*call))
                        if (versionedScalar(v))
                            scalars.insert(v);
            for (const auto& a : turnCopies)
                o << "t.age_turn_copy(" << arrayIndex(a) << ", lpu, " << subVar_ << ");  // entering the epoch\n";
            if (!arrays.empty())
                o << "// Entering the epoch: this LPU's version-dependent parts age by one version "
                     "(see the guide: Epochs).\n";
            std::vector<const ast::StageCall*> rotated;
            // An Epoch inside Where/If is entered only by the LPUs whose conditions hold: the
            // others keep their versions as they are, and complete nothing after the call.
            const bool guarded = !guards_.empty() && (!arrays.empty() || !scalars.empty());
            std::string entered; // the C++ flag that says this LPU entered (empty: every LPU does)
            if (guarded) {
                entered = "epoch_entered_" + std::to_string(epochsEmitted_++);
                o << "bool " << entered << " = false;\ndo {\n";
                emitGuardTests(o);
                o << entered << " = true;\n} while (false);\nif (" << entered << ") {\n";
            }
            for (const auto& a : arrays) {
                // Inside its own space's foreach, a sub-partitioned array ages in the current piece.
                if (foreachParent_ == x && plan_.lps.at(x).subpartition && plan_.lps.at(x).subpartition->find(a)) {
                    o << "t.age_piece(" << arrayIndex(a) << ", lpu, " << subVar_ << ");\n";
                    continue;
                }
                if (const ast::StageCall* call = rotatingCall(*e, a, lps, x)) {
                    o << "c.rotate_epoch(" << arrayIndex(a) << ");  // the stage below fills the new version\n";
                    completeAfter_[call].push_back({arrayIndex(a), entered});
                    rotated.push_back(call);
                } else {
                    o << "c.advance_epoch(" << arrayIndex(a) << ");\n";
                }
            }
            for (const auto& v : scalars) {
                o << "// Entering the epoch: `" << v << "` ages by one version.\n";
                for (int k = versionsOf(v) - 1; k >= 1; --k)
                    o << "g." << olderScalar(v, k) << " = "
                      << (k == 1 ? scalarRef(v, "g") : "g." + olderScalar(v, k - 1)) << ";\n";
            }
            if (guarded)
                o << "}\n";
            emitFlow(o, e->body, lps, x);
            // Never reached when this flow did not emit the call: complete the versions here.
            for (auto* call : rotated)
                if (auto left = completeAfter_.find(call); left != completeAfter_.end()) {
                    emitCompletions(o, left->second, "");
                    completeAfter_.erase(left);
                }
        } else if (auto call = f->as<ast::StageCall>()) {
            emitStageCall(o, *call, lps, x);
            if (auto done = completeAfter_.find(call); done != completeAfter_.end()) {
                emitCompletions(o, done->second, "  // the cells the stage did not write");
                completeAfter_.erase(done);
            }
            emitSyncs(o, at(syncAfter_, node), x);
        }
    }
}

// A stage argument that names one element of a task-global array (`g[i][r]`): the element of
// this LPU's view, found by position so that any kind of part works.
std::string TaskEmitter::elementArgument(const ast::Expr& e, int lps,
                                         const std::function<void(const std::string&)>& views, int lag) {
    if (auto f = e.as<ast::FieldAccess>()) { // a field of an element of a part (`boxes[0].weights`)
        const std::string element = elementArgument(*f->base, lps, views, lag);
        return element.empty() ? "" : element + "." + cppMember(f->field.text);
    }
    auto sub = e.as<ast::Subscript>();
    if (sub && sub->base->as<ast::FieldAccess>()) { // an element of a fixed-size field (`boxes[1].weights[2]`)
        std::string r = elementArgument(*sub->base, lps, views, lag);
        for (size_t d = 0; !r.empty() && d < sub->items.size(); ++d)
            r = "itrt::task::static_at(" + r + ", " + flowExpr(*sub->items[d].index, lps, "lpu") + ", " +
                cString(where(e.range)) + ")";
        return r;
    }
    // An element of a section, `(boxes[1...4])[2]`, is the array's element (composedItems), its
    // index checked against the section.
    auto inner = sub ? sub->base->as<ast::Subscript>() : nullptr;
    const ast::Expr* arrayExpr = inner ? inner->base.get() : sub ? sub->base.get() : nullptr;
    auto base = arrayExpr ? arrayExpr->as<ast::NameRef>() : nullptr;
    if (!base || !arrayIndex_.count(base->name))
        return "";
    const int dims = global(base->name).type.arrayDims();
    const std::vector<const ast::SubscriptItem*> items = composedItems(inner, *sub, dims);
    for (const ast::SubscriptItem* item : items)
        if (!item || item->kind != ast::SubscriptItem::Kind::Index || !item->index)
            notTranslated(e.range, "an array section as a stage argument");
    views(base->name);
    // The element must be in this LPU's part: one it does not hold stops the program, naming the
    // line (an LPU reads or writes only its own part).
    std::string args;
    for (size_t d = 0; d < items.size(); ++d) {
        std::string i = flowExpr(*items[d]->index, lps, "lpu");
        const ast::SubscriptItem* in = inner && d < inner->items.size() ? &inner->items[d] : nullptr;
        if (in && in->kind == ast::SubscriptItem::Kind::Section)
            i = "itrt::task::section_index(" + i + ", " + flowExpr(*in->first, lps, "lpu") + ", " +
                flowExpr(*in->last, lps, "lpu") + ", " + cString(where(e.range)) + ")";
        args += ", " + i;
    }
    return "v_" + base->name + "[" + std::to_string(lag) + "].checked_held(" +
           cString(where(e.range) + " (an element passed to a stage, which the LPU must hold)") + args + ")";
}

// A stage argument that is a section of a task-global array (`g[...][r]`): a view of this LPU's
// part with the fixed dimensions dropped, passed by reference like the array (one per version).
std::string TaskEmitter::sectionArgument(Out& o, const ast::Expr& e, int lps, const StageParam& sp,
                                         const std::function<void(const std::string&)>& views) {
    auto sub = e.as<ast::Subscript>();
    if (sub && sub->base->as<ast::FieldAccess>())
        return fieldSectionArgument(o, *sub, lps, sp, views);
    auto base = sub ? sub->base->as<ast::NameRef>() : nullptr;
    if (!base || !arrayIndex_.count(base->name))
        notTranslated(e.range, "array arguments that are not a task-global name or a section of one");
    views(base->name);
    const int dims = global(base->name).type.arrayDims();
    std::string name = "s_" + std::to_string(sectionArgs_++);
    o << "const View<" << sp.element << ", " << sp.dims << "> " << name << "[" << sp.versions << "] = {";
    for (int v = 0; v < sp.versions; ++v) {
        const std::string view = "v_" + base->name + "[" + std::to_string(v) + "]";
        const std::string items = sectionItems(
            sub, dims, [&](const ast::Expr& x) { return flowExpr(x, lps, "lpu"); },
            [&](int d) {
                const std::string r = view + ".whole_range(" + std::to_string(d) + ")";
                return "{false, " + r + ".min, " + r + ".max}";
            });
        o << (v ? ", " : "") << "itrt::task::slice<" << sp.dims << ">(" << view << ", " << items << ", "
          << cString(where(e.range)) << ")";
    }
    o << "};\n";
    return name;
}

// A stage argument that is a section of a fixed-size field (`cfg.k[1...2]`,
// `boxes[0].weights[0...1]`): a view of the object's std::array (static_view, indices from 0),
// sliced as a part is, so the stage reads and writes the field itself.
std::string TaskEmitter::fieldSectionArgument(Out& o, const ast::Subscript& sub, int lps, const StageParam& sp,
                                              const std::function<void(const std::string&)>& views) {
    std::string field = elementArgument(*sub.base, lps, views); // a field of an element of a part
    if (field.empty())
        field = flowExpr(*sub.base, lps, "lpu"); // a field of a task-global object
    const semantic::Type& ft = in_.checked->exprTypes.at(sub.base.get());
    const int dims = ft.arrayDims();
    std::string name = "s_" + std::to_string(sectionArgs_++);
    o << "const auto " << name << "_f = itrt::task::static_view<" << sp.element << ", " << dims << ">(" << field
      << ");\n";
    const std::string items = sectionItems(
        &sub, dims, [&](const ast::Expr& x) { return flowExpr(x, lps, "lpu"); },
        [&](int d) {
            const std::string r = name + "_f.whole_range(" + std::to_string(d) + ")";
            return "{false, " + r + ".min, " + r + ".max}";
        });
    // One version (sectionOfField gave the parameter one): the field has no others.
    o << "const View<" << sp.element << ", " << sp.dims << "> " << name << "[" << sp.versions << "] = {";
    for (int v = 0; v < sp.versions; ++v)
        o << (v ? ", " : "") << "itrt::task::slice<" << sp.dims << ">(" << name << "_f, " << items << ", "
          << cString(where(sub.range)) << ")";
    o << "};\n";
    return name;
}

// complete_epoch for each rotated array, by the LPUs that entered its epoch.
void TaskEmitter::emitCompletions(Out& o, const std::vector<std::pair<int, std::string>>& arrays,
                                  const std::string& comment) {
    for (const auto& [a, entered] : arrays)
        o << (entered.empty() ? "" : "if (" + entered + ") ") << "c.complete_epoch(" << a << ");" << comment << "\n";
}

// A Where/If block's test, made once by each LPU where the flow enters the block (after the
// movements its inputs need): the stages inside run by that outcome even when one of them
// changes what the condition reads. An enclosing block that failed decides without testing
// this one, which may read what only the enclosing test makes safe (an element of a part).
void TaskEmitter::emitGuardEntry(Out& o, Guard& gd, int x) {
    gd.held = "guard_" + std::to_string(guardsEmitted_++);
    // Only a flow that runs stages of its own space inside, or enters an Epoch there, tests the
    // block; it can, its LPUs having an ancestor (or being LPUs) in the condition's space. Any
    // other flow only takes part in the block's synchronisations, and may hold none of the
    // condition's data (a Root condition on a Root part, in the flow of Space A).
    bool below = false;
    for (int s = x; s != semantic::kNoLps && !below; s = plan_.lps.at(s).parent)
        below = s == gd.lps;
    std::vector<const ast::StageCall*> calls;
    stageCallsIn(gd.cond->body, calls);
    const bool runsStages = std::any_of(
        calls.begin(), calls.end(), [&](const ast::StageCall* c) { return plan_.flow.at(nodeOf(*c)).context == x; });
    if (!below || !(runsStages || containsEpoch(gd.cond->body))) {
        o << "[[maybe_unused]] const bool " << gd.held << " = true;  // tested by the LPUs running its stages\n";
        return;
    }
    o << "[[maybe_unused]] bool " << gd.held << " = false;\ndo {\n";
    if (guards_.size() > 1)
        o << "if (!" << guards_[guards_.size() - 2].held << ") break;\n";
    const int foreachParent = foreachParent_;
    const std::string subVar = subVar_;
    // A `Where` around the `Repeat foreach` (`Where k in u.local...` around a space whose
    // foreach it contains) tests the LPU's whole part, not the current turn's.
    foreachParent_ = gd.foreachParent;
    subVar_ = gd.subVar;
    const std::string w = "w" + std::to_string(guards_.size() - 1);
    o << "const Lpu& " << w << " = t.ancestor(lpu, " << gd.lps << ");\n";
    const ast::Condition& c = *gd.cond;
    std::string test;
    if (c.membershipRange) {
        std::string xv = flowExpr(*c.condition, gd.lps, w);
        // `x in a.local.dimensionK.range`: membership in the part (guide: The Computation
        // section).
        const ast::Expr* r = c.membershipRange.get();
        if (auto rp = r->as<ast::Property>(); rp && rp->property == ast::PropertyKind::Range)
            r = rp->base.get();
        auto dp = r->as<ast::Property>();
        auto lp = dp && dp->property == ast::PropertyKind::Dimension ? dp->base->as<ast::Property>() : nullptr;
        auto an = lp && lp->property == ast::PropertyKind::Local ? lp->base->as<ast::NameRef>() : nullptr;
        if (an && arrayIndex_.count(an->name))
            test = "t.holds(" + std::to_string(arrayIndex(an->name)) + ", " + w + ", " +
                   std::to_string(std::max(0, dp->dimensionIndex - 1)) + ", " + xv +
                   (foreachParent_ >= 0 ? ", " + subVar_ : "") + ")";
        else
            test = "it_in(" + xv + ", " + flowExpr(*c.membershipRange, gd.lps, w) + ")";
    } else {
        test = flowExpr(*c.condition, gd.lps, w);
    }
    o << gd.held << " = " << test << ";\n} while (false);\n";
    foreachParent_ = foreachParent;
    subVar_ = subVar;
}

// The Where/If blocks around the current point of the flow: `fail` (a `break` out of the
// enclosing `do { } while (false)`) unless the innermost held at its entry (its flag includes
// the enclosing ones).
void TaskEmitter::emitGuardTests(Out& o, const std::string& fail) {
    if (!guards_.empty())
        o << "if (!" << guards_.back().held << ") " << fail << "\n";
}

void TaskEmitter::emitStageCall(Out& o, const ast::StageCall& call, int lps, int x) {
    const size_t k = instanceIndex(call);
    const semantic::StageInstance& inst = info_->stageInstances[k];
    const StageSig& sig = sigs_[k];
    const ast::StageDef& def = *inst.stage;
    const int node = nodeOf(call);
    if (lps == x) {
        // The outer block holds the partial values of the reductions this call makes, one per
        // reduction argument. Without any, the stage's own block stands alone: `{ {` at the
        // start of a statement reads to clang-format as a braced list, which misplaces its
        // closing-namespace comments in the emitted file.
        const bool reduces = std::any_of(def.params.begin(), def.params.end(),
                                         [&](const auto& p) { return sig.params.at(p.text).isReductionSlot; });
        if (reduces)
            o << "{\n";
        std::vector<std::pair<std::string, int>> slots;
        for (size_t i = 0; i < def.params.size(); ++i) {
            const StageParam& sp = sig.params.at(def.params[i].text);
            if (!sp.isReductionSlot)
                continue;
            std::string n = "slot_" + std::to_string(slots.size());
            o << "itrt::Reducer<" << sp.reduceOp << ", " << sp.reduceType << ">::Value " << n << " = itrt::Reducer<"
              << sp.reduceOp << ", " << sp.reduceType << ">::identity();\n";
            slots.push_back({n, reductionAt_.at({node, call.args[i].variable->text})});
        }
        // Guards and missing sub-partitions skip the stage (break), not the contributions below.
        // A space below the foreach space that divides its partitions runs once per turn of its
        // ancestor there (its parts are the same at every turn).
        const bool ancestorTurns = foreachParent_ >= 0 && lps != foreachParent_ && !turnSpace(lps);
        const bool skippable =
            !guards_.empty() || foreachLps_ >= 0 || turnSpace(lps) || ancestorTurns || !outerTurns_.empty();
        // A turn beyond the LPU's own is no turn of its: its identity partial does not count as
        // a reduction at a target none of whose contributors had the turn. A space that divides
        // the sub-partitions has no part in such a turn either; it says so before the views.
        // So is an LPU a guard excludes: a target none of whose contributors ran the stage keeps
        // its value (a reduction under a false Where is no reduction).
        const bool turns = !slots.empty() && (foreachLps_ >= 0 || ancestorTurns || turnSpace(lps) ||
                                              !outerTurns_.empty() || !guards_.empty());
        if (turns)
            o << "bool had_turn = true;\n";
        const std::string beyond = turns ? "{ had_turn = false; break; }" : "break;";
        o << (skippable ? "do {\n" : "{\n");
        for (const OuterTurn& ot : outerTurns_) // a turn of an enclosing loop beyond this LPU's own
            o << "if (" << ot.var << " >= t.subpartitions(" << ot.lps << ", "
              << (ot.lps == lps ? std::string("lpu") : "t.ancestor(lpu, " + std::to_string(ot.lps) + ")") << ")) "
              << beyond << "\n";
        if (foreachLps_ >= 0)
            o << "if (" << subVar_ << " >= t.subpartitions(" << foreachLps_ << ", lpu)) " << beyond
              << "  // a turn beyond this LPU's own\n";
        if (ancestorTurns || (turns && turnSpace(lps)))
            o << "if (" << subVar_ << " >= t.subpartitions(" << foreachParent_ << ", t.ancestor(lpu, " << foreachParent_
              << "))) " << beyond << "  // a turn beyond its ancestor's own\n";
        emitGuardTests(o, beyond);
        // Views of the arrays the stage touches, one per epoch version kept.
        std::set<std::string> viewed;
        auto views = [&](const std::string& a) {
            if (!viewed.insert(a).second)
                return;
            const auto& gt = global(a).type;
            std::string vt = "View<" + cppElement(gt) + ", " + std::to_string(gt.arrayDims()) + ">";
            // An array passed to a stage that never touches its elements has no parts here: an
            // empty view that still knows the array's ranges.
            if (plan_.storage.storageOf(a, lps) == semantic::kNoLps) {
                o << "const " << vt << " v_" << a << "[" << versionsOf(a) << "] = {";
                for (int v = 0; v < versionsOf(a); ++v)
                    o << (v ? ", " : "") << "t.empty_view<" << cppElement(gt) << ", " << gt.arrayDims() << ">("
                      << arrayIndex(a) << ")";
                o << "};\n";
                return;
            }
            bool sub = foreachLps_ >= 0 && plan_.lps.at(foreachLps_).subpartition &&
                       plan_.lps.at(foreachLps_).subpartition->find(a);
            const bool turn = turnSpace(lps); // splits the current sub-partition of its parent
            int nv = versionsOf(a);
            if (sub || turn)
                for (int v = 0; v < nv; ++v)
                    o << "auto sv_" << a << "_" << v << " = t." << (turn ? "turn_view<" : "sub_view<") << cppElement(gt)
                      << ", " << gt.arrayDims() << ">(" << arrayIndex(a) << ", lpu, " << subVar_ << ", " << v
                      << ");\nif (!sv_" << a << "_" << v << ") break;\n";
            sub = sub || turn;
            o << "const " << vt << " v_" << a << "[" << nv << "] = {";
            for (int v = 0; v < nv; ++v) {
                if (v)
                    o << ", ";
                if (sub)
                    o << "*sv_" << a << "_" << v;
                else
                    o << "t.view<" << cppElement(gt) << ", " << gt.arrayDims() << ">(" << arrayIndex(a) << ", lpu, "
                      << v << ")";
            }
            o << "};\n";
        };
        std::vector<std::string> args;
        size_t slot = 0;
        for (size_t i = 0; i < def.params.size(); ++i) {
            const StageParam& sp = sig.params.at(def.params[i].text);
            const semantic::ParamBinding& b = inst.params[i];
            const ast::CallArg& ca = call.args[i];
            if (sp.isReductionSlot) {
                args.push_back(slots[slot++].first);
            } else if (sp.isArray) {
                auto n = ca.value ? ca.value->as<ast::NameRef>() : nullptr;
                if (!n) {
                    args.push_back(sectionArgument(o, *ca.value, lps, sp, views));
                    continue;
                }
                views(n->name);
                args.push_back("v_" + n->name);
            } else if (b.isStringLiteral) {
                args.push_back("std::string(" + cString(b.literalString) + ")");
            } else if (b.constant) {
                args.push_back(flowExpr(*ca.value, lps, "lpu"));
            } else if (std::string el = ca.value ? elementArgument(*ca.value, lps, views) : ""; !el.empty()) {
                args.push_back(el);
                for (int k = 1; k < sp.olderVersions; ++k) // the element in the older versions
                    args.push_back(elementArgument(*ca.value, lps, views, k));
                continue;
            } else {
                auto n = ca.value ? ca.value->as<ast::NameRef>() : nullptr;
                if (n && isGlobal(n->name))
                    args.push_back(global(n->name).isReduction ? reductionValue(n->name, "g")
                                                               : "g." + cppName(n->name));
                else // a field of a task-global object (`r.min`): an lvalue of the flow's globals
                    args.push_back(flowExpr(*ca.value, lps, "lpu"));
            }
            for (int k = 1; k < sp.olderVersions; ++k) // its older versions (StageParam::olderVersions)
                args.push_back(flowExpr(*ca.value, lps, "lpu", k));
        }
        for (const auto& a : sig.directArrays) {
            views(a);
            args.push_back("v_" + a);
        }
        // IT_TRACE: a span per stage call naming task, space, LPU and IT line; with tracing off
        // it costs one predictable branch (see docs/tracing.md).
        o << "static constexpr itrt::trace::StageSite it_trace_site{" << cString(def_.name.text) << ", "
          << cString(plan_.lps.at(x).name) << ", " << cString(def.name.text) << ", " << cString(programBaseName(in_))
          << ", " << call.range.begin.line << "};\n";
        o << "const itrt::trace::StageSpan it_trace_span(it_trace_site, lpu.coords);\n";
        o << sig.fn << "(g, t, lpu";
        for (auto& a : args)
            o << ", " << a;
        o << ");\n";
        // What the stage wrote, for the movements that send only what changed.
        if (auto acc = plan_.usage.accessOfNode.find(node); acc != plan_.usage.accessOfNode.end())
            for (const auto& v : plan_.usage.accesses[static_cast<size_t>(acc->second)].vars) {
                if (!v.written || v.reduced)
                    continue;
                if (movedArrays_.count(v.var))
                    o << "c.wrote(" << arrayIndex(v.var) << ");\n";
                else if (movedScalars_.count(v.var))
                    o << "c.wrote_scalar(" << arrayIndexOrSlot(v.var) << ");\n";
            }
        o << (skippable ? "} while (false);\n" : "}\n");
        // An LPU the guards exclude still contributes (the identity, marked as no turn): its
        // target counts on it.
        for (const auto& [n, id] : slots)
            o << "c.contribute(" << id << ", &" << n << (turns ? ", had_turn" : "") << ");\n";
        if (reduces)
            o << "}\n";
    }
    // The target LPU combines the partials; readers below it receive the result.
    for (size_t i = 0; i < def.params.size(); ++i) {
        if (!call.args[i].isSpaceArg())
            continue;
        auto it = reductionAt_.find({node, call.args[i].variable->text});
        if (it == reductionAt_.end())
            continue;
        const auto& s = plan_.dependencies.syncs[static_cast<size_t>(it->second)];
        const bool reader = std::find(s.readers.begin(), s.readers.end(), x) != s.readers.end();
        const char* how = s.toLps == x ? "collect" : reader ? "receive" : nullptr;
        if (!how)
            continue;
        const auto& [op, type] = reductionOps_.at(it->second);
        // A target none of whose contributors had the turn (inside `Repeat foreach
        // sub-partition` or a loop of an enclosing space's turns) or ran the stage (under a
        // `Where`/`If`) keeps its value.
        const bool turns = foreachLps_ >= 0 || foreachParent_ >= 0 || !outerTurns_.empty() || !guards_.empty();
        o << "{\nitrt::Reducer<" << op << ", " << type << ">::Value red{};\n";
        if (turns)
            o << "bool reduced = true;\n";
        o << "co_await c." << how << "(" << it->second << ", &red" << (turns ? ", &reduced" : "") << ");\n"
          << (turns ? "if (reduced) " : "") << "it_assign_reduction<" << op << ", " << type << ">(red, g.r_" << s.var
          << ");\n";
        if (movedScalars_.count(s.var) && s.toLps == x)
            o << "c.wrote_scalar(" << arrayIndexOrSlot(s.var) << ");\n";
        o << "}\n";
    }
}

} // namespace itc::backend
