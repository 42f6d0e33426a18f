// Data usage: each stage body is summarised once per stage (uses of its parameters and of
// task-globals), then every invocation maps that summary through its arguments.
#include "semantic/usage/data_usage.h"

#include "semantic/usage/names_read.h"

#include <cctype>

#include <algorithm>
#include <functional>
#include <optional>
#include <set>

namespace itc::semantic {

void DimAccess::merge(const DimAccess& o) {
    if (!aligned || !o.aligned) {
        aligned = false;
        return;
    }
    minOffset = std::min(minOffset, o.minOffset);
    maxOffset = std::max(maxOffset, o.maxOffset);
}

std::string DimAccess::text() const {
    if (!aligned)
        return "*";
    auto sgn = [](int v) { return v > 0 ? "+" + std::to_string(v) : std::to_string(v); };
    if (minOffset == maxOffset)
        return sgn(minOffset);
    return sgn(minOffset) + ".." + sgn(maxOffset);
}

const char* const kArgumentIndex = "[]";

std::string VarAccess::readOffsetsText() const {
    bool interesting = false;
    for (const DimAccess& d : readDims)
        if (!d.aligned || d.minOffset != 0 || d.maxOffset != 0)
            interesting = true;
    if (!interesting)
        return "";
    std::string s;
    for (const DimAccess& d : readDims)
        s += "[" + d.text() + "]";
    return s;
}

const VarAccess* FlowAccess::find(const std::string& var) const {
    for (const VarAccess& v : vars)
        if (v.var == var)
            return &v;
    return nullptr;
}

namespace {

// Uses of one name (a stage parameter or a task-global) inside a stage body.
struct NameUse {
    bool read = false, written = false, reduceTarget = false;
    std::string reduceOp;
    std::vector<DimAccess> readDims, writeDims;
    bool readWhole = false, writeWhole = false; // used without subscripts (all dims arbitrary)
    bool readOwnPart = false;                   // only its shape: the LPU's own part, every dim aligned
    int maxLag = 0;
    std::vector<LoopBinding> writeLoops;
    std::vector<WholeRangeSubscript> wholeRange;
};

// `a.dimensionK.range` (not `a.local.dimensionK.range`): the array's name and K - 1.
std::optional<std::pair<std::string, int>> wholeDimensionRange(const ast::Expr* e) {
    const auto* range = e ? e->as<ast::Property>() : nullptr;
    if (!range || range->property != ast::PropertyKind::Range)
        return std::nullopt;
    const auto* dim = range->base->as<ast::Property>();
    if (!dim || dim->property != ast::PropertyKind::Dimension || dim->dimensionIndex < 1)
        return std::nullopt;
    const auto* array = dim->base->as<ast::NameRef>();
    if (!array)
        return std::nullopt;
    return std::pair{array->name, dim->dimensionIndex - 1};
}

// True if a condition inside `b` (an `if`, a `while`, a loop's `and` restriction) reads `index`,
// or native code may: the body may keep the index to the LPU's part itself.
bool testsIndex(const ast::Block& b, const std::string& index) {
    using K = ast::StmtKind;
    for (const ast::StmtPtr& s : b.stmts) {
        switch (s->kind) {
        case K::If: {
            const auto* i = s->as<ast::If>();
            for (const ast::IfBranch& br : i->branches)
                if (mentions(br.condition.get(), index) || testsIndex(br.body, index))
                    return true;
            if (i->elseBody && testsIndex(*i->elseBody, index))
                return true;
            break;
        }
        case K::While: {
            const auto* w = s->as<ast::While>();
            if (mentions(w->condition.get(), index) || testsIndex(w->body, index))
                return true;
            break;
        }
        case K::SequentialFor: {
            const auto* f = s->as<ast::SequentialFor>();
            if (mentions(f->restriction.get(), index) || mentions(f->rangeExpr.get(), index) ||
                testsIndex(f->body, index))
                return true;
            break;
        }
        case K::ParallelLoop: {
            const auto* l = s->as<ast::ParallelLoop>();
            for (const ast::IndexGroup& g : l->groups)
                if (mentions(g.restriction.get(), index))
                    return true;
            if (testsIndex(l->body, index))
                return true;
            break;
        }
        case K::Extern: return true;
        default: break;
        }
    }
    return false;
}

void addLoops(std::vector<LoopBinding>& into, const std::vector<LoopBinding>& from) {
    for (const LoopBinding& b : from)
        if (std::find(into.begin(), into.end(), b) == into.end())
            into.push_back(b);
}

void mergeDims(std::vector<DimAccess>& into, const std::vector<DimAccess>& from) {
    if (into.empty()) {
        into = from;
        return;
    }
    for (std::size_t i = 0; i < into.size() && i < from.size(); ++i)
        into[i].merge(from[i]);
}

// Walks a code body (a stage) or a flow expression and records the uses of tracked names.
class UseCollector {
public:
    // `tracked`: names whose uses are recorded (parameters first, then task-globals);
    // `dimsOf`: array dimensionality of a tracked name when known (0 otherwise).
    // `functions`: the program's functions, whose by-reference (`&`) parameters write their
    // arguments (null: none known).
    explicit UseCollector(std::function<bool(const std::string&)> tracked,
                          const std::vector<ast::FunctionDef>* functions = nullptr)
        : tracked_(std::move(tracked)), functions_(functions) {}

