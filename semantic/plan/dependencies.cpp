// Reaching definitions over the flow tree, then one classification per dependency and one
// synchronisation per distinct (kind, variable, spaces, flow point).
#include "semantic/plan/dependencies.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <tuple>

namespace itc::semantic {

const char* syncKindName(SyncKind k) {
    switch (k) {
#define ITC_SYNC_CASE(kind, text) \
    case SyncKind::kind: return text;
        ITC_SYNC_KINDS(ITC_SYNC_CASE)
#undef ITC_SYNC_CASE
    }
    return "?";
}

bool Synchronization::involves(int lps) const {
    switch (kind) {
    case SyncKind::None: return false;
    case SyncKind::Reduction:
        return fromLps == lps || toLps == lps || std::find(readers.begin(), readers.end(), lps) != readers.end();
    default: return fromLps == lps || toLps == lps;
    }
}

namespace {

struct Def {
    int access = -1;
    std::vector<int> exits; // Space nodes exited since the write, in order
    int carried = -1;
    bool operator<(const Def& o) const {
        return std::tie(access, exits, carried) < std::tie(o.access, o.exits, o.carried);
    }
    bool operator==(const Def& o) const { return access == o.access && exits == o.exits && carried == o.carried; }
};
// The writes that reach each variable's current value, and under laggedKey(v, k) those that reach
// `v at (current - k)` of an array kept in epoch versions.
using State = std::map<std::string, std::vector<Def>>;

std::string laggedKey(const std::string& var, int lag) { return lag == 0 ? var : var + "@" + std::to_string(lag); }

void mergeInto(State& into, const State& from) {
    for (const auto& [var, defs] : from) {
        std::vector<Def>& d = into[var];
        for (const Def& x : defs)
            if (std::find(d.begin(), d.end(), x) == d.end())
                d.push_back(x);
    }
}

class DependencyAnalyzer {
public:
    DependencyAnalyzer(const TaskGlobals& globals, const LpsTree& lps, const FlowTree& flow, const DataUsage& usage,
                       const StoragePlan& storage)
        : globals_(globals), lps_(lps), flow_(flow), usage_(usage), storage_(storage) {}

    DependencyGraph run() {
        State s;
        walk(0, s);
        buildSyncs();
        return std::move(out_);
    }

private:
    bool inSubtree(int node, int top) const {
        for (int n = node; n != -1; n = flow_.at(n).parent)
            if (n == top)
                return true;
        return false;
    }

    const FlowAccess* accessOf(int node) const {
        auto it = usage_.accessOfNode.find(node);
        return it == usage_.accessOfNode.end() ? nullptr : &usage_.accesses[it->second];
    }

    void apply(int node, State& s) {
        auto it = usage_.accessOfNode.find(node);
        if (it == usage_.accessOfNode.end())
            return;
        int idx = it->second;
        const FlowAccess& a = usage_.accesses[static_cast<std::size_t>(idx)];
        for (const VarAccess& v : a.vars) {
            if (v.read || writesOnCurrentCopy(a, v))
                for (const Def& d : s[v.var])
                    record(v.var, d, idx, 0);
            // `at (current - k)` reads the writes that reached the current version k Epoch entries
            // ago: the data must be in the reader's current version before the entry that aged it.
            // Only the most recent of them: a movement carries the sender's older versions along
            // (moved_versions), and the writers of older versions are older data, which would
            // land over the newer (probe AF: a write of x lost under one two entries older).
            for (int k = 1; v.read && k <= v.maxLag; ++k) {
                const std::vector<Def>& defs = s[laggedKey(v.var, k)];
                for (const Def& d : defs)
                    record(v.var, d, idx, k);
                if (!defs.empty())
                    break;
            }
        }
        for (const VarAccess& v : a.vars) {
            if (!v.written && !v.reduced)
                continue;
            Def d;
            d.access = idx;
            if (a.guarded) {
                if (std::find(s[v.var].begin(), s[v.var].end(), d) == s[v.var].end())
                    s[v.var].push_back(d);
            } else {
                s[v.var] = {d};
            }
        }
    }

    // A stage that writes an array without reading it may write only some of the cells of its
    // parts, so its parts must hold the latest values of the others first: the earlier writers'
    // data reaches it as for a read. Otherwise a later movement of its whole parts (or of the
    // earlier writer's) would undo one of the two writes.
    bool writesOnCurrentCopy(const FlowAccess& a, const VarAccess& v) const {
        if (a.kind != FlowAccess::Kind::Stage || !v.written || v.reduced)
            return false;
        const TaskGlobal* g = globals_.find(v.var);
        return g && g->isArray();
    }

    void walkChildren(int node, State& s) {
        for (int c : flow_.at(node).children)
            walk(c, s);
    }

