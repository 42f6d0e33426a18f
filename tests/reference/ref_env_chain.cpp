// Sequential reference for tests/e2e/programs/env_chain.it: v = 2 v + 2 amount; the summary is
// [2 v[1] (before the additions), the final v[0], the final last element]; doubled_file holds
// 2 v, list_file the List [2 v[0], 2 v[1]].
// Arguments: input_file=... amount=... output_file=... summary_file=... doubled_file=...
//            list_file=... (p=... is ignored).
#include <stdexcept>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_env_chain", argc, argv, [](const itref::Args& args) {
    auto v = itref::read_data<double>(args.str("input_file"));
    if (v.dims.size() != 1 || v.values.size() < 2) throw std::runtime_error("v must be a 1d array of 2 or more");
    const double amount = args.real("amount");
    const double second = 2 * v.values[1];
    std::vector<double> doubled = v.values;
    for (double& x : doubled) x *= 2;
    itref::write_data(args.str("doubled_file"), itref::make_array<double>(v.dims, doubled));
    itref::write_data(args.str("list_file"), itref::make_list<double>({doubled[0], doubled[1]}));
    for (double& x : v.values) x = 2 * x + amount + amount;
    itref::write_data(args.str("output_file"), itref::make_array<double>(v.dims, v.values));
    itref::write_data(args.str("summary_file"),
                      itref::make_array<double>({3}, {second, v.values.front(), v.values.back()}));
  });
}