    std::map<std::string, NameUse> uses;

    void block(const ast::Block& b) {
        for (const ast::StmtPtr& s : b.stmts)
            stmt(*s);
    }

    // A name whose part the body needs only for its shape (a parallel loop over it, `.local`)
    // counts as an aligned read of that part, so that the LPU has the part (its data is moved
    // as for a read: conservative, but the loop's bounds are right).
    void recordShapeUses() {
        for (const std::string& n : shapeUses_) {
            NameUse& u = uses[n];
            if (u.read || u.written)
                continue;
            u.read = true;
            u.readOwnPart = true;
        }
    }

    void expr(const ast::Expr* e, bool write, int lag) {
        if (!e)
            return;
        using K = ast::ExprKind;
        switch (e->kind) {
        case K::NameRef: {
            const std::string& n = e->as<ast::NameRef>()->name;
            if (!isTracked(n))
                return;
            NameUse& u = uses[n];
            if (write) {
                u.written = true;
                u.writeWhole = true;
                addLoops(u.writeLoops, activeLoops_);
            } else {
                u.read = true;
                u.readWhole = true;
                u.maxLag = std::max(u.maxLag, lag);
            }
            return;
        }
        case K::Subscript: {
            const auto* s = e->as<ast::Subscript>();
            for (const ast::SubscriptItem& it : s->items) {
                expr(it.index.get(), false, 0);
                expr(it.first.get(), false, 0);
                expr(it.last.get(), false, 0);
            }
            const ast::Expr* base = s->base.get();
            if (base && base->kind == K::NameRef && isTracked(base->as<ast::NameRef>()->name)) {
                NameUse& u = uses[base->as<ast::NameRef>()->name];
                std::vector<DimAccess> dims;
                for (const ast::SubscriptItem& it : s->items) {
                    noteWholeRange(u, base->as<ast::NameRef>()->name, it, static_cast<int>(dims.size()), e->range);
                    dims.push_back(dimAccess(it));
                }
                if (write) {
                    u.written = true;
                    mergeDims(u.writeDims, dims);
                    addLoops(u.writeLoops, activeLoops_);
                } else {
                    u.read = true;
                    mergeDims(u.readDims, dims);
                    u.maxLag = std::max(u.maxLag, lag);
                }
                return;
            }
            expr(base, write, lag);
            return;
        }
        case K::FieldAccess: {
            // Writing one field of an object (`pair.b = 9`, `cfg.inner.k = 1`) keeps the others:
            // the object is read as well, so the writer gets its latest value first. (A field of
            // an array element is a write of that element, as its Subscript records.)
            const ast::Expr* base = e->as<ast::FieldAccess>()->base.get();
            expr(base, write, lag);
            if (write && (base->kind == K::NameRef || base->kind == K::FieldAccess))
                expr(base, false, lag);
            return;
        }
        case K::Property: {
            // Shape metadata (dimension ranges): not a data access, but `a.local...` (also of a
            // section, `a[i...j].local...`) is the shape of this LPU's part, which it needs to
            // have (shapeUse).
            const ast::Expr* x = e;
            while (auto p = x->as<ast::Property>()) {
                if (p->property == ast::PropertyKind::Local) {
                    const ast::Expr* held = p->base.get();
                    if (auto s = held->as<ast::Subscript>())
                        held = s->base.get();
                    if (auto n = held->as<ast::NameRef>(); n && isTracked(n->name))
                        shapeUses_.insert(n->name);
                }
                x = p->base.get();
            }
            // The dimensions of an array or of a section of one are its shape; those of a computed
            // array (`f(v).dimension1`, `(v[1...4] at (current - 1))[2...3].dimension1`) compute
            // it: what the computation reads is read.
            auto named = [](const ast::Expr* a) {
                while (a->kind == K::Epoch)
                    a = a->as<ast::Epoch>()->operand.get();
                return a->kind == K::NameRef || a->kind == K::FieldAccess ? a : nullptr;
            };
            const ast::Expr* arr = x;
            while (arr->kind == K::Epoch)
                arr = arr->as<ast::Epoch>()->operand.get();
            const bool shape = named(arr) || arr->kind == K::LpuId ||
                               (arr->kind == K::Subscript && named(arr->as<ast::Subscript>()->base.get()));
            if (!shape)
                expr(x, false, lag);
            return;
        }
        case K::Assign: {
            const auto* a = e->as<ast::Assign>();
            const ast::Expr* target = a->target.get();
            int targetLag = 0;
            if (target && target->kind == K::Epoch) {
                targetLag = static_cast<int>(target->as<ast::Epoch>()->lag);
                target = target->as<ast::Epoch>()->operand.get();
            }
            (void)targetLag; // writing an old version is part A's EpochWrite error
            expr(a->value.get(), false, lag);
            expr(target, true, 0);
            return;
        }
        case K::Epoch: {
            const auto* ep = e->as<ast::Epoch>();
            expr(ep->operand.get(), write, static_cast<int>(ep->lag));
            return;
        }
        case K::Unary: expr(e->as<ast::Unary>()->operand.get(), false, lag); return;
        case K::Binary: {
            const auto* b = e->as<ast::Binary>();
            expr(b->lhs.get(), false, lag);
            expr(b->rhs.get(), false, lag);
            return;
        }
        case K::Call: {
            const auto* c = e->as<ast::Call>();
            static const std::set<std::string> mutators = {"insert_at", "remove_at", "set_capacity"};
            const ast::FunctionDef* fn = function(c->callee.text);
            for (std::size_t i = 0; i < c->args.size(); ++i) {
                const ast::CallArg& a = c->args[i];
                if (a.isSpaceArg())
                    continue;
                bool w = (i == 0 && mutators.count(c->callee.text)) ||
                         (fn && i < fn->params.size() && fn->params[i].byReference);
                if (w)
                    expr(a.value.get(), false, lag);
                expr(a.value.get(), w, lag);
            }
            return;
        }
        case K::NewObject:
            for (const ast::NamedArg& a : e->as<ast::NewObject>()->args)
                expr(a.value.get(), false, lag);
            return;
        case K::ReduceExpr: expr(e->as<ast::ReduceExpr>()->operand.get(), false, lag); return;
        case K::RangeLiteral: {
            const auto* r = e->as<ast::RangeLiteral>();
            expr(r->first.get(), false, lag);
            expr(r->last.get(), false, lag);
            return;
        }
        default: return; // literals, lpuId, partition.p, new collections, execute
        }
    }

private:
    std::vector<LoopBinding> activeLoops_; // the parallel loops around the statement walked
    std::set<std::string> shapeUses_;      // names whose parts are looped over or asked `.local`

