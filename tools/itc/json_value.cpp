// Implements json_value.h: a recursive-descent parser over the whole text, with a depth limit
// so that a hostile file cannot overflow the stack.
#include "tools/itc/json_value.h"

#include <cstdlib>

namespace itc::driver {

const JsonValue* JsonValue::find(const std::string& key) const {
    for (const auto& [k, v] : members_)
        if (k == key)
            return &v;
    return nullptr;
}

std::string JsonValue::stringOr(const std::string& key, const std::string& fallback) const {
    const JsonValue* v = find(key);
    return v && v->isString() ? v->string() : fallback;
}

double JsonValue::numberOr(const std::string& key, double fallback) const {
    const JsonValue* v = find(key);
    return v && v->isNumber() ? v->number() : fallback;
}

class JsonParser {
public:
    explicit JsonParser(const std::string& text) : t_(text) {}

    JsonValue document() {
        JsonValue v = value(0);
        skipSpace();
        if (p_ != t_.size())
            error("unexpected text after the JSON value");
        return v;
    }

private:
    [[noreturn]] void error(const std::string& what) const {
        int line = 1, column = 1;
        for (size_t i = 0; i < p_ && i < t_.size(); ++i) {
            if (t_[i] == '\n') {
                ++line;
                column = 1;
            } else {
                ++column;
            }
        }
        throw JsonError(what, line, column);
    }

    void skipSpace() {
        while (p_ < t_.size() && (t_[p_] == ' ' || t_[p_] == '\n' || t_[p_] == '\r' || t_[p_] == '\t'))
            ++p_;
    }

    bool literal(const char* word) {
        size_t n = std::char_traits<char>::length(word);
        if (t_.compare(p_, n, word) != 0)
            return false;
        p_ += n;
        return true;
    }

    JsonValue value(int depth) {
        if (depth > 200)
            error("values nested too deeply");
        skipSpace();
        if (p_ >= t_.size())
            error("unexpected end of the file: a value was expected");
        JsonValue v;
        const char c = t_[p_];
        if (c == '{') {
            v.kind_ = JsonValue::Kind::Object;
            ++p_;
            skipSpace();
            if (p_ < t_.size() && t_[p_] == '}') {
                ++p_;
                return v;
            }
            for (;;) {
                skipSpace();
                if (p_ >= t_.size() || t_[p_] != '"')
                    error("a member name in double quotes was expected");
                std::string key = string();
                skipSpace();
                if (p_ >= t_.size() || t_[p_] != ':')
                    error("`:` was expected after a member name");
                ++p_;
                v.members_.emplace_back(std::move(key), value(depth + 1));
                skipSpace();
                if (p_ < t_.size() && t_[p_] == ',') {
                    ++p_;
                    continue;
                }
                if (p_ < t_.size() && t_[p_] == '}') {
                    ++p_;
                    return v;
                }
                error("`,` or `}` was expected in an object");
            }
        }
        if (c == '[') {
            v.kind_ = JsonValue::Kind::Array;
            ++p_;
            skipSpace();
            if (p_ < t_.size() && t_[p_] == ']') {
                ++p_;
                return v;
            }
            for (;;) {
                v.items_.push_back(value(depth + 1));
                skipSpace();
                if (p_ < t_.size() && t_[p_] == ',') {
                    ++p_;
                    continue;
                }
                if (p_ < t_.size() && t_[p_] == ']') {
                    ++p_;
                    return v;
                }
                error("`,` or `]` was expected in an array");
            }
        }
        if (c == '"') {
            v.kind_ = JsonValue::Kind::String;
            v.string_ = string();
            return v;
        }
        if (literal("true") || literal("false")) {
            v.kind_ = JsonValue::Kind::Bool;
            v.bool_ = t_[p_ - 4] == 't'; // "true" is four characters, "false" five
            return v;
        }
        if (literal("null"))
            return v;
        if (c == '-' || (c >= '0' && c <= '9')) {
            const char* begin = t_.c_str() + p_;
            char* end = nullptr;
            v.kind_ = JsonValue::Kind::Number;
            v.number_ = std::strtod(begin, &end);
            if (end == begin)
                error("a number was expected");
            p_ += static_cast<size_t>(end - begin);
            return v;
        }
        error(std::string("unexpected character `") + c + "`");
    }

    static void appendUtf8(std::string& out, unsigned cp) {
        if (cp < 0x80) {
            out += static_cast<char>(cp);
        } else if (cp < 0x800) {
            out += static_cast<char>(0xC0 | (cp >> 6));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out += static_cast<char>(0xE0 | (cp >> 12));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (cp >> 18));
            out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        }
    }

    unsigned hex4() {
        if (p_ + 4 > t_.size())
            error("four hex digits were expected after `\\u`");
        unsigned v = 0;
        for (int i = 0; i < 4; ++i) {
            char h = t_[p_++];
            v <<= 4;
            if (h >= '0' && h <= '9')
                v |= static_cast<unsigned>(h - '0');
            else if (h >= 'a' && h <= 'f')
                v |= static_cast<unsigned>(h - 'a' + 10);
            else if (h >= 'A' && h <= 'F')
                v |= static_cast<unsigned>(h - 'A' + 10);
            else
                error("four hex digits were expected after `\\u`");
        }
        return v;
    }

    std::string string() {
        ++p_; // the opening quote
        std::string out;
        for (;;) {
            if (p_ >= t_.size())
                error("unterminated string");
            char c = t_[p_++];
            if (c == '"')
                return out;
            if (static_cast<unsigned char>(c) < 0x20)
                error("control character inside a string");
            if (c != '\\') {
                out += c;
                continue;
            }
            if (p_ >= t_.size())
                error("unterminated string");
            char e = t_[p_++];
            switch (e) {
            case '"': out += '"'; break;
            case '\\': out += '\\'; break;
            case '/': out += '/'; break;
            case 'b': out += '\b'; break;
            case 'f': out += '\f'; break;
            case 'n': out += '\n'; break;
            case 'r': out += '\r'; break;
            case 't': out += '\t'; break;
            case 'u': {
                unsigned cp = hex4();
                if (cp >= 0xD800 && cp < 0xDC00 && t_.compare(p_, 2, "\\u") == 0) {
                    p_ += 2;
                    unsigned low = hex4();
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                }
                appendUtf8(out, cp);
                break;
            }
            default: error(std::string("unknown escape `\\") + e + "`");
            }
        }
    }

    const std::string& t_;
    size_t p_ = 0;
};

JsonValue parseJson(const std::string& text) { return JsonParser(text).document(); }

} // namespace itc::driver
