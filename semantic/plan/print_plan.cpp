// The plan report. Layout rules: two-space indentation per level, `[X]` gives the context space
// of a flow part, `==>` marks a synchronisation the compiler inserts, `S<n>` numbers them.
#include "semantic/plan/print_plan.h"

#include <fmt/format.h>

#include <map>

namespace itc::semantic {
namespace {

std::string spaceName(const LpsTree& t, int id) {
    if (id == kRootLps)
        return "Root";
    if (id < 0 || id >= static_cast<int>(t.spaces.size()))
        return "?";
    return "Space " + t.at(id).name;
}

std::string shortSpace(const LpsTree& t, int id) {
    if (id < 0 || id >= static_cast<int>(t.spaces.size()))
        return "?";
    return t.at(id).name;
}

std::string lineOf(SourceRange r) { return r.valid() ? "line " + std::to_string(r.begin.line) : ""; }

class Printer {
public:
    explicit Printer(const TaskPlan& p) : p_(p) {
        for (std::size_t i = 0; i < p_.dependencies.syncs.size(); ++i) {
            const Synchronization& s = p_.dependencies.syncs[i];
            int idx = static_cast<int>(i);
            switch (s.point) {
            case Synchronization::Point::AfterStage: after_[s.node].push_back(idx); break;
            case Synchronization::Point::BeforeAccess:
            case Synchronization::Point::SpaceEntry: before_[s.node].push_back(idx); break;
            case Synchronization::Point::SpaceExit: exit_[s.node].push_back(idx); break;
            case Synchronization::Point::TaskStart: start_.push_back(idx); break;
            case Synchronization::Point::TaskEnd: end_.push_back(idx); break;
            }
        }
    }

    std::string run() {
        header();
        lpsTree();
        storage();
        versions();
        flow();
        dependencies();
        return out_;
    }

private:
    void line(int indent, const std::string& text) {
        out_ += std::string(static_cast<std::size_t>(indent * 2), ' ') + text + "\n";
    }

    void header() {
        line(0, "Task \"" + p_.task + "\"");
        std::string params;
        for (const std::string& s : p_.lps.params)
            params += (params.empty() ? "" : ", ") + s;
        line(1, "partition parameters: " + (params.empty() ? std::string("none") : params));
        if (p_.mapped) {
            line(1, "machine: " + p_.machineFile);
            std::string seg = p_.segmentLevel ? fmt::format("one per PPU of the <segment> level {}", p_.segmentLevel)
                                              : std::string("no <segment> level: one shared-memory process");
            line(1, fmt::format("ranks: {} ({}); threads per rank: {}", p_.ranks, seg, p_.threadsPerRank));
        } else {
            line(1, "machine: none given (run with a mapping and `--machine` for PPS, PPU, "
                    "rank and thread counts)");
        }
        std::map<std::string, int> byKind;
        for (const Synchronization& s : p_.dependencies.syncs)
            ++byKind[syncKindName(s.kind)];
        std::string summary;
        for (const auto& [kind, n] : byKind)
            summary += (summary.empty() ? "" : ", ") + fmt::format("{} {}", n, kind);
        line(1, fmt::format("synchronisations inserted: {}{}", p_.dependencies.syncs.size(),
                            summary.empty() ? "" : " (" + summary + ")"));
        out_ += "\n";
    }

    void lpsTree() {
        line(1, "LPS tree");
        lpsNode(kRootLps, 2);
        out_ += "\n";
    }

    std::string placementText(int id) const {
        const auto& pl = p_.spaces[static_cast<std::size_t>(id)].placement;
        if (!pl)
            return "";
        std::string s = fmt::format("PPS {} `{}`: {} PPU{}", pl->pps, pl->ppsName, pl->ppus, pl->ppus == 1 ? "" : "s");
        if (id != kRootLps)
            s += fmt::format(", {} per PPU of the parent's PPS", pl->ppusPerParentPpu);
        if (!pl->computes)
            s += "; above <core>: each LPU runs on one core (see the guide: Mapping files)";
        return s;
    }