    bool isTracked(const std::string& n) const { return !loopIndices_.count(n) && tracked_(n); }

    // `name[q]` (or `name[q + 1]`) with `q` a loop over a whole dimension range.
    void noteWholeRange(NameUse& u, const std::string& name, const ast::SubscriptItem& it, int dim,
                        const SourceRange& at) const {
        if (it.kind != ast::SubscriptItem::Kind::Index || !it.index)
            return;
        const ast::Expr* e = it.index.get();
        if (const auto* b = e->as<ast::Binary>();
            b && (b->op == ast::BinaryOp::Add || b->op == ast::BinaryOp::Sub) && b->rhs->as<ast::IntLiteral>())
            e = b->lhs.get();
        const auto* index = e->as<ast::NameRef>();
        if (!index)
            return;
        auto loop = wholeRangeLoops_.find(index->name);
        if (loop == wholeRangeLoops_.end())
            return;
        WholeRangeSubscript w;
        w.dim = dim;
        w.written = name;
        w.index = index->name;
        w.loopArray = w.loopArrayWritten = loop->second.first;
        w.loopDim = loop->second.second;
        w.at = at;
        u.wholeRange.push_back(std::move(w));
    }

    DimAccess dimAccess(const ast::SubscriptItem& it) const {
        DimAccess d;
        if (it.kind != ast::SubscriptItem::Kind::Index || !it.index) {
            d.aligned = false;
            return d;
        }
        const ast::Expr* e = it.index.get();
        auto parIndex = [&](const ast::Expr* x) {
            return x && x->kind == ast::ExprKind::NameRef && parallelIndices_.count(x->as<ast::NameRef>()->name);
        };
        if (parIndex(e))
            return d;
        if (e->kind == ast::ExprKind::Binary) {
            const auto* b = e->as<ast::Binary>();
            auto lit = [](const ast::Expr* x) -> const ast::IntLiteral* {
                return x ? x->as<ast::IntLiteral>() : nullptr;
            };
            if (b->op == ast::BinaryOp::Add || b->op == ast::BinaryOp::Sub) {
                if (parIndex(b->lhs.get()) && lit(b->rhs.get())) {
                    int c = static_cast<int>(lit(b->rhs.get())->value);
                    d.minOffset = d.maxOffset = b->op == ast::BinaryOp::Add ? c : -c;
                    return d;
                }
                if (b->op == ast::BinaryOp::Add && lit(b->lhs.get()) && parIndex(b->rhs.get())) {
                    d.minOffset = d.maxOffset = static_cast<int>(lit(b->lhs.get())->value);
                    return d;
                }
            }
        }
        d.aligned = false;
        return d;
    }

