// An ANTLR character stream over source bytes, one character 0..255 per byte: ANTLR's character
// positions are then byte offsets and its columns the byte columns SourceManager counts, token
// texts are the source bytes, and invalid UTF-8 cannot throw (ANTLRInputStream's UTF-8
// decoding throws std::range_error). For
// the ANTLR-based parsers only (frontend/parser.cpp, pcubes/); no ANTLR type leaves them.
#pragma once

#include <ANTLRInputStream.h>

#include <algorithm>
#include <string>

namespace itc {

class ByteInputStream : public antlr4::ANTLRInputStream {
public:
    explicit ByteInputStream(const std::string& bytes) {
        _data.reserve(bytes.size());
        for (char c : bytes)
            _data.push_back(static_cast<char32_t>(static_cast<unsigned char>(c)));
        p = 0;
    }

    // The bytes themselves (tokens' getText() comes here). ANTLRInputStream would encode each
    // character as UTF-8, turning a non-ASCII byte into two, so a name read back from a token
    // would differ from the source (and grow on every print and re-parse).
    std::string getText(const antlr4::misc::Interval& interval) override {
        if (interval.a < 0 || interval.b < interval.a || static_cast<size_t>(interval.a) >= _data.size())
            return "";
        const size_t stop = std::min(static_cast<size_t>(interval.b), _data.size() - 1);
        std::string out;
        out.reserve(stop - static_cast<size_t>(interval.a) + 1);
        for (size_t i = static_cast<size_t>(interval.a); i <= stop; ++i)
            out.push_back(static_cast<char>(_data[i]));
        return out;
    }
};

} // namespace itc