    void walk(int node, State& s) {
        const FlowNode& n = flow_.at(node);
        switch (n.kind) {
        case FlowNode::Kind::Root: walkChildren(node, s); return;
        case FlowNode::Kind::Epoch:
            // The entry makes every version one older: what reached `current - (k - 1)`
            // now reaches `current - k`; the current version keeps its writes.
            for (const auto& [var, depth] : usage_.versionDepth)
                for (int k = depth - 1; k >= 1; --k)
                    s[laggedKey(var, k)] = s[laggedKey(var, k - 1)];
            walkChildren(node, s);
            return;
        case FlowNode::Kind::Call: apply(node, s); return;
        case FlowNode::Kind::Space:
            walkChildren(node, s);
            for (auto& [var, defs] : s) {
                std::vector<Def> updated;
                for (Def d : defs) {
                    if (std::find(d.exits.begin(), d.exits.end(), node) == d.exits.end())
                        d.exits.push_back(node);
                    if (std::find(updated.begin(), updated.end(), d) == updated.end())
                        updated.push_back(d);
                }
                defs = std::move(updated);
            }
            return;
        case FlowNode::Kind::Condition: {
            apply(node, s);
            State body = s;
            walkChildren(node, body);
            mergeInto(s, body);
            return;
        }
        case FlowNode::Kind::RepeatFor:
        case FlowNode::Kind::RepeatWhile:
        case FlowNode::Kind::RepeatForeach: {
            State in = s;
            State first = in;
            apply(node, first);
            walkChildren(node, first);
            // The back edge: writes made inside the body reach the next iteration.
            State back;
            for (auto& [var, defs] : first)
                for (Def d : defs) {
                    if (d.carried == -1 && inSubtree(usage_.accesses[d.access].node, node))
                        d.carried = node;
                    back[var].push_back(d);
                }
            State second = in;
            mergeInto(second, back);
            apply(node, second);
            walkChildren(node, second);
            // Leaving the loop: its writes are no longer "from the previous iteration".
            for (auto& [var, defs] : second) {
                std::vector<Def> left;
                for (Def d : defs) {
                    if (d.carried == node)
                        d.carried = -1;
                    if (std::find(left.begin(), left.end(), d) == left.end())
                        left.push_back(d);
                }
                defs = std::move(left);
            }
            State after = in;
            apply(node, after); // the header runs even when the body never does
            mergeInto(after, second);
            s = std::move(after);
            return;
        }
        }
    }

    void record(const std::string& var, const Def& d, int reader, int lag) {
        Def key = d;
        int readerNode = usage_.accesses[static_cast<std::size_t>(reader)].node;
        if (key.carried != -1 && !inSubtree(readerNode, key.carried))
            key.carried = -1; // the write reaches past the loop: not an iteration-carried read
        auto k = std::make_tuple(var, key.access, reader, key.exits, key.carried, lag);
        if (!seen_.insert(k).second)
            return;
        out_.deps.push_back(classify(var, key, reader));
        out_.deps.back().lag = lag;
    }

    // A space with a single LPU under Root: Root itself, or un-partitioned spaces down from it.
    bool singleLpu(int l) const {
        for (; l != kRootLps; l = lps_.at(l).parent)
            if (!lps_.at(l).unpartitioned)
                return false;
        return true;
    }

    int holdingSpace(int l, const std::string& var) const {
        while (l != kRootLps && lps_.at(l).unpartitioned && !lps_.at(l).find(var))
            l = lps_.at(l).parent;
        return l;
    }

    Dependency classify(const std::string& var, const Def& d, int reader) {
        const FlowAccess& w = usage_.accesses[static_cast<std::size_t>(d.access)];
        const FlowAccess& r = usage_.accesses[static_cast<std::size_t>(reader)];
        const VarAccess* wv = w.find(var);
        Dependency dep;
        dep.var = var;
        dep.writer = d.access;
        dep.reader = reader;
        dep.carriedBy = d.carried;
        dep.exits = d.exits;
        dep.fromLps = wv && wv->reduced && wv->reductionLps != kNoLps ? wv->reductionLps : w.lps;
        dep.toLps = r.lps;
        const TaskGlobal* g = globals_.find(var);
        bool isArray = g && g->isArray();
        if (w.kind == FlowAccess::Kind::RepeatHeader) {
            dep.kind = SyncKind::None;
            dep.why = "every LPU runs the loop and sets its variable itself";
            return dep;
        }
        if (isArray) {
            // Movements run between the spaces whose parts the writer and the reader work in.
            int fs = storage_.storageOf(var, w.lps), ts = storage_.storageOf(var, r.lps);
            if (fs != kNoLps && ts != kNoLps) {
                dep.fromLps = fs;
                dep.toLps = ts;
            } else {
                // An un-partitioned space that does not list an array holds its parent's part.
                dep.fromLps = holdingSpace(dep.fromLps, var);
                dep.toLps = holdingSpace(dep.toLps, var);
            }
        }
        int from = dep.fromLps, to = dep.toLps;
        if (from == to) {
            if (isArray) {
                // Padded copies are refreshed at every exit of a Space block of the padded
                // space (or of an ancestor holding padding) on the way from writer to reader.
                for (int exitNode : d.exits) {
                    int s = flow_.at(exitNode).context;
                    if (s != from && !lps_.isProperAncestor(s, from))
                        continue;
                    const ArrayPartition* ap = lps_.at(s).find(var);
                    if (ap && ap->padded())
                        dep.paddingExits.push_back({s, exitNode});
                }
                if (!dep.paddingExits.empty()) {
                    dep.kind = SyncKind::PaddingExchange;
                    dep.why = "the flow leaves a padded space between the write and the read";
                    return dep;
                }
            }
            const ArrayPartition* ap = isArray ? lps_.at(from).find(var) : nullptr;
            bool shared = isArray ? (ap && ap->hasReplicatedDim()) : !singleLpu(from);
            if (shared && w.guarded && !(wv && wv->reduced)) {
                dep.kind = SyncKind::ReplicaBroadcast;
                dep.why = "a Where/If-guarded write to data that several LPUs hold";
                return dep;
            }
            dep.kind = SyncKind::None;
            if (wv && wv->reduced)
                dep.why = "the reduction result is already in its space";
            else if (isArray && (w.lps != from || r.lps != from))
                dep.why = "the spaces work in views of the same parts";
            else if (isArray && lps_.at(from).find(var) && lps_.at(from).find(var)->padded())
                dep.why = "same part; padded copies stay stale until the flow leaves the space";
            else
                dep.why = "same LPS, same part";
            return dep;
        }
        if (lps_.isProperAncestor(to, from)) {
            dep.kind = SyncKind::GatherUp;
            dep.why = "written in a lower space, read in an ancestor";
        } else if (lps_.isProperAncestor(from, to)) {
            dep.kind = SyncKind::ScatterDown;
            dep.why = "written in an ancestor, read in a lower space";
        } else {
            dep.kind = SyncKind::Redistribution;
            dep.why = "written and read in unrelated spaces";
        }
        return dep;
    }