    void stmt(const ast::Stmt& s) {
        using K = ast::StmtKind;
        switch (s.kind) {
        case K::ExprStmt: expr(s.as<ast::ExprStmt>()->expr.get(), false, 0); return;
        case K::ParallelLoop: {
            const auto* l = s.as<ast::ParallelLoop>();
            std::vector<std::string> added;
            for (const ast::IndexGroup& g : l->groups)
                for (const ast::Name& n : g.indices)
                    if (loopIndices_.insert(n.text).second) {
                        parallelIndices_.insert(n.text);
                        added.push_back(n.text);
                    }
            for (const ast::IndexGroup& g : l->groups)
                if (isTracked(g.collection.text))
                    shapeUses_.insert(g.collection.text); // the loop runs over this LPU's part
            const std::size_t outer = activeLoops_.size();
            for (const ast::IndexGroup& g : l->groups) {
                const int n = static_cast<int>(g.indices.size());
                for (int k = 0; k < n; ++k)
                    activeLoops_.push_back(g.dimensionIndex > 0 && n == 1
                                               ? LoopBinding{g.collection.text, g.dimensionIndex - 1, 0}
                                               : LoopBinding{g.collection.text, k, n});
                // `for i in m` over a 2d `m`: `i` binds to the lowest dimension where it subscripts
                // `m` alone (`m[i][0]`: dimension 1), as semantic/check binds it.
                if (g.dimensionIndex == 0 && n == 1)
                    if (int d = dimensionBoundByUse(l->body, g.collection.text, g.indices.front().text); d >= 0)
                        activeLoops_.push_back(LoopBinding{g.collection.text, d, 0});
            }
            for (const ast::IndexGroup& g : l->groups)
                expr(g.restriction.get(), false, 0);
            block(l->body);
            activeLoops_.resize(outer);
            for (const std::string& n : added) {
                loopIndices_.erase(n);
                parallelIndices_.erase(n);
            }
            return;
        }
        case K::SequentialFor: {
            const auto* f = s.as<ast::SequentialFor>();
            expr(f->rangeExpr.get(), false, 0);
            expr(f->step.get(), false, 0);
            bool added = loopIndices_.insert(f->index.text).second;
            expr(f->restriction.get(), false, 0);
            const auto whole = wholeDimensionRange(f->rangeExpr.get());
            const bool watch = added && whole && isTracked(whole->first) &&
                               !mentions(f->restriction.get(), f->index.text) && !testsIndex(f->body, f->index.text);
            if (watch)
                wholeRangeLoops_[f->index.text] = *whole;
            block(f->body);
            if (watch)
                wholeRangeLoops_.erase(f->index.text);
            if (added)
                loopIndices_.erase(f->index.text);
            return;
        }
        case K::While: {
            const auto* w = s.as<ast::While>();
            block(w->body);
            expr(w->condition.get(), false, 0);
            return;
        }
        case K::If: {
            const auto* i = s.as<ast::If>();
            for (const ast::IfBranch& b : i->branches) {
                expr(b.condition.get(), false, 0);
                block(b.body);
            }
            if (i->elseBody)
                block(*i->elseBody);
            return;
        }
        case K::ReduceStmt: {
            const auto* r = s.as<ast::ReduceStmt>();
            expr(r->operand.get(), false, 0);
            if (isTracked(r->target.text)) {
                NameUse& u = uses[r->target.text];
                u.reduceTarget = true;
                u.written = true;
                u.writeWhole = true;
                u.reduceOp = r->op.text;
            }
            return;
        }
        case K::Return: expr(s.as<ast::Return>()->value.get(), false, 0); return;
        case K::Extern: nativeCode(s.as<ast::Extern>()->code); return;
        }
    }

