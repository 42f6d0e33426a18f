// Queries and display text of the LPS tree (lps_tree.h). Pure functions of the data; no checks.
#include "semantic/partition/lps_tree.h"

#include "frontend/ast/ast_names.h"

namespace itc::semantic {

std::string DimInstruction::text() const {
    if (replicated)
        return "replicated";
    std::string s(ast::partitionFunctionName(function));
    s += "(" + (argument ? argument->text() : std::string()) + ")";
    if (padded()) {
        std::string f = paddingFront ? paddingFront->text() : "0";
        std::string b = paddingBack ? paddingBack->text() : "0";
        s += f == b ? " padding(" + f + ")" : " padding(" + f + ", " + b + ")";
    }
    return s;
}

bool ArrayPartition::padded() const {
    for (const DimInstruction& i : instructions)
        if (i.padded())
            return true;
    return false;
}

bool ArrayPartition::hasReplicatedDim() const {
    for (const DimInstruction& i : instructions)
        if (i.replicated)
            return true;
    return false;
}

const DimInstruction* ArrayPartition::splitting(int dim) const {
    for (const DimInstruction& i : instructions)
        if (!i.replicated && i.arrayDim == dim)
            return &i;
    return nullptr;
}

std::string ArrayPartition::text() const {
    if (whole)
        return array + ": whole";
    std::string sel, list;
    for (const DimInstruction& i : instructions) {
        if (!i.replicated)
            sel += (sel.empty() ? "dim" : ", dim") + std::to_string(i.arrayDim);
        list += (list.empty() ? "" : ", ") + i.text();
    }
    return array + (sel.empty() ? "" : "<" + sel + ">") + ": " + list;
}

const ArrayPartition* SubpartitionModel::find(const std::string& a) const {
    for (const ArrayPartition& p : arrays)
        if (p.array == a)
            return &p;
    return nullptr;
}

const ArrayPartition* Lps::find(const std::string& a) const {
    for (const ArrayPartition& p : arrays)
        if (p.array == a)
            return &p;
    return nullptr;
}

int LpsTree::find(const std::string& letter) const {
    if (letter == "Root") // `Space Root: v` (guide: Reductions); no declared space has this name
        return kRootLps;
    for (std::size_t i = 1; i < spaces.size(); ++i)
        if (spaces[i].name == letter)
            return static_cast<int>(i);
    return kNoLps;
}

bool LpsTree::changesEveryTurn(int lps) const {
    for (int l = lps; l > 0; l = at(l).parent)
        if (at(l).dividesSubpartitions)
            return true;
    return false;
}

bool LpsTree::isProperAncestor(int ancestor, int lps) const {
    if (lps < 0 || ancestor < 0)
        return false;
    for (int p = at(lps).parent; p != kNoLps; p = at(p).parent)
        if (p == ancestor)
            return true;
    return false;
}

int LpsTree::depth(int lps) const {
    int d = 0;
    for (int p = at(lps).parent; p != kNoLps; p = at(p).parent)
        ++d;
    return d;
}

int LpsTree::configuringSpace(int lps, const std::string& array) const {
    for (int s = lps; s != kNoLps; s = at(s).parent)
        if (s == kRootLps || at(s).find(array))
            return s;
    return kRootLps;
}

} // namespace itc::semantic