    // The flow point of a gather: the first exit on the path that returns to the reader's space.
    int gatherExit(const Dependency& dep) const {
        for (int e : dep.exits) {
            int outer = flow_.at(e).outerContext;
            if (outer == dep.toLps || lps_.isProperAncestor(outer, dep.toLps))
                return e;
        }
        return -1;
    }

    // The flow point of a scatter: the outermost Space block around the reader entered from the
    // writer's space (or an ancestor of it) that does not hold the write (a block entered from
    // an ancestor of the writer's space, `Space A { Space S { w } Space B { r } }` with B below
    // S, is entered after the write inside the enclosing block, not at that block's entry).
    int scatterEntry(const Dependency& dep) const {
        int found = -1;
        int readerNode = usage_.accesses[static_cast<std::size_t>(dep.reader)].node;
        const int writerNode = usage_.accesses[static_cast<std::size_t>(dep.writer)].node;
        for (int n = flow_.at(readerNode).parent; n != -1; n = flow_.at(n).parent) {
            if (inSubtree(writerNode, n))
                break;
            const FlowNode& f = flow_.at(n);
            if (f.kind != FlowNode::Kind::Space)
                continue;
            if (f.outerContext == dep.fromLps || lps_.isProperAncestor(f.outerContext, dep.fromLps))
                found = n;
            if (f.outerContext == dep.fromLps)
                break;
        }
        return found;
    }

    void addSync(Synchronization s, int depIndex) {
        for (Synchronization& x : out_.syncs)
            if (x.kind == s.kind && x.var == s.var && x.scalar == s.scalar && x.fromLps == s.fromLps &&
                x.toLps == s.toLps && x.viaLps == s.viaLps && x.point == s.point && x.node == s.node &&
                x.beforeLoop == s.beforeLoop && x.up == s.up) {
                if (std::find(x.deps.begin(), x.deps.end(), depIndex) == x.deps.end())
                    x.deps.push_back(depIndex);
                x.fromAnyLpu = x.fromAnyLpu || s.fromAnyLpu;
                return;
            }
        s.deps.push_back(depIndex);
        out_.syncs.push_back(std::move(s));
    }

    SyncKind movementKind(int from, int to) const {
        if (lps_.isProperAncestor(to, from))
            return SyncKind::GatherUp;
        if (lps_.isProperAncestor(from, to))
            return SyncKind::ScatterDown;
        return SyncKind::Redistribution;
    }

