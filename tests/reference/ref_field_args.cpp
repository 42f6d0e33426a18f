// Sequential reference for tests/e2e/programs/field_args.it. With v, a and b:
//   v1 = a v + b + 5, then out = a v1 + (b + 1) + 5; stats = [P (a + b + 1)], the sum of the
//   field over the P = min(p, n) LPUs of Space A.
// Arguments: input_file= a= b= p= output_file= stats_file=.
#include <algorithm>
#include <stdexcept>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_field_args", argc, argv, [](const itref::Args& args) {
    auto v = itref::read_data<int>(args.str("input_file"));
    if (v.dims.size() != 1 || v.values.empty()) throw std::runtime_error("v must be a non-empty 1d array");
    const int a = static_cast<int>(args.integer("a")), b = static_cast<int>(args.integer("b"));
    std::vector<int> out(v.values.size());
    for (size_t i = 0; i < out.size(); ++i) out[i] = a * (a * v.values[i] + b + 5) + (b + 1) + 5;
    itref::write_data(args.str("output_file"), itref::make_array<int>(v.dims, out));
    const long long lpus = std::min<long long>(args.integer("p"), static_cast<long long>(v.values.size()));
    itref::write_data(args.str("stats_file"), itref::make_array<int>({1}, {static_cast<int>(lpus * (a + b + 1))}));
  });
}
