// `itc data make`: a seeded data file of any collection type and element type.
#include "runtime/data/data_error.h"
#include "tools/itc/data_access.h"
#include "tools/itc/data_commands.h"
#include "tools/itc/data_generate.h"
#include "tools/itc/data_shape.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <iostream>
#include <new>

namespace itc::data {
namespace {

using driver::usageError;

std::optional<double> parseNumber(const std::string& text) {
    double v = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v))
        return std::nullopt;
    return v;
}

// Reads the numeric options into `o`; returns the usage message of the first bad one.
std::optional<std::string> readGenerateOptions(const driver::CommandLine& cl, GenerateOptions& o) {
    if (auto k = cl.value("--kind"))
        o.kind = *k;
    if (auto s = cl.value("--seed")) {
        auto [end, ec] = std::from_chars(s->data(), s->data() + s->size(), o.seed);
        if (s->empty() || ec != std::errc() || end != s->data() + s->size())
            return fmt::format("--seed `{}`: expected a whole number from 0 to 2^64-1", *s);
    }
    for (const char* name : {"--lo", "--hi", "--value"}) {
        auto text = cl.value(name);
        if (!text)
            continue;
        auto v = parseNumber(*text);
        // A character stands for its code (`--lo A`, `--lo 'A'`), for char data.
        const bool quoted = text->size() == 3 && text->front() == '\'' && text->back() == '\'';
        if (!v && (text->size() == 1 || quoted))
            v = static_cast<unsigned char>((*text)[quoted ? 1 : 0]);
        if (!v)
            return fmt::format("{} `{}`: expected a number, or one character (its code, for char data)", name, *text);
        if (std::string(name) == "--lo")
            o.lo = *v;
        else if (std::string(name) == "--hi")
            o.hi = *v;
        else
            o.value = *v;
    }
    if (auto c = cl.value("--coef")) {
        const std::size_t comma = c->find(',');
        auto a = parseNumber(c->substr(0, comma));
        auto b = comma == std::string::npos ? std::optional<double>(0.0) : parseNumber(c->substr(comma + 1));
        if (!a || !b)
            return fmt::format("--coef `{}`: expected A or A,B (numbers)", *c);
        o.coefA = *a;
        o.coefB = *b;
    }
    return std::nullopt;
}

} // namespace

int runMake(const std::vector<std::string>& args) {
    std::set<std::string> valueOptions = {"-o",   "--shape", "--lengths", "--kind", "--seed",
                                          "--lo", "--hi",    "--value",   "--coef"};
    valueOptions.insert(kTypeOptions.begin(), kTypeOptions.end());
    driver::CommandLine cl(args, valueOptions, {});
    if (!cl.ok())
        return usageError("data make", cl.error());
    if (!cl.positionals().empty())
        return usageError("data make", "unexpected argument `" + cl.positionals().front() + "`");
    if (!cl.has("-o") || !cl.has("--shape"))
        return usageError("data make", "`-o FILE` and `--shape SHAPE` are required");
    std::string error;
    std::optional<ShapeSpec> shape = parseShape(*cl.value("--shape"), cl.value("--lengths"), error);
    if (!shape)
        return usageError("data make", error);
    GenerateOptions options;
    if (auto bad = readGenerateOptions(cl, options))
        return usageError("data make", *bad);
    int exitCode = driver::kExitOk;
    std::optional<ElementType> type = elementTypeFromOptions(cl, "make", true, exitCode);
    if (!type)
        return exitCode;
    const std::string out = *cl.value("-o");
    try {
        itrt::encoding_of(out); // a wrong extension is reported before any work
        itrt::write_data_file(out, type->codec(), generate(*type, *shape, options));
    } catch (const GenerateError& e) {
        return usageError("data make", e.what());
    } catch (const itrt::DataFileError& e) {
        std::cerr << e.what() << "\n";
        return driver::kExitUserError;
    } catch (const std::bad_alloc&) {
        std::cerr << "itc data make: not enough memory for --shape " << *cl.value("--shape") << "\n";
        return driver::kExitUserError;
    }
    return driver::kExitOk;
}

} // namespace itc::data
