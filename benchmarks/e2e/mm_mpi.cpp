// Hand-written MPI matrix multiply: every rank reads a and b, computes a block of rows of c,
// rank 0 gathers and writes c. Same .bin files as the IT program.
#include "bench_io.h"
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int r, np;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  auto args = kv(argc, argv);
  Matrix a = read_bin(args["input_file_1"]), b = read_bin(args["input_file_2"]);
  const long n = b.cols, m = a.cols;
  long r0 = a.rows * r / np, r1 = a.rows * (r + 1) / np;
  std::vector<float> mine(static_cast<size_t>((r1 - r0) * n), 0.f);
  for (long i = r0; i < r1; ++i) {
    float* ci = mine.data() + (i - r0) * n;
    for (long k = 0; k < m; ++k) {
      const float aik = a.v[static_cast<size_t>(i * m + k)];
      const float* bk = b.v.data() + k * n;
      for (long j = 0; j < n; ++j) ci[j] += aik * bk[j];
    }
  }
  std::vector<int> counts(np), displs(np);
  for (int q = 0; q < np; ++q) {
    counts[q] = static_cast<int>((a.rows * (q + 1) / np - a.rows * q / np) * n);
    displs[q] = static_cast<int>(a.rows * q / np * n);
  }
  Matrix c{a.rows, n, std::vector<float>(r == 0 ? static_cast<size_t>(a.rows * n) : 0)};
  MPI_Gatherv(mine.data(), static_cast<int>(mine.size()), MPI_FLOAT, c.v.data(), counts.data(), displs.data(),
              MPI_FLOAT, 0, MPI_COMM_WORLD);
  if (r == 0) write_bin(args["output_file"], c);
  MPI_Finalize();
}
