// Built-in element codecs and the struct codec. Binary is little-endian regardless of the
// host; text reals use the shortest round-trip form (<= 9 / 17 significant digits).
#include "runtime/data/io/element_codec.h"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <type_traits>
#include <cstring>
#include <fmt/format.h>
#include <stdexcept>

namespace itrt {
namespace {

template <class U> void store_le(U v, std::byte* out) {
    for (size_t i = 0; i < sizeof(U); ++i)
        out[i] = static_cast<std::byte>((v >> (8 * i)) & 0xff);
}
template <class U> U load_le(const std::byte* in) {
    U v = 0;
    for (size_t i = 0; i < sizeof(U); ++i)
        v |= static_cast<U>(std::to_integer<uint8_t>(in[i])) << (8 * i);
    return v;
}

bool fail(std::string& error, std::string_view what, std::string_view tok) {
    error = fmt::format("expected {}, found `{}`", what, tok);
    return false;
}

// Why a number token was rejected, for the message: the text is no number at all, or a number
// outside the type's range (`99999999999` for an Integer, `1e999` for a Real). Reals that are
// not finite (`nan`, `-nan`, `inf`) are read as such: writers write them so, and binary files
// keep them too.
enum class NumberText { ok, malformed, out_of_range };

template <class T> NumberText parse_number(std::string_view tok, T& v) {
    auto r = std::from_chars(tok.data(), tok.data() + tok.size(), v);
    if (r.ptr != tok.data() + tok.size() || (r.ec != std::errc() && r.ec != std::errc::result_out_of_range))
        return NumberText::malformed;
    if (r.ec == std::errc::result_out_of_range) {
        // A Real too small for the type is the nearest one (0 or a subnormal, as IEEE arithmetic
        // rounds); only one too large is out of range. from_chars does not say which it was.
        if constexpr (std::is_floating_point_v<T>) {
            const std::string text(tok);
            const T nearest = std::is_same_v<T, float> ? static_cast<T>(std::strtof(text.c_str(), nullptr))
                                                       : static_cast<T>(std::strtod(text.c_str(), nullptr));
            if (std::isfinite(nearest)) {
                v = nearest;
                return NumberText::ok;
            }
        }
        return NumberText::out_of_range;
    }
    return NumberText::ok;
}

// Parses `tok` into `v`; on failure sets `error` ("expected `what`, found ...") and returns false.
template <class T> bool parse_number(std::string_view tok, T& v, std::string_view what, std::string& error) {
    switch (parse_number(tok, v)) {
    case NumberText::ok: return true;
    case NumberText::malformed: return fail(error, what, tok);
    case NumberText::out_of_range:
        if constexpr (std::is_floating_point_v<T>)
            error = fmt::format("expected {} (magnitude at most {}), found `{}`, which is out of range", what,
                                std::numeric_limits<T>::max(), tok);
        else
            error = fmt::format("expected {} ({}..{}), found `{}`, which is out of range", what,
                                std::numeric_limits<T>::min(), std::numeric_limits<T>::max(), tok);
        return false;
    }
    return false;
}

template <class T> void append_real(T v, std::string& out) {
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
}

class IntegerCodec final : public ElementCodec {
public:
    bool binary_is_memory() const override { return std::endian::native == std::endian::little; }
    std::string type_name() const override { return "Integer"; }
    size_t memory_size() const override { return 4; }
    size_t binary_size() const override { return 4; }
    int text_fields() const override { return 1; }
    void encode(const void* e, std::byte* out) const override {
        store_le<uint32_t>(static_cast<uint32_t>(*static_cast<const int32_t*>(e)), out);
    }
    void decode(const std::byte* in, void* e) const override {
        *static_cast<int32_t*>(e) = static_cast<int32_t>(load_le<uint32_t>(in));
    }
    void write_text(const void* e, std::string& out) const override {
        out += std::to_string(*static_cast<const int32_t*>(e));
    }
    bool read_text(std::span<const std::string_view> t, void* e, std::string& error) const override {
        return parse_number(t[0], *static_cast<int32_t*>(e), "an Integer", error);
    }
};

class FloatCodec final : public ElementCodec {
public:
    bool binary_is_memory() const override { return std::endian::native == std::endian::little; }
    std::string type_name() const override { return "Real single-precision"; }
    size_t memory_size() const override { return 4; }
    size_t binary_size() const override { return 4; }
    int text_fields() const override { return 1; }
    void encode(const void* e, std::byte* out) const override {
        store_le(std::bit_cast<uint32_t>(*static_cast<const float*>(e)), out);
    }
    void decode(const std::byte* in, void* e) const override {
        *static_cast<float*>(e) = std::bit_cast<float>(load_le<uint32_t>(in));
    }
    void write_text(const void* e, std::string& out) const override { append_real(*static_cast<const float*>(e), out); }
    bool read_text(std::span<const std::string_view> t, void* e, std::string& error) const override {
        return parse_number(t[0], *static_cast<float*>(e), "a Real single-precision", error);
    }
};

class DoubleCodec final : public ElementCodec {
public:
    bool binary_is_memory() const override { return std::endian::native == std::endian::little; }
    std::string type_name() const override { return "Real double-precision"; }
    size_t memory_size() const override { return 8; }
    size_t binary_size() const override { return 8; }
    int text_fields() const override { return 1; }
    void encode(const void* e, std::byte* out) const override {
        store_le(std::bit_cast<uint64_t>(*static_cast<const double*>(e)), out);
    }
    void decode(const std::byte* in, void* e) const override {
        *static_cast<double*>(e) = std::bit_cast<double>(load_le<uint64_t>(in));
    }
    void write_text(const void* e, std::string& out) const override {
        append_real(*static_cast<const double*>(e), out);
    }
    bool read_text(std::span<const std::string_view> t, void* e, std::string& error) const override {
        return parse_number(t[0], *static_cast<double*>(e), "a Real double-precision", error);
    }
};

class CharCodec final : public ElementCodec {
public:
    std::string type_name() const override { return "Character"; }
    size_t memory_size() const override { return 1; }
    size_t binary_size() const override { return 1; }
    int text_fields() const override { return 1; }
    void encode(const void* e, std::byte* out) const override { std::memcpy(out, e, 1); }
    void decode(const std::byte* in, void* e) const override { std::memcpy(e, in, 1); }
    void write_text(const void* e, std::string& out) const override {
        out += std::to_string(static_cast<unsigned>(*static_cast<const unsigned char*>(e)));
    }
    bool read_text(std::span<const std::string_view> t, void* e, std::string& error) const override {
        int v = 0;
        if (parse_number(t[0], v) != NumberText::ok || v < 0 || v > 255)
            return fail(error, "a Character code 0..255", t[0]);
        *static_cast<unsigned char*>(e) = static_cast<unsigned char>(v);
        return true;
    }
};

class BoolCodec final : public ElementCodec {
public:
    std::string type_name() const override { return "Boolean"; }
    size_t memory_size() const override { return sizeof(bool); }
    size_t binary_size() const override { return 1; }
    int text_fields() const override { return 1; }
    void encode(const void* e, std::byte* out) const override {
        out[0] = std::byte{*static_cast<const bool*>(e) ? uint8_t{1} : uint8_t{0}};
    }
    void decode(const std::byte* in, void* e) const override { *static_cast<bool*>(e) = in[0] != std::byte{0}; }
    void write_text(const void* e, std::string& out) const override { out += *static_cast<const bool*>(e) ? '1' : '0'; }
    bool read_text(std::span<const std::string_view> t, void* e, std::string& error) const override {
        if (t[0] == "1" || t[0] == "TRUE") {
            *static_cast<bool*>(e) = true;
        } else if (t[0] == "0" || t[0] == "FALSE") {
            *static_cast<bool*>(e) = false;
        } else {
            return fail(error, "a Boolean (1, 0, TRUE or FALSE)", t[0]);
        }
        return true;
    }
};

class StringCodec final : public ElementCodec {
public:
    std::string type_name() const override { return "String"; }
    size_t memory_size() const override { return sizeof(FixedString); }
    size_t binary_size() const override { return 256; }
    int text_fields() const override { return 1; }
    void encode(const void* e, std::byte* out) const override {
        auto v = static_cast<const FixedString*>(e)->view();
        std::memset(out, 0, 256);
        std::memcpy(out, v.data(), v.size());
    }
    void decode(const std::byte* in, void* e) const override {
        auto* s = static_cast<FixedString*>(e);
        std::memcpy(s->data, in, 255);
        s->data[255] = '\0';
    }
    void write_text(const void* e, std::string& out) const override {
        auto v = static_cast<const FixedString*>(e)->view();
        if (v.find_first_of("\"\n") != std::string_view::npos)
            throw std::invalid_argument(fmt::format("cannot write the String `{}` as text: it contains `{}`", v,
                                                    v.find('"') != std::string_view::npos ? "\"" : "\\n"));
        out += '"';
        out += v;
        out += '"';
    }
    bool read_text(std::span<const std::string_view> t, void* e, std::string& error) const override {
        std::string_view tok = t[0];
        if (tok.size() < 2 || tok.front() != '"' || tok.back() != '"')
            return fail(error, "a double-quoted String", tok);
        if (tok.size() - 2 > 255)
            return fail(error, "a String of at most 255 characters", tok);
        *static_cast<FixedString*>(e) = FixedString::of(tok.substr(1, tok.size() - 2));
        return true;
    }
};

class RangeCodec final : public ElementCodec {
public:
    std::string type_name() const override { return "Range"; }
    size_t memory_size() const override { return sizeof(RangeValue); }
    size_t binary_size() const override { return 8; }
    int text_fields() const override { return 2; }
    void encode(const void* e, std::byte* out) const override {
        auto* r = static_cast<const RangeValue*>(e);
        integer_codec().encode(&r->min, out);
        integer_codec().encode(&r->max, out + 4);
    }
    void decode(const std::byte* in, void* e) const override {
        auto* r = static_cast<RangeValue*>(e);
        integer_codec().decode(in, &r->min);
        integer_codec().decode(in + 4, &r->max);
    }
    void write_text(const void* e, std::string& out) const override {
        auto* r = static_cast<const RangeValue*>(e);
        out += fmt::format("{} {}", r->min, r->max);
    }
    bool read_text(std::span<const std::string_view> t, void* e, std::string& error) const override {
        auto* r = static_cast<RangeValue*>(e);
        if (!parse_number(t[0], r->min, "the Integer `min` of a Range", error) ||
            !parse_number(t[1], r->max, "the Integer `max` of a Range", error))
            return false;
        return true;
    }
};

} // namespace

FixedString FixedString::of(std::string_view s) {
    FixedString f;
    std::memcpy(f.data, s.data(), std::min<size_t>(s.size(), 255));
    return f;
}

std::string_view FixedString::view() const { return std::string_view(data, strnlen(data, 255)); }

const ElementCodec& integer_codec() {
    static const IntegerCodec c;
    return c;
}
const ElementCodec& float_codec() {
    static const FloatCodec c;
    return c;
}
const ElementCodec& double_codec() {
    static const DoubleCodec c;
    return c;
}
const ElementCodec& char_codec() {
    static const CharCodec c;
    return c;
}
const ElementCodec& bool_codec() {
    static const BoolCodec c;
    return c;
}
const ElementCodec& string_codec() {
    static const StringCodec c;
    return c;
}
const ElementCodec& range_codec() {
    static const RangeCodec c;
    return c;
}

StructCodec::StructCodec(std::string name, size_t memory_size, std::vector<Field> fields)
    : name_(std::move(name)), memory_size_(memory_size), fields_(std::move(fields)) {
    for (const Field& f : fields_) {
        binary_size_ += f.codec->binary_size() * f.count;
        text_fields_ += f.codec->text_fields() * static_cast<int>(f.count);
    }
}

void ElementCodec::encode_run(const std::byte* elems, std::byte* out, int64_t count) const {
    if (count <= 0)
        return;
    if (binary_is_memory()) {
        std::memcpy(out, elems, static_cast<size_t>(count) * binary_size());
        return;
    }
    for (int64_t e = 0; e < count; ++e, elems += memory_size(), out += binary_size())
        encode(elems, out);
}

void ElementCodec::decode_run(const std::byte* in, std::byte* elems, int64_t count) const {
    if (count <= 0)
        return;
    if (binary_is_memory()) {
        std::memcpy(elems, in, static_cast<size_t>(count) * binary_size());
        return;
    }
    for (int64_t e = 0; e < count; ++e, in += binary_size(), elems += memory_size())
        decode(in, elems);
}

void StructCodec::encode(const void* elem, std::byte* out) const {
    const auto* base = static_cast<const std::byte*>(elem);
    for (const Field& f : fields_)
        for (int64_t i = 0; i < f.count; ++i) {
            f.codec->encode(base + f.offset + i * f.codec->memory_size(), out);
            out += f.codec->binary_size();
        }
}

void StructCodec::decode(const std::byte* in, void* elem) const {
    auto* base = static_cast<std::byte*>(elem);
    for (const Field& f : fields_)
        for (int64_t i = 0; i < f.count; ++i) {
            f.codec->decode(in, base + f.offset + i * f.codec->memory_size());
            in += f.codec->binary_size();
        }
}

void StructCodec::write_text(const void* elem, std::string& out) const {
    const auto* base = static_cast<const std::byte*>(elem);
    bool first = true;
    for (const Field& f : fields_)
        for (int64_t i = 0; i < f.count; ++i) {
            if (!first)
                out += ' ';
            first = false;
            f.codec->write_text(base + f.offset + i * f.codec->memory_size(), out);
        }
}

bool StructCodec::read_text(std::span<const std::string_view> tokens, void* elem, std::string& error) const {
    auto* base = static_cast<std::byte*>(elem);
    size_t at = 0;
    for (const Field& f : fields_)
        for (int64_t i = 0; i < f.count; ++i) {
            size_t n = static_cast<size_t>(f.codec->text_fields());
            if (!f.codec->read_text(tokens.subspan(at, n), base + f.offset + i * f.codec->memory_size(), error))
                return false;
            at += n;
        }
    return true;
}

} // namespace itrt
