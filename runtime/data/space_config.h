// Launch-time set-up of one space (LPS) or sub-partition: the data configurations of §9.3 in
// resolved form (which array dimension each space dimension splits, or `replicated`), LPU counts
// with the agreement check of R-55, and the part of an array held by an LPU with given coordinates.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "runtime/data/part.h"
#include "runtime/data/partition_function.h"

namespace itrt {

// Instruction t of an array's data configuration; it governs space dimension t.
struct DimInstruction {
    bool replicated = false;
    int array_dim = 0; // 0-based array dimension split (ignored when replicated)
    PartitionSpec spec;

    static DimInstruction split(int array_dim, PartitionSpec spec) { return {false, array_dim, spec}; }
    static DimInstruction replicate() { return {true, 0, {}}; }
};

// One array's configuration in a space of d dimensions: exactly d instructions.
struct ArrayConfig {
    std::string array;
    std::vector<DimInstruction> dims;
};

// LPUs per parent LPU along each space dimension. `parent_parts[i]` is the part of
// `configs[i].array` in the parent LPU (Part::whole(...) when no ancestor configures it).
// Throws PartitionError for bad arguments, bad dimension numbers, a space dimension that no array
// splits, or part counts that disagree (R-55; the message names the arrays and their counts).
std::vector<int64_t> lpu_counts(int space_dims, const std::vector<ArrayConfig>& configs,
                                const std::vector<Part>& parent_parts);

// The part of an array held by the LPU with coordinates `coords` (0 <= coords[t] < counts[t]).
Part lpu_part(const Part& parent_part, const ArrayConfig& config, std::span<const int64_t> coords);

// True for the one replica that represents a part shared along replicated space dimensions
// (coordinate 0 there), e.g. the one that writes it to a file.
bool primary_replica(const ArrayConfig& config, std::span<const int64_t> coords);

// All LPU coordinates of a grid, in increasing lexicographic order.
std::vector<std::vector<int64_t>> grid_coordinates(std::span<const int64_t> counts);

// Sub-partitions (§9.7): only block_size, block_count and replicated, without padding.
// Throws PartitionError naming the array otherwise; then behaves like lpu_counts.
std::vector<int64_t> subpartition_counts(int dims, const std::vector<ArrayConfig>& configs,
                                         const std::vector<Part>& lpu_parts);

enum class VisitOrder { increasing, decreasing, unordered };
// The order in which `Repeat foreach sub-partition` visits sub-partition coordinates.
// `unordered` visits each once; this implementation uses increasing order.
std::vector<std::vector<int64_t>> subpartition_order(std::span<const int64_t> counts, VisitOrder order);

} // namespace itrt