    // Where in the flow a movement of `dep` from `from` to `to` takes place.
    void placeMovement(Synchronization& s, const Dependency& dep) const {
        const FlowAccess& r = usage_.accesses[static_cast<std::size_t>(dep.reader)];
        Dependency d = dep;
        d.fromLps = s.fromLps;
        d.toLps = s.toLps;
        s.point = Synchronization::Point::BeforeAccess;
        s.node = r.node;
        // A condition or Repeat header needs the value at every evaluation, right there.
        if (r.kind != FlowAccess::Kind::Stage)
            return;
        if (s.kind == SyncKind::GatherUp) {
            if (int e = gatherExit(d); e != -1) {
                s.point = Synchronization::Point::SpaceExit;
                s.node = e;
            }
        } else if (s.kind == SyncKind::ScatterDown) {
            if (int e = scatterEntry(d); e != -1) {
                s.point = Synchronization::Point::SpaceEntry;
                s.node = e;
            }
        }
        if (s.point == Synchronization::Point::SpaceExit)
            return;
        // Out of the blocks between the writer and the reader that would act on the receiving
        // parts first: an Epoch (its entry ages the versions; the data must be in the current one
        // before) and a Space whose LPUs work in views of the receiving parts (its entry token
        // hands the parts to them; the data must be there before). A Where/If in between is
        // crossed on the way to such a block (it guards stages, not synchronisations), but a
        // movement does not leave it for nothing.
        const int writerNode = usage_.accesses[static_cast<std::size_t>(dep.writer)].node;
        int n = s.node;
        for (int p = flow_.at(s.node).parent, at = s.node; p > 0 && !inSubtree(writerNode, p);
             at = p, p = flow_.at(at).parent) {
            const FlowNode& pn = flow_.at(p);
            const bool views = pn.kind == FlowNode::Kind::Space && lps_.isProperAncestor(s.toLps, pn.context);
            if (pn.kind == FlowNode::Kind::Epoch || views)
                n = p;
            else if (pn.kind != FlowNode::Kind::Condition)
                break;
        }
        if (n != s.node) {
            s.node = n;
            s.point = Synchronization::Point::BeforeAccess;
        }
        // A read `at (current - k)` sees the write in the version an Epoch entry aged: the data
        // must be in the receiving current version before the entry of the reader's innermost
        // Epoch (the entries before it age the receiving versions as they do the sending ones).
        if (dep.lag > 0)
            for (int p = flow_.at(r.node).parent; p > 0; p = flow_.at(p).parent)
                if (flow_.at(p).kind == FlowNode::Kind::Epoch) {
                    if (s.node != p && inSubtree(s.node, p)) {
                        s.node = p;
                        s.point = Synchronization::Point::BeforeAccess;
                    }
                    break;
                }
    }

    // Spaces that evaluate flow node `node` (a Where/If or Repeat header). A Where/If is tested
    // by the LPUs of the stages inside it (it guards the stages, not the synchronisations) and
    // by the targets of the reductions made there. A Repeat header is tested by every space
    // whose LPUs have anything to do inside the loop: also every space that takes part in a
    // synchronisation there, as one that only sends or receives data inside a `Repeat` runs the
    // loop too, and must see the same header values as the others.
    std::set<int> evaluators(int node) const {
        std::set<int> out;
        for (const FlowAccess& a : usage_.accesses) {
            if (a.kind != FlowAccess::Kind::Stage || !inSubtree(a.node, node))
                continue;
            out.insert(a.lps);
            for (const VarAccess& v : a.vars)
                if (v.reduced && v.reductionLps != kNoLps)
                    out.insert(v.reductionLps);
        }
        if (!flow_.at(node).isLoop())
            return out;
        for (const Synchronization& s : out_.syncs) {
            if (s.point == Synchronization::Point::TaskStart || s.point == Synchronization::Point::TaskEnd ||
                s.node < 0 || !inSubtree(s.node, node) || (s.beforeLoop && s.node == node))
                continue;
            for (int l = 0; l < static_cast<int>(lps_.spaces.size()); ++l)
                if (s.involves(l))
                    out.insert(l);
        }
        return out;
    }

    std::set<int> stageSpaces() const {
        std::set<int> out;
        for (const FlowAccess& a : usage_.accesses)
            if (a.kind == FlowAccess::Kind::Stage)
                out.insert(a.lps);
        return out;
    }

    void addTokens() {
        for (std::size_t n = 1; n < flow_.nodes.size(); ++n) {
            const FlowNode& f = flow_.nodes[n];
            if (f.kind != FlowNode::Kind::Space || f.context == kRootLps)
                continue;
            const int x = f.context;
            // The space that hands its parts over: the one the block is entered from, or, when the
            // block skips levels, the skipped space whose parts it views (its LPUs write there, so
            // they order themselves with the block's).
            std::map<int, std::string> viewed; // handing space -> the arrays
            for (const FlowAccess& a : usage_.accesses) {
                if (a.kind != FlowAccess::Kind::Stage || !inSubtree(a.node, static_cast<int>(n)))
                    continue;
                for (const VarAccess& v : a.vars) {
                    int st = storage_.storageOf(v.var, x);
                    if (st == kNoLps || st == x)
                        continue;
                    const int from = lps_.isProperAncestor(f.outerContext, st) ? st : f.outerContext;
                    std::string& list = viewed[from];
                    if (list.find("`" + v.var + "`") == std::string::npos)
                        list += (list.empty() ? "`" : ", `") + v.var + "`";
                }
            }
            for (const auto& [from, vars] : viewed)
                for (auto point : {Synchronization::Point::SpaceEntry, Synchronization::Point::SpaceExit}) {
                    Synchronization t;
                    t.kind = SyncKind::Token;
                    t.var = vars;
                    t.fromLps = from;
                    t.toLps = x;
                    t.point = point;
                    t.node = static_cast<int>(n);
                    t.why = point == Synchronization::Point::SpaceEntry
                                ? "its LPUs work in views of their parent LPU's parts: they start after its writes"
                                : "the parent LPU continues after the writes of the LPUs that work in its parts";
                    out_.syncs.push_back(std::move(t));
                }
        }
    }

    // Environmental arrays kept in several spaces: the home parts hold what the task starts with
    // (moved to the other storage spaces first) and must hold what it leaves (moved back last).
    // Whether some stage reduces into `var` (`Space X: var`); a Reduction variable that none
    // does is written and read like any scalar.
    bool reducedInto(const std::string& var) const {
        for (const FlowAccess& a : usage_.accesses)
            if (const VarAccess* v = a.find(var); v && v->reduced)
                return true;
        return false;
    }

