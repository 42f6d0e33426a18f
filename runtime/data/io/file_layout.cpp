// Header and trailer parsing/rendering with precise messages: every error names the file, the
// place (line number in text files, trailer line in binary files), what was expected and what was
// found.
#include "runtime/data/io/file_layout.h"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

#include "runtime/data/data_error.h"

namespace itrt {
namespace {

constexpr Collection kAll[] = {Collection::array, Collection::list, Collection::array_of_lists,
                               Collection::list_of_arrays};

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

bool parse_count(std::string_view s, int64_t& v) {
    if (s.empty() || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return false;
    auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

// "d1*...*dn" with every di a count (>= 0).
bool parse_counts(std::string_view s, std::vector<int64_t>& out) {
    out.clear();
    while (true) {
        size_t star = s.find('*');
        int64_t v = 0;
        if (!parse_count(s.substr(0, star), v))
            return false;
        out.push_back(v);
        if (star == std::string_view::npos)
            return true;
        s.remove_prefix(star + 1);
    }
}

// "d1*...*dn" with every di >= 1.
bool parse_lengths(std::string_view s, std::vector<int64_t>& out) {
    return parse_counts(s, out) && std::find(out.begin(), out.end(), 0) == out.end();
}

// Lengths that parse but for a 0 among them (`0`, `3*0`).
bool zero_length(std::string_view s) {
    std::vector<int64_t> counts;
    return parse_counts(s, counts) && std::find(counts.begin(), counts.end(), 0) != counts.end();
}

int64_t product(const std::vector<int64_t>& v) {
    int64_t p = 1;
    for (int64_t x : v)
        p *= x;
    return p;
}

// The product of non-negative `v` when it is at most `limit`; false when it is larger (checked
// before each multiplication, so lengths like 10^12*10^12 cannot overflow).
bool product_at_most(const std::vector<int64_t>& v, int64_t limit, int64_t& out) {
    if (std::find(v.begin(), v.end(), 0) != v.end()) {
        out = 0;
        return true;
    }
    int64_t p = 1;
    for (int64_t x : v) {
        if (x > limit / p)
            return false;
        p *= x;
    }
    out = p;
    return true;
}

std::string printable(std::string_view s) {
    std::string out;
    for (char c : s.substr(0, 60)) {
        unsigned char u = static_cast<unsigned char>(c);
        if (u >= 32 && u < 127) {
            out += c;
        } else {
            out += fmt::format("\\x{:02x}", u);
        }
    }
    if (s.size() > 60)
        out += "...";
    return out;
}

} // namespace

int64_t DirEntry::count() const { return product(lengths); }

std::string_view header_of(Collection kind) {
    switch (kind) {
    case Collection::array: return "Array";
    case Collection::list: return "List";
    case Collection::array_of_lists: return "Array of Lists";
    case Collection::list_of_arrays: return "List of Arrays";
    }
    return "?";
}

Encoding encoding_of(std::string_view path) {
    if (path.empty())
        throw DataFileError("the file name is empty (give a name ending in `.txt` or `.bin`)");
    size_t slash = path.find_last_of('/');
    std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
    size_t dot = base.find_last_of('.');
    std::string_view ext = dot == std::string_view::npos ? "" : base.substr(dot);
    if (ext == ".txt")
        return Encoding::text;
    if (ext == ".bin")
        return Encoding::binary;
    throw DataFileError(fmt::format("{}: unknown data file extension `{}` (expected `.txt` or `.bin`)", path,
                                    ext.empty() ? "(none)" : std::string(ext)));
}

std::string format_lengths(const std::vector<int64_t>& lengths) {
    std::string s;
    for (size_t i = 0; i < lengths.size(); ++i)
        s += (i ? "*" : "") + std::to_string(lengths[i]);
    return s;
}

std::string describe_shape(Collection kind, const std::vector<int64_t>& shape) {
    switch (kind) {
    case Collection::array:
        return shape.size() == 1 ? fmt::format("a {}-element Array", shape[0])
                                 : fmt::format("a {} Array", format_lengths(shape));
    case Collection::list: return fmt::format("a List of length {}", shape.empty() ? 0 : shape[0]);
    case Collection::list_of_arrays: return fmt::format("a List of {} Arrays", shape.empty() ? 0 : shape[0]);
    case Collection::array_of_lists:
        return shape.size() == 1 ? fmt::format("a {}-element Array of Lists", shape[0])
                                 : fmt::format("a {} Array of Lists", format_lengths(shape));
    }
    return "?";
}

std::string render_header(Collection kind) { return std::string(header_of(kind)) + "\n"; }

std::string render_trailer(Collection kind, const std::vector<int64_t>& shape, const std::vector<DirEntry>& entries) {
    std::string out;
    if (kind == Collection::list_of_arrays || kind == Collection::array_of_lists) {
        for (size_t i = 0; i < entries.size(); ++i)
            out += fmt::format("{}{}:{}", i ? " " : "", entries[i].offset, format_lengths(entries[i].lengths));
        out += '\n';
    }
    out += format_lengths(shape) + "\n";
    return out;
}

namespace {
FileLayout scan_complete_layout(const std::string& path, uint64_t file_size, const ByteReader& read,
                                const FileExpectation& expect);
} // namespace

FileLayout scan_layout(const std::string& path, uint64_t file_size, const ByteReader& read,
                       const FileExpectation& expect) {
    // A text file whose last line lacks its LF, as many editors save files, reads as if it had
    // it; a binary file must end with its LF (without it, it was cut short).
    if (file_size > 0 && encoding_of(path) == Encoding::text && read(file_size - 1, 1) != "\n") {
        ByteReader with_lf = [&read, file_size](uint64_t off, uint64_t len) {
            std::string s = off < file_size ? read(off, std::min(len, file_size - off)) : std::string();
            if (off + len > file_size)
                s += '\n';
            return s;
        };
        return scan_complete_layout(path, file_size + 1, with_lf, expect);
    }
    return scan_complete_layout(path, file_size, read, expect);
}

namespace {
FileLayout scan_complete_layout(const std::string& path, uint64_t file_size, const ByteReader& read,
                                const FileExpectation& expect) {
    FileLayout L;
    L.kind = expect.kind;
    L.encoding = encoding_of(path);
    const bool text = L.encoding == Encoding::text;
    const std::string expected_headers = "`Array`, `List`, `Array of Lists` or `List of Arrays`";
    if (file_size == 0)
        throw DataFileError(
            fmt::format("{}: line 1: expected a header ({}), found an empty file", path, expected_headers));

    // Header: the first line.
    std::string head = read(0, std::min<uint64_t>(file_size, 4096));
    size_t lf = head.find('\n');
    if (lf == std::string::npos)
        throw DataFileError(
            fmt::format("{}: line 1: expected a header line ending in LF, found `{}`", path, printable(head)));
    std::string_view header = trim(std::string_view(head).substr(0, lf));
    auto known = std::find_if(std::begin(kAll), std::end(kAll), [&](Collection c) { return header_of(c) == header; });
    if (known == std::end(kAll) && header.starts_with("\xEF\xBB\xBF"))
        throw DataFileError(fmt::format("{}: line 1: the file starts with a UTF-8 byte-order mark, which some "
                                        "editors write; save it without one (data files are ASCII)",
                                        path));
    if (known == std::end(kAll))
        throw DataFileError(
            fmt::format("{}: line 1: expected a header ({}), found `{}`", path, expected_headers, printable(header)));
    if (*known != expect.kind)
        throw DataFileError(
            fmt::format("{}: line 1: expected header `{}`, found `{}`", path, header_of(expect.kind), header));
    const uint64_t header_end = lf + 1;

    // Trailer: scan backward over the expected number of LF-terminated lines.
    const int lines = (expect.kind == Collection::array || expect.kind == Collection::list) ? 1 : 2;
    const uint64_t tail_len = std::min<uint64_t>(file_size - header_end, 1 << 16);
    std::string tail;
    uint64_t tail_off = file_size - tail_len;
    std::vector<uint64_t> lfs; // absolute positions of the last lines+1 LFs, from the end
    for (uint64_t chunk = tail_len;; chunk = std::min<uint64_t>(chunk * 4, file_size - header_end)) {
        tail_off = file_size - chunk;
        tail = read(tail_off, chunk);
        lfs.clear();
        for (uint64_t i = tail.size(); i-- > 0 && lfs.size() < static_cast<size_t>(lines) + 1;)
            if (tail[i] == '\n')
                lfs.push_back(tail_off + i);
        if (lfs.size() == static_cast<size_t>(lines) + 1 || tail_off == header_end)
            break;
    }
    if (head.size() == file_size ? head.back() != '\n' : read(file_size - 1, 1) != "\n")
        throw DataFileError(
            fmt::format("{}: the file does not end with LF, so its trailer is missing or truncated", path));
    // The LF that ends the content (or, with empty text content, the header's LF).
    uint64_t content_lf;
    if (lfs.size() == static_cast<size_t>(lines) + 1) {
        content_lf = lfs[lines];
    } else if (lfs.size() == static_cast<size_t>(lines) && text) {
        content_lf = lf;
    } else if (lfs.size() == static_cast<size_t>(lines)) {
        throw DataFileError(
            fmt::format("{}: expected an LF byte between the content and the trailer, found none", path));
    } else {
        throw DataFileError(fmt::format("{}: expected {} trailer line{} after the content of `{}`, found {}", path,
                                        lines, lines == 1 ? "" : "s", header_of(expect.kind), lfs.size()));
    }
    L.content_begin = header_end;
    L.content_end = std::max<uint64_t>(content_lf, header_end);
    if (text) {
        std::string before = read(0, content_lf + 1);
        L.trailer_line = std::count(before.begin(), before.end(), '\n') + lines;
    }
    auto line_text = [&](int from_end) { // 0 = last line
        // With empty text content the LF before the first trailer line is the header's, which
        // lies before the tail and is not in `lfs`.
        const bool first = from_end + 1 == static_cast<int>(lfs.size());
        uint64_t begin = first ? content_lf + 1 : lfs[from_end + 1] + 1, end = lfs[from_end];
        return std::string(trim(std::string_view(tail).substr(begin - tail_off, end - begin)));
    };
    auto where = [&](int from_end) {
        if (text)
            return fmt::format("{}: line {}: ", path, L.trailer_line - from_end);
        return fmt::format("{}: {} line: ", path, from_end == 0 ? "last trailer" : "directory");
    };

    // Every element takes at least one byte of binary content, so a binary trailer that claims
    // more elements than there are content bytes is wrong; saying so here, before anyone
    // allocates memory for the claimed elements (read_array_shape's callers allocate their parts
    // from the lengths), keeps a hostile trailer from exhausting memory. Text readers compare the
    // claim with the tokens they find (a precise count) before allocating, so for text the bound
    // only keeps element counts far from overflow.
    const int64_t content_bytes = static_cast<int64_t>(L.content_end - L.content_begin);
    const int64_t limit = text ? int64_t{1} << 53 : content_bytes;
    auto too_many = [&](int from_end, const std::string& lengths) {
        return DataFileError(
            fmt::format("{}`{}` claims more elements than the {} content byte{} can hold (the file is truncated "
                        "or its trailer is wrong)",
                        where(from_end), printable(lengths), content_bytes, content_bytes == 1 ? "" : "s"));
    };

    // Shape line.
    std::string last = line_text(0);
    if (expect.kind == Collection::list || expect.kind == Collection::list_of_arrays) {
        int64_t n = 0;
        if (!parse_count(last, n))
            throw DataFileError(fmt::format("{}expected the {} as a non-negative integer, found `{}`", where(0),
                                            expect.kind == Collection::list ? "list length" : "number of arrays",
                                            printable(last)));
        L.shape = {n};
        if (expect.kind == Collection::list && n > limit)
            throw too_many(0, last);
    } else {
        if (!parse_lengths(last, L.shape))
            throw DataFileError(
                zero_length(last)
                    ? fmt::format("{}dimension lengths must be at least 1, found `{}` (an array file holds at least "
                                  "one element)",
                                  where(0), printable(last))
                    : fmt::format("{}expected dimension lengths like `2*3`, found `{}`", where(0), printable(last)));
        if (expect.rank >= 0 && static_cast<int>(L.shape.size()) != expect.rank)
            throw DataFileError(fmt::format("{}expected {}-dimensional {}, found {} dimension{} `{}`", where(0),
                                            expect.rank, expect.kind == Collection::array ? "Array" : "outer Array",
                                            L.shape.size(), L.shape.size() == 1 ? "" : "s", last));
        if (!expect.lengths.empty() && L.shape != expect.lengths)
            throw DataFileError(fmt::format("{}expected dimension lengths {} (as the program's array), found {}",
                                            where(0), format_lengths(expect.lengths), last));
        int64_t cells = 0;
        if (expect.kind == Collection::array && !product_at_most(L.shape, limit, cells))
            throw too_many(0, last);
    }

    // Directory line.
    if (lines == 1) {
        L.entries = {DirEntry{0, L.shape}};
    } else {
        std::string dir = line_text(1);
        const bool lists = expect.kind == Collection::array_of_lists;
        // One directory entry per list or array; each takes at least 3 bytes (`0:1`) and a space
        // of the directory line, so a shape asking for more than `most` entries is wrong, and
        // is reported without computing (or overflowing) its product.
        const int64_t most = static_cast<int64_t>(dir.size()) / 2 + 1;
        int64_t want = most + 1;
        if (lists)
            product_at_most(L.shape, most, want);
        else
            want = std::min(L.shape[0], most + 1);
        std::vector<std::string_view> items;
        std::string_view rest = dir;
        while (!rest.empty()) {
            size_t sp = rest.find(' ');
            items.push_back(rest.substr(0, sp));
            if (sp == std::string_view::npos)
                break;
            rest.remove_prefix(sp + 1);
            if (rest.empty() || rest.front() == ' ')
                throw DataFileError(fmt::format("{}expected directory entries separated by single spaces, found `{}`",
                                                where(1), printable(dir)));
        }
        if (want > most)
            throw DataFileError(
                fmt::format("{}`{}` claims more collections than the directory line's {} entr{} describe", where(0),
                            printable(last), items.size(), items.size() == 1 ? "y" : "ies"));
        if (static_cast<int64_t>(items.size()) != want)
            throw DataFileError(fmt::format("{}expected {} directory entr{} for {}, found {}", where(1), want,
                                            want == 1 ? "y" : "ies", describe_shape(expect.kind, L.shape),
                                            items.size()));
        int64_t next = 0;
        for (size_t i = 0; i < items.size(); ++i) {
            std::string_view item = items[i];
            size_t colon = item.find(':');
            DirEntry e;
            bool ok = colon != std::string_view::npos && parse_count(item.substr(0, colon), e.offset);
            if (ok && lists) {
                int64_t n = 0;
                ok = parse_count(item.substr(colon + 1), n);
                e.lengths = {n};
            } else if (ok) {
                ok = parse_lengths(item.substr(colon + 1), e.lengths);
            }
            if (!ok)
                throw DataFileError(fmt::format("{}expected directory entry {} as `{}`, found `{}`", where(1), i + 1,
                                                lists ? "offset:length" : "offset:d1*...*dn", printable(item)));
            if (!lists && expect.rank >= 0 && static_cast<int>(e.lengths.size()) != expect.rank)
                throw DataFileError(
                    fmt::format("{}expected directory entry {} to be a {}-dimensional Array, found `{}`", where(1),
                                i + 1, expect.rank, item));
            int64_t count = 0;
            if (!product_at_most(e.lengths, limit - next, count))
                throw too_many(1, std::string(item));
            if (e.offset != next)
                throw DataFileError(fmt::format("{}directory entry {} `{}` has offset {}, expected "
                                                "{} (offsets must be contiguous)",
                                                where(1), i + 1, item, e.offset, next));
            next += count;
            L.entries.push_back(std::move(e));
        }
    }
    for (const DirEntry& e : L.entries)
        L.total_elements += e.count();
    return L;
}
} // namespace

void check_binary_content(const std::string& path, const FileLayout& layout, size_t element_size,
                          const std::string& type_name) {
    // total_elements <= content bytes (scan_layout), so the product cannot overflow.
    const uint64_t have = layout.content_end - layout.content_begin;
    const uint64_t want = static_cast<uint64_t>(layout.total_elements) * element_size;
    if (have != want)
        throw DataFileError(fmt::format(
            "{}: expected {} content bytes for {} of {} ({} elements of {} bytes), found {}", path, want,
            describe_shape(layout.kind, layout.shape), type_name, layout.total_elements, element_size, have));
}

} // namespace itrt
