// Sequential data files: rendering content + trailer into one buffer and writing it atomically;
// reading the whole file, checking the layout, then decoding text tokens or binary bytes.
#include "runtime/data/io/data_file.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fmt/format.h>
#include <stdexcept>

#include "runtime/data/data_error.h"
#include "runtime/data/io/atomic_output.h"

namespace itrt {
namespace {

struct Token {
    std::string_view text;
    int64_t line;
};

inline bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

// Splits text content into tokens; a token starting with `"` runs to the next `"`. The scan is a
// plain loop: string_view::find_first_of with a set calls memchr once per character.
std::vector<Token> tokenize(const std::string& path, std::string_view s, int64_t first_line) {
    std::vector<Token> out;
    out.reserve(s.size() / 8); // numbers and their separators: rarely shorter than 8 bytes each
    int64_t line = first_line;
    size_t i = 0;
    const size_t n = s.size();
    while (i < n) {
        char c = s[i];
        if (c == '\n') {
            ++line;
            ++i;
        } else if (is_blank(c)) {
            ++i;
        } else if (c == '"') {
            size_t end = s.find_first_of("\"\n", i + 1);
            if (end == std::string_view::npos || s[end] == '\n')
                throw DataFileError(fmt::format(
                    "{}: line {}: expected a closing `\"` for the String starting here, found {}", path, line,
                    end == std::string_view::npos ? "the end of the content" : "the end of the line"));
            out.push_back({s.substr(i, end - i + 1), line});
            i = end + 1;
        } else {
            size_t end = i + 1;
            while (end < n && s[end] != '\n' && !is_blank(s[end]))
                ++end;
            out.push_back({s.substr(i, end - i), line});
            i = end;
        }
    }
    return out;
}

void check_collection(const DataCollection& d) {
    auto fail = [](const std::string& m) { throw std::invalid_argument("write_data_file: " + m); };
    switch (d.kind) {
    case Collection::array:
    case Collection::list:
        if (d.items.size() != 1 || d.items[0].lengths != d.shape)
            fail("shape and content disagree");
        break;
    case Collection::list_of_arrays:
        if (d.shape.size() != 1 || static_cast<int64_t>(d.items.size()) != d.shape[0])
            fail("shape and content disagree");
        break;
    case Collection::array_of_lists: {
        int64_t n = 1;
        for (int64_t x : d.shape)
            n *= x;
        if (static_cast<int64_t>(d.items.size()) != n)
            fail("shape and content disagree");
        break;
    }
    }
}

// Text: one line per innermost row of an array, one line per list.
void render_text_block(const ElementCodec& codec, const ElementBlock& b, bool is_list, std::string& out) {
    const int64_t n = b.count();
    const int64_t row = is_list || b.lengths.empty() ? std::max<int64_t>(n, 1) : b.lengths.back();
    if (n == 0) {
        out += '\n';
        return;
    }
    for (int64_t i = 0; i < n; ++i) {
        codec.write_text(b.bytes.data() + i * codec.memory_size(), out);
        out += (i + 1) % row == 0 ? '\n' : ' ';
    }
}

} // namespace

int64_t ElementBlock::count() const {
    int64_t n = 1;
    for (int64_t x : lengths)
        n *= x;
    return n;
}

DataCollection DataCollection::array(ElementBlock a) {
    DataCollection d{Collection::array, a.lengths, {}};
    d.items.push_back(std::move(a));
    return d;
}
DataCollection DataCollection::list(ElementBlock l) {
    DataCollection d{Collection::list, l.lengths, {}};
    d.items.push_back(std::move(l));
    return d;
}
DataCollection DataCollection::list_of_arrays(std::vector<ElementBlock> arrays) {
    int64_t n = static_cast<int64_t>(arrays.size());
    return DataCollection{Collection::list_of_arrays, {n}, std::move(arrays)};
}
DataCollection DataCollection::array_of_lists(std::vector<int64_t> outer, std::vector<ElementBlock> lists) {
    return DataCollection{Collection::array_of_lists, std::move(outer), std::move(lists)};
}

void write_data_file(const std::string& path, const ElementCodec& codec, const DataCollection& data) {
    const Encoding enc = encoding_of(path);
    check_collection(data);
    std::string out = render_header(data.kind);
    std::vector<DirEntry> entries;
    int64_t offset = 0;
    for (const ElementBlock& b : data.items) {
        entries.push_back({offset, b.lengths});
        offset += b.count();
    }
    const bool lists = data.kind == Collection::list || data.kind == Collection::array_of_lists;
    if (enc == Encoding::text) {
        size_t before = out.size();
        try {
            for (const ElementBlock& b : data.items)
                render_text_block(codec, b, lists, out);
        } catch (const std::invalid_argument& e) {
            throw DataFileError(fmt::format("{}: {}", path, e.what()));
        }
        if (out.size() == before)
            out += '\n';
    } else {
        size_t at = out.size();
        out.resize(at + offset * codec.binary_size());
        for (const ElementBlock& b : data.items) {
            codec.encode_run(b.bytes.data(), reinterpret_cast<std::byte*>(out.data() + at), b.count());
            at += static_cast<size_t>(b.count()) * codec.binary_size();
        }
        out += '\n';
    }
    out += render_trailer(data.kind, data.shape, entries);
    write_file_atomically(path, out);
}

std::vector<DimRange> ranges_from_file(const std::vector<int64_t>& lengths) {
    std::vector<DimRange> r;
    for (int64_t d : lengths)
        r.push_back({0, d - 1});
    return r;
}

void check_regular_file(const std::string& path) {
    struct stat st;
    if (::stat(path.c_str(), &st) != 0)
        throw DataFileError(fmt::format("{}: cannot open for reading: {}", path, std::strerror(errno)));
    if (S_ISDIR(st.st_mode))
        throw DataFileError(fmt::format("{}: is a directory, expected a data file", path));
    if (!S_ISREG(st.st_mode))
        throw DataFileError(fmt::format("{}: is a {}, expected a regular data file", path,
                                        S_ISFIFO(st.st_mode)   ? "FIFO (named pipe)"
                                        : S_ISSOCK(st.st_mode) ? "socket"
                                                               : "device"));
}

std::string read_whole_file(const std::string& path) {
    check_regular_file(path); // opening a FIFO would block, a directory reads as empty
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f)
        throw DataFileError(fmt::format("{}: cannot open for reading: {}", path, std::strerror(errno)));
    std::string s;
    char buf[1 << 16];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
        s.append(buf, n);
    const bool failed = std::ferror(f) != 0;
    std::fclose(f);
    if (failed)
        throw DataFileError(fmt::format("{}: read failed", path));
    return s;
}