    void addTaskEnds() {
        // An environmental array replicated in a space and written there under Where/If: the
        // writer's replica reaches the others before the environment keeps one of them (a
        // later reader in the task would have asked for the same broadcast).
        for (const auto& [var, st] : storage_.arrays) {
            if (!st.environmental)
                continue;
            // The last guarded write in each replicated storage space, unless a broadcast follows
            // it already (a later reader asked for one).
            std::map<int, int> lastWrite; // storage space -> flow node
            for (const FlowAccess& a : usage_.accesses) {
                const VarAccess* v = a.find(var);
                if (!v || !v->written || v->reduced || a.kind != FlowAccess::Kind::Stage)
                    continue;
                const int s = storage_.storageOf(var, a.lps);
                if (a.guarded)
                    lastWrite[s] = a.node;
                else
                    lastWrite.erase(s); // an unguarded write runs in every replica
            }
            for (const auto& [s, node] : lastWrite) {
                const ArrayPartition* ap = s == kNoLps ? nullptr : lps_.at(s).find(var);
                bool followed = false; // (a loop: clang 14 lambdas cannot capture structured bindings)
                for (const Synchronization& x : out_.syncs)
                    followed = followed || (x.kind == SyncKind::ReplicaBroadcast && x.var == var && x.fromLps == s &&
                                            x.node == node);
                if (ap && ap->hasReplicatedDim() && !followed) {
                    Synchronization b;
                    b.kind = SyncKind::ReplicaBroadcast;
                    b.var = var;
                    b.fromLps = b.toLps = s;
                    b.point = Synchronization::Point::TaskEnd;
                    b.node = 0;
                    b.why = "a Where/If-guarded write to replicated data: every replica gets the writer's values";
                    out_.syncs.push_back(std::move(b));
                }
            }
        }
        for (const auto& [var, st] : storage_.arrays) {
            const TaskGlobal* g = globals_.find(var);
            // An array given to an Initialize parameter has content before the first stage, as a
            // linked one has, `create` or not (it starts whole in the home space's storage).
            const bool given = g && g->initializeParameter;
            if ((!st.environmental && !given) || st.spaces.size() < 2)
                continue;
            const bool carriesData = given || !(g && g->environment && *g->environment == ast::LinkMode::Create);
            for (int s : st.spaces) {
                if (s == st.home || !carriesData)
                    continue;
                Synchronization d;
                d.kind = movementKind(st.home, s);
                d.var = var;
                d.fromLps = st.home;
                d.toLps = s;
                d.point = Synchronization::Point::TaskStart;
                d.node = 0;
                d.senders = Synchronization::Senders::Every;
                d.why = "the task's input of the environmental array reaches the parts of its other space";
                out_.syncs.push_back(std::move(d));
            }
            if (!st.environmental)
                continue;
            // The storage spaces that write the array, in the order of their last writes: the
            // later writer's gather lands later. Writes in the home parts supersede the other
            // spaces' earlier ones, which therefore do not return.
            std::vector<int> writers;
            for (const FlowAccess& a : usage_.accesses)
                if (const VarAccess* v = a.find(var); v && v->written && a.kind == FlowAccess::Kind::Stage) {
                    const int s = storage_.storageOf(var, a.lps);
                    writers.erase(std::remove(writers.begin(), writers.end(), s), writers.end());
                    writers.push_back(s);
                }
            if (auto h = std::find(writers.begin(), writers.end(), st.home); h != writers.end())
                writers.erase(writers.begin(), h + 1);
            for (int s : writers) {
                Synchronization b;
                b.kind = movementKind(s, st.home);
                b.var = var;
                b.fromLps = s;
                b.toLps = st.home;
                b.point = Synchronization::Point::TaskEnd;
                b.node = 0;
                b.senders =
                    s == writers.front() ? Synchronization::Senders::Changed : Synchronization::Senders::WrittenInTask;
                b.why = "the environment keeps the home parts: the other space's writes return there";
                out_.syncs.push_back(std::move(b));
            }
        }
        // An environmental scalar, list or object written by stages: every LPU keeps its own
        // copy, and the environment keeps Root's, which the writers' copies reach at the end (the
        // last one that changed in the writers' order wins, as for any scalar movement).
        for (const auto& [var, g] : globals_.byName) {
            if (!g.environment || g.isArray() || (g.isReduction && reducedInto(var)))
                continue;
            // Each writing space once, ordered by its last write in flow order: the last writer's
            // value reaches Root last, so it is the one the environment keeps.
            std::vector<int> writers;
            for (const FlowAccess& a : usage_.accesses)
                if (const VarAccess* v = a.find(var);
                    v && v->written && a.kind == FlowAccess::Kind::Stage && a.lps != 0) {
                    writers.erase(std::remove(writers.begin(), writers.end(), a.lps), writers.end());
                    writers.push_back(a.lps);
                }
            for (int w : writers) {
                Synchronization b;
                b.kind = movementKind(w, 0);
                b.var = var;
                b.scalar = true;
                b.fromLps = w;
                b.toLps = 0;
                b.point = Synchronization::Point::TaskEnd;
                b.node = 0;
                b.why = "the environment keeps the value of the scalar the stages wrote";
                out_.syncs.push_back(std::move(b));
            }
        }
    }

