// "Did you mean" suggestions: the known name nearest to a misspelled one. Shared by the
// compiler's diagnostics (frontend/, semantic/) and a generated program's argument checks
// (runtime/task/program_help.cpp). Header-only, without MPI or IT syntax, so the compiler
// includes it without linking libitrt, the way the backend reads runtime/engine/reduce_ops.def.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace itrt::support {

// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
// neighbouring characters cost one each (`a_fiel` is one step from `a_file`).
inline std::size_t edit_distance(std::string_view a, std::string_view b) {
    const std::size_t n = a.size(), m = b.size();
    std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1));
    for (std::size_t i = 0; i <= n; ++i)
        d[i][0] = i;
    for (std::size_t j = 0; j <= m; ++j)
        d[0][j] = j;
    for (std::size_t i = 1; i <= n; ++i)
        for (std::size_t j = 1; j <= m; ++j) {
            const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[n][m];
}

// The candidate nearest to `word`, or "" when none is close enough to be a likely typo of it.
// A typo changes a few characters: a third of the word, at least two, but never all of it
// (so `x` does not suggest `y`). When two candidates are equally near, the guess would be a
// coin toss, so there is none. A candidate equal to `word` is no suggestion.
inline std::string nearest_name(std::string_view word, const std::vector<std::string>& candidates) {
    std::string best;
    std::size_t best_distance = 0;
    bool tie = false;
    for (const std::string& c : candidates) {
        if (c == word)
            continue;
        const std::size_t d = edit_distance(word, c);
        if (best.empty() || d < best_distance) {
            best = c;
            best_distance = d;
            tie = false;
        } else if (d == best_distance && c != best) {
            tie = true;
        }
    }
    const std::size_t limit = std::max<std::size_t>(2, word.size() / 3);
    if (best.empty() || tie || best_distance > limit || best_distance >= word.size())
        return "";
    return best;
}

} // namespace itrt::support
