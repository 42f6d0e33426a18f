// "Did you mean" hints of the diagnostics about unknown names (variables, stages, tasks, types,
// partition functions, keywords, ...): the rule that picks the suggestion is the one the runtime
// uses for misspelled program arguments (runtime/support/nearest_name.h); the wording is here.
#pragma once

#include "runtime/support/nearest_name.h"

#include <string>
#include <string_view>
#include <vector>

namespace itc {

// The candidate nearest to `word`, or "" when none is near enough to be a likely typo.
inline std::string nearestName(std::string_view word, const std::vector<std::string>& candidates) {
    return itrt::support::nearest_name(word, candidates);
}

// "; did you mean `NAME`?" for the candidate nearest to `word`, or "" when none is near.
inline std::string didYouMean(std::string_view word, const std::vector<std::string>& candidates) {
    std::string near = nearestName(word, candidates);
    return near.empty() ? std::string() : "; did you mean `" + near + "`?";
}

// "did you mean `NAME`? Otherwise " for the candidate nearest to `word`, or "": for messages that
// go on to say what else to do ("`yy` is not a task-global; {}declare it in Define").
inline std::string didYouMeanOtherwise(std::string_view word, const std::vector<std::string>& candidates) {
    std::string near = nearestName(word, candidates);
    return near.empty() ? std::string() : "did you mean `" + near + "`? Otherwise ";
}

// `a`, `a or b`, `a, b or c`: the alternatives of a hint or an "expected ..." message.
inline std::string joinOr(const std::vector<std::string>& items) {
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i > 0)
            out += i + 1 == items.size() ? " or " : ", ";
        out += items[i];
    }
    return out;
}

// The IT type meant by a type name of another language (`int`, `double`, `Float`, `bool`, ...),
// or "" when `word` is none of them.
inline std::string itTypeFor(std::string_view word) {
    std::string w(word);
    for (char& c : w)
        c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    if (w == "int" || w == "long" || w == "short" || w == "int32" || w == "int64" || w == "integer32")
        return "Integer";
    if (w == "float" || w == "single" || w == "float32")
        return "Real single-precision";
    if (w == "double" || w == "float64")
        return "Real double-precision";
    if (w == "bool")
        return "Boolean";
    if (w == "char")
        return "Character";
    if (w == "str" || w == "string")
        return "String";
    return "";
}

// The keys of a map keyed by name, as suggestion candidates.
template <typename Map> std::vector<std::string> namesOf(const Map& byName) {
    std::vector<std::string> names;
    for (const auto& entry : byName)
        names.push_back(entry.first);
    return names;
}

} // namespace itc
