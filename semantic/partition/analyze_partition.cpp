// The Partition-section pass: declarations and the `divides` tree, then each data configuration
// expanded by the positional rule (guide: Replication and dimension selectors), then the per-space
// checks (guide: The Partition section, Sub-partitions).
#include "semantic/partition/analyze_partition.h"

#include "frontend/ast/ast_names.h"
#include "frontend/diagnostics/did_you_mean.h"

#include <algorithm>
#include <map>
#include <set>

namespace itc::semantic {
namespace {

std::string functionName(ast::PartitionFunction f) { return std::string(ast::partitionFunctionName(f)); }

class PartitionAnalyzer {
public:
    PartitionAnalyzer(const ast::TaskDef& task, const TaskGlobals& globals, DiagnosticEngine& diags)
        : task_(task), globals_(globals), diags_(diags) {}

    LpsTree run() {
        const ast::PartitionSection& sec = task_.partition;
        std::map<std::string, SourceRange> seenParams;
        for (const ast::Name& p : sec.params) {
            if (auto it = seenParams.find(p.text); it != seenParams.end()) {
                auto& d = diags_.error(DiagKind::PartitionParamDuplicate, p.range,
                                       "partition parameter `{}` is listed twice; remove one", p.text);
                DiagnosticEngine::addNote(d, it->second, "first listed here");
                continue;
            }
            seenParams.emplace(p.text, p.range);
            tree_.params.push_back(p.text);
        }

        Lps root;
        root.name = "Root";
        root.range = sec.range;
        tree_.spaces.push_back(root);

        // Where each letter is first declared, so that "declared later" and "never declared"
        // can be told apart.
        std::map<std::string, std::size_t> firstDecl;
        for (std::size_t i = 0; i < sec.spaces.size(); ++i)
            firstDecl.emplace(sec.spaces[i].space.text, i);

        for (std::size_t i = 0; i < sec.spaces.size(); ++i) {
            const ast::SpaceConfig& sc = sec.spaces[i];
            if (firstDecl[sc.space.text] != i) {
                auto& d = diags_.error(DiagKind::SpaceRedeclared, sc.space.range,
                                       "`Space {}` is declared twice in the Partition section; "
                                       "give each space one configuration",
                                       sc.space.text);
                DiagnosticEngine::addNote(d, sec.spaces[firstDecl[sc.space.text]].space.range, "first declared here");
                continue;
            }
            addSpace(sc, firstDecl, i);
        }
        return std::move(tree_);
    }

private:
    void addSpace(const ast::SpaceConfig& sc, const std::map<std::string, std::size_t>& firstDecl,
                  std::size_t position) {
        Lps lps;
        lps.name = sc.space.text;
        lps.unpartitioned = sc.unpartitioned;
        lps.dims = sc.unpartitioned ? 0 : sc.dimensionality;
        lps.isDynamic = sc.isDynamic;
        lps.range = sc.range;
        lps.parent = kRootLps;
        lps.dividesSubpartitions = sc.dividesSubpartitions;
        if (sc.parent) {
            const std::string& p = sc.parent->text;
            auto it = firstDecl.find(p);
            // A `divides` naming the space itself, an undeclared space or a later one was reported
            // by the checker (reportSpaceParents); such a space divides Root here.
            if (p != sc.space.text && it != firstDecl.end() && it->second < position) {
                lps.parent = tree_.find(p);
                if (lps.parent == kNoLps) // the parent itself was rejected (redeclared)
                    lps.parent = kRootLps;
                const Lps& parent = tree_.at(lps.parent);
                if (sc.dividesSubpartitions && lps.parent != kRootLps && !parent.subpartition &&
                    !task_.partition.spaces[it->second].subpartition) {
                    auto& d = diags_.error(DiagKind::SubpartitionParentMissing, sc.parent->range,
                                           "`Space {}` divides `Space {}` sub-partitions, but "
                                           "`Space {}` has no `Sub-partition`; add one to it or "
                                           "write `partitions`",
                                           sc.space.text, p, p);
                    DiagnosticEngine::addNote(d, parent.range, "`Space " + p + "` is declared here");
                }
            }
        }

        std::set<std::string> configured;
        if (sc.unpartitioned) {
            // Instructions here are a syntax error (BadSpaceBody), reported by the parser.
            for (const ast::Name& n : sc.bareNames) {
                const TaskGlobal* g = globals_.find(n.text);
                if (!g) {
                    diags_.error(DiagKind::PartitionVariableUnknown, n.range,
                                 "`{}` is not a task-global of this task; {}declare it in "
                                 "Define or remove it here",
                                 n.text, didYouMeanOtherwise(n.text, namesOf(globals_.byName)));
                    continue;
                }
                if (!g->isArray())
                    continue; // listed scalars and lists are ignored (guide: The Partition section)
                if (!configured.insert(n.text).second) {
                    diags_.error(DiagKind::ArrayConfiguredTwice, n.range,
                                 "`{}` is listed twice in `Space {}`; list it once", n.text, sc.space.text);
                    continue;
                }
                ArrayPartition ap;
                ap.array = n.text;
                ap.arrayDims = g->dims;
                ap.whole = true;
                ap.range = n.range;
                lps.arrays.push_back(ap);
            }
        } else {
            // Bare names here are a syntax error (BadSpaceBody), reported by the parser.
            bool ok =
                configureAll(sc.configs, lps.dims, sc.space.text, "", false, configured, lps.arrays, lps.erroneous);
            if (ok)
                checkAllDimsSplit(lps.arrays, lps.dims, sc.range, "`Space " + sc.space.text + "`");
            if (sc.subpartition) {
                const ast::SubpartitionConfig& sp = *sc.subpartition;
                SubpartitionModel sm;
                sm.dims = sp.dimensionality;
                sm.order = sp.order;
                sm.range = sp.range;
                std::set<std::string> subConfigured;
                bool subOk = configureAll(sp.configs, sp.dimensionality, sc.space.text, "the Sub-partition of ", true,
                                          subConfigured, sm.arrays, lps.erroneous);
                // An array the space names with a configuration already reported as wrong is
                // configured there, only wrongly: no second error.
                std::set<std::string> named;
                for (const ast::DataConfig& c : sc.configs)
                    for (const ast::VarSelector& v : c.variables)
                        named.insert(v.variable.text);
                for (const ArrayPartition& ap : sm.arrays)
                    if (!configured.count(ap.array) && !named.count(ap.array)) {
                        auto& d = diags_.error(DiagKind::SubpartitionArrayNotInSpace, ap.range,
                                               "the Sub-partition of `Space {}` configures `{}`, which `Space {}` "
                                               "itself does not configure; configure it in the space too",
                                               sc.space.text, ap.array, sc.space.text);
                        DiagnosticEngine::addNote(d, sc.space.range, "the space is declared here");
                        subOk = false;
                    }
                if (subOk)
                    checkAllDimsSplit(sm.arrays, sm.dims, sp.range,
                                      "the Sub-partition of `Space " + sc.space.text + "`");
                lps.subpartition = std::move(sm);
            }
        }
        int id = static_cast<int>(tree_.spaces.size());
        tree_.spaces[static_cast<std::size_t>(lps.parent)].children.push_back(id);
        tree_.spaces.push_back(std::move(lps));
    }

