// Property tables of the machine model and value formatting.
#include "pcubes/machine_model.h"

#include <fmt/format.h>

namespace itc::pcubes {
namespace {

struct PropertyInfo {
    std::string_view key;
    PropertyUnit unit;
    std::string_view meaning;
};

constexpr PropertyInfo kProperties[] = {
#define PCUBES_PROPERTY(id, key, unit, meaning) {key, PropertyUnit::unit, meaning},
#include "pcubes/properties.def"
#undef PCUBES_PROPERTY
};

} // namespace

std::string_view propertyKey(PropertyId id) { return kProperties[static_cast<int>(id)].key; }
PropertyUnit propertyUnit(PropertyId id) { return kProperties[static_cast<int>(id)].unit; }
std::string_view propertyMeaning(PropertyId id) { return kProperties[static_cast<int>(id)].meaning; }

std::optional<PropertyId> propertyByKey(std::string_view key) {
    for (std::size_t i = 0; i < kPropertyCount; ++i)
        if (kProperties[i].key == key)
            return static_cast<PropertyId>(i);
    return std::nullopt;
}

std::string formatPropertyValue(PropertyId id, std::uint64_t value) {
    switch (propertyUnit(id)) {
    case PropertyUnit::Count: return fmt::format("{}", value);
    case PropertyUnit::Bytes: {
        static constexpr std::string_view units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
        std::size_t u = 0;
        while (value != 0 && value % 1024 == 0 && u + 1 < std::size(units)) {
            value /= 1024;
            ++u;
        }
        return fmt::format("{}{}", value, units[u]);
    }
    case PropertyUnit::Nanoseconds: {
        static constexpr std::pair<std::string_view, std::uint64_t> units[] = {
            {"s", 1000000000}, {"ms", 1000000}, {"us", 1000}, {"ns", 1}};
        for (auto [name, factor] : units)
            if (value != 0 && value % factor == 0)
                return fmt::format("{}{}", value / factor, name);
        return fmt::format("{}ns", value);
    }
    }
    return fmt::format("{}", value);
}

} // namespace itc::pcubes
