// Sequential reference for tests/e2e/programs/env_static.it. With k: w = [k, 2k, 3k] and the
// section v = w[1...2] = [2k, 3k] (indices 1 and 2); the task makes m = [w, w + 2k] and adds 1 to
// w[2]; the coordinator adds 1000 to w[0] through a `&` parameter. out = [w (3), m[1] (3),
// m[...][2] (2), v (2)].
// Arguments: k= out_file=.
#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_env_static", argc, argv, [](const itref::Args& args) {
    const int k = static_cast<int>(args.integer("k"));
    const int w[3] = {k + 1000, 2 * k, 3 * k + 1};
    const int m1[3] = {k + 2 * k, 2 * k + 2 * k, 3 * k + 2 * k};
    const int col[2] = {3 * k, m1[2]};
    const std::vector<int> out = {w[0], w[1], w[2], m1[0], m1[1], m1[2], col[0], col[1], 2 * k, 3 * k};
    itref::write_data(args.str("out_file"), itref::make_array<int>({out.size()}, out));
  });
}
