// Primitive element types of `itc data` and access to the scalars (leaves) of an element.
// Leaves are read and written with memcpy: element buffers are plain byte vectors.
#include "tools/itc/data_element_type.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <cstdint>
#include <cstring>

namespace itc::data {

ElementType::ElementType(std::string name, const itrt::ElementCodec& codec, std::vector<Leaf> leaves,
                         std::vector<std::unique_ptr<itrt::StructCodec>> ownedCodecs)
    : name_(std::move(name)), codec_(&codec), leaves_(std::move(leaves)), owned_(std::move(ownedCodecs)) {}

std::optional<ElementType> primitiveElementType(const std::string& name) {
    auto scalar = [&](const itrt::ElementCodec& codec, ScalarKind kind) {
        return ElementType(name, codec, {Leaf{0, kind, "", ""}});
    };
    if (name == "int")
        return scalar(itrt::integer_codec(), ScalarKind::integer);
    if (name == "float")
        return scalar(itrt::float_codec(), ScalarKind::real_single);
    if (name == "double")
        return scalar(itrt::double_codec(), ScalarKind::real_double);
    if (name == "char")
        return scalar(itrt::char_codec(), ScalarKind::character);
    if (name == "bool")
        return scalar(itrt::bool_codec(), ScalarKind::boolean);
    if (name == "string")
        return scalar(itrt::string_codec(), ScalarKind::string);
    if (name == "range")
        return ElementType(name, itrt::range_codec(),
                           {Leaf{offsetof(itrt::RangeValue, min), ScalarKind::integer, ".min", ".min"},
                            Leaf{offsetof(itrt::RangeValue, max), ScalarKind::integer, ".max", ".max"}});
    return std::nullopt;
}

bool isNumeric(ScalarKind k) { return k != ScalarKind::string; }

bool isIntegral(ScalarKind k) {
    return k == ScalarKind::integer || k == ScalarKind::character || k == ScalarKind::boolean;
}

namespace {

template <class T> T load(const std::byte* p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

template <class T> void store(std::byte* p, T v) { std::memcpy(p, &v, sizeof v); }

} // namespace

double leafValue(const std::byte* element, const Leaf& leaf) {
    const std::byte* p = element + leaf.offset;
    switch (leaf.kind) {
    case ScalarKind::integer: return load<int32_t>(p);
    case ScalarKind::real_single: return load<float>(p);
    case ScalarKind::real_double: return load<double>(p);
    case ScalarKind::character: return static_cast<unsigned char>(load<char>(p));
    case ScalarKind::boolean: return load<bool>(p) ? 1.0 : 0.0;
    case ScalarKind::string: break;
    }
    return 0.0;
}

bool setLeafValue(std::byte* element, const Leaf& leaf, double v) {
    std::byte* p = element + leaf.offset;
    if (leaf.kind == ScalarKind::real_single) {
        if (std::isfinite(v) && std::fabs(v) > std::numeric_limits<float>::max())
            return false; // would be stored as an infinity
        store<float>(p, static_cast<float>(v));
        return true;
    }
    if (leaf.kind == ScalarKind::real_double) {
        store<double>(p, v);
        return true;
    }
    if (leaf.kind == ScalarKind::string || !std::isfinite(v))
        return false;
    const double r = std::round(v); // half away from zero, as make_input's llround
    switch (leaf.kind) {
    case ScalarKind::integer:
        if (r < INT32_MIN || r > INT32_MAX)
            return false;
        store<int32_t>(p, static_cast<int32_t>(r));
        return true;
    case ScalarKind::character:
        if (r < 0 || r > 255)
            return false;
        store<char>(p, static_cast<char>(static_cast<unsigned char>(r)));
        return true;
    case ScalarKind::boolean:
        store<bool>(p, r != 0); // as a C++ conversion: every kind of values fills a Boolean
        return true;
    default: return false;
    }
}

std::string leafText(const std::byte* element, const Leaf& leaf) {
    const std::byte* p = element + leaf.offset;
    switch (leaf.kind) {
    case ScalarKind::integer: return fmt::format("{}", load<int32_t>(p));
    // fmt prints the shortest text that reads back to the same value, as the data files do.
    case ScalarKind::real_single: return fmt::format("{}", load<float>(p));
    case ScalarKind::real_double: return fmt::format("{}", load<double>(p));
    case ScalarKind::character: {
        const auto code = static_cast<unsigned char>(load<char>(p));
        if (code >= 0x20 && code < 0x7f && code != '\'')
            return fmt::format("{} ('{}')", code, static_cast<char>(code));
        return fmt::format("{}", code);
    }
    case ScalarKind::boolean: return load<bool>(p) ? "true" : "false";
    case ScalarKind::string: {
        const auto* s = reinterpret_cast<const itrt::FixedString*>(p);
        return fmt::format("\"{}\"", s->view());
    }
    }
    return "";
}

bool leavesEqual(const std::byte* a, const std::byte* b, const Leaf& leaf) {
    if (leaf.kind == ScalarKind::string)
        return reinterpret_cast<const itrt::FixedString*>(a + leaf.offset)->view() ==
               reinterpret_cast<const itrt::FixedString*>(b + leaf.offset)->view();
    const double x = leafValue(a, leaf), y = leafValue(b, leaf);
    return x == y || (std::isnan(x) && std::isnan(y));
}

} // namespace itc::data
