// Hand-written MPI LU with partial pivoting (double, in place), same arguments and files as
// tests/e2e/programs/lu_stride.it. Every rank reads the matrix and keeps the rows i with
// i % np == rank (dealt cyclically, as stride()). Per step k: each rank's first row >= k with the
// largest |a[i][k]|, combined by MPI_Allreduce MPI_MAXLOC on (|a[i][k]|, i) (ties go to the
// smaller row, i.e. the first one); rows k and p[k] swapped (a local swap or one MPI_Sendrecv
// between their owners); the new row k broadcast from its owner; every rank updates its rows > k.
// Rank 0 collects the rows and writes the LU and the pivots.
#include "bench_io.h"
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <mpi.h>
#include <utility>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int r, np;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  auto args = kv(argc, argv);
  Array<double> a = read_array<double>(args["matrix_file"]);
  const long n = a.dims[0];
  const long mine = n > r ? (n - r + np - 1) / np : 0;  // rows r, r + np, ...
  std::vector<double> rows(static_cast<size_t>(mine * n)), pivot_row(static_cast<size_t>(n));
  for (long l = 0; l < mine; ++l) std::copy_n(a.v.data() + (r + l * np) * n, n, rows.data() + l * n);
  auto row = [&](long i) { return rows.data() + (i / np) * n; };  // a global row of this rank
  std::vector<std::int32_t> p(static_cast<size_t>(n), 0);
  for (long k = 0; k < n; ++k) {
    struct {
      double v;
      int i;
    } best{-1.0, 0}, all;
    for (long i = k + ((r - k) % np + np) % np; i < n; i += np)  // own rows >= k
      if (std::fabs(row(i)[k]) > best.v) best = {std::fabs(row(i)[k]), static_cast<int>(i)};
    MPI_Allreduce(&best, &all, 1, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
    const long piv = all.i, ok = k % np, op = piv % np;
    p[static_cast<size_t>(k)] = static_cast<std::int32_t>(piv);
    if (piv != k) {
      if (ok == op) {
        if (r == ok) std::swap_ranges(row(k), row(k) + n, row(piv));
      } else if (r == ok) {
        MPI_Sendrecv_replace(row(k), static_cast<int>(n), MPI_DOUBLE, static_cast<int>(op), 0, static_cast<int>(op), 0,
                             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else if (r == op) {
        MPI_Sendrecv_replace(row(piv), static_cast<int>(n), MPI_DOUBLE, static_cast<int>(ok), 0, static_cast<int>(ok),
                             0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      }
    }
    if (r == ok) std::copy_n(row(k), n, pivot_row.data());
    MPI_Bcast(pivot_row.data(), static_cast<int>(n), MPI_DOUBLE, static_cast<int>(ok), MPI_COMM_WORLD);
    const double* pk = pivot_row.data();
    for (long i = k + 1 + ((r - k - 1) % np + np) % np; i < n; i += np) {  // own rows > k
      double* ai = row(i);
      const double l = ai[k] = ai[k] / pk[k];
      for (long j = k + 1; j < n; ++j) ai[j] = ai[j] - l * pk[j];
    }
  }
  // rank 0 collects: rank q's rows q, q + np, ... arrive as one block
  if (r == 0) {
    for (int q = 0; q < np; ++q) {
      const long cnt = n > q ? (n - q + np - 1) / np : 0;
      std::vector<double> got;
      if (q == 0)
        got = rows;
      else {
        got.resize(static_cast<size_t>(cnt * n));
        MPI_Recv(got.data(), static_cast<int>(cnt * n), MPI_DOUBLE, q, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      }
      for (long l = 0; l < cnt; ++l) std::copy_n(got.data() + l * n, n, a.v.data() + (q + l * np) * n);
    }
    write_array(args["lu_file"], a.dims, a.v.data());
    write_array(args["pivot_file"], {n}, p.data());
  } else {
    MPI_Send(rows.data(), static_cast<int>(mine * n), MPI_DOUBLE, 0, 1, MPI_COMM_WORLD);
  }
  MPI_Finalize();
}
