// `itc data show`: what a data file holds, for a person reading it.
#include "runtime/data/data_error.h"
#include "tools/itc/data_access.h"
#include "tools/itc/data_commands.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <iostream>
#include <limits>
#include <map>

namespace itc::data {
namespace {

using driver::usageError;

constexpr std::size_t kShownLengths = 10; // lengths of nested arrays or lists listed before `...`

// Min, max and mean of one numeric field over the whole file.
struct FieldStats {
    ScalarKind kind = ScalarKind::real_double; // of the group's first leaf: how min/max print
    int64_t count = 0, nans = 0;
    double min = std::numeric_limits<double>::infinity();
    double max = -std::numeric_limits<double>::infinity();
    double sum = 0.0;
    void add(double v) {
        ++count;
        if (v != v) {
            ++nans;
            return;
        }
        min = std::min(min, v);
        max = std::max(max, v);
        sum += v;
    }
};

void printLayout(const std::string& path, const itrt::DataCollection& d) {
    int64_t total = 0;
    for (const auto& item : d.items)
        total += item.count();
    std::cout << fmt::format("{}: {} ({}), {} element{}\n", path, itrt::describe_shape(d.kind, d.shape),
                             encodingName(path), total, total == 1 ? "" : "s");
    if (d.kind == itrt::Collection::array || d.kind == itrt::Collection::list || d.items.empty())
        return;
    std::vector<std::string> lengths;
    for (std::size_t i = 0; i < d.items.size() && i < kShownLengths; ++i)
        lengths.push_back(itrt::format_lengths(d.items[i].lengths));
    if (d.items.size() > kShownLengths)
        lengths.push_back("...");
    std::cout << fmt::format("{} lengths: {}\n", d.kind == itrt::Collection::list_of_arrays ? "array" : "list",
                             fmt::join(lengths, " "));
}

void printElements(const itrt::DataCollection& d, const ElementType& type, int64_t limit) {
    int64_t shown = 0, total = 0;
    for (const auto& item : d.items)
        total += item.count();
    std::cout << fmt::format("first {} element{}:\n", std::min(limit, total), std::min(limit, total) == 1 ? "" : "s");
    for (std::size_t item = 0; item < d.items.size() && shown < limit; ++item)
        for (int64_t i = 0; i < d.items[item].count() && shown < limit; ++i, ++shown) {
            const std::byte* e = d.items[item].bytes.data() + i * type.size();
            std::string value;
            if (type.leaves().size() == 1 && type.leaves().front().path.empty()) {
                value = leafText(e, type.leaves().front());
            } else {
                std::vector<std::string> fields;
                for (const Leaf& l : type.leaves())
                    fields.push_back(l.path.substr(1) + " = " + leafText(e, l));
                value = fmt::format("{{{}}}", fmt::join(fields, ", "));
            }
            std::cout << fmt::format("  {} {}\n", elementPosition(d, item, i), value);
        }
}

void printStats(const itrt::DataCollection& d, const ElementType& type) {
    std::map<std::string, FieldStats> stats; // by field group, printed in declaration order
    std::vector<std::string> order;
    for (const Leaf& l : type.leaves())
        if (isNumeric(l.kind) && !stats.count(l.group)) {
            stats[l.group].kind = l.kind;
            order.push_back(l.group);
        }
    for (const auto& item : d.items)
        for (int64_t i = 0; i < item.count(); ++i)
            for (const Leaf& l : type.leaves())
                if (isNumeric(l.kind))
                    stats[l.group].add(leafValue(item.bytes.data() + i * type.size(), l));
    for (const std::string& group : order) {
        const FieldStats& s = stats[group];
        const std::string label = group.empty() ? "" : group.substr(1) + ": ";
        if (s.count == s.nans) {
            std::cout << fmt::format("{}no numeric values\n", label);
            continue;
        }
        // min and max are values of the file: print them as the elements print (a float's
        // shortest text, not that of its widened double)
        auto value = [&](double v) {
            if (s.kind == ScalarKind::real_single)
                return fmt::format("{}", static_cast<float>(v));
            return fmt::format("{}", v);
        };
        std::cout << fmt::format("{}min {}  max {}  mean {}{}\n", label, value(s.min), value(s.max),
                                 s.sum / static_cast<double>(s.count - s.nans),
                                 s.nans ? fmt::format("  ({} NaN)", s.nans) : "");
    }
}

} // namespace

int runShow(const std::vector<std::string>& args) {
    std::set<std::string> valueOptions = {"--count"};
    valueOptions.insert(kTypeOptions.begin(), kTypeOptions.end());
    driver::CommandLine cl(args, valueOptions, {});
    if (!cl.ok())
        return usageError("data show", cl.error());
    if (cl.positionals().size() != 1)
        return usageError("data show", "expected one data file");
    int64_t limit = 10;
    if (auto c = cl.value("--count")) {
        auto [end, ec] = std::from_chars(c->data(), c->data() + c->size(), limit);
        if (c->empty() || ec != std::errc() || end != c->data() + c->size() || limit < 0)
            return usageError("data show", "--count `" + *c + "`: expected a whole number");
    }
    int exitCode = driver::kExitOk;
    std::optional<ElementType> type = elementTypeFromOptions(cl, "show", false, exitCode);
    if (!type && exitCode != driver::kExitOk)
        return exitCode;
    const std::string& path = cl.positionals().front();
    try {
        if (!type) {
            // Without an element type the header and trailer still give the layout (the
            // runtime's scan_layout checks them); for binary files the content size hints at
            // the element size.
            const std::string file = itrt::read_whole_file(path);
            itrt::FileLayout layout =
                itrt::scan_layout(path, file.size(), [&](uint64_t off, uint64_t len) { return file.substr(off, len); },
                                  {collectionOf(path), -1, {}});
            itrt::DataCollection skeleton{layout.kind, layout.shape, {}};
            for (const auto& e : layout.entries)
                skeleton.items.push_back({e.lengths, {}});
            printLayout(path, skeleton);
            std::string hint;
            if (layout.encoding == itrt::Encoding::binary && layout.total_elements > 0)
                hint =
                    fmt::format(" ({} content bytes: {} bytes per element)", layout.content_end - layout.content_begin,
                                static_cast<double>(layout.content_end - layout.content_begin) /
                                    static_cast<double>(layout.total_elements));
            std::cout << fmt::format("element type: not recorded in the file{}; give --type or "
                                     "--program/--class to see elements\n",
                                     hint);
            return driver::kExitOk;
        }
        itrt::DataCollection d = readAnyDataFile(path, *type);
        printLayout(path, d);
        std::cout << fmt::format("element type: {} ({} bytes in binary)\n", type->codec().type_name(),
                                 type->codec().binary_size());
        printElements(d, *type, limit);
        printStats(d, *type);
    } catch (const itrt::DataFileError& e) {
        std::cerr << e.what() << "\n";
        return driver::kExitUserError;
    }
    return driver::kExitOk;
}

} // namespace itc::data
