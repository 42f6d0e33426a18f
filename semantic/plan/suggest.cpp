// Implements suggest.h. Part shapes follow the guide's table of partition functions (Partition
// functions): a child space divides its parent's part; `U` is the PPUs its PPS has inside one PPU
// of the parent's PPS.
#include "semantic/plan/suggest.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <set>

namespace itc::semantic {
namespace {

using Args = std::map<std::string, std::int64_t>;
using Extents = std::vector<std::int64_t>;

// Bytes of one element; objects count 8 bytes per field at most (a rough working-set size).
std::uint64_t elementBytes(const Type& t) {
    switch (t.kind) {
    case TypeKind::Character:
    case TypeKind::Boolean: return 1;
    case TypeKind::Integer:
    case TypeKind::RealSingle: return 4;
    default: return 8;
    }
}

std::int64_t ceilDiv(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// Counts and extents of the whole search for one argument tuple.
class Evaluator {
public:
    Evaluator(const TaskPlan& plan, const TaskInfo& info, const pcubes::MachineModel& machine,
              const std::map<std::string, Extents>& sizes)
        : plan_(plan), info_(info), machine_(machine), sizes_(sizes) {}

    // The score of `args` (lower is better), filling `out` with the per-space facts.
    double score(const Args& args, std::vector<SuggestedSpace>* out) {
        args_ = &args;
        memo_.clear();
        disagree_ = false;
        double total = 0;
        const LpsTree& tree = plan_.lps;
        for (std::size_t s = 1; s < tree.spaces.size(); ++s) {
            const Lps& l = tree.spaces[s];
            const auto& placement = plan_.spaces[s].placement;
            if (!placement || l.unpartitioned)
                continue;
            double balance = 1.0;
            const std::uint64_t lpus = lpuCount(static_cast<int>(s), &balance);
            const std::uint64_t ppus = std::max<std::uint64_t>(placement->ppus, 1);
            SuggestedSpace sp{l.name, lpus, ppus, placement->ppsName, 0, std::nullopt, 0};
            // Load balance: the share of the PPUs' time spent working, with LPUs dealt evenly
            // (idle PPUs, PPUs given one LPU more than others) and parts of unequal size.
            const double rounds =
                static_cast<double>(ceilDiv(static_cast<std::int64_t>(lpus), static_cast<std::int64_t>(ppus)));
            const double busy = static_cast<double>(lpus) / (rounds * static_cast<double>(ppus)) * balance;
            total += 4.0 * (1.0 / std::max(busy, 1e-6) - 1.0);
            // Cache fit of one LPU's working set (its current sub-partition piece when it has them).
            sp.subpartitions = l.subpartition ? subpartitionCount(l) : 0;
            for (const ArrayPartition& ap : l.arrays) {
                Extents e = extents(static_cast<int>(s), ap.array);
                // Rows are contiguous: a part that cuts the last dimension short streams shorter
                // runs (and pays its padding on more rows) than one cut along the others.
                const Extents whole = sizes_.at(ap.array);
                if (!e.empty() && !whole.empty() && e.back() < whole.back())
                    total += 0.1 * std::log2(static_cast<double>(whole.back()) / static_cast<double>(e.back()));
                if (l.subpartition)
                    if (const ArrayPartition* sub = l.subpartition->find(ap.array))
                        e = split(*sub, e, 1, nullptr);
                std::uint64_t n = 1;
                for (std::int64_t x : e)
                    n *= static_cast<std::uint64_t>(std::max<std::int64_t>(x, 1));
                sp.bytesPerLpu += n * bytesOf(ap.array);
            }
            if (const pcubes::Level* level = machine_.level(placement->pps))
                sp.cache = level->property(pcubes::PropertyId::Cache);
            if (sp.cache && sp.bytesPerLpu > *sp.cache)
                total += 0.3 + std::log2(static_cast<double>(sp.bytesPerLpu) / static_cast<double>(*sp.cache));
            // Then fewer, larger LPUs and pieces: less per-LPU and per-turn overhead.
            if (lpus > ppus)
                total += 0.05 * std::log2(static_cast<double>(lpus) / static_cast<double>(ppus));
            if (sp.subpartitions > 1)
                total += 0.02 * std::log2(static_cast<double>(sp.subpartitions));
            if (out)
                out->push_back(sp);
        }
        // Arrays split along one space dimension into different numbers of parts: the task
        // would stop at launch.
        return disagree_ ? std::numeric_limits<double>::infinity() : total;
    }

private:
    std::uint64_t bytesOf(const std::string& array) const {
        for (const GlobalInfo& g : info_.globals)
            if (g.name == array)
                return elementBytes(g.type.isArray() ? g.type.elementType() : g.type);
        return 8;
    }

    std::int64_t value(const SymbolicArg& a) const { return a.param ? args_->at(*a.param) : a.literal; }

    // Applies `ap`'s instructions to `parent` (extents per array dimension); `counts`, when given,
    // receives the part count of each space dimension the array's instruction splits.
    // `balance`, when given, is multiplied by the mean over the largest part size of each counted
    // dimension (1 when the parts are equal; a 2048-and-2 split gives about 0.5).
    Extents split(const ArrayPartition& ap, Extents parent, std::uint64_t u, std::vector<std::int64_t>* counts,
                  double* balance = nullptr) const {
        if (ap.whole)
            return parent;
        for (std::size_t i = 0; i < ap.instructions.size(); ++i) {
            const DimInstruction& d = ap.instructions[i];
            if (d.replicated || d.arrayDim < 1 || static_cast<std::size_t>(d.arrayDim) > parent.size())
                continue;
            std::int64_t& e = parent[static_cast<std::size_t>(d.arrayDim - 1)];
            const std::int64_t n = std::max<std::int64_t>(e, 1);
            std::int64_t count = 1;
            switch (d.function) {
            case ast::PartitionFunction::BlockSize: {
                const std::int64_t s = std::max<std::int64_t>(value(*d.argument), 1);
                count = ceilDiv(n, s);
                e = std::min(s, n);
                break;
            }
            case ast::PartitionFunction::BlockCount: {
                count = std::clamp<std::int64_t>(value(*d.argument), 1, n);
                e = n - (count - 1) * (n / count);
                break;
            }
            case ast::PartitionFunction::Stride:
                count = std::min<std::int64_t>(static_cast<std::int64_t>(u), n);
                e = ceilDiv(n, count);
                break;
            case ast::PartitionFunction::BlockStride: {
                const std::int64_t s = std::max<std::int64_t>(value(*d.argument), 1);
                count = std::min<std::int64_t>(static_cast<std::int64_t>(u), ceilDiv(n, s));
                e = std::min(n, ceilDiv(ceilDiv(n, s), count) * s);
                break;
            }
            }
            const std::int64_t largestPart = e;
            // Padding stops at the array's ends: a part holds at most the whole dimension.
            if (d.paddingFront)
                e += value(*d.paddingFront);
            if (d.paddingBack)
                e += value(*d.paddingBack);
            e = std::min(e, n);
            if (counts && i < counts->size() && (*counts)[i] == 0) {
                (*counts)[i] = count;
                if (balance)
                    *balance *= static_cast<double>(n) / static_cast<double>(count) /
                                static_cast<double>(std::max<std::int64_t>(largestPart, 1));
            } else if (counts && i < counts->size() && (*counts)[i] != count) {
                disagree_ = true;
            }
        }
        return parent;
    }

    // Extents of `array`'s parts in the LPUs of space `s`.
    Extents extents(int s, const std::string& array) {
        const LpsTree& tree = plan_.lps;
        const int cfg = tree.configuringSpace(s, array);
        if (cfg == kRootLps || cfg == kNoLps)
            return sizes_.at(array);
        auto key = std::make_pair(cfg, array);
        if (auto it = memo_.find(key); it != memo_.end())
            return it->second;
        const Lps& l = tree.at(cfg);
        Extents parent = extents(l.parent, array);
        const ArrayPartition* ap = l.find(array);
        Extents e = ap ? split(*ap, parent, ppusPerParent(cfg), nullptr) : parent;
        memo_[key] = e;
        return e;
    }

    std::uint64_t ppusPerParent(int s) const {
        const auto& p = plan_.spaces.at(static_cast<std::size_t>(s)).placement;
        return p ? std::max<std::uint64_t>(p->ppusPerParentPpu, 1) : 1;
    }

    // LPUs of space `s` in the whole task; `balance` (when given) as in split().
    std::uint64_t lpuCount(int s, double* balance = nullptr) {
        if (s == kRootLps)
            return 1;
        const Lps& l = plan_.lps.at(s);
        std::uint64_t n = lpuCount(l.parent);
        if (l.unpartitioned)
            return n;
        std::vector<std::int64_t> counts(static_cast<std::size_t>(l.dims), 0);
        for (const ArrayPartition& ap : l.arrays)
            split(ap, extents(l.parent, ap.array), ppusPerParent(s), &counts, balance);
        for (std::int64_t c : counts)
            n *= static_cast<std::uint64_t>(std::max<std::int64_t>(c, 1));
        return n;
    }

    std::uint64_t subpartitionCount(const Lps& l) {
        const int s = plan_.lps.find(l.name);
        std::vector<std::int64_t> counts(static_cast<std::size_t>(l.subpartition->dims), 0);
        for (const ArrayPartition& ap : l.subpartition->arrays)
            split(ap, extents(s, ap.array), 1, &counts);
        std::uint64_t n = 1;
        for (std::int64_t c : counts)
            n *= static_cast<std::uint64_t>(std::max<std::int64_t>(c, 1));
        return n;
    }

    const TaskPlan& plan_;
    const TaskInfo& info_;
    const pcubes::MachineModel& machine_;
    const std::map<std::string, Extents>& sizes_;
    const Args* args_ = nullptr;
    std::map<std::pair<int, std::string>, Extents> memo_;
    mutable bool disagree_ = false; // split() found two part counts for one space dimension
};

// Every array partition of the task (spaces and their sub-partitions).
void forEachPartition(const LpsTree& tree, const std::function<void(const ArrayPartition&)>& f) {
    for (const Lps& l : tree.spaces) {
        for (const ArrayPartition& ap : l.arrays)
            f(ap);
        if (l.subpartition)
            for (const ArrayPartition& ap : l.subpartition->arrays)
                f(ap);
    }
}

std::string bytesText(std::uint64_t b) {
    if (b >= (1ull << 30) && b % (1ull << 20) == 0)
        return fmt::format("{:.1f} GiB", static_cast<double>(b) / (1ull << 30));
    if (b >= (1ull << 20))
        return fmt::format("{:.1f} MiB", static_cast<double>(b) / (1ull << 20));
    if (b >= 1024)
        return fmt::format("{:.1f} KiB", static_cast<double>(b) / 1024);
    return fmt::format("{} B", b);
}

} // namespace

Suggestion suggestPartition(const TaskPlan& plan, const TaskInfo& info, const pcubes::MachineModel& machine,
                            const std::map<std::string, std::vector<std::int64_t>>& sizes) {
    Suggestion out;
    out.task = plan.task;
    const LpsTree& tree = plan.lps;
    // Which arrays need a size, and which parameters split (searched) or pad (given).
    std::set<std::string> arrays, splitting, padding;
    std::map<std::string, std::int64_t> largest; // parameter -> longest array dimension it splits
    std::set<std::string> counts;                // parameters of block_count
    forEachPartition(tree, [&](const ArrayPartition& ap) {
        arrays.insert(ap.array);
        for (const DimInstruction& d : ap.instructions) {
            if (d.argument && d.argument->param) {
                splitting.insert(*d.argument->param);
                if (d.function == ast::PartitionFunction::BlockCount)
                    counts.insert(*d.argument->param);
                if (auto it = sizes.find(ap.array);
                    it != sizes.end() && d.arrayDim >= 1 && static_cast<std::size_t>(d.arrayDim) <= it->second.size())
                    largest[*d.argument->param] =
                        std::max(largest[*d.argument->param], it->second[static_cast<std::size_t>(d.arrayDim - 1)]);
            }
            for (const auto& pad : {d.paddingFront, d.paddingBack})
                if (pad && pad->param)
                    padding.insert(*pad->param);
        }
    });
    std::vector<std::string> missing;
    for (const std::string& a : arrays) {
        auto it = sizes.find(a);
        int dims = 0;
        for (const GlobalInfo& g : info.globals)
            if (g.name == a && g.type.isArray())
                dims = g.type.arrayDims();
        if (it == sizes.end())
            missing.push_back(a + " (" + std::to_string(dims) + "d)");
        else if (dims && static_cast<int>(it->second.size()) != dims)
            missing.push_back(a + " (" + std::to_string(dims) + (dims == 1 ? " dimension" : " dimensions") + ", not " +
                              std::to_string(it->second.size()) + ")");
    }
    Args fixed;
    for (const std::string& p : padding)
        if (auto it = sizes.find(p); it != sizes.end() && it->second.size() == 1)
            fixed[p] = it->second[0];
        else if (!splitting.count(p))
            missing.push_back(p + " (a padding width: the algorithm's, give it as " + p + "=N)");
    if (!missing.empty()) {
        out.problem = "give the size of ";
        for (std::size_t i = 0; i < missing.size(); ++i)
            out.problem += (i ? ", " : "") + missing[i];
        return out;
    }
    // Parameters the user fixed stay fixed; the others are searched.
    std::vector<std::string> free;
    for (const std::string& p : splitting)
        if (auto it = sizes.find(p); it != sizes.end() && it->second.size() == 1)
            fixed[p] = it->second[0];
        else
            free.push_back(p);
    // Children divide padded parts: sizes that split a length grown by the padding evenly too.
    std::int64_t padded = 0;
    for (const std::string& p : padding)
        padded += 2 * fixed[p];
    std::vector<std::vector<std::int64_t>> candidates;
    for (const std::string& p : free) {
        const std::int64_t top = std::max<std::int64_t>(largest[p], 1);
        std::set<std::int64_t> c;
        for (std::int64_t v = 1; v <= top; v *= 2)
            c.insert(v);
        for (std::int64_t j = 1; j <= 16; ++j)
            for (std::int64_t n : {top, top + padded})
                c.insert(std::max<std::int64_t>(ceilDiv(n, j), 1));
        if (counts.count(p))
            for (std::int64_t v = 1; v <= std::min<std::int64_t>(top, 64); ++v)
                c.insert(v);
        candidates.emplace_back(c.begin(), c.end());
    }
    // Thin the largest candidate lists until the search stays small.
    auto product = [&] {
        double n = 1;
        for (auto& c : candidates)
            n *= static_cast<double>(c.size());
        return n;
    };
    while (product() > 200000) {
        auto& big = *std::max_element(candidates.begin(), candidates.end(),
                                      [](auto& a, auto& b) { return a.size() < b.size(); });
        std::vector<std::int64_t> half;
        for (std::size_t i = 0; i < big.size(); i += 2)
            half.push_back(big[i]);
        if (half.back() != big.back())
            half.push_back(big.back());
        big = half;
    }
    Evaluator eval(plan, info, machine, sizes);
    double best = std::numeric_limits<double>::infinity();
    Args args = fixed;
    std::vector<std::size_t> at(free.size(), 0);
    for (;;) {
        for (std::size_t i = 0; i < free.size(); ++i)
            args[free[i]] = candidates[i][at[i]];
        double s = eval.score(args, nullptr);
        // Among near-equals, sizes that keep rows aligned for vector loads (multiples of 8).
        for (std::size_t i = 0; i < free.size(); ++i)
            if (!counts.count(free[i]) && args[free[i]] % 8 != 0 && args[free[i]] < largest[free[i]])
                s += 0.03;
        ++out.combinations;
        if (s < best - 1e-12) {
            best = s;
            out.arguments = args;
        }
        std::size_t i = 0;
        while (i < free.size() && ++at[i] == candidates[i].size())
            at[i++] = 0;
        if (i == free.size())
            break;
    }
    if (best == std::numeric_limits<double>::infinity()) {
        out.arguments.clear();
        out.problem = "no partition arguments searched give every array the same number of parts along each "
                      "space dimension (block_count, block_size and the others must agree, or the task stops at "
                      "launch); fix some of them with NAME=VALUE";
        return out;
    }
    eval.score(out.arguments, &out.spaces);
    return out;
}

std::string printSuggestion(const Suggestion& s) {
    std::string o = "Task \"" + s.task + "\"\n";
    if (!s.problem.empty())
        return o + "  no suggestion: " + s.problem + "\n";
    if (s.arguments.empty())
        return o + "  no partition parameters to choose\n";
    o += "  suggested partition arguments:";
    for (const auto& [p, v] : s.arguments)
        o += " " + p + "=" + std::to_string(v);
    o += "\n";
    for (const SuggestedSpace& sp : s.spaces) {
        auto count = [](std::uint64_t n, const char* what) {
            return fmt::format("{} {}{}", n, what, n == 1 ? "" : "s");
        };
        o += fmt::format("    Space {}: {} on {} of `{}`", sp.name, count(sp.lpus, "LPU"), count(sp.ppus, "PPU"),
                         sp.ppsName);
        if (sp.lpus >= sp.ppus)
            o += fmt::format(" ({} per PPU{})", (sp.lpus + sp.ppus - 1) / sp.ppus, sp.lpus % sp.ppus ? ", uneven" : "");
        else
            o += " (" + count(sp.ppus - sp.lpus, "PPU") + " idle)";
        o += "; one LPU works on " + bytesText(sp.bytesPerLpu);
        if (sp.subpartitions)
            o += " at a time (" + count(sp.subpartitions, "sub-partition") + ")";
        if (sp.cache)
            o += std::string(sp.bytesPerLpu <= *sp.cache ? ", within" : ", more than") + " the " +
                 bytesText(*sp.cache) + " cache of a PPU";
        o += "\n";
    }
    o += fmt::format("  ({} argument tuples scored: PPUs kept busy and evenly loaded first, then an LPU's "
                     "working set within its PPU's cache, then fewer and larger LPUs)\n",
                     s.combinations);
    return o;
}

} // namespace itc::semantic