    void lpsNode(int id, int indent) {
        const Lps& l = p_.lps.at(id);
        std::string head;
        if (id == kRootLps) {
            head = "Root: 1 LPU, holds every task-global whole";
        } else {
            head = "Space " + l.name + " <" +
                   (l.unpartitioned ? std::string("un-partitioned") : std::to_string(l.dims) + "d") + ">";
            if (l.parent != kRootLps)
                head += " divides Space " + p_.lps.at(l.parent).name +
                        (l.dividesSubpartitions ? " sub-partitions" : " partitions");
            if (l.isDynamic)
                head += " (dynamic: a hint, no effect on results)";
        }
        line(indent, head);
        std::string pl = placementText(id);
        if (!pl.empty())
            line(indent + 2, "mapped to " + pl);
        if (const auto& place = p_.spaces[static_cast<std::size_t>(id)].placement; place && place->inParentProcess)
            line(indent + 4, "each LPU runs in the process of its " + spaceName(p_.lps, l.parent) +
                                 " LPU, on the cores of that segment: its parts change every foreach turn (see the "
                                 "guide: Mapping files)");
        if (id != kRootLps) {
            const PlanLps& pp = p_.spaces[static_cast<std::size_t>(id)];
            for (const ArrayPartition& ap : l.arrays)
                line(indent + 2, ap.text());
            std::string parent = spaceName(p_.lps, l.parent);
            line(indent + 2, "LPUs per " + parent + " LPU: " + pp.lpusPerParent);
            for (std::size_t d = 0; d < pp.dimCounts.size(); ++d) {
                const auto& dc = pp.dimCounts[d];
                if (!dc.mustAgree.empty()) {
                    std::string others;
                    for (const std::string& o : dc.mustAgree)
                        others += (others.empty() ? "" : ", ") + o;
                    line(indent + 3, fmt::format("dimension {}: {} must give the same count "
                                                 "at launch (see the guide: The Partition section)",
                                                 d + 1, others));
                }
                if (!dc.heldNote.empty())
                    line(indent + 3, dc.heldNote);
            }
            if (l.subpartition) {
                const SubpartitionModel& sm = *l.subpartition;
                const char* order = "unordered";
                switch (sm.order) {
                case ast::SubpartitionOrder::Increasing: order = "increasing"; break;
                case ast::SubpartitionOrder::Ordered: order = "ordered (increasing)"; break;
                case ast::SubpartitionOrder::Decreasing: order = "decreasing"; break;
                case ast::SubpartitionOrder::Unordered: order = "unordered"; break;
                }
                line(indent + 2, fmt::format("Sub-partition <{}d> <{}>: processed one at a time "
                                             "by each LPU's own PPU",
                                             sm.dims, order));
                for (const ArrayPartition& ap : sm.arrays)
                    line(indent + 3, ap.text());
            }
        }
        for (int c : l.children)
            lpsNode(c, indent + 1);
    }

    void storage() {
        bool any = false;
        for (const auto& [var, st] : p_.storage.arrays) {
            if (st.home == kNoLps || st.storageOf.size() < 2)
                continue;
            if (!any)
                line(1, "Storage (arrays used by stages of several spaces)");
            any = true;
            std::string own, views;
            for (int l : st.spaces)
                own += (own.empty() ? "" : ", ") + spaceName(p_.lps, l) + (l == st.home ? " (home)" : "");
            for (const auto& [user, where] : st.storageOf)
                if (user != where && !st.turnCopy(user))
                    views += (views.empty() ? "" : "; ") + spaceName(p_.lps, user) + " works in views of " +
                             spaceName(p_.lps, where) + "'s parts";
            line(2, fmt::format("{}: parts in {}{}", var, own, views.empty() ? "" : "; " + views));
            for (const auto& [space, why] : st.ownParts)
                line(3, spaceName(p_.lps, space) + " has parts of its own: " + why);
            for (const auto& [space, copy] : st.turnCopies) {
                const int parent = p_.lps.at(space).parent;
                const std::string from = st.turnCopies.count(parent)
                                             ? spaceName(p_.lps, parent) + "'s copy (entered from its block) or " +
                                                   spaceName(p_.lps, st.storageOf.at(space)) + "'s parts"
                                             : spaceName(p_.lps, st.storageOf.at(space)) + "'s parts";
                line(3, fmt::format("{} works in a copy of each foreach turn's part ({}), filled from {} at every "
                                    "entry{}",
                                    spaceName(p_.lps, space), copy.why, from,
                                    copy.writtenBack ? " and written back at every exit" : ""));
            }
        }
        if (any)
            out_ += "\n";
    }

    void versions() {
        line(1, "Epoch versions (see the guide: Epochs)");
        if (p_.versionDepth.empty())
            line(2, "none: no structure is read `at (current - n)`");
        for (const auto& [var, depth] : p_.versionDepth) {
            std::string names = "current";
            for (int i = 1; i < depth; ++i)
                names += ", current - " + std::to_string(i);
            line(2, fmt::format("{}: {} versions ({})", var, depth, names));
        }
        out_ += "\n";
    }