    // Expands and stores every data configuration of one space or sub-partition. Returns false
    // when an instruction list had the wrong length (so the unsplit check would only cascade).
    bool configureAll(const std::vector<ast::DataConfig>& configs, int dims, const std::string& space,
                      const std::string& where, bool inSub, std::set<std::string>& configured,
                      std::vector<ArrayPartition>& out, std::vector<std::string>& erroneous) {
        bool ok = true;
        auto markErroneous = [&](const ast::DataConfig& dc) {
            for (const ast::VarSelector& vs : dc.variables)
                erroneous.push_back(vs.variable.text);
        };
        std::map<std::string, SourceRange> firstSeen;
        for (const ast::DataConfig& dc : configs) {
            std::vector<DimInstruction> expanded;
            if (!expand(dc, inSub, expanded)) {
                ok = false;
                markErroneous(dc);
                continue;
            }
            if (static_cast<int>(expanded.size()) != dims) {
                diags_.error(DiagKind::InstructionCount, dc.range,
                             "{}`Space {}` has {} dimension{}, but this list has {} instruction{} "
                             "after expanding shorthands; write exactly one per space dimension "
                             "(`replicated` for none)",
                             where, space, dims, dims == 1 ? "" : "s", expanded.size(),
                             expanded.size() == 1 ? "" : "s");
                ok = false;
                markErroneous(dc);
                continue;
            }
            int functions = 0;
            for (const DimInstruction& di : expanded)
                functions += di.replicated ? 0 : 1;
            for (const ast::VarSelector& vs : dc.variables) {
                const std::string& name = vs.variable.text;
                const TaskGlobal* g = globals_.find(name);
                if (!g) {
                    diags_.error(DiagKind::PartitionVariableUnknown, vs.variable.range,
                                 "`{}` is not a task-global of this task; {}declare it in "
                                 "Define or remove it here",
                                 name, didYouMeanOtherwise(name, namesOf(globals_.byName)));
                    continue;
                }
                if (!g->isArray()) {
                    auto& d = diags_.error(DiagKind::PartitionVariableNotArray, vs.variable.range,
                                           "`{}` is not an array, so it cannot be partitioned; "
                                           "remove it (scalars and lists are replicated "
                                           "automatically)",
                                           name);
                    DiagnosticEngine::addNote(d, g->declared, "declared here");
                    continue;
                }
                if (auto it = firstSeen.find(name); it != firstSeen.end()) {
                    auto& d = diags_.error(DiagKind::ArrayConfiguredTwice, vs.variable.range,
                                           "`{}` is configured twice in {}`Space {}`; give it one "
                                           "data configuration",
                                           name, where, space);
                    DiagnosticEngine::addNote(d, it->second, "first configured here");
                    continue;
                }
                firstSeen.emplace(name, vs.variable.range);
                ArrayPartition ap;
                ap.array = name;
                ap.arrayDims = g->dims;
                ap.range = vs.range.valid() ? vs.range : dc.range;
                ap.instructions = expanded;
                if (!assignArrayDims(vs, *g, functions, ap)) {
                    ok = false;
                    erroneous.push_back(name);
                    continue;
                }
                configured.insert(name);
                out.push_back(std::move(ap));
            }
        }
        return ok;
    }

