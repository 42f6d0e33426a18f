// Sequential reference for tests/e2e/programs/local_loops.it. Blocks: block_count(p) splits n
// indices into P = min(p, n) blocks of floor(n / P) (the last block takes the rest); rows of m
// and indices of v are split alike, each by its own length. With rows and columns from 0:
//   out[i][j] = 2 m[i][j] + (j > 0 ? i : 0) + (i is the first row of its block ? 1000 : 0)
//   rev[i]    = 3 v[i] - i
//   ids[i]    = 1000 b + (length of block b) - 1, b the number of the block holding i
//   stats     = [sum of v[i] * i over the indices that are not the last of their block, P - 1]
//   u[i]      = v[i] + 2 * (7 + 1) + 13 (the static array [7, 11, 13] a stage wrote, its local
//               copy incremented by a parallel loop)
//   flip[i]   = m[lo + hi - i] for the rows lo..hi of each block, except that the first two
//               elements of row hi are m[hi]'s own
//   five[i]   = 5 v[i]
// Arguments: m_file= v_file= p= out_file= rev_file= ids_file= u_file= flip_file= five_file=
//   stats_file=.
#include <algorithm>
#include <stdexcept>
#include <vector>

#include "ref_common.h"

namespace {

// The block number of each of n indices.
std::vector<long long> blockOf(long long n, long long p) {
  const long long blocks = std::min(p, n), size = n / blocks;
  std::vector<long long> b(static_cast<size_t>(n));
  for (long long i = 0; i < n; ++i) b[static_cast<size_t>(i)] = std::min(i / size, blocks - 1);
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  return itref::run_main("ref_local_loops", argc, argv, [](const itref::Args& args) {
    auto m = itref::read_data<int>(args.str("m_file"));
    auto v = itref::read_data<int>(args.str("v_file"));
    if (m.dims.size() != 2 || v.dims.size() != 1 || v.values.empty() || m.values.empty())
      throw std::runtime_error("m must be a non-empty 2d array and v a non-empty 1d array");
    const long long p = args.integer("p");
    const long long rows = static_cast<long long>(m.dims[0]), cols = static_cast<long long>(m.dims[1]);
    const long long n = static_cast<long long>(v.values.size());
    std::vector<long long> rowBlock = blockOf(rows, p), vBlock = blockOf(n, p);
    std::vector<int> out(m.values.size()), rev(v.values.size()), ids(v.values.size()), u(v.values.size());
    std::vector<int> flip(m.values.size()), five(v.values.size());
    for (long long lo = 0; lo < rows;) {
      long long hi = lo;
      while (hi + 1 < rows && rowBlock[static_cast<size_t>(hi + 1)] == rowBlock[static_cast<size_t>(lo)]) ++hi;
      for (long long i = lo; i <= hi; ++i)
        for (long long j = 0; j < cols; ++j) {
          const long long from = i == hi && j < 2 ? i : lo + hi - i;
          flip[static_cast<size_t>(i * cols + j)] = m.values[static_cast<size_t>(from * cols + j)];
        }
      lo = hi + 1;
    }
    for (long long i = 0; i < rows; ++i) {
      const bool first = i == 0 || rowBlock[static_cast<size_t>(i - 1)] != rowBlock[static_cast<size_t>(i)];
      for (long long j = 0; j < cols; ++j) {
        const size_t k = static_cast<size_t>(i * cols + j);
        out[k] = 2 * m.values[k] + static_cast<int>(j > 0 ? i : 0) + (first ? 1000 : 0);
      }
    }
    long long total = 0;
    for (long long i = 0; i < n; ++i) {
      const size_t k = static_cast<size_t>(i);
      rev[k] = 3 * v.values[k] - static_cast<int>(i);
      long long len = 0;
      for (size_t j = 0; j < static_cast<size_t>(n); ++j) len += vBlock[j] == vBlock[k];
      ids[k] = static_cast<int>(1000 * vBlock[k] + len - 1);
      u[k] = v.values[k] + 2 * (7 + 1) + 13;
      five[k] = 5 * v.values[k];
      const bool last = i == n - 1 || vBlock[k + 1] != vBlock[k];
      if (!last) total += static_cast<long long>(v.values[k]) * i;
    }
    itref::write_data(args.str("out_file"), itref::make_array<int>(m.dims, out));
    itref::write_data(args.str("rev_file"), itref::make_array<int>(v.dims, rev));
    itref::write_data(args.str("ids_file"), itref::make_array<int>(v.dims, ids));
    itref::write_data(args.str("u_file"), itref::make_array<int>(v.dims, u));
    itref::write_data(args.str("flip_file"), itref::make_array<int>(m.dims, flip));
    itref::write_data(args.str("five_file"), itref::make_array<int>(v.dims, five));
    const long long blocks = std::min(p, n);
    itref::write_data(args.str("stats_file"),
                      itref::make_array<int>({2}, {static_cast<int>(total), static_cast<int>(blocks - 1)}));
  });
}