    std::string syncText(int idx) const {
        const Synchronization& s = p_.dependencies.syncs[static_cast<std::size_t>(idx)];
        std::string from = spaceName(p_.lps, s.fromLps), to = spaceName(p_.lps, s.toLps);
        std::string r = fmt::format("S{} {}: `{}`", idx + 1, syncKindName(s.kind), s.var);
        switch (s.kind) {
        case SyncKind::PaddingExchange:
            r += fmt::format(", padded copies in {} refreshed from their owners", spaceName(p_.lps, s.viaLps));
            break;
        case SyncKind::ReplicaBroadcast:
            r += fmt::format(", from the writing {} LPU to every other holder", from);
            break;
        case SyncKind::Token:
            r = fmt::format("S{} token: {} LPU {} its {} LPUs, no data ({} in views of its parts)", idx + 1, from,
                            s.handsDown() ? "->" : "<-", to, s.var);
            break;
        case SyncKind::Reduction: {
            std::string op;
            if (auto it = p_.usage.accessOfNode.find(s.node); it != p_.usage.accessOfNode.end())
                if (const VarAccess* v = p_.usage.accesses[static_cast<std::size_t>(it->second)].find(s.var))
                    op = v->reductionOp;
            r += fmt::format(" (\"{}\"), contributions of the {} LPUs combined into each {} LPU", op, from, to);
            break;
        }
        default:
            r += ", " + from + " -> " + to;
            if (!s.why.empty())
                r += " (" + s.why + ")";
            if (s.senders == Synchronization::Senders::WrittenInTask)
                r += "; every part written in the task is sent again, as another space's gather came first";
            if (s.fromAnyLpu)
                r += fmt::format("; every {} LPU hears from every {} LPU, as one LPU wrote under Where/If", to, from);
            break;
        }
        if (s.kind == SyncKind::Reduction && !s.readers.empty()) {
            std::string readers;
            for (int l : s.readers)
                readers += (readers.empty() ? "" : ", ") + spaceName(p_.lps, l);
            r += "; the result goes down to " + readers;
        }
        return r;
    }

    std::string accessName(int accessIdx) const {
        const FlowAccess& a = p_.usage.accesses[static_cast<std::size_t>(accessIdx)];
        const FlowNode& n = p_.flow.at(a.node);
        std::string name = a.kind == FlowAccess::Kind::Stage ? a.stage : n.label;
        return "`" + name + "` (" + lineOf(n.range) + ")";
    }

    void usageLines(const FlowAccess& a, int indent) {
        std::vector<std::string> reads, writes, ages, reduces;
        for (const VarAccess& v : a.vars) {
            std::string tag =
                v.via.empty() && a.kind == FlowAccess::Kind::Stage ? " (direct: not passed to the stage)" : "";
            if (v.read) {
                std::string s = v.var + v.readOffsetsText();
                if (v.maxLag > 0)
                    s += " at current - " + std::to_string(v.maxLag);
                reads.push_back(s + tag);
            }
            if (v.written && !v.reduced && !(a.kind == FlowAccess::Kind::RepeatHeader))
                (v.agedOnly ? ages : writes).push_back(v.var + tag);
            if (v.reduced)
                reduces.push_back(
                    fmt::format("{} (\"{}\") into {}", v.var, v.reductionOp, spaceName(p_.lps, v.reductionLps)));
        }
        auto join = [](const std::vector<std::string>& v) {
            std::string s;
            for (const std::string& x : v)
                s += (s.empty() ? "" : ", ") + x;
            return s;
        };
        if (!reads.empty())
            line(indent, "reads " + join(reads));
        if (!writes.empty())
            line(indent, "writes " + join(writes));
        if (!ages.empty())
            line(indent, "ages " + join(ages) + " (the Epoch around the stage shifts its versions)");
        if (!reduces.empty())
            line(indent, "reduces " + join(reduces));
    }

    void flow() {
        line(1, "Flow ([X] is the context space; ==> marks a synchronisation the compiler "
                "inserts)");
        for (int s : start_)
            line(2, "==> at task start: " + syncText(s));
        for (int c : p_.flow.at(0).children)
            flowNode(c, 2);
        if (p_.flow.at(0).children.empty())
            line(2, "(empty)");
        for (int s : end_)
            line(2, "==> at task end: " + syncText(s));
        out_ += "\n";
    }

