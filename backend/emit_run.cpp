// A task's run(): array declarations, Initialize (§5.2), the space descriptions for the launch
// (§9, partition arguments substituted), the synchronisations of the plan, and the flow (§8) as
// one coroutine per space that every LPU of the space runs as a VDP of the channel engine.
#include "backend/task_emitter.h"

#include <algorithm>
#include <functional>

namespace itc::backend {

using sema::TypeKind;

TaskEmitter::TaskEmitter(const BackendInput& in, const ast::TaskDef& def, const sema::TaskInfo& info,
                         const semantic::TaskPlan& plan, int index)
    : in_(in), def_(def), info_(&info), plan_(plan), index_(index) {
    ns_ = "task_" + ident(def.name.text);
    int a = 0;
    for (const auto& g : info.globals) {
        globals_[g.name] = &g;
        if (g.type.isArray() && !g.isReduction) {
            if (g.type.kind != TypeKind::DynamicArray)
                unsupported(g.declared, "static arrays as task-globals");
            arrayIndex_[g.name] = a++;
        }
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
    if (!reductionLps_.count(v))
        throw Unsupported(global(v).declared, "reading Reduction variable `" + v + "` that no stage reduces into");
    if (recording_)
        recording_->insert(v);
    // Each LPU's flow keeps the result of its ancestor in v's space (collected or received).
    return globals + ".r_" + v;
}

std::set<int> TaskEmitter::stridedDims(const std::string& array) const {
    std::set<int> out;
    auto it = home_.find(array);
    if (it == home_.end())
        return out;
    for (int l = it->second; l > 0; l = plan_.lps.at(l).parent) {
        const semantic::ArrayPartition* ap = plan_.lps.at(l).find(array);
        if (!ap)
            continue;
        for (const auto& di : ap->instructions)
            if (!di.replicated && (di.function == ast::PartitionFunction::Stride ||
                                   di.function == ast::PartitionFunction::BlockStride))
                out.insert(di.arrayDim - 1);
    }
    return out;
}

std::string TaskEmitter::where(SourceRange r) const {
    std::string file = in_.programFile;
    return file + ":" + std::to_string(r.begin.line);
}

// Home LPS of every array (the space whose stages use it), written arrays, reduction spaces.
// Home LPS of every array (the space whose stages use it, or the highest of several related
// ones: the spaces below see views into its parts), written arrays, reduction spaces.
void TaskEmitter::analyse() {
    std::map<std::string, std::set<int>> users;
    std::map<std::string, SourceRange> firstUse;
    for (const auto& acc : plan_.usage.accesses) {
        if (acc.kind != semantic::FlowAccess::Kind::Stage)
            continue;
        for (const auto& v : acc.vars) {
            if (v.reduced)
                reductionLps_[v.var] = v.reductionLps;
            if (!arrayIndex_.count(v.var))
                continue;
            users[v.var].insert(acc.lps);
            firstUse.emplace(v.var, acc.range);
            if (v.written)
                written_.insert(v.var);
        }
    }
    for (const auto& [a, spaces] : users) {
        int h = -1;
        for (int l : spaces)
            if (std::all_of(spaces.begin(), spaces.end(),
                            [&](int m) { return m == l || plan_.lps.isProperAncestor(l, m); }))
                h = l;
        const SourceRange at = firstUse.at(a);
        if (h < 0) {
            std::string names;
            for (int l : spaces)
                names += (names.empty() ? "" : " and ") + plan_.lps.at(l).name;
            throw Unsupported(at, "array `" + a + "` is used by stages of spaces that do not divide one another (" +
                                      names + "); moving data between them");
        }
        home_[a] = h;
        if (spaces.size() == 1)
            continue;
        // Below the home the parts are views into the home part: nothing may pad or stride them.
        for (int l : spaces)
            for (int m = l; m != h; m = plan_.lps.at(m).parent) {
                const semantic::ArrayPartition* ap = plan_.lps.at(m).find(a);
                if (!ap)
                    continue;
                if (ap->padded())
                    throw Unsupported(at, "padding `" + a + "` in Space " + plan_.lps.at(m).name + " while stages of Space " +
                                              plan_.lps.at(h).name + " use it too");
                for (const auto& di : ap->instructions)
                    if (!di.replicated && (di.function == ast::PartitionFunction::Stride ||
                                           di.function == ast::PartitionFunction::BlockStride))
                        throw Unsupported(at, "a strided partition of `" + a + "` in Space " + plan_.lps.at(m).name +
                                                  " while stages of Space " + plan_.lps.at(h).name + " use it too");
            }
        if (versionsOf(a) > 1)
            throw Unsupported(at, "epoch versions of `" + a + "`, which stages of two spaces use");
        shared_[a] = spaces;
    }
    sigs_.resize(info_->stageInstances.size());
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
            o << cppType(g.type) << " " << g.name << "{};\n";
    }
    o << "};\n\n";
    for (const auto& p : plan_.lps.params)
        o << "// partition parameter: " << p << "\n";
    o << "static int64_t p_unused_ = 0;\n\n";
    for (size_t k = 0; k < info_->stageInstances.size(); ++k) {
        // The partition parameters are not visible in stages, so no p_ parameters.
        emitStage(o, k);
    }
    emitRun(o);
    o << "} // namespace " << ns_ << "\n\n";
}

std::string TaskEmitter::flowExpr(const ast::Expr& e, int lps, const std::string& lpuVar) {
    struct Flow : ExprEmitter {
        TaskEmitter& te;
        std::string w;
        Flow(TaskEmitter& t, const sema::ExprTypes* ty, std::string lpu) : ExprEmitter(ty), te(t), w(std::move(lpu)) {}
        std::string nameRef(const ast::NameRef& n) override {
            if (te.isGlobal(n.name)) {
                if (te.global(n.name).isReduction) {
                    if (w.empty())
                        unsupported(n.range, "a Reduction variable outside a space");
                    return te.reductionValue(n.name, "g");
                }
                return "g." + n.name;
            }
            unsupported(n.range, "name `" + n.name + "` in the Computation section");
        }
        std::string dimensionRange(const ast::Expr& at, const std::string& array, int k, bool local) override {
            if (!te.isGlobal(array) || !te.global(array).type.isArray())
                unsupported(at.range, "this dimension attribute");
            std::string a = std::to_string(te.arrayIndex(array));
            if (local) {
                if (w.empty())
                    unsupported(at.range, "`local` outside a space");
                return "t.local_range(" + a + ", " + w + ", " + std::to_string(k) + ")";
            }
            return "t.whole_range(" + a + ", " + std::to_string(k) + ")";
        }
        std::string lpuId(const ast::Expr& at) override {
            if (w.empty())
                unsupported(at.range, "`lpuId` outside a space");
            return w + ".coords";
        }
    } f(*this, &in_.checked->exprTypes, lpuVar);
    (void)lps;
    return f.emit(e);
}

void TaskEmitter::emitInitialize(Out& o) {
    if (!def_.initialize)
        return;
    const auto& init = *def_.initialize;
    o << lineComment(in_, init.range);
    for (const auto& p : init.params)
        if (isGlobal(p.text))
            o << "g." << p.text << " = i_" << p.text << ";\n";
    for (const auto& [name, type] : info_->initializeLocals) {
        bool param = std::any_of(init.params.begin(), init.params.end(), [&](auto& p) { return p.text == name; });
        if (!param) // L_ (capital): never one of run()'s own names (g, t, prog, env, i_..., p_...)
            o << cppType(type) << " L_" << name << "{};\n";
    }
    // Initialize is a sequential body (loops, if, native code) run once per task in run(),
    // where task-globals are g.<name>, non-global parameters i_<name>, locals L_<name>.
    struct Init : SequentialBody {
        TaskEmitter& te;
        std::set<std::string> params;
        Init(TaskEmitter& t, const BackendInput& in, const sema::ExprTypes* ty,
             const std::map<std::string, sema::Type>* locals)
            : SequentialBody(in, ty, locals), te(t) {}
        std::map<std::string, std::string> externAliases() const override {
            std::map<std::string, std::string> r;
            for (const auto& [name, type] : *locals_)
                if (!type.isError() && !type.isArray())
                    r[name] = params.count(name) ? "i_" + name : "L_" + name;
            for (const auto& l : loopVars_)
                r[l] = "L_" + l;
            for (const auto& g : te.info_->globals)
                if (!g.type.isArray() && !g.isReduction)
                    r[g.name] = "g." + g.name;
            return r;
        }
        std::string nameRef(const ast::NameRef& n) override {
            if (params.count(n.name) && !te.isGlobal(n.name))
                return "i_" + n.name;
            if (te.isGlobal(n.name))
                return "g." + n.name;
            return "L_" + n.name;
        }
        std::string dimensionRange(const ast::Expr& at, const std::string& array, int k, bool local) override {
            if (local || !te.isGlobal(array))
                unsupported(at.range, "this dimension attribute in Initialize");
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
            auto dt = dimTarget(*a.target);
            if (dt) {
                if (dt->second < 0) {
                    // `x.dimension = y.dimension = z.dimension`: every target copies the last one.
                    std::vector<std::string> targets{dt->first};
                    const ast::Expr* v = a.value.get();
                    while (auto chain = v->as<ast::Assign>()) {
                        auto t = dimTarget(*chain->target);
                        if (!t || t->second >= 0)
                            unsupported(a.range, "this `dimension` assignment");
                        targets.push_back(t->first);
                        v = chain->value.get();
                    }
                    auto src = dimTarget(*v);
                    if (!src || src->second >= 0)
                        unsupported(a.range, "this `dimension` assignment");
                    std::string out;
                    for (const auto& t : targets)
                        out += (out.empty() ? "" : ", ") + std::string("t.copy_ranges(") + t + ", " + src->first + ")";
                    return out;
                }
                std::string lhs = "t.range(" + dt->first + ", " + std::to_string(dt->second) + ")";
                if (auto chain = a.value->as<ast::Assign>())
                    return lhs + " = " + assign(*chain);
                auto src = dimTarget(*a.value);
                if (!src)
                    unsupported(a.range, "this dimension assignment");
                if (src->second < 0)
                    src->second = 0;
                return lhs + " = t.range(" + src->first + ", " + std::to_string(src->second) + ")";
            }
            if (auto f = a.target->as<ast::FieldAccess>(); f && (f->field.text == "min" || f->field.text == "max"))
                if (auto d = dimTarget(*f->base))
                    return "t.range(" + d->first + ", " + std::to_string(std::max(0, d->second)) + ")." + f->field.text +
                           " = " + emit(*a.value);
            if (auto chain = a.value->as<ast::Assign>())
                return emit(*a.target) + " = " + assign(*chain);
            return emit(*a.target) + " = " + emit(*a.value);
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
                    static const char* fn[] = {"block_size", "block_count", "stride", "block_stride"};
                    o << "itrt::DimInstruction::split(" << di.arrayDim - 1 << ", itrt::PartitionSpec{itrt::PartitionFn::"
                      << fn[static_cast<int>(di.function)] << ", " << (di.argument ? arg(di.argument) : "1") << ", "
                      << arg(di.paddingFront) << ", " << arg(di.paddingBack) << ", 1})";
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

// The Reduction variables a flow expression reads (emitted once, to see which names it reaches).
std::set<std::string> TaskEmitter::reductionsReadBy(const ast::Expr* e, int lps) {
    std::set<std::string> names;
    if (!e)
        return names;
    recording_ = &names;
    flowExpr(*e, lps, "lpu");
    recording_ = nullptr;
    return names;
}

// Numbers every synchronisation of the flow in walk order: padding exchanges at the exit of a
// padded space, reductions at the stage call that reduces. Every space's flow uses these numbers.
void TaskEmitter::planSyncs(const ast::FlowList& list, int lps, bool inForeach) {
    for (const auto& f : list) {
        if (auto s = f->as<ast::SpaceBlock>()) {
            int x = lpsOf(s->space.text);
            // An array the parent space's stages share with stages below: the LPUs below wait for
            // their parent LPU on entry (its writes are done) and the parent waits for them on
            // exit (their writes are done, and they no longer read what it will overwrite).
            bool shares = false;
            for (const auto& [a, spaces] : shared_) {
                bool below = std::any_of(spaces.begin(), spaces.end(),
                                         [&](int u) { return u == x || plan_.lps.isProperAncestor(x, u); });
                if (!below)
                    continue;
                if (spaces.count(lps))
                    shares = true;
                else if (std::any_of(spaces.begin(), spaces.end(),
                                     [&](int u) { return plan_.lps.isProperAncestor(u, lps); }))
                    unsupported(s->range, "sharing `" + a + "` across Space " + plan_.lps.at(lps).name +
                                              ", whose stages do not use it");
            }
            if (shares) {
                if (inForeach)
                    unsupported(s->range, "a space shared with its parent inside `Repeat foreach sub-partition`");
                Boundary b{lps, x, static_cast<int>(syncs_.size()), static_cast<int>(syncs_.size()) + 1};
                for (int down : {1, 0}) {
                    SyncPlan sp;
                    sp.id = static_cast<int>(syncs_.size());
                    sp.registration = "t.token_sync(" + std::to_string(lps) + ", " + std::to_string(x) + ", " +
                                      (down ? "true" : "false") + ", " +
                                      cString("task " + def_.name.text + ": " + (down ? "entry into" : "exit from") +
                                              " Space " + s->space.text) +
                                      ");";
                    syncs_.push_back(std::move(sp));
                }
                boundaryAt_[s] = b;
            }
            planSyncs(s->body, x, inForeach);
            // Leaving Space X refreshes the padded copies of the arrays X pads.
            for (const auto& ap : plan_.lps.at(x).arrays) {
                if (!ap.padded() || !home_.count(ap.array))
                    continue;
                int h = home_.at(ap.array);
                if (h != x && !plan_.lps.isProperAncestor(x, h))
                    continue;
                if (inForeach)
                    unsupported(s->range, "a padding exchange inside `Repeat foreach sub-partition`");
                SyncPlan sp;
                sp.id = static_cast<int>(syncs_.size());
                sp.home = h;
                sp.registration = "t.padding_sync(" + std::to_string(arrayIndex(ap.array)) + ", " + std::to_string(x) +
                                  ", " +
                                  cString("task " + def_.name.text + ": padding exchange of " + ap.array +
                                          " at exit of Space " + s->space.text) +
                                  ");";
                paddingAt_[s].push_back(static_cast<int>(syncs_.size()));
                syncs_.push_back(std::move(sp));
            }
        } else if (auto r = f->as<ast::RepeatFor>()) {
            planSyncs(r->body, lps, inForeach);
        } else if (auto w = f->as<ast::RepeatWhile>()) {
            conditionReads_.merge(reductionsReadBy(w->condition.get(), lps));
            planSyncs(w->body, lps, inForeach);
        } else if (auto fe = f->as<ast::RepeatForeach>()) {
            planSyncs(fe->body, lps, true);
        } else if (auto c = f->as<ast::Condition>()) {
            conditionReads_.merge(reductionsReadBy(c->condition.get(), lps));
            conditionReads_.merge(reductionsReadBy(c->membershipRange.get(), lps));
            planSyncs(c->body, lps, inForeach);
        } else if (auto e = f->as<ast::EpochBlock>()) {
            planSyncs(e->body, lps, inForeach);
        } else if (auto call = f->as<ast::StageCall>()) {
            size_t k = instanceIndex(*call);
            const sema::StageInstance& inst = info_->stageInstances[k];
            const StageSig& sig = sigs_[k];
            callLps_[call] = lps;
            for (size_t i = 0; i < inst.stage->params.size(); ++i) {
                const StageParam& sp = sig.params.at(inst.stage->params[i].text);
                if (!sp.isReductionSlot) {
                    const ast::CallArg& ca = call->args[i];
                    auto n = ca.value ? ca.value->as<ast::NameRef>() : nullptr;
                    if (n && isGlobal(n->name) && global(n->name).isReduction)
                        stageReads_[n->name].insert(lps);
                    continue;
                }
                if (inForeach)
                    unsupported(call->range, "a reduction inside `Repeat foreach sub-partition`");
                const ast::CallArg& ca = call->args[i];
                SyncPlan p;
                p.id = static_cast<int>(syncs_.size());
                p.reduction = true;
                p.invoking = lps;
                p.target = lpsOf(ca.space->text);
                p.var = ca.variable->text;
                p.op = sp.reduceOp;
                p.type = sp.reduceType;
                reductionAt_[{call, i}] = p.id;
                syncs_.push_back(std::move(p));
            }
            for (const auto& gname : inst.globalsUsed)
                if (isGlobal(gname) && global(gname).isReduction)
                    stageReads_[gname].insert(lps);
        }
    }
}

// Spaces below the target whose flows read a reduction's result receive it from their target LPU.
void TaskEmitter::planReaders() {
    std::set<int> staged;
    for (const auto& [call, l] : callLps_)
        staged.insert(l);
    for (auto& sp : syncs_) {
        if (!sp.reduction)
            continue;
        std::set<int> readers;
        if (auto it = stageReads_.find(sp.var); it != stageReads_.end())
            for (int l : it->second)
                if (l != sp.target) {
                    if (!plan_.lps.isProperAncestor(sp.target, l))
                        unsupported(global(sp.var).declared,
                                    "reading Reduction variable `" + sp.var + "` outside the space it reduces into (" +
                                        plan_.lps.at(sp.target).name + ") and the spaces below it");
                    readers.insert(l);
                }
        if (conditionReads_.count(sp.var))
            for (int l : staged)
                if (plan_.lps.isProperAncestor(sp.target, l))
                    readers.insert(l);
        sp.readers = readers;
        std::string list;
        for (int l : readers)
            list += (list.empty() ? "" : ", ") + std::to_string(l);
        sp.registration = "t.reduction_sync(" + std::to_string(sp.invoking) + ", " + std::to_string(sp.target) +
                          ", itrt::make_combiner<" + sp.op + ", " + sp.type + ">(), {" + list + "}, " +
                          cString("task " + def_.name.text + ": reduction of " + sp.var + " into " +
                                  (sp.target == 0 ? "Root" : "Space " + plan_.lps.at(sp.target).name)) +
                          ");";
    }
}

// Whether flow part `f` (inside space `lps`) gives the LPUs of space `x` anything to do.
bool TaskEmitter::relevant(const ast::FlowPart& f, int lps, int x) const {
    auto any = [&](const ast::FlowList& l, int inner) {
        for (const auto& p : l)
            if (relevant(*p, inner, x))
                return true;
        return false;
    };
    if (auto s = f.as<ast::SpaceBlock>()) {
        if (auto bt = boundaryAt_.find(s); bt != boundaryAt_.end() && (bt->second.parent == x || bt->second.child == x))
            return true;
        if (auto it = paddingAt_.find(s); it != paddingAt_.end())
            for (int id : it->second)
                if (syncs_[static_cast<size_t>(id)].home == x)
                    return true;
        return any(s->body, lpsOf(s->space.text));
    }
    if (auto r = f.as<ast::RepeatFor>())
        return any(r->body, lps);
    if (auto w = f.as<ast::RepeatWhile>())
        return any(w->body, lps);
    if (auto fe = f.as<ast::RepeatForeach>())
        return any(fe->body, lps);
    if (auto c = f.as<ast::Condition>())
        return any(c->body, lps);
    if (auto e = f.as<ast::EpochBlock>())
        return any(e->body, lps);
    if (auto call = f.as<ast::StageCall>()) {
        if (lps == x)
            return true;
        for (const auto& [key, id] : reductionAt_) {
            if (key.first != call)
                continue;
            const SyncPlan& sp = syncs_[static_cast<size_t>(id)];
            if (sp.target == x || sp.readers.count(x))
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

void TaskEmitter::emitRun(Out& o) {
    planSyncs(def_.computation, 0, false);
    planReaders();
    // The spaces whose LPUs have work in the flow: one coroutine each.
    std::vector<int> spaces;
    for (int x = 0; x < static_cast<int>(plan_.lps.spaces.size()); ++x) {
        bool any = false;
        for (const auto& f : def_.computation)
            any = any || relevant(*f, 0, x);
        if (any)
            spaces.push_back(x);
    }
    for (int x : spaces) {
        const std::string& name = plan_.lps.at(x).name;
        o << "// The flow of Space " << name << " for one of its LPUs: a coroutine that the runtime resumes\n"
          << "// until it has to wait for packets of other LPUs (co_await).\n";
        o << "static itrt::task::LpuFlow flow_" << ident(name) << "(itrt::task::FlowContext& c, Globals g"
          << flowParams() << ") {\n";
        o << "itrt::task::TaskInstance& t = c.task();\nconst Lpu& lpu = c.lpu();\n";
        emitFlow(o, def_.computation, 0, x);
        // Reduction results the environment keeps: LPU 0 of the target space publishes them.
        for (const auto& g : info_->globals)
            if (g.environmental && g.isReduction && reductionLps_.count(g.name) && reductionLps_.at(g.name) == x)
                o << "if (lpu.id == 0) c.publish(" << arrayIndexOrSlot(g.name) << ", &g.r_" << g.name << ", sizeof g.r_"
                  << g.name << ");\n";
        o << "(void)t;\n(void)lpu;\n";
        for (const auto& p : plan_.lps.params)
            o << "(void)p_" << p << ";\n";
        o << "co_return;\n}\n\n";
    }

    o << "// Runs one execution of the task (all ranks call it in the same order).\n";
    o << "void run(itrt::task::Program& prog, itrt::task::Env& env";
    if (def_.initialize)
        for (const auto& p : def_.initialize->params) {
            sema::Type t = isGlobal(p.text) ? global(p.text).type : info_->initializeLocals.at(p.text);
            o << ", " << cppType(t) << " i_" << p.text;
        }
    o << flowParams() << ") {\n";
    o << "itrt::task::TaskInstance t(prog, " << cString(def_.name.text) << ", env);\nGlobals g{};\n";
    // Environmental scalars.
    for (const auto& g : info_->globals) {
        if (!g.environmental || g.type.isArray() || g.isReduction)
            continue;
        if (g.mode != ast::LinkMode::Create)
            o << "if (env.scalar(" << cString(g.name) << ") && env.scalar(" << cString(g.name) << ")->set) g." << g.name
              << " = env.get<" << cppType(g.type) << ">(" << cString(g.name) << ");\n";
    }
    o << "// Arrays: index, name, dimensions, element, environment link, home space, versions, written.\n";
    for (const auto& g : info_->globals) {
        if (!arrayIndex_.count(g.name))
            continue;
        int home = home_.count(g.name) ? home_.at(g.name) : -1;
        int mode = g.mode == ast::LinkMode::Link ? 0 : g.mode == ast::LinkMode::Create ? 1 : 2;
        o << "t.declare_array(" << arrayIndex(g.name) << ", " << cString(g.name) << ", " << g.type.arrayDims()
          << ", sizeof(" << cppElement(g.type) << "), &" << codecOf(g.type.elementType()) << ", "
          << (g.environmental ? "true" : "false") << ", " << mode << ", " << home << ", " << versionsOf(g.name)
          << ", " << (written_.count(g.name) ? "true" : "false") << ");\n";
    }
    emitInitialize(o);
    emitSpaces(o);
    for (const auto& [a, spaces] : shared_)
        for (int l : spaces)
            if (l != home_.at(a))
                o << "t.share_below(" << arrayIndex(a) << ", " << l << "); // Space " << plan_.lps.at(l).name
                  << " sees views into Space " << plan_.lps.at(home_.at(a)).name << "'s parts of " << a << "\n";
    o << "t.launch();\n";
    if (!syncs_.empty())
        o << "// The synchronisations of the flow, numbered as the flows use them.\n";
    for (const auto& sp : syncs_)
        o << sp.registration << " // " << sp.id << "\n";
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
        if (g.isReduction) {
            if (!reductionLps_.count(g.name))
                continue;
            o << "{\n" << cppType(g.type) << " v{};\nt.published(" << arrayIndexOrSlot(g.name) << ", "
              << reductionLps_.at(g.name) << ", &v, sizeof v);\nenv.set<" << cppType(g.type) << ">("
              << cString(g.name) << ", v);\n}\n";
        } else {
            o << "env.set<" << cppType(g.type) << ">(" << cString(g.name) << ", g." << g.name << ");\n";
        }
    }
    o << "(void)p_unused_;\n}\n\n";
}

// Environmental Reduction results are published under their Define position.
int TaskEmitter::arrayIndexOrSlot(const std::string& v) const {
    int i = 0;
    for (const auto& g : info_->globals) {
        if (g.name == v)
            return i;
        ++i;
    }
    throw std::logic_error("no task-global " + v);
}

static void stageCallsIn(const ast::FlowList& list, std::vector<const ast::StageCall*>& out) {
    for (const auto& f : list) {
        if (auto c = f->as<ast::StageCall>())
            out.push_back(c);
        else if (auto s = f->as<ast::SpaceBlock>())
            stageCallsIn(s->body, out);
        else if (auto r = f->as<ast::RepeatFor>())
            stageCallsIn(r->body, out);
        else if (auto r2 = f->as<ast::RepeatForeach>())
            stageCallsIn(r2->body, out);
        else if (auto r3 = f->as<ast::RepeatWhile>())
            stageCallsIn(r3->body, out);
        else if (auto c2 = f->as<ast::Condition>())
            stageCallsIn(c2->body, out);
        else if (auto e = f->as<ast::EpochBlock>())
            stageCallsIn(e->body, out);
    }
}

// The flow of space `x`: the parts of the Computation section that concern its LPUs.
void TaskEmitter::emitFlow(Out& o, const ast::FlowList& list, int lps, int x) {
    for (const auto& f : list) {
        if (!relevant(*f, lps, x))
            continue;
        o << lineComment(in_, f->range);
        if (auto s = f->as<ast::SpaceBlock>()) {
            auto bt = boundaryAt_.find(s);
            const bool joins = bt != boundaryAt_.end() && (bt->second.parent == x || bt->second.child == x);
            if (joins)
                o << "co_await c.exchange(" << bt->second.entry << "); // entry into Space " << s->space.text << "\n";
            emitFlow(o, s->body, lpsOf(s->space.text), x);
            if (auto it = paddingAt_.find(s); it != paddingAt_.end())
                for (int id : it->second)
                    if (syncs_[static_cast<size_t>(id)].home == x)
                        o << "co_await c.exchange(" << id << "); // padding exchange at exit of Space "
                          << s->space.text << "\n";
            if (joins)
                o << "co_await c.exchange(" << bt->second.exit << "); // exit from Space " << s->space.text << "\n";
        } else if (auto r = f->as<ast::RepeatFor>()) {
            std::string n = "rep_" + std::to_string(loopCounter_++);
            o << "{\nconst Range " << n << " = " << flowExpr(*r->rangeExpr, lps, "") << ";\n";
            o << "const int64_t " << n << "_step = " << (r->step ? flowExpr(*r->step, lps, "") : "1") << ";\n";
            o << "const int64_t " << n << "_dir = " << n << ".min <= " << n << ".max ? 1 : -1;\n";
            o << "for (int64_t " << n << "_i = " << n << ".min; " << n << "_dir > 0 ? " << n << "_i <= " << n
              << ".max : " << n << "_i >= " << n << ".max; " << n << "_i += " << n << "_dir * " << n << "_step) {\n";
            o << "g." << r->variable.text << " = static_cast<int32_t>(" << n << "_i);\n";
            emitFlow(o, r->body, lps, x);
            o << "}\n}\n";
        } else if (auto w = f->as<ast::RepeatWhile>()) {
            o << "while (" << flowExpr(*w->condition, lps, "lpu") << ") {\n";
            emitFlow(o, w->body, lps, x);
            o << "}\n";
        } else if (auto fe = f->as<ast::RepeatForeach>()) {
            if (foreachLps_ >= 0)
                unsupported(fe->range, "nested `Repeat foreach sub-partition`");
            if (x != lps)
                unsupported(fe->range, "stages of other spaces inside `Repeat foreach sub-partition`");
            foreachLps_ = lps;
            o << "for (int64_t sub = 0, sub_n = t.subpartitions(" << lps << ", lpu); sub < sub_n; ++sub) {\n";
            emitFlow(o, fe->body, lps, x);
            o << "}\n";
            foreachLps_ = -1;
        } else if (auto c = f->as<ast::Condition>()) {
            guards_.push_back({lps, c});
            emitFlow(o, c->body, lps, x);
            guards_.pop_back();
        } else if (auto e = f->as<ast::EpochBlock>()) {
            std::vector<const ast::StageCall*> calls;
            stageCallsIn(e->body, calls);
            std::set<std::string> arrays;
            for (auto* call : calls) {
                const auto& inst = info_->stageInstances[instanceIndex(*call)];
                for (const auto& b : inst.params)
                    if (!b.rootGlobal.empty() && versionsOf(b.rootGlobal) > 1)
                        arrays.insert(b.rootGlobal);
                for (const auto& gname : inst.globalsUsed)
                    if (versionsOf(gname) > 1)
                        arrays.insert(gname);
            }
            bool any = false;
            for (const auto& a : arrays)
                if (arrayIndex_.count(a) && home_.count(a) && home_.at(a) == x) {
                    if (!any)
                        o << "// Entering the epoch: this LPU's version-dependent parts age by one version (R-34).\n";
                    any = true;
                    o << "c.advance_epoch(" << arrayIndex(a) << ");\n";
                }
            emitFlow(o, e->body, lps, x);
        } else if (auto call = f->as<ast::StageCall>()) {
            emitStageCall(o, *call, lps, x);
        }
    }
}

void TaskEmitter::emitStageCall(Out& o, const ast::StageCall& call, int lps, int x) {
    const size_t k = instanceIndex(call);
    const sema::StageInstance& inst = info_->stageInstances[k];
    const StageSig& sig = sigs_[k];
    const ast::StageDef& def = *inst.stage;
    if (lps == x) {
        o << "{\n";
        // Partial values of the reductions this call makes, one per reduction argument.
        std::vector<std::pair<std::string, int>> slots;
        for (size_t i = 0; i < def.params.size(); ++i) {
            const StageParam& sp = sig.params.at(def.params[i].text);
            if (!sp.isReductionSlot)
                continue;
            std::string n = "slot_" + std::to_string(slots.size());
            o << "itrt::Reducer<" << sp.reduceOp << ", " << sp.reduceType << ">::Value " << n << " = itrt::Reducer<"
              << sp.reduceOp << ", " << sp.reduceType << ">::identity();\n";
            slots.push_back({n, reductionAt_.at({&call, i})});
        }
        // Guards and missing sub-partitions skip the stage (break), not the contributions below.
        const bool skippable = !guards_.empty() || foreachLps_ >= 0;
        o << (skippable ? "do {\n" : "{\n");
        for (const auto& gd : guards_) {
            std::string w = "w" + std::to_string(&gd - guards_.data());
            o << "{\nconst Lpu& " << w << " = t.ancestor(lpu, " << gd.lps << ");\n";
            const ast::Condition& c = *gd.cond;
            std::string test;
            if (c.membershipRange) {
                std::string xv = flowExpr(*c.condition, gd.lps, w);
                // `x in a.local.dimensionK.range`: membership in the part.
                const ast::Expr* r = c.membershipRange.get();
                if (auto rp = r->as<ast::Property>(); rp && rp->property == ast::PropertyKind::Range)
                    r = rp->base.get();
                auto dp = r->as<ast::Property>();
                auto lp = dp && dp->property == ast::PropertyKind::Dimension ? dp->base->as<ast::Property>() : nullptr;
                auto an = lp && lp->property == ast::PropertyKind::Local ? lp->base->as<ast::NameRef>() : nullptr;
                if (an && arrayIndex_.count(an->name))
                    test = "t.holds(" + std::to_string(arrayIndex(an->name)) + ", " + w + ", " +
                           std::to_string(std::max(0, dp->dimensionIndex - 1)) + ", " + xv + ")";
                else
                    test = "it_in(" + xv + ", " + flowExpr(*c.membershipRange, gd.lps, w) + ")";
            } else {
                test = flowExpr(*c.condition, gd.lps, w);
            }
            o << "if (!(" << test << ")) break;\n}\n";
        }
        // Views of the arrays the stage touches, one per epoch version kept.
        std::set<std::string> viewed;
        auto views = [&](const std::string& a) {
            if (!viewed.insert(a).second)
                return;
            if (!home_.count(a) || (home_.at(a) != lps && !plan_.lps.isProperAncestor(home_.at(a), lps)))
                throw std::logic_error("array " + a + " has no part in this space");
            const auto& gt = global(a).type;
            std::string vt = "View<" + cppElement(gt) + ", " + std::to_string(gt.arrayDims()) + ">";
            bool sub = foreachLps_ >= 0 && plan_.lps.at(foreachLps_).subpartition &&
                       plan_.lps.at(foreachLps_).subpartition->find(a);
            int nv = versionsOf(a);
            if (sub)
                for (int v = 0; v < nv; ++v)
                    o << "auto sv_" << a << "_" << v << " = t.sub_view<" << cppElement(gt) << ", " << gt.arrayDims()
                      << ">(" << arrayIndex(a) << ", lpu, sub, " << v << ");\nif (!sv_" << a << "_" << v
                      << ") break;\n";
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
            const sema::ParamBinding& b = inst.params[i];
            const ast::CallArg& ca = call.args[i];
            if (sp.isReductionSlot) {
                args.push_back(slots[slot++].first);
            } else if (sp.isArray) {
                auto n = ca.value ? ca.value->as<ast::NameRef>() : nullptr;
                if (!n)
                    unsupported(ca.range, "array arguments that are not a task-global name");
                views(n->name);
                args.push_back("v_" + n->name);
            } else if (b.isStringLiteral) {
                args.push_back("std::string(" + cString(b.literalString) + ")");
            } else if (b.constant) {
                args.push_back(flowExpr(*ca.value, lps, "lpu"));
            } else {
                auto n = ca.value ? ca.value->as<ast::NameRef>() : nullptr;
                if (!n || !isGlobal(n->name))
                    unsupported(ca.range, "this stage argument (element or section of a task-global)");
                args.push_back(global(n->name).isReduction ? reductionValue(n->name, "g") : "g." + n->name);
            }
        }
        for (const auto& a : sig.directArrays) {
            views(a);
            args.push_back("v_" + a);
        }
        o << sig.fn << "(g, t, lpu";
        for (auto& a : args)
            o << ", " << a;
        o << (skippable ? ");\n} while (false);\n" : ");\n}\n");
        // An LPU the guards exclude still contributes (the identity): its target counts on it.
        for (const auto& [n, id] : slots)
            o << "c.contribute(" << id << ", &" << n << ");\n";
        o << "}\n";
    }
    // The target LPU combines the partials; readers below it receive the result.
    for (size_t i = 0; i < def.params.size(); ++i) {
        auto it = reductionAt_.find({&call, i});
        if (it == reductionAt_.end())
            continue;
        const SyncPlan& sp = syncs_[static_cast<size_t>(it->second)];
        const char* how = sp.target == x ? "collect" : sp.readers.count(x) ? "receive" : nullptr;
        if (!how)
            continue;
        o << "{\nitrt::Reducer<" << sp.op << ", " << sp.type << ">::Value red{};\nco_await c." << how << "(" << sp.id
          << ", &red);\nit_assign_reduction<" << sp.op << ", " << sp.type << ">(red, g.r_" << sp.var << ");\n}\n";
    }
}

} // namespace itc::backend
