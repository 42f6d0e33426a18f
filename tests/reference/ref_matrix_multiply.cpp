// Sequential reference for examples/matrix-multiply (Appendix A.1): c = a * b in
// Real single-precision, accumulating c[i][j] = c[i][j] + a[i][k] * b[k][j] in float with k
// increasing (the IT program may visit k in another order, or call BLAS, so compare with a
// tolerance). element=double does the same in double precision (the double variant of the
// program that tests/e2e/blas_vs_loops.sh makes).
// Arguments: input_file_1=a input_file_2=b output_file=c [element=float|double]
// (k=, l=, q= are ignored).
#include <stdexcept>

#include "ref_common.h"

namespace {

template <typename T>
void multiply(const itref::Args& args) {
  auto a = itref::read_data<T>(args.str("input_file_1"));
  auto b = itref::read_data<T>(args.str("input_file_2"));
  if (a.dims.size() != 2 || b.dims.size() != 2) throw std::runtime_error("a and b must be 2d");
  std::size_t n = a.dims[0], m = a.dims[1], p = b.dims[1];
  if (b.dims[0] != m)
    throw std::runtime_error("a has " + std::to_string(m) + " columns but b has " + std::to_string(b.dims[0]) +
                             " rows");
  itref::Data<T> c = itref::make_array<T>({n, p}, std::vector<T>(n * p, T(0)));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < m; ++k)
      for (std::size_t j = 0; j < p; ++j) c.at(i, j) = c.at(i, j) + a.at(i, k) * b.at(k, j);
  itref::write_data(args.str("output_file"), c);
}

}  // namespace

int main(int argc, char** argv) {
  return itref::run_main("ref_matrix_multiply", argc, argv, [](const itref::Args& args) {
    std::string element = args.has("element") ? args.str("element") : "float";
    if (element == "double")
      multiply<double>(args);
    else if (element == "float")
      multiply<float>(args);
    else
      throw std::runtime_error("element must be float or double, not " + element);
  });
}
