// Sequential reference for tests/e2e/programs/skipped_levels.it: every x becomes
// -((((x + 1) * 10 * 10) + 1) * 10), whatever the partition.
// Arguments: x_file= p= b= c= x_out=.
#include <stdexcept>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_skipped_levels", argc, argv, [](const itref::Args& args) {
    auto x = itref::read_data<int>(args.str("x_file"));
    if (x.dims.size() != 1) throw std::runtime_error("x must be a 1d array");
    for (int& e : x.values) e = -(((e + 1) * 100 + 1) * 10);
    itref::write_data(args.str("x_out"), x);
  });
}
