// Chooses storage spaces and views per array (storage.h): home first, then every other user
// space from the top down, a view where the parts nest exactly in the same memory.
#include "semantic/plan/storage.h"

#include <algorithm>

namespace itc::semantic {

bool ArrayStorage::isStorage(int lps) const { return std::find(spaces.begin(), spaces.end(), lps) != spaces.end(); }

const ArrayStorage::TurnCopy* ArrayStorage::turnCopy(int lps) const {
    auto it = turnCopies.find(lps);
    return it == turnCopies.end() ? nullptr : &it->second;
}

int StoragePlan::storageOf(const std::string& array, int lps) const {
    auto it = arrays.find(array);
    if (it == arrays.end())
        return kNoLps;
    auto s = it->second.storageOf.find(lps);
    return s == it->second.storageOf.end() ? kNoLps : s->second;
}

std::set<int> stridedDimensions(const StoragePlan& storage, const LpsTree& lps, const std::string& array, int space) {
    std::set<int> out;
    auto it = storage.arrays.find(array);
    if (it == storage.arrays.end() || it->second.home == kNoLps)
        return out;
    int start = it->second.home;
    if (space >= 0)
        if (auto s = it->second.storageOf.find(space); s != it->second.storageOf.end())
            start = it->second.turnCopy(space) ? space : s->second;
    for (int l = start; l > 0; l = lps.at(l).parent) {
        const ArrayPartition* ap = lps.at(l).find(array);
        if (!ap)
            continue;
        for (const auto& di : ap->instructions)
            if (di.strided())
                out.insert(di.arrayDim - 1);
    }
    return out;
}

namespace {

// Why the parts of `array` in `lps` cannot be views into its parent's, or "" when they can.
std::string viewObstacle(const LpsTree& lps, int space, const std::string& array, int versions,
                         const SameMemory& inMemoryOf, int parentStorage) {
    const Lps& l = lps.at(space);
    if (versions > 1)
        return "`" + array + "` keeps epoch versions";
    if (l.subpartition && l.subpartition->find(array))
        return "it sub-partitions `" + array + "`";
    if (const ArrayPartition* ap = l.find(array)) {
        if (ap->padded())
            return "it pads `" + array + "`";
        for (const DimInstruction& di : ap->instructions)
            if (di.strided())
                return di.text() + " parts are not contiguous";
    }
    // Views address a box of the parent's part; a part split by stride() or block_stride() on
    // the way down is no box (also between the space and its parent's storage: a parent that
    // works in turn copies is no storage).
    for (int up = l.parent; up > 0; up = lps.at(up).parent)
        if (const ArrayPartition* ap = lps.at(up).find(array))
            for (const DimInstruction& di : ap->instructions)
                if (di.strided())
                    return "the parts of Space " + lps.at(up).name + " (" + di.text() + ") are not contiguous";
    if (!inMemoryOf(parentStorage, space)) {
        const std::string parent = lps.at(l.parent).name;
        const std::string holder = lps.at(parentStorage).name;
        return "the mapping may place its LPUs in another process than their Space " + parent + " LPU" +
               (holder == parent ? "" : " (whose parts of `" + array + "` Space " + holder + " holds)");
    }
    return "";
}

} // namespace

StoragePlan planStorage(const TaskGlobals& globals, const LpsTree& lps, const DataUsage& usage,
                        const std::map<std::string, int>& versionDepth, const SameMemory& inMemoryOf) {
    StoragePlan plan;
    // Whether stages of `space` write `array`.
    auto writes = [&](int space, const std::string& array) {
        for (const FlowAccess& a : usage.accesses)
            if (const VarAccess* v = a.find(array); v && v->written && a.lps == space)
                return true;
        return false;
    };
    std::map<std::string, std::vector<int>> users; // in order of first use
    // Stages use arrays, and so do conditions and Repeat headers that read their elements
    // (`If x[n] > 0`): the LPUs evaluating them hold parts too.
    for (const FlowAccess& a : usage.accesses) {
        for (const VarAccess& v : a.vars) {
            const TaskGlobal* g = globals.find(v.var);
            if (!g || !g->isArray() || g->isReduction)
                continue;
            auto& u = users[v.var];
            // A space that divides its parent's sub-partitions works in the parent's current
            // sub-partition: the parent holds the data, whether or not its own stages use it. So
            // do the spaces between that parent and a space below the divider, which views their
            // parts turn by turn.
            for (int t = a.lps; t > 0; t = lps.at(t).parent) {
                if (!lps.at(t).dividesSubpartitions)
                    continue;
                std::vector<int> holders; // from the space just above a.lps up to t's parent
                for (int x = lps.at(a.lps).parent;; x = lps.at(x).parent) {
                    holders.push_back(x);
                    if (x == lps.at(t).parent)
                        break;
                }
                for (auto h = holders.rbegin(); h != holders.rend(); ++h)
                    if (std::find(u.begin(), u.end(), *h) == u.end())
                        u.push_back(*h);
                break;
            }
            if (std::find(u.begin(), u.end(), a.lps) == u.end())
                u.push_back(a.lps);
            ArrayStorage& st = plan.arrays[v.var];
            st.array = v.var;
            st.environmental = g->environment.has_value();
            if (v.written)
                st.written = true;
        }
    }
    for (auto& [array, spaces] : users) {
        ArrayStorage& st = plan.arrays[array];
        // Home: the space above all other users, else the first user in flow order.
        st.home = spaces.front();
        for (int l : spaces)
            if (std::all_of(spaces.begin(), spaces.end(), [&](int m) { return m == l || lps.isProperAncestor(l, m); }))
                st.home = l;
        st.spaces.push_back(st.home);
        st.storageOf[st.home] = st.home;
        auto vd = versionDepth.find(array);
        const int versions = vd == versionDepth.end() ? 1 : vd->second;
        std::vector<int> rest;
        for (int l : spaces)
            if (l != st.home)
                rest.push_back(l);
        std::stable_sort(rest.begin(), rest.end(), [&](int a, int b) { return lps.depth(a) < lps.depth(b); });
        for (int l : rest) {
            const int parent = lps.at(l).parent;
            auto p = st.storageOf.find(parent);
            if (p != st.storageOf.end()) {
                // Below a space working in turn copies, the cells of the turn are in those.
                std::string why = st.turnCopies.count(parent)
                                      ? "Space " + lps.at(parent).name + " works in a copy of its part"
                                      : viewObstacle(lps, l, array, versions, inMemoryOf, p->second);
                if (why.empty() || lps.changesEveryTurn(l)) {
                    st.storageOf[l] = p->second;
                    if (!why.empty()) {
                        const bool written = writes(l, array);
                        st.turnCopies[l] = {why, written};
                        // What it writes into its parent's copy returns with that one.
                        for (int up = parent; written && st.turnCopies.count(up); up = lps.at(up).parent)
                            st.turnCopies[up].writtenBack = true;
                    }
                    continue;
                }
                st.ownParts.push_back({l, why});
            }
            st.storageOf[l] = l;
            st.spaces.push_back(l);
        }
    }
    return plan;
}

} // namespace itc::semantic
