// Sequential reference for tests/e2e/programs/guarded_epochs.it. With s and t of n values >= 0:
// for round = 1..rounds: every interior s[i] (0 < i < n - 1) becomes (s[i - 1] + s[i + 1]) % 1000
// of the previous values; in even rounds s += 1; t += round.
// Arguments: s_file= t_file= rounds= p= s_out= t_out=.
#include <stdexcept>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_guarded_epochs", argc, argv, [](const itref::Args& args) {
    auto s = itref::read_data<int>(args.str("s_file"));
    auto t = itref::read_data<int>(args.str("t_file"));
    const long long rounds = args.integer("rounds");
    if (s.dims.size() != 1 || t.dims.size() != 1) throw std::runtime_error("s and t must be 1d arrays");
    std::vector<int> a = s.values, b = t.values;
    for (long long round = 1; round <= rounds; ++round) {
      std::vector<int> previous = a;
      for (size_t i = 1; i + 1 < a.size(); ++i) a[i] = (previous[i - 1] + previous[i + 1]) % 1000;
      if (round % 2 == 0)
        for (int& e : a) e += 1;
      for (int& e : b) e += static_cast<int>(round);
    }
    itref::write_data(args.str("s_out"), itref::make_array<int>(s.dims, a));
    itref::write_data(args.str("t_out"), itref::make_array<int>(t.dims, b));
  });
}