    // The positional rule, step 2 (guide: Replication and dimension selectors).
    bool assignArrayDims(const ast::VarSelector& vs, const TaskGlobal& g, int functions, ArrayPartition& ap) {
        if (!vs.dimensions.empty()) {
            if (static_cast<int>(vs.dimensions.size()) != functions) {
                diags_.error(DiagKind::DimSelectorCount, vs.range,
                             "`{}` selects {} dimension{}, but the list has {} partition "
                             "function{}; select one array dimension per partition function",
                             vs.variable.text, vs.dimensions.size(), vs.dimensions.size() == 1 ? "" : "s", functions,
                             functions == 1 ? "" : "s");
                return false;
            }
            std::set<int> seen;
            for (int d : vs.dimensions) {
                if (d < 1 || d > g.dims) {
                    diags_.error(DiagKind::DimSelectorInvalid, vs.range,
                                 "`{}` has {} dimension{}, so `dim{}` does not exist; select "
                                 "`dim1`{}",
                                 vs.variable.text, g.dims, g.dims == 1 ? "" : "s", d,
                                 g.dims > 1 ? " to `dim" + std::to_string(g.dims) + "`" : "");
                    return false;
                }
                if (!seen.insert(d).second) {
                    diags_.error(DiagKind::DimSelectorRepeated, vs.range,
                                 "`{}` selects `dim{}` twice; each selected dimension must be "
                                 "different",
                                 vs.variable.text, d);
                    return false;
                }
            }
            std::size_t k = 0;
            for (DimInstruction& di : ap.instructions)
                if (!di.replicated)
                    di.arrayDim = vs.dimensions[k++];
            return true;
        }
        int t = 0;
        for (DimInstruction& di : ap.instructions) {
            ++t;
            if (di.replicated)
                continue;
            if (t > g.dims) {
                diags_.error(DiagKind::ArrayTooFewDimensions, vs.range,
                             "the partition function at position {} splits dimension {} of `{}`, "
                             "which has only {} dimension{}; select dimensions with `{}<dimN>` "
                             "or use `replicated` there",
                             t, t, vs.variable.text, g.dims, g.dims == 1 ? "" : "s", vs.variable.text);
                return false;
            }
            di.arrayDim = t;
        }
        return true;
    }