    // Whether dependency `dep` is a stage's write of a scalar read by a flow condition or a
    // Repeat header: every space that evaluates the construct needs the value, so even a read
    // in the writer's own space may need it elsewhere. (A Repeat header's own variable is set by
    // every LPU that runs the loop.)
    bool conditionRead(const Dependency& dep) const {
        const TaskGlobal* g = globals_.find(dep.var);
        const FlowAccess& w = usage_.accesses[static_cast<std::size_t>(dep.writer)];
        const FlowAccess& r = usage_.accesses[static_cast<std::size_t>(dep.reader)];
        return !(g && g->isArray()) && r.kind != FlowAccess::Kind::Stage && w.kind == FlowAccess::Kind::Stage;
    }

    // The synchronisations that dependency `idx` needs.
    void addDependencySyncs(int idx) {
        const Dependency& dep = out_.deps[static_cast<std::size_t>(idx)];
        const TaskGlobal* g = globals_.find(dep.var);
        const bool scalar = !(g && g->isArray());
        Synchronization s;
        s.kind = dep.kind;
        s.var = dep.var;
        s.scalar = scalar;
        s.fromLps = dep.fromLps;
        s.toLps = dep.toLps;
        const FlowAccess& w = usage_.accesses[static_cast<std::size_t>(dep.writer)];
        const FlowAccess& r = usage_.accesses[static_cast<std::size_t>(dep.reader)];
        const VarAccess* wv = w.find(dep.var);
        const bool condition = conditionRead(dep);
        if ((dep.kind == SyncKind::None && !condition) || dep.kind == SyncKind::Reduction)
            return;
        if (dep.kind == SyncKind::PaddingExchange) {
            for (auto [space, exitNode] : dep.paddingExits) {
                Synchronization p = s;
                p.viaLps = space;
                p.point = Synchronization::Point::SpaceExit;
                p.node = exitNode;
                addSync(p, idx);
            }
            return;
        }
        if (dep.kind == SyncKind::ReplicaBroadcast) {
            s.point = Synchronization::Point::AfterStage;
            s.node = w.node;
            // A writer in a space that works in views of the holders' parts: the parts hold its
            // write once the exit token of its Space block gives them back; the broadcast
            // among the holders follows that token.
            if (w.lps != dep.fromLps) {
                Dependency back = dep;
                back.toLps = dep.fromLps;
                if (int e = gatherExit(back); e != -1) {
                    s.point = Synchronization::Point::SpaceExit;
                    s.node = e;
                }
            }
            addSync(s, idx);
            return;
        }
        // Scalars read by a flow condition or a Repeat header: every space that evaluates it.
        std::set<int> targets{dep.toLps};
        if (condition)
            targets = evaluators(r.node);
        const bool fromReduction = wv && wv->reduced;
        const bool oneLpuWrote =
            scalar && !fromReduction && w.kind == FlowAccess::Kind::Stage && w.guarded && !singleLpu(dep.fromLps);
        for (int to : targets) {
            if (to == dep.fromLps && condition && oneLpuWrote) {
                // The writer's own space evaluates the condition too: its other LPUs need the value.
                Synchronization b = s;
                b.kind = SyncKind::ReplicaBroadcast;
                b.toLps = b.fromLps;
                b.point = Synchronization::Point::AfterStage;
                b.node = w.node;
                addSync(b, idx);
            }
            if (to == dep.fromLps)
                continue;
            if (fromReduction && lps_.isProperAncestor(dep.fromLps, to)) {
                // Spaces below the target receive the result from the reduction itself.
                Synchronization& red = out_.syncs[reductionOf_.at({dep.writer, dep.var})];
                if (std::find(red.readers.begin(), red.readers.end(), to) == red.readers.end())
                    red.readers.push_back(to);
                if (std::find(red.deps.begin(), red.deps.end(), idx) == red.deps.end())
                    red.deps.push_back(idx);
                continue;
            }
            Synchronization m = s;
            m.toLps = to;
            m.kind = movementKind(dep.fromLps, to);
            // One LPU of the writer's space wrote the value: a receiver's own ancestor or
            // descendants may not be that LPU.
            // (Between unrelated spaces every LPU hears from every LPU anyway.)
            m.fromAnyLpu = oneLpuWrote && m.kind != SyncKind::Redistribution && !singleLpu(to);
            // A write in the receiving space between the writer and the reader (guarded: it may
            // run in one LPU only, and then reaches the others by its own broadcast) is newer:
            // the older value must land before it, not over it.
            Dependency at = dep;
            if (int later = laterWriteIn(dep, to); later != -1 && m.kind != SyncKind::GatherUp)
                at.reader = later;
            placeMovement(m, at);
            outOfLoops(m, dep);
            afterViewingWriters(m, dep, idx);
            addSync(m, idx);
            handOverToViews(m, idx);
        }
    }

