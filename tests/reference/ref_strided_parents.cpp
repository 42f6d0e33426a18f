// Sequential reference for tests/e2e/programs/strided_parents.it: x becomes -(x + 10), y 3 y
// and z 3 z - 1, whatever the partition (every stage is element-wise; each must run once per
// cell).
// Arguments: x_file= y_file= z_file= c= s= x_out= y_out= z_out=.
#include <stdexcept>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_strided_parents", argc, argv, [](const itref::Args& args) {
    auto x = itref::read_data<int>(args.str("x_file"));
    auto y = itref::read_data<int>(args.str("y_file"));
    auto z = itref::read_data<int>(args.str("z_file"));
    if (x.dims.size() != 1 || y.dims.size() != 1 || z.dims.size() != 1) throw std::runtime_error("1d arrays expected");
    for (int& e : x.values) e = -(e + 10);
    for (int& e : y.values) e = 3 * e;
    for (int& e : z.values) e = 3 * e - 1;
    itref::write_data(args.str("x_out"), x);
    itref::write_data(args.str("y_out"), y);
    itref::write_data(args.str("z_out"), z);
  });
}
