// Sequential reference for examples/stencil (Appendix A.3): plain Jacobi sweeps in
// Real single-precision on the interior of the plate, with the outermost ring held fixed:
//     new[i][j] = 0.25 * (old[i-1][j] + old[i+1][j] + old[i][j-1] + old[i][j+1])
// The IT flow performs iterations * ceil(p1 / p2) * p2 sweeps: `iterations` outer rounds, each
// doing ceil(p1 / p2) rounds of p2 epochs (see the notes under A.3). Its two-level ghost-zone
// scheme reproduces plain Jacobi only when p2 divides p1, so other values are rejected here.
// Arguments: input_file=... output_file=... iterations=... p1=... p2=... (k, l, m, n ignored).
#include <stdexcept>
#include <utility>

#include "ref_common.h"

int main(int argc, char** argv) {
  return itref::run_main("ref_stencil", argc, argv, [](const itref::Args& args) {
    auto plate = itref::read_data<float>(args.str("input_file"));
    long long iterations = args.integer("iterations");
    long long p1 = args.integer("p1"), p2 = args.integer("p2");
    if (plate.dims.size() != 2) throw std::runtime_error("the plate must be a 2d array");
    if (p1 <= 0 || p2 <= 0) throw std::runtime_error("p1 and p2 are padding widths and must be positive");
    if (p1 % p2 != 0) throw std::runtime_error("p2 must divide p1 for the ghost-zone scheme to equal plain Jacobi");
    // `Repeat for counter_1 in [1...max_iterations]` follows the range's direction: for
    // iterations < 1 the range 1...iterations is inverted and still has |iterations - 1| + 1 indices
    long long outer = iterations >= 1 ? iterations : 2 - iterations;
    long long sweeps = outer * ((p1 + p2 - 1) / p2) * p2;
    std::size_t rows = plate.rows(), cols = plate.cols();
    auto next = plate;
    for (long long s = 0; s < sweeps; ++s) {
      for (std::size_t i = 1; i + 1 < rows; ++i)
        for (std::size_t j = 1; j + 1 < cols; ++j)
          next.at(i, j) = 0.25f * (plate.at(i - 1, j) + plate.at(i + 1, j) + plate.at(i, j - 1) + plate.at(i, j + 1));
      std::swap(plate, next);  // the boundary ring is identical in both buffers
    }
    itref::write_data(args.str("output_file"), plate);
  });
}
