// The PCubeS machine model as plain data: levels (PPSes) top-down with fan-outs, attributes,
// optional properties and the OS processor numbering of the `<core>` level. Parsing, checking,
// printing and hwloc discovery live in their own files; this header only describes the data.
#pragma once

#include "frontend/source_manager.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace itc::pcubes {

enum class PropertyId {
#define PCUBES_PROPERTY(id, key, unit, meaning) id,
#include "pcubes/properties.def"
#undef PCUBES_PROPERTY
};
enum class PropertyUnit { Bytes, Count, Nanoseconds };
inline constexpr std::size_t kPropertyCount = 0
#define PCUBES_PROPERTY(id, key, unit, meaning) +1
#include "pcubes/properties.def"
#undef PCUBES_PROPERTY
    ;

std::string_view propertyKey(PropertyId id);
PropertyUnit propertyUnit(PropertyId id);
std::string_view propertyMeaning(PropertyId id);
std::optional<PropertyId> propertyByKey(std::string_view key);

// Values in bytes, plain counts or nanoseconds, per PPU of the level.
using Properties = std::array<std::optional<std::uint64_t>, kPropertyCount>;

struct Level {
    int number = 0; // 1 is the lowest level; the root has the highest number
    std::string name;
    std::uint64_t fanOut = 1;    // PPUs of this level inside one PPU of the level above
    std::uint64_t totalPPUs = 1; // product of the fan-outs from the root down to here
    bool segment = false, unit = false, core = false;
    Properties properties{};
    SourceRange declared; // the `Space N...` line (invalid for discovered models)

    std::optional<std::uint64_t> property(PropertyId id) const { return properties[static_cast<std::size_t>(id)]; }
    // Compares the model, not where it was written.
    bool operator==(const Level& o) const {
        return number == o.number && name == o.name && fanOut == o.fanOut && totalPPUs == o.totalPPUs &&
               segment == o.segment && unit == o.unit && core == o.core && properties == o.properties;
    }
};

struct MachineModel {
    std::vector<Level> levels; // top-down: levels.front() is the root, levels.back() is Space 1
    // OS processor ids of the `<core>` level's PPUs inside one PPU of the `<unit>` level (the
    // root when there is no unit), depth-first. Every unit is assumed numbered alike. Empty when
    // the file does not say; the runtime then pins thread k to the k-th allowed processor.
    std::vector<std::uint32_t> processors;
    SourceRange processorsDeclared;

    bool operator==(const MachineModel& o) const { return levels == o.levels && processors == o.processors; }

    int levelCount() const { return static_cast<int>(levels.size()); }
    // nullptr if there is no level with that number.
    const Level* level(int number) const {
        if (number < 1 || number > levelCount())
            return nullptr;
        return &levels[levels.size() - static_cast<std::size_t>(number)];
    }
    std::optional<int> segmentLevel() const { return find(&Level::segment); }
    std::optional<int> unitLevel() const { return find(&Level::unit); }
    std::optional<int> coreLevel() const { return find(&Level::core); }
    // PPUs of level `lower` inside one PPU of level `upper` (upper >= lower).
    std::uint64_t ppusWithin(int lower, int upper) const { return level(lower)->totalPPUs / level(upper)->totalPPUs; }
    // Processes of a generated program: the PPU count of the `<segment>` level (1 without one).
    std::uint64_t segmentCount() const {
        auto s = segmentLevel();
        return s ? level(*s)->totalPPUs : 1;
    }

    // The OS processor that `<core>` PPU number `corePpu` (0-based, depth-first over the whole
    // machine) is pinned to: the numbering repeats in every unit. nullopt without a numbering.
    std::optional<std::uint32_t> osProcessor(std::uint64_t corePpu) const {
        if (processors.empty())
            return std::nullopt;
        return processors[corePpu % processors.size()];
    }

private:
    std::optional<int> find(bool Level::*flag) const {
        for (const Level& l : levels)
            if (l.*flag)
                return l.number;
        return std::nullopt;
    }
};

// Formats 64 GiB as `64GiB`, 1500 ns as `1500ns`: the largest unit that divides the value.
std::string formatPropertyValue(PropertyId id, std::uint64_t value);

} // namespace itc::pcubes