    // A movement of what a space working in views of the sending parts wrote, sent at a point
    // inside that space's block: the sending LPU hands its parts to the block's LPUs on entry and
    // waits for them only at the block's exit, so here it would send what they have not written
    // yet. They hand the parts back first, by tokens up at the same point (each block's LPUs to
    // the LPU that handed them the parts, innermost first), which come before the data there,
    // and get them again after it (tokens down, outermost first) before they write again.
    void afterViewingWriters(const Synchronization& m, const Dependency& dep, int idx) {
        if (m.scalar || m.node <= 0 ||
            (m.point != Synchronization::Point::BeforeAccess && m.point != Synchronization::Point::SpaceEntry))
            return;
        const FlowAccess& w = usage_.accesses[static_cast<std::size_t>(dep.writer)];
        if (w.kind != FlowAccess::Kind::Stage || w.lps == m.fromLps)
            return;
        std::vector<Synchronization> downs;
        for (int p = flow_.at(w.node).parent; p > 0; p = flow_.at(p).parent) {
            const FlowNode& f = flow_.at(p);
            if (f.kind != FlowNode::Kind::Space)
                continue;
            if (f.context == m.fromLps || storage_.storageOf(m.var, f.context) != m.fromLps)
                break; // out of the blocks that view the sending parts
            if (!inSubtree(m.node, p) || m.node == p)
                continue; // the point is after this block (its exit token comes first) or is its entry
            const int handing = lps_.isProperAncestor(f.outerContext, m.fromLps) ? m.fromLps : f.outerContext;
            Synchronization t;
            t.kind = SyncKind::Token;
            t.var = "`" + m.var + "`";
            t.fromLps = handing;
            t.toLps = f.context;
            t.up = true;
            t.point = m.point;
            t.node = m.node;
            t.why = "the LPUs that work in views of the sending parts hand them back after their writes, before "
                    "the data is sent";
            addSync(t, idx);
            t.up = false;
            t.why = "and get them again once the data is sent";
            downs.insert(downs.begin(), t);
        }
        for (const Synchronization& t : downs)
            addSync(t, idx);
    }

    // A movement of data written before a loop goes before the loop, once: before a reader
    // inside it (its first turn needs it; later turns read what the loop writes, which comes by
    // movements of its own) or before a newer write inside it that the data must not land over.
    // Sent at every turn of a `Repeat while` whose LPUs turn a different number of times, it hung
    // (probe AK). Not out of a `Repeat foreach`, whose turns work in pieces of their own.
    void outOfLoops(Synchronization& m, const Dependency& dep) const {
        if (m.point != Synchronization::Point::BeforeAccess || m.node <= 0 || dep.carriedBy != -1)
            return;
        const int writerNode = usage_.accesses[static_cast<std::size_t>(dep.writer)].node;
        for (int p = m.node; p > 0 && !inSubtree(writerNode, p); p = flow_.at(p).parent)
            if (const FlowNode::Kind k = flow_.at(p).kind;
                k == FlowNode::Kind::RepeatWhile || k == FlowNode::Kind::RepeatFor) {
                m.node = p;
                m.beforeLoop = k == FlowNode::Kind::RepeatWhile;
            }
    }

    // A movement received inside a Space block whose LPUs work in views of the receiving parts
    // (the writer is in the same block, so it cannot go before the block's entry): the receiving
    // space's LPU lands the data, and the block's LPUs wait for it before they read.
    void handOverToViews(const Synchronization& m, int idx) {
        if (m.point != Synchronization::Point::BeforeAccess || m.node <= 0 || m.kind == SyncKind::Token)
            return;
        const FlowNode& at = flow_.at(m.node); // before a Space block: in the context it is entered from
        const int reader = at.kind == FlowNode::Kind::Space ? at.outerContext : at.context;
        if (reader == m.toLps || reader == kNoLps || !lps_.isProperAncestor(m.toLps, reader))
            return;
        Synchronization t;
        t.kind = SyncKind::Token;
        t.var = "`" + m.var + "`";
        t.fromLps = m.toLps;
        t.toLps = reader;
        t.point = m.point;
        t.node = m.node;
        t.why = "its LPUs work in views of the parts the data lands in: they read after it has";
        addSync(t, idx);
    }

    // The first stage after `dep`'s writer and before its (stage) reader, in the same iteration,
    // that writes `dep.var` in space `to`'s copies, or in any space when that write reaches the
    // reader as well; -1 if none.
    int laterWriteIn(const Dependency& dep, int to) const {
        if (dep.carriedBy != -1 ||
            usage_.accesses[static_cast<std::size_t>(dep.reader)].kind != FlowAccess::Kind::Stage)
            return -1;
        const TaskGlobal* g = globals_.find(dep.var);
        const bool array = g && g->isArray();
        for (int i = dep.writer + 1; i < dep.reader; ++i) {
            const FlowAccess& a = usage_.accesses[static_cast<std::size_t>(i)];
            const VarAccess* v = a.find(dep.var);
            if (a.kind != FlowAccess::Kind::Stage || !v || !v->written || v->reduced)
                continue;
            if (array ? storage_.storageOf(dep.var, a.lps) == to : a.lps == to)
                return i;
            // A newer write elsewhere that reaches the same reader too (an older one is not
            // hidden by a write under Where/If): its data comes by a movement of its own, which
            // the older data must not land after (probe AF).
            for (const Dependency& other : out_.deps)
                if (other.var == dep.var && other.writer == i && other.reader == dep.reader)
                    return i;
        }
        return -1;
    }

