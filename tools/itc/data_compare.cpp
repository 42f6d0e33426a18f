// `itc data compare`: whether two data files hold the same collection within a tolerance.
// Exit status as cmp(1): 0 equal, 1 different, 2 trouble (command line or unreadable file), so
// scripts can tell "the result is wrong" from "there is no result".
#include "runtime/data/data_error.h"
#include "tools/itc/data_access.h"
#include "tools/itc/data_commands.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <iostream>

namespace itc::data {
namespace {

constexpr int kDifferent = 1;
constexpr int kTrouble = 2;

// The first place where the shapes of `a` and `b` disagree, or "" when they agree.
std::string shapeDifference(const std::string& pathA, const itrt::DataCollection& a, const std::string& pathB,
                            const itrt::DataCollection& b) {
    if (a.kind != b.kind || a.shape != b.shape)
        return fmt::format("{} is {}, {} is {}", pathA, itrt::describe_shape(a.kind, a.shape), pathB,
                           itrt::describe_shape(b.kind, b.shape));
    for (std::size_t i = 0; i < a.items.size(); ++i)
        if (a.items[i].lengths != b.items[i].lengths) {
            const bool list = a.kind == itrt::Collection::array_of_lists;
            const std::string which = elementPosition(a, i, 0);
            // elementPosition names an element; keep only its `array k` / `list [i,j]` part.
            const std::string item = which.substr(0, which.rfind(' '));
            return fmt::format("{} has {} {} in {} and {} in {}", item, list ? "length" : "lengths",
                               itrt::format_lengths(a.items[i].lengths), pathA,
                               itrt::format_lengths(b.items[i].lengths), pathB);
        }
    return "";
}

bool withinTolerance(double a, double b, double tolerance) {
    if (a == b || (std::isnan(a) && std::isnan(b)))
        return true;
    // Relative for large values, absolute near zero: the rule of tests/reference's ref_check.
    return std::fabs(a - b) <= tolerance * std::max(1.0, std::fabs(b));
}

} // namespace

int runCompare(const std::vector<std::string>& args) {
    std::set<std::string> valueOptions = {"--tolerance"};
    valueOptions.insert(kTypeOptions.begin(), kTypeOptions.end());
    driver::CommandLine cl(args, valueOptions, {});
    if (!cl.ok())
        return driver::usageError("data compare", cl.error());
    if (cl.positionals().size() != 2)
        return driver::usageError("data compare", "expected two data files");
    double tolerance = 0.0;
    if (auto t = cl.value("--tolerance")) {
        auto [end, ec] = std::from_chars(t->data(), t->data() + t->size(), tolerance);
        if (t->empty() || ec != std::errc() || end != t->data() + t->size() || !(tolerance >= 0) ||
            std::isinf(tolerance))
            return driver::usageError("data compare", "--tolerance `" + *t + "`: expected a number, 0 or more");
    }
    int exitCode = driver::kExitOk;
    std::optional<ElementType> type = elementTypeFromOptions(cl, "compare", true, exitCode);
    if (!type)
        return exitCode == driver::kExitUserError ? kTrouble : exitCode;
    const std::string& pathA = cl.positionals()[0];
    const std::string& pathB = cl.positionals()[1];
    itrt::DataCollection a, b;
    try {
        a = readAnyDataFile(pathA, *type);
        b = readAnyDataFile(pathB, *type);
    } catch (const itrt::DataFileError& e) {
        std::cerr << e.what() << "\n";
        return kTrouble;
    }
    if (std::string diff = shapeDifference(pathA, a, pathB, b); !diff.empty()) {
        std::cout << "shapes differ: " << diff << "\n";
        return kDifferent;
    }
    int64_t elements = 0, differing = 0;
    std::string first;
    for (std::size_t item = 0; item < a.items.size(); ++item)
        for (int64_t i = 0; i < a.items[item].count(); ++i, ++elements) {
            const std::byte* ea = a.items[item].bytes.data() + i * type->size();
            const std::byte* eb = b.items[item].bytes.data() + i * type->size();
            bool same = true;
            for (const Leaf& leaf : type->leaves()) {
                const bool ok = isNumeric(leaf.kind)
                                    ? withinTolerance(leafValue(ea, leaf), leafValue(eb, leaf), tolerance)
                                    : leavesEqual(ea, eb, leaf);
                if (ok)
                    continue;
                if (same && first.empty())
                    first = fmt::format("{}{}: {} in {}, {} in {}", elementPosition(a, item, i), leaf.path,
                                        leafText(ea, leaf), pathA, leafText(eb, leaf), pathB);
                same = false;
            }
            differing += same ? 0 : 1;
        }
    if (differing == 0) {
        std::cout << fmt::format("{} and {} are equal ({} element{}, tolerance {})\n", pathA, pathB, elements,
                                 elements == 1 ? "" : "s", tolerance);
        return driver::kExitOk;
    }
    std::cout << fmt::format("{} and {} differ at {}\n{} of {} element{} differ (tolerance {})\n", pathA, pathB, first,
                             differing, elements, elements == 1 ? "" : "s", tolerance);
    return kDifferent;
}

} // namespace itc::data
