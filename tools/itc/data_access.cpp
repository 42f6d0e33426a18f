// Shared helpers of the `itc data` subcommands (see data_access.h).
#include "tools/itc/data_access.h"

#include "runtime/data/data_error.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>
#include <fstream>
#include <iostream>

namespace itc::data {

std::optional<ElementType> elementTypeFromOptions(const driver::CommandLine& cl, const std::string& sub, bool required,
                                                  int& exitCode) {
    const std::string command = "data " + sub;
    auto usage = [&](const std::string& message) {
        exitCode = driver::usageError(command, message);
        return std::nullopt;
    };
    exitCode = driver::kExitOk;
    const bool byName = cl.has("--type"), byClass = cl.has("--program") || cl.has("--class");
    if (byName && byClass)
        return usage("give either `--type` or `--program FILE.it --class NAME`, not both");
    if (byClass) {
        if (!cl.has("--program") || !cl.has("--class"))
            return usage("`--program` and `--class` go together");
        auto t = classElementType(*cl.value("--program"), *cl.value("--class"), std::cerr);
        if (!t)
            exitCode = driver::kExitUserError;
        return t;
    }
    if (!byName) {
        if (required)
            return usage(fmt::format("data files do not record their element type: give "
                                     "`--type` ({}) or `--program FILE.it --class NAME`",
                                     kPrimitiveTypeNames));
        return std::nullopt;
    }
    auto t = primitiveElementType(*cl.value("--type"));
    if (!t)
        return usage(fmt::format("unknown --type `{}` (types: {}; for a class give `--program "
                                 "FILE.it --class NAME`)",
                                 *cl.value("--type"), kPrimitiveTypeNames));
    return t;
}

itrt::Collection collectionOf(const std::string& path) {
    itrt::encoding_of(path);        // the runtime's message for a wrong extension comes first
    itrt::check_regular_file(path); // a FIFO would block the read below
    std::ifstream in(path, std::ios::binary);
    std::string header;
    if (in)
        std::getline(in, header);
    while (!header.empty() && (header.back() == '\r' || header.back() == ' ' || header.back() == '\t'))
        header.pop_back();
    for (itrt::Collection c : {itrt::Collection::array, itrt::Collection::list, itrt::Collection::array_of_lists,
                               itrt::Collection::list_of_arrays})
        if (itrt::header_of(c) == header)
            return c;
    // Not a header we know (or no file): the runtime's reader says exactly what is wrong.
    itrt::read_data_file(path, itrt::integer_codec(), {itrt::Collection::array, -1, {}});
    throw itrt::DataFileError(path + ": line 1: not a data-file header"); // not reached
}

itrt::DataCollection readAnyDataFile(const std::string& path, const ElementType& type) {
    return itrt::read_data_file(path, type.codec(), {collectionOf(path), -1, {}});
}

namespace {

std::string multiIndex(int64_t k, const std::vector<int64_t>& lengths) {
    std::vector<int64_t> idx(lengths.size());
    for (std::size_t d = lengths.size(); d-- > 0;) {
        idx[d] = lengths[d] == 0 ? 0 : k % lengths[d];
        if (lengths[d] != 0)
            k /= lengths[d];
    }
    return fmt::format("[{}]", fmt::join(idx, ","));
}

} // namespace

std::string elementPosition(const itrt::DataCollection& data, std::size_t item, int64_t index) {
    std::string inner = multiIndex(index, data.items[item].lengths);
    switch (data.kind) {
    case itrt::Collection::array:
    case itrt::Collection::list: return inner;
    case itrt::Collection::list_of_arrays: return fmt::format("array {} {}", item, inner);
    case itrt::Collection::array_of_lists:
        return fmt::format("list {} {}", multiIndex(static_cast<int64_t>(item), data.shape), inner);
    }
    return inner;
}

std::string encodingName(const std::string& path) {
    return itrt::encoding_of(path) == itrt::Encoding::binary ? "binary" : "text";
}

} // namespace itc::data