    // How much the synchronisations say: it grows until the condition reads are all served.
    std::size_t syncVolume() const {
        std::size_t n = out_.syncs.size();
        for (const Synchronization& s : out_.syncs)
            n += s.readers.size() + s.deps.size() + (s.fromAnyLpu ? 1 : 0);
        return n;
    }

    void buildSyncs() {
        // Reductions: one per reducing invocation, whether or not the result is read later.
        for (std::size_t i = 0; i < usage_.accesses.size(); ++i) {
            const FlowAccess& a = usage_.accesses[i];
            for (const VarAccess& v : a.vars)
                if (v.reduced) {
                    Synchronization s;
                    s.kind = SyncKind::Reduction;
                    s.var = v.var;
                    s.scalar = true;
                    s.fromLps = a.lps;
                    s.toLps = v.reductionLps == kNoLps ? a.lps : v.reductionLps;
                    s.point = Synchronization::Point::AfterStage;
                    s.node = a.node;
                    reductionOf_[{static_cast<int>(i), v.var}] = out_.syncs.size();
                    out_.syncs.push_back(s);
                }
        }
        const std::set<int> staged = stageSpaces();
        std::vector<int> conditionReads;
        for (std::size_t i = 0; i < out_.deps.size(); ++i) {
            if (conditionRead(out_.deps[i]))
                conditionReads.push_back(static_cast<int>(i));
            else
                addDependencySyncs(static_cast<int>(i));
        }
        // A flow condition reading a reduction result: every staged space below the target.
        for (auto& [key, at] : reductionOf_) {
            Synchronization& red = out_.syncs[at];
            for (const Dependency& dep : out_.deps) {
                if (dep.writer != key.first || dep.var != key.second)
                    continue;
                if (usage_.accesses[static_cast<std::size_t>(dep.reader)].kind == FlowAccess::Kind::Stage)
                    continue;
                for (int l : staged)
                    if (lps_.isProperAncestor(red.toLps, l) &&
                        std::find(red.readers.begin(), red.readers.end(), l) == red.readers.end())
                        red.readers.push_back(l);
            }
            std::sort(red.readers.begin(), red.readers.end());
        }
        addTokens();
        // Condition reads last: who evaluates a construct depends on the synchronisations inside
        // it, and the movements a condition adds can draw a space into an enclosing one.
        // (At least once: with no synchronisation yet, the volume starts at zero.)
        std::size_t volume = 0;
        do {
            volume = syncVolume();
            for (int i : conditionReads)
                addDependencySyncs(i);
        } while (volume != syncVolume());
        for (auto& [key, at] : reductionOf_)
            std::sort(out_.syncs[at].readers.begin(), out_.syncs[at].readers.end());
        addTaskEnds();
        // Number synchronisations in the order a reader of the flow meets them: before a node,
        // after its own line, and on exit after its whole subtree.
        std::vector<int> enter(flow_.nodes.size()), leave(flow_.nodes.size());
        int seq = 0;
        std::function<void(int)> number = [&](int n) {
            enter[static_cast<std::size_t>(n)] = seq++;
            for (int c : flow_.at(n).children)
                number(c);
            leave[static_cast<std::size_t>(n)] = seq++;
        };
        number(0);
        auto key = [&](const Synchronization& s) {
            std::size_t n = static_cast<std::size_t>(s.node < 0 ? 0 : s.node);
            switch (s.point) {
            case Synchronization::Point::TaskStart: return -1;
            case Synchronization::Point::BeforeAccess:
            case Synchronization::Point::SpaceEntry: return 3 * enter[n];
            case Synchronization::Point::AfterStage: return 3 * enter[n] + 1;
            case Synchronization::Point::SpaceExit: return 3 * leave[n] + 2;
            case Synchronization::Point::TaskEnd: return 3 * seq + 3;
            }
            return 0;
        };
        // At one point, data moves before tokens hand parts to the spaces that view them, and
        // after the tokens that give them back (a block's exit, or tokens up): the parts hold
        // the viewers' writes only then.
        auto token = [](const Synchronization& s) { return s.kind != SyncKind::Token ? 1 : s.handsDown() ? 2 : 0; };
        std::stable_sort(out_.syncs.begin(), out_.syncs.end(), [&](const Synchronization& a, const Synchronization& b) {
            return key(a) != key(b) ? key(a) < key(b) : token(a) < token(b);
        });
    }

    const TaskGlobals& globals_;
    const LpsTree& lps_;
    const FlowTree& flow_;
    const DataUsage& usage_;
    const StoragePlan& storage_;
    DependencyGraph out_;
    std::set<std::tuple<std::string, int, int, std::vector<int>, int, int>> seen_;
    // Each reducing (access, variable) -> its Reduction in out_.syncs.
    std::map<std::pair<int, std::string>, std::size_t> reductionOf_;
};

} // namespace

DependencyGraph analyzeDependencies(const TaskGlobals& globals, const LpsTree& lps, const FlowTree& flow,
                                    const DataUsage& usage, const StoragePlan& storage) {
    return DependencyAnalyzer(globals, lps, flow, usage, storage).run();
}

} // namespace itc::semantic
