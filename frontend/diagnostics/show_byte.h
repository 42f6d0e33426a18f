// Bytes of the user's text quoted in a message: printable ASCII as it is, others as `\xNN` (a
// terminal would print them raw).
#pragma once

#include <fmt/format.h>

#include <string>

namespace itc {

inline std::string showByte(char c) {
    auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u >= 0x7f)
        return fmt::format("\\x{:02X}", u);
    return std::string(1, c);
}

} // namespace itc