    std::optional<SymbolicArg> symbolic(const ast::PartitionArg& a, bool isPadding) {
        SymbolicArg s;
        if (a.param) {
            if (std::find(tree_.params.begin(), tree_.params.end(), a.param->text) == tree_.params.end()) {
                diags_.error(DiagKind::PartitionParamUnknown, a.param->range,
                             "`{}` is not a parameter of this Partition section; {}add it to "
                             "`Partition (...)` or use an integer constant (see the guide: "
                             "Partition functions)",
                             a.param->text, didYouMeanOtherwise(a.param->text, tree_.params));
                return std::nullopt;
            }
            s.param = a.param->text;
            return s;
        }
        s.literal = a.literal;
        if (isPadding ? a.literal < 0 : a.literal <= 0) {
            if (isPadding)
                diags_.error(DiagKind::PartitionArgNotPositive, a.range, "a padding of {} is negative; use 0 or more",
                             a.literal);
            else
                diags_.error(DiagKind::PartitionArgNotPositive, a.range,
                             "a partition-function argument of {} is not positive; use 1 or more", a.literal);
            return std::nullopt;
        }
        return s;
    }

    // The positional rule, step 1: shorthand expansion, with arity and padding checks.
    bool expand(const ast::DataConfig& dc, bool inSub, std::vector<DimInstruction>& out) {
        bool ok = true;
        for (const ast::PartitionInstruction& pi : dc.instructions) {
            if (pi.replicated) {
                DimInstruction di;
                di.replicated = true;
                out.push_back(di);
                continue;
            }
            std::string fn = functionName(pi.function);
            bool isStrided =
                pi.function == ast::PartitionFunction::Stride || pi.function == ast::PartitionFunction::BlockStride;
            if (inSub && isStrided) {
                diags_.error(DiagKind::SubpartitionFunctionNotAllowed, pi.functionRange,
                             "`{}` cannot be used in a Sub-partition; use `block_size`, "
                             "`block_count` or `replicated` (see the guide: Sub-partitions)",
                             fn);
                ok = false;
                continue;
            }
            bool hasPadding = pi.paddingFront.has_value() || pi.paddingBack.has_value();
            if (hasPadding && inSub) {
                diags_.error(DiagKind::SubpartitionPadding, pi.paddingRange,
                             "sub-partitions take no padding; remove `padding(...)` (see the "
                             "guide: Sub-partitions)");
                ok = false;
                continue;
            }
            if (hasPadding && isStrided) {
                diags_.error(DiagKind::PaddingNotAllowed, pi.paddingRange,
                             "`{}` parts are not intervals, so they take no padding; remove "
                             "`padding(...)` or use `block_size`/`block_count` (see the guide: Padding)",
                             fn);
                ok = false;
                continue;
            }
            if (pi.function == ast::PartitionFunction::Stride && !pi.args.empty()) {
                diags_.error(DiagKind::PartitionFunctionArity, pi.range,
                             "`stride()` takes no arguments: its part count comes from the "
                             "mapping; write `stride()` (see the guide: Partition functions)");
                ok = false;
                continue;
            }
            if (pi.function != ast::PartitionFunction::Stride && pi.args.empty()) {
                diags_.error(DiagKind::PartitionFunctionArity, pi.range,
                             "`{}` needs at least one argument, e.g. `{}(k)`", fn, fn);
                ok = false;
                continue;
            }
            std::optional<SymbolicArg> front, back;
            if (pi.paddingFront) {
                front = symbolic(*pi.paddingFront, true);
                ok = ok && front;
            }
            if (pi.paddingBack) {
                back = symbolic(*pi.paddingBack, true);
                ok = ok && back;
            } else if (front) {
                back = front; // padding(p) == padding(p, p)
            }
            if (pi.args.empty()) {
                DimInstruction di;
                di.function = pi.function;
                out.push_back(di);
                continue;
            }
            for (const ast::PartitionArg& a : pi.args) {
                DimInstruction di;
                di.function = pi.function;
                di.argument = symbolic(a, false);
                ok = ok && di.argument;
                di.paddingFront = front;
                di.paddingBack = back;
                out.push_back(di);
            }
        }
        return ok;
    }

