// The built-in functions of IT (builtins.def is the one list): lookup by spelling and family.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace itc::semantic {

enum class Builtin {
#define BUILTIN(e, spelling, family) e,
#include "semantic/builtins/builtins.def"
#undef BUILTIN
};

enum class BuiltinFamily { Io, List };

std::optional<Builtin> builtinNamed(std::string_view name);
std::string_view spelling(Builtin b);
BuiltinFamily familyOf(Builtin b);
// Every spelling, in builtins.def order (for "did you mean" suggestions).
const std::vector<std::string_view>& builtinSpellings();
// Whether `name` is a built-in of `family`.
bool isBuiltinOf(std::string_view name, BuiltinFamily family);

} // namespace itc::semantic