    const ast::FunctionDef* function(const std::string& name) const {
        if (functions_)
            for (const ast::FunctionDef& f : *functions_)
                if (f.name.text == name)
                    return &f;
        return nullptr;
    }

    // Native code sees the IT variables in scope by name and may read and assign any of them
    // (see the guide: Native code: @Extern): every tracked name it mentions counts as read and
    // written, wholly.
    void nativeCode(const std::string& code) {
        for (std::size_t i = 0; i < code.size();) {
            const auto c = static_cast<unsigned char>(code[i]);
            if (!(std::isalpha(c) || c == '_')) {
                ++i;
                continue;
            }
            std::size_t j = i;
            while (j < code.size() && (std::isalnum(static_cast<unsigned char>(code[j])) || code[j] == '_'))
                ++j;
            const std::string word = code.substr(i, j - i);
            const bool member = i > 0 && (code[i - 1] == '.' || (i > 1 && code[i - 1] == '>' && code[i - 2] == '-') ||
                                          (i > 1 && code[i - 1] == ':' && code[i - 2] == ':'));
            if (!member && isTracked(word)) {
                NameUse& u = uses[word];
                u.read = u.written = true;
                u.readWhole = u.writeWhole = true;
            }
            i = j;
        }
    }

    std::function<bool(const std::string&)> tracked_;
    const std::vector<ast::FunctionDef>* functions_ = nullptr;
    std::set<std::string> loopIndices_;
    std::set<std::string> parallelIndices_;
    std::map<std::string, std::pair<std::string, int>> wholeRangeLoops_; // index -> (array, dimension)
};

std::vector<DimAccess> wholeDims(int dims) {
    DimAccess star;
    star.aligned = false;
    return std::vector<DimAccess>(static_cast<std::size_t>(std::max(dims, 0)), star);
}

// Normalises a use's per-dimension accesses to the array's dimensionality.
std::vector<DimAccess> normalize(std::vector<DimAccess> dims, bool whole, int arrayDims) {
    if (arrayDims <= 0)
        return {};
    if (whole)
        return wholeDims(arrayDims);
    DimAccess star;
    star.aligned = false;
    dims.resize(static_cast<std::size_t>(arrayDims), star); // omitted trailing dims: whole
    return dims;
}

class UsageBuilder {
public:
    UsageBuilder(const ast::TaskDef& task, const TaskGlobals& globals, const LpsTree& lps, const FlowTree& flow,
                 const std::vector<ast::FunctionDef>* functions)
        : task_(task), globals_(globals), lps_(lps), flow_(flow), functions_(functions) {}

