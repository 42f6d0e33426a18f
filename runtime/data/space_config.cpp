// LPU counts, R-55 agreement, per-LPU parts and sub-partition rules. Pure index arithmetic over
// Part/PartitionSpec; the caller supplies the fan-out U per instruction from the mapping.
#include "runtime/data/space_config.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "runtime/data/data_error.h"

namespace itrt {
namespace {

void check_config(int space_dims, const ArrayConfig& c, const Part& parent) {
    if (static_cast<int>(c.dims.size()) != space_dims)
        throw PartitionError(fmt::format("array `{}` has {} partition instructions for a {}-dimensional space", c.array,
                                         c.dims.size(), space_dims));
    std::set<int> seen;
    for (int t = 0; t < space_dims; ++t) {
        const DimInstruction& in = c.dims[t];
        if (in.replicated)
            continue;
        if (in.array_dim < 0 || in.array_dim >= parent.rank())
            throw PartitionError(
                fmt::format("array `{}`: space dimension {} splits array dimension {}, but the array has {}", c.array,
                            t + 1, in.array_dim + 1, parent.rank()));
        if (!seen.insert(in.array_dim).second)
            throw PartitionError(fmt::format("array `{}`: array dimension {} is split by more than one space dimension",
                                             c.array, in.array_dim + 1));
        validate(in.spec, fmt::format("array `{}`, space dimension {}", c.array, t + 1));
    }
}

} // namespace

std::vector<int64_t> lpu_counts(int space_dims, const std::vector<ArrayConfig>& configs,
                                const std::vector<Part>& parent_parts) {
    if (configs.size() != parent_parts.size())
        throw PartitionError(fmt::format("internal error: {} array configurations but {} parent parts", configs.size(),
                                         parent_parts.size()));
    for (size_t i = 0; i < configs.size(); ++i)
        check_config(space_dims, configs[i], parent_parts[i]);
    std::vector<int64_t> counts(space_dims, -1);
    for (int t = 0; t < space_dims; ++t) {
        std::string first_desc;
        for (size_t i = 0; i < configs.size(); ++i) {
            const DimInstruction& in = configs[i].dims[t];
            if (in.replicated)
                continue;
            int64_t n = parent_parts[i].held(in.array_dim).size();
            int64_t p = part_count(in.spec, n);
            std::string desc = fmt::format("`{}` gives {} part{} ({} of {} ind{})", configs[i].array, p,
                                           p == 1 ? "" : "s", describe(in.spec), n, n == 1 ? "ex" : "ices");
            if (counts[t] < 0) {
                counts[t] = p;
                first_desc = desc;
            } else if (counts[t] != p) {
                throw PartitionError(
                    fmt::format("part counts disagree on space dimension {}: {}, but {}", t + 1, first_desc, desc));
            }
        }
        if (counts[t] < 0)
            throw PartitionError(fmt::format("space dimension {} is split by no array", t + 1));
    }
    return counts;
}

Part lpu_part(const Part& parent_part, const ArrayConfig& config, std::span<const int64_t> coords) {
    std::vector<std::optional<PartPositions>> per_dim(parent_part.rank());
    for (size_t t = 0; t < config.dims.size(); ++t) {
        const DimInstruction& in = config.dims[t];
        if (in.replicated)
            continue;
        per_dim[in.array_dim] = part_positions(in.spec, parent_part.held(in.array_dim).size(), coords[t]);
    }
    return parent_part.child(per_dim);
}

bool primary_replica(const ArrayConfig& config, std::span<const int64_t> coords) {
    for (size_t t = 0; t < config.dims.size(); ++t)
        if (config.dims[t].replicated && coords[t] != 0)
            return false;
    return true;
}

std::vector<std::vector<int64_t>> grid_coordinates(std::span<const int64_t> counts) {
    std::vector<std::vector<int64_t>> out;
    int64_t total = 1;
    for (int64_t c : counts)
        total *= c;
    if (total <= 0)
        return out;
    std::vector<int64_t> cur(counts.size(), 0);
    for (int64_t i = 0; i < total; ++i) {
        out.push_back(cur);
        for (int t = static_cast<int>(counts.size()) - 1; t >= 0; --t) {
            if (++cur[t] < counts[t])
                break;
            cur[t] = 0;
        }
    }
    return out;
}

std::vector<int64_t> subpartition_counts(int dims, const std::vector<ArrayConfig>& configs,
                                         const std::vector<Part>& lpu_parts) {
    for (const ArrayConfig& c : configs) {
        for (size_t t = 0; t < c.dims.size(); ++t) {
            const DimInstruction& in = c.dims[t];
            if (in.replicated)
                continue;
            if (in.spec.fn != PartitionFn::block_size && in.spec.fn != PartitionFn::block_count)
                throw PartitionError(fmt::format("array `{}`: `{}` is not allowed in a sub-partition (only block_size, "
                                                 "block_count and replicated)",
                                                 c.array, partition_fn_name(in.spec.fn)));
            if (in.spec.pad_front != 0 || in.spec.pad_back != 0)
                throw PartitionError(fmt::format("array `{}`: padding is not allowed in a sub-partition", c.array));
        }
    }
    return lpu_counts(dims, configs, lpu_parts);
}

std::vector<std::vector<int64_t>> subpartition_order(std::span<const int64_t> counts, VisitOrder order) {
    auto coords = grid_coordinates(counts);
    if (order == VisitOrder::decreasing)
        std::reverse(coords.begin(), coords.end());
    return coords;
}

} // namespace itrt
