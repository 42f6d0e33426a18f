// A small JSON reader for the driver's own needs (`itc trace` reads run traces): a tree of
// values, parsed strictly (RFC 8259), errors with line and column. Not a general JSON library:
// no writer, no streaming, numbers are doubles.
#pragma once

#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace itc::driver {

class JsonValue {
public:
    enum class Kind { Null, Bool, Number, String, Array, Object };

    Kind kind() const { return kind_; }
    bool isObject() const { return kind_ == Kind::Object; }
    bool isArray() const { return kind_ == Kind::Array; }
    bool isString() const { return kind_ == Kind::String; }
    bool isNumber() const { return kind_ == Kind::Number; }
    double number() const { return number_; }
    const std::string& string() const { return string_; }
    bool boolean() const { return bool_; }
    const std::vector<JsonValue>& items() const { return items_; }
    // Object members in file order; find() returns null when `key` is absent.
    const std::vector<std::pair<std::string, JsonValue>>& members() const { return members_; }
    const JsonValue* find(const std::string& key) const;
    // Convenience for optional members: the string / number, or `fallback`.
    std::string stringOr(const std::string& key, const std::string& fallback) const;
    double numberOr(const std::string& key, double fallback) const;

private:
    friend class JsonParser;
    Kind kind_ = Kind::Null;
    bool bool_ = false;
    double number_ = 0;
    std::string string_;
    std::vector<JsonValue> items_;
    std::vector<std::pair<std::string, JsonValue>> members_;
};

// A syntax error: what was expected, and where (1-based line and column).
struct JsonError : std::runtime_error {
    JsonError(const std::string& what, int line, int column) : std::runtime_error(what), line(line), column(column) {}
    int line, column;
};

// Parses a whole document; throws JsonError.
JsonValue parseJson(const std::string& text);

} // namespace itc::driver