    DataUsage run() {
        for (std::size_t id = 1; id < flow_.nodes.size(); ++id)
            visit(static_cast<int>(id));
        for (const FlowAccess& a : out_.accesses)
            for (const VarAccess& v : a.vars)
                if (v.maxLag > 0)
                    out_.versionDepth[v.var] = std::max(out_.versionDepth[v.var], v.maxLag + 1);
        // Entering an Epoch shifts the versions of every version-dependent array its stages use
        // (guide: Epochs): a stage there that only reads such an array still changes it, in the
        // parts its space works in, and later readers elsewhere must get the shifted versions.
        // (A scalar's or object's versions are shifted by every LPU in its own copy as it enters
        // the Epoch: no LPU writes it for the others.)
        for (FlowAccess& a : out_.accesses)
            if (a.kind == FlowAccess::Kind::Stage && a.inEpoch)
                for (VarAccess& v : a.vars)
                    if (!v.written && out_.versionDepth.count(v.var)) {
                        const TaskGlobal* g = globals_.find(v.var);
                        if (g && (g->kind == TaskGlobal::Kind::Scalar || g->kind == TaskGlobal::Kind::Object))
                            continue;
                        v.written = true;
                        v.agedOnly = true;
                        v.writeDims = wholeDims(g ? g->dims : 1);
                    }
        return std::move(out_);
    }

private:
    FlowAccess start(int id, FlowAccess::Kind kind) {
        const FlowNode& n = flow_.at(id);
        FlowAccess a;
        a.kind = kind;
        a.node = id;
        a.lps = n.kind == FlowNode::Kind::Space ? n.outerContext : n.context;
        a.range = n.range;
        a.guarded = flow_.enclosing(id, FlowNode::Kind::Condition) != -1;
        a.inEpoch = flow_.enclosing(id, FlowNode::Kind::Epoch) != -1;
        a.inForeach = flow_.enclosing(id, FlowNode::Kind::RepeatForeach) != -1;
        return a;
    }

    VarAccess& var(FlowAccess& a, const std::string& name) {
        for (VarAccess& v : a.vars)
            if (v.var == name)
                return v;
        VarAccess v;
        v.var = name;
        a.vars.push_back(v);
        return a.vars.back();
    }

    // Reads of task-globals in a flow expression (conditions, ranges, argument subscripts).
    void flowReads(FlowAccess& a, const ast::Expr* e) {
        if (!e)
            return;
        UseCollector c([&](const std::string& n) { return globals_.find(n) != nullptr; }, functions_);
        c.expr(e, false, 0);
        for (auto& [name, use] : c.uses) {
            VarAccess& v = var(a, name);
            v.read = true;
            const TaskGlobal* g = globals_.find(name);
            mergeDims(v.readDims, normalize(use.readDims, use.readWhole, g ? g->dims : 0));
        }
    }

