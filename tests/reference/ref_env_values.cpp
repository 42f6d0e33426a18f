// Sequential reference for tests/e2e/programs/env_values.it: with v the input and k the count,
// s = v[0] + ... + v[k-1]; summary = [s, s, s + 100, s + 1100, k, v[0], 1 (label "first"),
// 1 (title renamed), 1 (stamp set), 3000 + k, length of v - 1, strict (1 or 0), the code of sep].
// Arguments: input_file= k= strict=0|1 sep=<one character> summary_file= (p= is ignored).
#include <stdexcept>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_env_values", argc, argv, [](const itref::Args& args) {
    auto v = itref::read_data<double>(args.str("input_file"));
    const long long k = args.integer("k");
    if (v.dims.size() != 1) throw std::runtime_error("v must be a 1d array");
    if (k < 1 || static_cast<std::size_t>(k) > v.values.size()) throw std::runtime_error("need 1 <= k <= length of v");
    double s = 0;
    for (long long i = 0; i < k; ++i) s += v.values[static_cast<std::size_t>(i)];
    const auto kd = static_cast<double>(k);
    const std::string sep = args.str("sep");
    if (sep.size() != 1) throw std::runtime_error("sep must be one character");
    const double strict = args.integer("strict") != 0 ? 1 : 0;
    itref::write_data(args.str("summary_file"),
                      itref::make_array<double>({13}, {s, s, s + 100, s + 1100, kd, v.values[0], 1, 1, 1, 3000 + kd,
                                                       static_cast<double>(v.values.size()) - 1, strict,
                                                       static_cast<double>(static_cast<unsigned char>(sep[0]))}));
  });
}