    void checkAllDimsSplit(const std::vector<ArrayPartition>& arrays, int dims, SourceRange at,
                           const std::string& what) {
        for (int t = 1; t <= dims; ++t) {
            bool split = false;
            for (const ArrayPartition& ap : arrays)
                if (!ap.instructions[static_cast<std::size_t>(t - 1)].replicated)
                    split = true;
            if (!split)
                diags_.error(DiagKind::SpaceDimensionUnsplit, at,
                             "no array is split along dimension {} of {}, so its LPU count is "
                             "undefined; give some array a partition function at position {} or "
                             "lower the dimensionality",
                             t, what, t);
        }
    }

    const ast::TaskDef& task_;
    const TaskGlobals& globals_;
    DiagnosticEngine& diags_;
    LpsTree tree_;
};

} // namespace

void reportSpaceParents(const ast::PartitionSection& sec, DiagnosticEngine& diags) {
    std::map<std::string, std::size_t> firstDecl;
    for (std::size_t i = 0; i < sec.spaces.size(); ++i)
        firstDecl.emplace(sec.spaces[i].space.text, i);
    // The space `letter` divides, when its clause names a declared space.
    auto parentOf = [&](const std::string& letter) -> std::string {
        auto it = firstDecl.find(letter);
        const ast::SpaceConfig& sc = sec.spaces[it->second];
        return sc.parent && firstDecl.count(sc.parent->text) ? sc.parent->text : "";
    };
    for (std::size_t position = 0; position < sec.spaces.size(); ++position) {
        const ast::SpaceConfig& sc = sec.spaces[position];
        if (!sc.parent || firstDecl[sc.space.text] != position)
            continue;
        const std::string& p = sc.parent->text;
        auto it = firstDecl.find(p);
        if (p == sc.space.text) {
            diags.error(DiagKind::SpaceParentOrder, sc.parent->range,
                        "`Space {}` divides itself; name the space it splits, or drop `divides` to divide Root", p);
        } else if (it == firstDecl.end()) {
            std::vector<std::string> declared;
            for (const auto& [letter, at] : firstDecl)
                if (at < position)
                    declared.push_back("`Space " + letter + "`");
            diags.error(DiagKind::SpaceParentUnknown, sc.parent->range,
                        "`Space {}` divides `Space {}`, which the Partition section does not declare; declare "
                        "it, or name a declared space{}",
                        sc.space.text, p, declared.empty() ? "" : " (" + joinOr(declared) + ")");
        } else if (it->second > position) {
            // Following the later space's parents back to this one is a cycle: no order helps.
            std::string q = p;
            for (std::size_t steps = 0; !q.empty() && q != sc.space.text && steps < sec.spaces.size(); ++steps)
                q = parentOf(q);
            if (q == sc.space.text) {
                auto& d = diags.error(DiagKind::SpaceParentOrder, sc.parent->range,
                                      "`Space {}` and `Space {}` divide each other (through their `divides` "
                                      "clauses); spaces form a tree: let one of them divide Root or a space "
                                      "declared before both",
                                      sc.space.text, p);
                DiagnosticEngine::addNote(d, sec.spaces[it->second].space.range, "declared here");
                continue;
            }
            auto& d = diags.error(DiagKind::SpaceParentOrder, sc.parent->range,
                                  "`Space {}` divides `Space {}`, which is declared after it; declare `Space {}` first",
                                  sc.space.text, p, p);
            DiagnosticEngine::addNote(d, sec.spaces[it->second].space.range, "declared here");
        }
    }
}

LpsTree analyzePartition(const ast::TaskDef& task, const TaskGlobals& globals, DiagnosticEngine& diags) {
    return PartitionAnalyzer(task, globals, diags).run();
}

} // namespace itc::semantic