    void flowNode(int id, int indent) {
        const FlowNode& n = p_.flow.at(id);
        for (int s : before_[id])
            line(indent,
                 "==> " +
                     std::string(p_.dependencies.syncs[static_cast<std::size_t>(s)].point ==
                                         Synchronization::Point::SpaceEntry
                                     ? "on entry: "
                                 : p_.dependencies.syncs[static_cast<std::size_t>(s)].beforeLoop ? "before the loop: "
                                                                                                 : "before: ") +
                     syncText(s));
        int ctx = n.kind == FlowNode::Kind::Space ? n.outerContext : n.context;
        std::string head = "[" + shortSpace(p_.lps, ctx) + "] " + n.label;
        if (n.kind == FlowNode::Kind::Epoch) {
            std::string shifted;
            for (const auto& [var, depth] : p_.versionDepth)
                if (usedBelow(id, var))
                    shifted += (shifted.empty() ? "" : ", ") + var;
            if (!shifted.empty())
                head += " (entry shifts the versions of " + shifted + ")";
        }
        std::string text = std::string(static_cast<std::size_t>(indent * 2), ' ') + head;
        out_ += fmt::format("{:<72} {}\n", text, lineOf(n.range));
        if (auto it = p_.usage.accessOfNode.find(id); it != p_.usage.accessOfNode.end())
            usageLines(p_.usage.accesses[static_cast<std::size_t>(it->second)], indent + 2);
        for (int s : after_[id])
            line(indent + 1, "==> after: " + syncText(s));
        for (int c : n.children)
            flowNode(c, indent + 1);
        for (int s : exit_[id])
            line(indent + 1, "==> on exit of " + n.label + ": " + syncText(s));
    }

    bool usedBelow(int node, const std::string& var) const {
        for (const FlowAccess& a : p_.usage.accesses) {
            if (!a.find(var))
                continue;
            for (int n = a.node; n != -1; n = p_.flow.at(n).parent)
                if (n == node)
                    return true;
        }
        return false;
    }

    void dependencies() {
        line(1, "Dependencies (writer -> reader: synchronisation)");
        if (p_.dependencies.deps.empty())
            line(2, "none");
        for (const Dependency& d : p_.dependencies.deps) {
            std::string s = fmt::format("`{}`: {} -> {}", d.var, accessName(d.writer), accessName(d.reader));
            if (d.carriedBy != -1)
                s += fmt::format(", from the previous iteration of `{}` ({})", p_.flow.at(d.carriedBy).label,
                                 lineOf(p_.flow.at(d.carriedBy).range));
            if (d.lag > 0)
                s += fmt::format(", read at current - {} (written before an Epoch entry)", d.lag);
            line(2, s);
            std::string k = syncKindName(d.kind);
            if (d.kind != SyncKind::None)
                k += fmt::format(" ({} -> {})", spaceName(p_.lps, d.fromLps), spaceName(p_.lps, d.toLps));
            k += ": " + d.why;
            std::string via;
            for (std::size_t i = 0; i < p_.dependencies.syncs.size(); ++i)
                for (int di : p_.dependencies.syncs[i].deps)
                    if (&p_.dependencies.deps[static_cast<std::size_t>(di)] == &d)
                        via += (via.empty() ? "" : ", ") + fmt::format("S{}", i + 1);
            if (!via.empty())
                k += " [" + via + "]";
            line(3, k);
        }
        out_ += "\n";
    }

    const TaskPlan& p_;
    std::string out_;
    std::map<int, std::vector<int>> before_, after_, exit_;
    std::vector<int> start_, end_;
};

} // namespace

std::string printTaskPlan(const TaskPlan& plan) { return Printer(plan).run(); }

std::string printProgramPlan(const ProgramPlan& plan) {
    std::string out;
    for (const TaskPlan& t : plan.tasks)
        out += printTaskPlan(t);
    out += "Environment hand-over between executions (coordinator order; see the guide: How a task "
           "runs)\n";
    if (plan.handovers.empty())
        out += "  none: no environmental item passes from one execution to another\n";
    for (const EnvironmentHandover& h : plan.handovers) {
        out += fmt::format("  `{}`: \"{}\" -> \"{}\" ({}): {}\n", h.item, h.fromTask, h.toTask, lineOf(h.at),
                           h.kind == SyncKind::None ? "none, used in place" : syncKindName(h.kind));
        out += fmt::format("    left as   {}\n    needed as {}\n", h.fromPlacement, h.toPlacement);
        out += h.waits ? fmt::format("    \"{}\" waits for \"{}\": one of them may write it\n", h.toTask, h.fromTask)
                       : std::string("    both only read it: the executions may overlap\n");
    }
    return out;
}

} // namespace itc::semantic