    void push(int id, FlowAccess a) {
        if (a.vars.empty() && a.kind != FlowAccess::Kind::Stage)
            return;
        out_.accessOfNode[id] = static_cast<int>(out_.accesses.size());
        out_.accesses.push_back(std::move(a));
    }

    void visit(int id) {
        const FlowNode& n = flow_.at(id);
        switch (n.kind) {
        case FlowNode::Kind::RepeatFor: {
            const auto* r = n.source->as<ast::RepeatFor>();
            FlowAccess a = start(id, FlowAccess::Kind::RepeatHeader);
            flowReads(a, r->rangeExpr.get());
            flowReads(a, r->step.get());
            if (globals_.find(r->variable.text))
                var(a, r->variable.text).written = true;
            push(id, std::move(a));
            return;
        }
        case FlowNode::Kind::RepeatWhile: {
            FlowAccess a = start(id, FlowAccess::Kind::RepeatHeader);
            flowReads(a, n.source->as<ast::RepeatWhile>()->condition.get());
            push(id, std::move(a));
            return;
        }
        case FlowNode::Kind::Condition: {
            const auto* c = n.source->as<ast::Condition>();
            FlowAccess a = start(id, FlowAccess::Kind::Condition);
            flowReads(a, c->condition.get());
            flowReads(a, c->membershipRange.get());
            push(id, std::move(a));
            return;
        }
        case FlowNode::Kind::Call: stageCall(id, *n.source->as<ast::StageCall>()); return;
        default: return;
        }
    }

    const std::map<std::string, NameUse>& summary(const ast::StageDef& s) {
        auto it = summaries_.find(&s);
        if (it != summaries_.end())
            return it->second;
        std::set<std::string> params;
        for (const ast::Name& p : s.params)
            params.insert(p.text);
        UseCollector c([&](const std::string& n) { return params.count(n) || globals_.find(n) != nullptr; },
                       functions_);
        c.block(s.body);
        c.recordShapeUses();
        return summaries_[&s] = std::move(c.uses);
    }

    // The task-global an argument expression is rooted at, or "" for constants.
    static std::string rootGlobal(const ast::Expr* e, bool& element) {
        element = false;
        while (e) {
            switch (e->kind) {
            case ast::ExprKind::NameRef: return e->as<ast::NameRef>()->name;
            case ast::ExprKind::Subscript:
                element = true;
                e = e->as<ast::Subscript>()->base.get();
                break;
            case ast::ExprKind::FieldAccess:
                element = true;
                e = e->as<ast::FieldAccess>()->base.get();
                break;
            case ast::ExprKind::Epoch: e = e->as<ast::Epoch>()->operand.get(); break;
            default: return "";
            }
        }
        return "";
    }

    // `arrays`: the task-global each array parameter of the call is bound to.
    void apply(FlowAccess& a, const std::string& global, const std::string& via, const NameUse& use, bool element,
               const std::map<std::string, std::string>& arrays = {}) {
        const TaskGlobal* g = globals_.find(global);
        if (!g)
            return;
        VarAccess& v = var(a, global);
        if (v.via.empty())
            v.via = via;
        int dims = g->isArray() ? g->dims : 0;
        if (use.read) {
            v.read = true;
            mergeDims(v.readDims, use.readOwnPart && !element
                                      ? std::vector<DimAccess>(static_cast<std::size_t>(dims), DimAccess{})
                                      : normalize(use.readDims, use.readWhole || element, dims));
            v.maxLag = std::max(v.maxLag, use.maxLag);
        }
        if (!element)
            for (WholeRangeSubscript w : use.wholeRange) {
                if (auto it = arrays.find(w.loopArray); it != arrays.end())
                    w.loopArray = it->second;
                else if (!globals_.find(w.loopArray))
                    continue;
                v.wholeRange.push_back(std::move(w));
            }
        if (use.written) {
            v.written = true;
            mergeDims(v.writeDims, normalize(use.writeDims, use.writeWhole || element, dims));
            for (LoopBinding b : use.writeLoops) {
                if (auto it = arrays.find(b.array); it != arrays.end())
                    b.array = it->second;
                else if (!globals_.find(b.array))
                    continue;
                addLoops(v.writeLoops, {b});
            }
        }
    }

