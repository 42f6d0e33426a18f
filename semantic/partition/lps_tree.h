// The LPS tree of one task as plain data: every space of the Partition section (plus the implicit
// Root at index 0), its parent, and the expanded partition of each array it configures (guide:
// Replication and dimension selectors). Built by analyzePartition (analyze_partition.h); read by
// the usage, dependency and plan passes. It holds no AST pointers, so it outlives the program it
// was built from.
#pragma once

#include "frontend/ast/ast.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace itc::semantic {

inline constexpr int kRootLps = 0;
inline constexpr int kNoLps = -1;

// A partition-function or padding argument: a Partition parameter name or an integer constant.
struct SymbolicArg {
    std::optional<std::string> param;
    std::int64_t literal = 0;
    std::string text() const { return param ? *param : std::to_string(literal); }
    bool isZero() const { return !param && literal == 0; }
};

// One expanded instruction: it governs one space dimension (its position in the list).
struct DimInstruction {
    bool replicated = false;
    ast::PartitionFunction function = ast::PartitionFunction::BlockSize;
    std::optional<SymbolicArg> argument; // block_size(s), block_count(k), block_stride(s)
    std::optional<SymbolicArg> paddingFront, paddingBack;
    int arrayDim = 0; // the 1-based array dimension it splits; 0 when replicated
    bool padded() const { return (paddingFront && !paddingFront->isZero()) || (paddingBack && !paddingBack->isZero()); }
    // stride() or block_stride(): the held indices of that dimension are not an interval.
    bool strided() const {
        return !replicated &&
               (function == ast::PartitionFunction::Stride || function == ast::PartitionFunction::BlockStride);
    }
    std::string text() const; // `block_size(k) padding(p1)`, `stride()`, `replicated`
};

// How one array is held by the LPUs of one space (or one sub-partition of it).
struct ArrayPartition {
    std::string array;
    int arrayDims = 0;
    bool whole = false;                       // listed in an un-partitioned space: held whole
    std::vector<DimInstruction> instructions; // one per space dimension, shorthand expanded
    SourceRange range;                        // the data configuration it came from

    bool padded() const;
    bool hasReplicatedDim() const;
    // The instruction splitting array dimension `dim`, or null when that dimension is held whole.
    const DimInstruction* splitting(int dim) const;
    std::string text() const; // `plate<dim1, dim2>: block_size(k) padding(p1), block_size(l) padding(p1)`
};

struct SubpartitionModel {
    int dims = 0;
    ast::SubpartitionOrder order = ast::SubpartitionOrder::Unordered;
    std::vector<ArrayPartition> arrays;
    SourceRange range;
    const ArrayPartition* find(const std::string& array) const;
};

struct Lps {
    std::string name; // the letter, or "Root"
    int dims = 0;     // 0 for un-partitioned spaces and Root
    bool unpartitioned = true;
    bool isDynamic = false;
    int parent = kNoLps; // kNoLps only for Root
    bool dividesSubpartitions = false;
    std::vector<int> children;
    std::vector<ArrayPartition> arrays;
    std::optional<SubpartitionModel> subpartition;
    // Arrays named in a data configuration that had an error: known to be meant for this
    // space, so later passes do not report them again as unconfigured.
    std::vector<std::string> erroneous;
    SourceRange range;

    const ArrayPartition* find(const std::string& array) const;
};

struct LpsTree {
    std::vector<Lps> spaces;         // [0] is Root; the rest in declaration order
    std::vector<std::string> params; // the Partition section's parameters

    // The space named `letter` (kRootLps for "Root", as in `Space Root: v`); kNoLps when undeclared.
    int find(const std::string& letter) const;
    const Lps& at(int id) const { return spaces.at(static_cast<std::size_t>(id)); }
    // True when `ancestor` is a proper ancestor of `lps` (Root is everyone's ancestor).
    bool isProperAncestor(int ancestor, int lps) const;
    int depth(int lps) const;
    // True when the parts of `lps` change every turn of a `Repeat foreach sub-partition`: it
    // divides sub-partitions, or lies below a space that does.
    bool changesEveryTurn(int lps) const;
    // The nearest space at or above `lps` that configures `array` (Root when none does): the
    // space whose part of the array `lps` LPUs hold or split (guide: Partition functions).
    int configuringSpace(int lps, const std::string& array) const;
    // `A`, or `B (in A)` style display names.
    std::string displayName(int lps) const { return at(lps).name; }
};

} // namespace itc::semantic
