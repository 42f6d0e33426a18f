// How one element type is stored in data files (§13.2, R-72): binary bytes (little-endian, no
// padding) and text tokens. Built-in codecs cover the primitive types, String and Range;
// StructCodec covers plain classes (fields in declaration order); generated code may also
// implement ElementCodec itself. Per-element virtual calls are fine here: this is file I/O.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace itrt {

// In-memory IT String: at most 255 characters, NUL-terminated.
struct FixedString {
    char data[256] = {};
    static FixedString of(std::string_view s);
    std::string_view view() const;
};

// In-memory IT Range: two Integers, `min` first.
struct RangeValue {
    int32_t min = 0;
    int32_t max = 0;
    friend bool operator==(const RangeValue&, const RangeValue&) = default;
};

class ElementCodec {
public:
    virtual ~ElementCodec() = default;
    // IT type name for messages ("Integer", "Real double-precision", a class name, ...).
    virtual std::string type_name() const = 0;
    virtual size_t memory_size() const = 0; // bytes between consecutive elements in memory
    virtual size_t binary_size() const = 0; // bytes per element in a .bin file
    virtual int text_fields() const = 0;    // whitespace-separated tokens per element in a .txt file
    virtual void encode(const void* elem, std::byte* out) const = 0;
    virtual void decode(const std::byte* in, void* elem) const = 0;
    // Whether an element's .bin bytes are its bytes in memory (numbers on a little-endian host):
    // runs of elements are then copied whole instead of converted one by one.
    virtual bool binary_is_memory() const { return false; }
    // `count` consecutive elements, memory_size() apart in memory and binary_size() in the file.
    void encode_run(const std::byte* elems, std::byte* out, int64_t count) const;
    void decode_run(const std::byte* in, std::byte* elems, int64_t count) const;
    // Appends the element's tokens, separated by single spaces. Throws std::invalid_argument for a
    // value the text encoding cannot represent (a String containing `"` or LF).
    virtual void write_text(const void* elem, std::string& out) const = 0;
    // Parses text_fields() tokens. On failure returns false and sets `error` to
    // "expected <what>, found `<token>`".
    virtual bool read_text(std::span<const std::string_view> tokens, void* elem, std::string& error) const = 0;
};

const ElementCodec& integer_codec(); // int32_t
const ElementCodec& float_codec();   // float
const ElementCodec& double_codec();  // double
const ElementCodec& char_codec();    // char (unsigned code 0..255 in text)
const ElementCodec& bool_codec();    // bool
const ElementCodec& string_codec();  // FixedString
const ElementCodec& range_codec();   // RangeValue

// A plain class: fields at given byte offsets in memory, stored in declaration order.
// A field that is a static array has count > 1 (elements row-major).
class StructCodec final : public ElementCodec {
public:
    struct Field {
        size_t offset;
        const ElementCodec* codec;
        int64_t count = 1;
    };
    StructCodec(std::string name, size_t memory_size, std::vector<Field> fields);

    std::string type_name() const override { return name_; }
    size_t memory_size() const override { return memory_size_; }
    size_t binary_size() const override { return binary_size_; }
    int text_fields() const override { return text_fields_; }
    void encode(const void* elem, std::byte* out) const override;
    void decode(const std::byte* in, void* elem) const override;
    void write_text(const void* elem, std::string& out) const override;
    bool read_text(std::span<const std::string_view> tokens, void* elem, std::string& error) const override;

private:
    std::string name_;
    size_t memory_size_;
    std::vector<Field> fields_;
    size_t binary_size_ = 0;
    int text_fields_ = 0;
};

// A fixed-size array (C++ type `A`, e.g. std::array<double, 3>) of `count` elements of `inner`,
// row-major: stored as the elements one after another, like a class's array field.
template <class A> const ElementCodec& static_array_codec(const char* name, const ElementCodec& inner, int64_t count) {
    static const StructCodec codec(name, sizeof(A), {{0, &inner, count}});
    return codec;
}

} // namespace itrt