DataCollection read_data_file(const std::string& path, const ElementCodec& codec, const FileExpectation& expect) {
    encoding_of(path); // reject unknown extensions before touching the file
    return read_data_bytes(path, read_whole_file(path), codec, expect);
}

DataCollection read_data_bytes(const std::string& path, const std::string& file, const ElementCodec& codec,
                               const FileExpectation& expect) {
    FileLayout L = scan_layout(
        path, file.size(), [&](uint64_t off, uint64_t len) { return file.substr(off, len); }, expect);
    std::string_view content = std::string_view(file).substr(L.content_begin, L.content_end - L.content_begin);
    const std::string what = describe_shape(L.kind, L.shape);
    // The content must hold exactly the elements the trailer claims before any memory is set
    // aside for them.
    std::vector<Token> tokens;
    const size_t fields = static_cast<size_t>(codec.text_fields());
    if (L.encoding == Encoding::binary) {
        check_binary_content(path, L, codec.binary_size(), codec.type_name());
    } else {
        // Bytes no text has (a .bin file named .txt) would only show as a wrong element count.
        for (size_t i = 0; i < content.size(); ++i) {
            const unsigned char c = static_cast<unsigned char>(content[i]);
            if (c < 0x20 && c != '\n' && !is_blank(static_cast<char>(c)))
                throw DataFileError(fmt::format(
                    "{}: line {}: a byte 0x{:02x}, which text cannot hold: the file looks binary (a binary data "
                    "file's name ends in `.bin`)",
                    path, 2 + std::count(content.begin(), content.begin() + static_cast<std::ptrdiff_t>(i), '\n'), c));
        }
        tokens = tokenize(path, content, 2);
        const size_t want = static_cast<size_t>(L.total_elements) * fields;
        if (tokens.size() != want) {
            const char* s = L.total_elements == 1 ? "" : "s";
            // `1,2,3` (as a spreadsheet writes) is one word: say how elements are separated.
            const bool commas = tokens.size() < want && std::any_of(tokens.begin(), tokens.end(), [](const Token& t) {
                                    return t.text.find(',') != std::string_view::npos;
                                });
            const std::string hint = commas ? " (elements are separated by blanks, not commas)" : "";
            if (fields == 1)
                throw DataFileError(fmt::format("{}: line {}: expected {} element{} for {}, found {}{}", path,
                                                L.trailer_line, L.total_elements, s, what, tokens.size(), hint));
            // Elements of several values (a Range is two numbers) are counted in values: four numbers
            // where one Range belongs are "4 values", not "2" Ranges.
            throw DataFileError(
                fmt::format("{}: line {}: expected {} element{} ({} values) for {} of {}, found {} values", path,
                            L.trailer_line, L.total_elements, s, want, what, codec.type_name(), tokens.size()));
        }
    }
    DataCollection d{L.kind, L.shape, {}};
    for (const DirEntry& e : L.entries) {
        ElementBlock b{e.lengths, {}};
        b.bytes.resize(e.count() * codec.memory_size());
        d.items.push_back(std::move(b));
    }
    if (L.encoding == Encoding::binary) {
        const auto* in = reinterpret_cast<const std::byte*>(content.data());
        for (ElementBlock& b : d.items) {
            codec.decode_run(in, b.bytes.data(), b.count());
            in += static_cast<size_t>(b.count()) * codec.binary_size();
        }
        return d;
    }
    std::vector<std::string_view> fieldv(fields);
    size_t t = 0;
    std::string error;
    for (ElementBlock& b : d.items) {
        for (int64_t i = 0; i < b.count(); ++i) {
            for (size_t f = 0; f < fields; ++f)
                fieldv[f] = tokens[t + f].text;
            if (!codec.read_text(fieldv, b.bytes.data() + i * codec.memory_size(), error))
                throw DataFileError(fmt::format("{}: line {}: {}", path, tokens[t].line, error));
            t += fields;
        }
    }
    return d;
}

} // namespace itrt