    void stageCall(int id, const ast::StageCall& call) {
        FlowAccess a = start(id, FlowAccess::Kind::Stage);
        a.stage = call.stage.text;
        const ast::StageDef* stage = task_.findStage(call.stage.text);
        if (!stage) {
            push(id, std::move(a));
            return;
        }
        const auto& uses = summary(*stage);
        std::map<std::string, std::string> arrays; // whole-array parameters -> task-globals
        for (std::size_t i = 0; i < stage->params.size() && i < call.args.size(); ++i) {
            bool element = false;
            if (!call.args[i].isSpaceArg())
                if (std::string g = rootGlobal(call.args[i].value.get(), element); !g.empty() && !element)
                    arrays[stage->params[i].text] = g;
        }
        std::set<std::string> params;
        for (std::size_t i = 0; i < stage->params.size(); ++i) {
            const std::string& p = stage->params[i].text;
            params.insert(p);
            if (i >= call.args.size())
                continue;
            const ast::CallArg& arg = call.args[i];
            auto it = uses.find(p);
            if (arg.isSpaceArg()) {
                if (!arg.variable || !globals_.find(arg.variable->text))
                    continue;
                VarAccess& v = var(a, arg.variable->text);
                v.via = p;
                if (it != uses.end() && it->second.reduceTarget) {
                    v.reduced = true;
                    v.reductionOp = it->second.reduceOp;
                    v.reductionLps = arg.space->text == "Root" ? kRootLps : lps_.find(arg.space->text);
                } else if (it != uses.end()) {
                    apply(a, arg.variable->text, p, it->second, false);
                }
                continue;
            }
            bool element = false;
            std::string g = rootGlobal(arg.value.get(), element);
            if (element)
                flowReadsOfSubscripts(a, arg.value.get());
            if (g.empty() || it == uses.end())
                continue;
            apply(a, g, p, it->second, element, arrays);
        }
        for (const auto& [name, use] : uses)
            if (!params.count(name))
                apply(a, name, "", use, false, arrays); // task-globals used directly
        push(id, std::move(a));
    }

    // `g[g.local.dimension1.range.min][r]` as an argument reads `r` in the invoking LPS.
    void flowReadsOfSubscripts(FlowAccess& a, const ast::Expr* e) {
        while (e) {
            if (const auto* s = e->as<ast::Subscript>()) {
                for (const ast::SubscriptItem& it : s->items) {
                    flowReads(a, it.index.get());
                    flowReads(a, it.first.get());
                    flowReads(a, it.last.get());
                }
                for (VarAccess& v : a.vars)
                    if (v.via.empty())
                        v.via = kArgumentIndex;
                e = s->base.get();
            } else if (const auto* f = e->as<ast::FieldAccess>()) {
                e = f->base.get();
            } else {
                return;
            }
        }
    }

    const ast::TaskDef& task_;
    const TaskGlobals& globals_;
    const LpsTree& lps_;
    const FlowTree& flow_;
    const std::vector<ast::FunctionDef>* functions_;
    DataUsage out_;
    std::map<const ast::StageDef*, std::map<std::string, NameUse>> summaries_;
};

} // namespace

DataUsage analyzeDataUsage(const ast::TaskDef& task, const TaskGlobals& globals, const LpsTree& lps,
                           const FlowTree& flow, const std::vector<ast::FunctionDef>* functions) {
    return UsageBuilder(task, globals, lps, flow, functions).run();
}

} // namespace itc::semantic
