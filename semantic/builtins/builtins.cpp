// Lookup tables generated from builtins.def.
#include "semantic/builtins/builtins.h"

#include <array>

namespace itc::semantic {

namespace {

struct Entry {
    Builtin builtin;
    std::string_view spelling;
    BuiltinFamily family;
};

constexpr std::array kEntries = {
#define BUILTIN(e, spelling, family) Entry{Builtin::e, spelling, BuiltinFamily::family},
#include "semantic/builtins/builtins.def"
#undef BUILTIN
};

} // namespace

std::optional<Builtin> builtinNamed(std::string_view name) {
    for (const Entry& e : kEntries)
        if (e.spelling == name)
            return e.builtin;
    return std::nullopt;
}

std::string_view spelling(Builtin b) { return kEntries[static_cast<std::size_t>(b)].spelling; }

BuiltinFamily familyOf(Builtin b) { return kEntries[static_cast<std::size_t>(b)].family; }

const std::vector<std::string_view>& builtinSpellings() {
    static const std::vector<std::string_view> all = [] {
        std::vector<std::string_view> v;
        for (const Entry& e : kEntries)
            v.push_back(e.spelling);
        return v;
    }();
    return all;
}

bool isBuiltinOf(std::string_view name, BuiltinFamily family) {
    auto b = builtinNamed(name);
    return b && familyOf(*b) == family;
}

} // namespace itc::semantic
