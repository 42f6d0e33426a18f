// Sequential reference for tests/e2e/programs/epoch_partial.it: `rounds` rounds; in round r
// (1-based) with r % skip != 0, the cells (i, j) of the grid's interior with i >= r and
// j <= last_col become
//     0.5 * old[i][j] + 0.125 * (old[i-1][j] + old[i+1][j] + old[i][j-1] + old[i][j+1])
// and every other cell keeps its value; rounds with r % skip == 0 change nothing.
// Arguments: input_file=... output_file=... rounds=... skip=... last_col=... (p, q ignored).
#include <algorithm>
#include <stdexcept>
#include <utility>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_epoch_partial", argc, argv, [](const itref::Args& args) {
    auto grid = itref::read_data<double>(args.str("input_file"));
    if (grid.dims.size() != 2) throw std::runtime_error("the grid must be a 2d array");
    const long long rounds = args.integer("rounds"), skip = args.integer("skip");
    const long long last_col = args.integer("last_col");
    if (rounds < 1 || skip == 0) throw std::runtime_error("rounds must be positive and skip non-zero");
    const long long rows = static_cast<long long>(grid.rows()), cols = static_cast<long long>(grid.cols());
    auto next = grid;
    for (long long r = 1; r <= rounds; ++r) {
      if (r % skip == 0) continue;
      next = grid;
      for (long long i = std::max(1LL, r); i < rows - 1; ++i)
        for (long long j = 1; j < cols - 1 && j <= last_col; ++j) {
          auto at = [&](long long a, long long b) {
            return grid.at(static_cast<std::size_t>(a), static_cast<std::size_t>(b));
          };
          next.at(static_cast<std::size_t>(i), static_cast<std::size_t>(j)) =
              0.5 * at(i, j) + 0.125 * (at(i - 1, j) + at(i + 1, j) + at(i, j - 1) + at(i, j + 1));
        }
      std::swap(grid, next);
    }
    itref::write_data(args.str("output_file"), grid);
  });
}
