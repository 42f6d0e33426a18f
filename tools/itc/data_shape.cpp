// Parsing of `--shape` and `--lengths` for `itc data make`.
#include "tools/itc/data_shape.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

namespace itc::data {
namespace {

// Far more elements than fit in memory: refusing early gives a message instead of bad_alloc.
constexpr int64_t kMaxElements = int64_t{1} << 34;

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (true) {
        std::size_t at = s.find(sep, start);
        parts.push_back(s.substr(start, at == std::string::npos ? std::string::npos : at - start));
        if (at == std::string::npos)
            return parts;
        start = at + 1;
    }
}

// "64x64" -> {64, 64}; every length a whole number >= 0.
std::optional<std::vector<int64_t>> parseLengths(const std::string& text, const std::string& option,
                                                 std::string& error) {
    std::vector<int64_t> lengths;
    for (const std::string& part : split(text, 'x')) {
        int64_t v = -1;
        auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
        if (part.empty() || ec != std::errc() || end != part.data() + part.size() || v < 0 || v > kMaxElements) {
            error = fmt::format("{} `{}`: expected whole-number lengths separated by `x` "
                                "(like `64x64`), found {}",
                                option, text, part.empty() ? "an empty length" : "`" + part + "`");
            return std::nullopt;
        }
        lengths.push_back(v);
    }
    return lengths;
}

bool checkTotal(const ShapeSpec& s, std::string& error) {
    int64_t total = 0;
    for (const auto& item : s.itemLengths) {
        int64_t n = 1;
        for (int64_t l : item) {
            if (l != 0 && n > kMaxElements / l) {
                n = kMaxElements + 1;
                break;
            }
            n *= l;
        }
        total += n;
        if (total > kMaxElements) {
            error = fmt::format("--shape: more than {} elements", kMaxElements);
            return false;
        }
    }
    return true;
}

int64_t product(const std::vector<int64_t>& v) {
    int64_t n = 1;
    for (int64_t x : v)
        n *= x;
    return n;
}

// `--lengths` for a nested collection: one entry per item, or one entry for all of them.
std::optional<std::vector<std::vector<int64_t>>> itemLengths(const std::optional<std::string>& lengths, int64_t items,
                                                             const char* example, std::string& error) {
    if (!lengths) {
        error = fmt::format("this shape needs `--lengths` (like `{}`)", example);
        return std::nullopt;
    }
    std::vector<std::vector<int64_t>> out;
    for (const std::string& entry : split(*lengths, ',')) {
        auto l = parseLengths(entry, "--lengths", error);
        if (!l)
            return std::nullopt;
        out.push_back(*l);
    }
    if (out.size() == 1)
        out.assign(static_cast<std::size_t>(items), out.front());
    if (static_cast<int64_t>(out.size()) != items) {
        error = fmt::format("--lengths: expected one entry or {}, found {}", items, out.size());
        return std::nullopt;
    }
    return out;
}

} // namespace

std::optional<ShapeSpec> parseShape(const std::string& shape, const std::optional<std::string>& lengths,
                                    std::string& error) {
    ShapeSpec s;
    auto prefixed = [&](const char* prefix) { return shape.rfind(prefix, 0) == 0; };
    const std::string rest = shape.substr(std::min(shape.find(':') + 1, shape.size()));
    if (!prefixed("list:") && !prefixed("lists:") && !prefixed("arrays:") && shape.find(':') != std::string::npos) {
        error = fmt::format("--shape `{}`: expected `N`, `RxC`, `list:N`, `lists:RxC` or "
                            "`arrays:N`",
                            shape);
        return std::nullopt;
    }
    std::optional<std::vector<int64_t>> outer =
        parseLengths(shape.find(':') == std::string::npos ? shape : rest, "--shape", error);
    if (!outer)
        return std::nullopt;
    s.shape = *outer;
    const bool nested = prefixed("lists:") || prefixed("arrays:");
    if (!nested && lengths) {
        error = "`--lengths` goes with `--shape lists:...` or `--shape arrays:...`";
        return std::nullopt;
    }
    if (prefixed("list:") || prefixed("arrays:")) {
        if (s.shape.size() != 1) {
            error = fmt::format("--shape `{}`: {} takes one length", shape,
                                prefixed("list:") ? "a list" : "a list of arrays");
            return std::nullopt;
        }
    }
    if (prefixed("list:")) {
        s.kind = itrt::Collection::list;
        s.itemLengths = {s.shape};
    } else if (prefixed("lists:")) {
        s.kind = itrt::Collection::array_of_lists;
        auto items = itemLengths(lengths, product(s.shape), "1,2,3", error);
        if (!items)
            return std::nullopt;
        for (const auto& l : *items)
            if (l.size() != 1) {
                error = fmt::format("--lengths `{}`: a list has one length", *lengths);
                return std::nullopt;
            }
        s.itemLengths = *items;
    } else if (prefixed("arrays:")) {
        s.kind = itrt::Collection::list_of_arrays;
        auto items = itemLengths(lengths, s.shape[0], "2x3", error);
        if (!items)
            return std::nullopt;
        for (const auto& l : *items)
            if (l.size() != items->front().size()) {
                // A List of Arrays holds arrays of one dimensionality (its element type).
                error = fmt::format("--lengths `{}`: every array needs the same number of "
                                    "dimensions",
                                    *lengths);
                return std::nullopt;
            }
        s.itemLengths = *items;
    } else {
        s.kind = itrt::Collection::array;
        s.itemLengths = {s.shape};
    }
    // Every array in a data file has lengths of at least 1 (lists may be empty): a file the
    // programs and the other commands refuse is not made.
    auto zeroIn = [](const std::vector<int64_t>& l) { return std::find(l.begin(), l.end(), 0) != l.end(); };
    const bool arrayLengths = s.kind == itrt::Collection::array || s.kind == itrt::Collection::array_of_lists;
    if ((arrayLengths && zeroIn(s.shape)) || (s.kind == itrt::Collection::list_of_arrays &&
                                              std::any_of(s.itemLengths.begin(), s.itemLengths.end(), zeroIn))) {
        error = fmt::format("{} `{}`: an array's lengths must be at least 1 (a data file array holds at least "
                            "one element; a list may be empty)",
                            s.kind == itrt::Collection::list_of_arrays ? "--lengths" : "--shape",
                            s.kind == itrt::Collection::list_of_arrays && lengths ? *lengths : shape);
        return std::nullopt;
    }
    if (!checkTotal(s, error))
        return std::nullopt;
    return s;
}

} // namespace itc::data
