// ref_check: property checks on data files, used by the ctests of tests/reference (and usable to
// compare an IT program's output with a reference). Each check exits 0 when it holds and 1 with a
// message when it does not. Checks are written independently of the reference programs.
//
// Files are read as double unless prefixed "float:" or "int:" (e.g. float:c.bin): binary files
// need the prefix to know their element size, and a float text file compares exactly only as float.
//   ref_check equal FILE_A FILE_B TOL          same shape, |a - b| <= TOL * max(1, |b|)
//   ref_check value FILE INDEX EXPECTED TOL    element INDEX (row-major) is EXPECTED within TOL
//   ref_check constant FILE VALUE              every element equals VALUE exactly
//   ref_check sorted-permutation IN OUT        OUT is IN sorted ascending (Integer keys)
//   ref_check lu A U L P TOL                   P a = transpose(l) transpose(u), l unit, u upper
//   ref_check first-pivot A P                  p[0] is the first row of a's largest column-0 entry
//   ref_check residual A X B TOL               |a x - b| <= TOL |b|
//   ref_check stencil-bounds IN OUT            OUT keeps IN's boundary ring and stays in IN's range
//   ref_check pi SUMMARY LPU HISTORY KEEP      estimate within 5 std errors of pi, counts consistent
//   ref_check lu-inplace A LU P TOL            P a = L U with L (unit diagonal) strictly below and U on
//                                              and above the diagonal of LU; p[k] is the row swapped
//                                              with row k at step k (LAPACK ipiv), then |L| <= 1
//                                              (partial pivoting); P = "-": no pivoting, P = I
//   ref_check prefix-sum IN OUT TOL            OUT[i] = IN[0] + ... + IN[i] (within TOL * max(1, |.|))
//   ref_check spmv ROWPTR COLS VALS X Y TOL    Y = M X, M the dense matrix of the CSR arrays (rows
//                                              e = rowptr[i] .. rowptr[i+1]-1, repeated columns add)
//   ref_check csr-residual ROWPTR COLS VALS X B TOL   |M x - b| <= TOL |b|, M as for spmv
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "data_file.h"

namespace {

using itref::read_data;

struct CheckFailed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void expect(bool ok, const std::string& what) {
  if (!ok) throw CheckFailed(what);
}

std::string num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// Reads any numeric file as doubles. Binary files need their element type, given as a prefix:
// "float:x.bin" or "int:x.bin" (default: double); text files need none.
itref::Data<double> load(std::string path) {
  auto convert = [](const auto& d) {
    itref::Data<double> r;
    r.dims = d.dims;
    r.is_list = d.is_list;
    r.values.assign(d.values.begin(), d.values.end());
    return r;
  };
  if (path.rfind("float:", 0) == 0) return convert(read_data<float>(path.substr(6)));
  if (path.rfind("int:", 0) == 0) return convert(read_data<std::int32_t>(path.substr(4)));
  if (path.rfind("double:", 0) == 0) path = path.substr(7);
  return read_data<double>(path);
}

void check_equal(const std::string& fa, const std::string& fb, double tol) {
  auto a = load(fa), b = load(fb);
  expect(a.dims == b.dims && a.is_list == b.is_list && a.values.size() == b.values.size(),
         "shapes differ: " + fa + " vs " + fb);
  for (std::size_t i = 0; i < a.values.size(); ++i) {
    double bound = tol * std::max(1.0, std::fabs(b.values[i]));
    expect(std::fabs(a.values[i] - b.values[i]) <= bound,
           "element " + std::to_string(i) + ": " + num(a.values[i]) + " vs " + num(b.values[i]));
  }
}

void check_value(const std::string& f, std::size_t index, double expected, double tol) {
  auto d = load(f);
  expect(index < d.values.size(), "index " + std::to_string(index) + " is out of range");
  expect(std::fabs(d.values[index] - expected) <= tol,
         "element " + std::to_string(index) + " is " + num(d.values[index]) + ", expected " + num(expected));
}

void check_constant(const std::string& f, double value) {
  auto d = load(f);
  for (std::size_t i = 0; i < d.values.size(); ++i)
    expect(d.values[i] == value, "element " + std::to_string(i) + " is " + num(d.values[i]));
}

void check_sorted_permutation(const std::string& fin, const std::string& fout) {
  auto in = read_data<std::int32_t>(fin), out = read_data<std::int32_t>(fout);
  expect(in.dims == out.dims, "shapes differ");
  for (std::size_t i = 1; i < out.values.size(); ++i)
    expect(out.values[i - 1] <= out.values[i], "not sorted at position " + std::to_string(i));
  auto sorted = in.values;
  std::sort(sorted.begin(), sorted.end());
  expect(sorted == out.values, "the output is not a permutation of the input");
}

void check_lu(const std::string& fa, const std::string& fu, const std::string& fl, const std::string& fp, double tol) {
  auto a = read_data<double>(fa), u = read_data<double>(fu), l = read_data<double>(fl);
  auto p = read_data<std::int32_t>(fp);
  const std::size_t n = a.rows();
  expect(a.dims.size() == 2 && a.cols() == n && u.dims == a.dims && l.dims == a.dims && p.values.size() == n,
         "shapes do not fit an n-by-n factorization");
  // L = transpose(l) is unit lower triangular, U = transpose(u) upper triangular
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      double lij = l.at(j, i), uij = u.at(j, i);
      if (i == j) expect(lij == 1.0, "L is not unit-diagonal at " + std::to_string(i));
      if (j > i)
        expect(lij == 0.0, "L is not lower triangular at (" + std::to_string(i) + "," + std::to_string(j) + ")");
      if (j < i)
        expect(uij == 0.0, "U is not upper triangular at (" + std::to_string(i) + "," + std::to_string(j) + ")");
    }
  // P a: apply the swaps (k, p[k]) to the rows of a, k = 0, 1, ...
  auto pa = a;
  for (std::size_t k = 0; k < n; ++k) {
    auto r = static_cast<std::size_t>(p.values[k]);
    expect(r >= k && r < n, "pivot " + std::to_string(k) + " out of range");
    for (std::size_t j = 0; j < n; ++j) std::swap(pa.at(k, j), pa.at(r, j));
  }
  double scale = 0.0;
  for (double v : a.values) scale = std::max(scale, std::fabs(v));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      double s = 0.0;
      for (std::size_t t = 0; t < n; ++t) s += l.at(t, i) * u.at(j, t);
      expect(std::fabs(s - pa.at(i, j)) <= tol * std::max(1.0, scale), "(L U)(" + std::to_string(i) + "," +
                                                                           std::to_string(j) + ") = " + num(s) +
                                                                           " but (P a) = " + num(pa.at(i, j)));
    }
}

// The first pivot is chosen from column 0 of a alone: the first row holding its largest value.
void check_first_pivot(const std::string& fa, const std::string& fp) {
  auto a = read_data<double>(fa);
  auto p = read_data<std::int32_t>(fp);
  expect(a.dims.size() == 2 && a.rows() > 0 && !p.values.empty(), "need a matrix and a pivot vector");
  std::size_t best = 0;
  for (std::size_t i = 1; i < a.rows(); ++i)
    if (a.at(i, 0) > a.at(best, 0)) best = i;
  expect(
      static_cast<std::size_t>(p.values[0]) == best,
      "p[0] = " + std::to_string(p.values[0]) + " but the largest entry of column 0 is in row " + std::to_string(best));
}

void check_residual(const std::string& fa, const std::string& fx, const std::string& fb, double tol) {
  auto a = read_data<double>(fa), x = read_data<double>(fx), b = read_data<double>(fb);
  const std::size_t n = b.values.size();
  expect(a.rows() == n && a.cols() == n && x.values.size() == n, "shapes do not fit a x = b");
  double rr = 0.0, bb = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    double s = 0.0;
    for (std::size_t j = 0; j < n; ++j) s += a.at(i, j) * x.values[j];
    rr += (s - b.values[i]) * (s - b.values[i]);
    bb += b.values[i] * b.values[i];
  }
  expect(std::sqrt(rr) <= tol * std::sqrt(bb),
         "|a x - b| = " + num(std::sqrt(rr)) + " > tol * |b| = " + num(tol * std::sqrt(bb)));
}

void check_stencil_bounds(const std::string& fin, const std::string& fout) {
  auto in = read_data<double>(fin), out = read_data<double>(fout);
  expect(in.dims == out.dims && in.dims.size() == 2, "shapes differ");
  const std::size_t rows = in.rows(), cols = in.cols();
  auto [lo, hi] = std::minmax_element(in.values.begin(), in.values.end());
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) {
      bool ring = i == 0 || j == 0 || i + 1 == rows || j + 1 == cols;
      if (ring)
        expect(out.at(i, j) == in.at(i, j),
               "boundary cell changed at (" + std::to_string(i) + "," + std::to_string(j) + ")");
      expect(out.at(i, j) >= *lo - 1e-5 && out.at(i, j) <= *hi + 1e-5, "maximum principle violated");
    }
  expect(out.values != in.values || rows <= 2 || cols <= 2, "the interior did not change at all");
}

void check_pi(const std::string& fs, const std::string& flpu, const std::string& fh, long long keep) {
  auto s = read_data<double>(fs);
  auto lpu = read_data<std::int32_t>(flpu);
  auto h = read_data<double>(fh);
  expect(s.values.size() == 6, "summary must hold 6 values");
  double estimate = s.values[0], se = s.values[1], hits = s.values[4], draws = s.values[3];
  expect(se > 0.0 && std::fabs(estimate - 3.14159265358979323846) <= 5.0 * se,
         "estimate " + num(estimate) + " is not within 5 standard errors (" + num(se) + ") of pi");
  expect(estimate == 4.0 * (hits / draws), "estimate is not 4 * hits / draws");
  double lpu_total = std::accumulate(lpu.values.begin(), lpu.values.end(), 0.0);
  expect(lpu_total == hits, "per-LPU hits add up to " + num(lpu_total) + ", not " + num(hits));
  expect(h.is_list, "history must be a List");
  expect(static_cast<long long>(h.values.size()) == std::min<long long>(keep, static_cast<long long>(s.values[2])),
         "history holds " + std::to_string(h.values.size()) + " estimates");
  if (!h.values.empty()) {
    expect(h.values.front() == estimate, "the newest history entry is not the final estimate");
    expect(s.values[5] == h.values.front() - h.values.back(), "drift is not newest - oldest");
  }
}

// Classic in-place LU (not transposed): L below the diagonal of lu with an implicit unit
// diagonal, U on and above it. The product is formed densely from the two triangles.
void check_lu_inplace(const std::string& fa, const std::string& flu, const std::string& fp, double tol) {
  auto a = read_data<double>(fa), lu = read_data<double>(flu);
  const std::size_t n = a.rows();
  expect(a.dims.size() == 2 && a.cols() == n && lu.dims == a.dims, "shapes do not fit an n-by-n factorization");
  auto pa = a;
  const bool pivoting = fp != "-";
  if (pivoting) {
    auto p = read_data<std::int32_t>(fp);
    expect(p.values.size() == n, "the pivot vector must have n entries");
    for (std::size_t k = 0; k < n; ++k) {
      auto r = static_cast<std::size_t>(p.values[k]);
      expect(p.values[k] >= 0 && r >= k && r < n, "pivot " + std::to_string(k) + " out of range");
      for (std::size_t j = 0; j < n; ++j) std::swap(pa.at(k, j), pa.at(r, j));
    }
  }
  std::vector<double> lower(n * n, 0.0), upper(n * n, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      if (j < i)
        lower[i * n + j] = lu.at(i, j);
      else
        upper[i * n + j] = lu.at(i, j);
      if (j == i) lower[i * n + j] = 1.0;
      if (pivoting && j < i)
        expect(std::fabs(lu.at(i, j)) <= 1.0 + 1e-12, "|L(" + std::to_string(i) + "," + std::to_string(j) + ")| = " +
                                                          num(std::fabs(lu.at(i, j))) + " > 1: not partial pivoting");
    }
  double scale = 0.0;
  for (double v : a.values) scale = std::max(scale, std::fabs(v));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      double s = 0.0;
      for (std::size_t t = 0; t < n; ++t) s += lower[i * n + t] * upper[t * n + j];
      expect(std::fabs(s - pa.at(i, j)) <= tol * std::max(1.0, scale), "(L U)(" + std::to_string(i) + "," +
                                                                           std::to_string(j) + ") = " + num(s) +
                                                                           " but (P a) = " + num(pa.at(i, j)));
    }
}

void check_prefix_sum(const std::string& fin, const std::string& fout, double tol) {
  auto in = load(fin), out = load(fout);
  expect(in.dims == out.dims && in.values.size() == out.values.size(), "shapes differ");
  double running = 0.0;
  for (std::size_t i = 0; i < in.values.size(); ++i) {
    running += in.values[i];
    expect(std::fabs(out.values[i] - running) <= tol * std::max(1.0, std::fabs(running)),
           "element " + std::to_string(i) + " is " + num(out.values[i]) + ", the prefix sum is " + num(running));
  }
}

// The dense n-by-n matrix of CSR arrays (rows e = rowptr[i] .. rowptr[i+1]-1, repeated columns add).
std::vector<double> csr_to_dense(const std::string& frp, const std::string& fc, const std::string& fv, std::size_t n) {
  auto rp = read_data<std::int32_t>(frp), c = read_data<std::int32_t>(fc);
  auto v = load(fv);
  expect(rp.values.size() == n + 1 && c.values.size() == v.values.size(), "the CSR arrays do not fit an n-by-n matrix");
  std::vector<double> dense(n * n, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::int32_t e = rp.values[i]; e < rp.values[i + 1]; ++e) {
      expect(e >= 0 && static_cast<std::size_t>(e) < v.values.size(), "row_ptr points outside vals");
      auto col = c.values[static_cast<std::size_t>(e)];
      expect(col >= 0 && static_cast<std::size_t>(col) < n, "column index outside x");
      dense[i * n + static_cast<std::size_t>(col)] += v.values[static_cast<std::size_t>(e)];
    }
  return dense;
}

void check_spmv(const std::string& frp, const std::string& fc, const std::string& fv, const std::string& fx,
                const std::string& fy, double tol) {
  auto x = load(fx), y = load(fy);
  const std::size_t n = x.values.size();
  expect(y.values.size() == n, "y and x differ in length");
  const std::vector<double> dense = csr_to_dense(frp, fc, fv, n);
  for (std::size_t i = 0; i < n; ++i) {
    double s = 0.0, mag = 0.0;
    for (std::size_t j = 0; j < n; ++j) {
      s += dense[i * n + j] * x.values[j];
      mag += std::fabs(dense[i * n + j] * x.values[j]);
    }
    expect(std::fabs(y.values[i] - s) <= tol * std::max(1.0, mag),
           "y[" + std::to_string(i) + "] = " + num(y.values[i]) + " but (M x)[" + std::to_string(i) + "] = " + num(s));
  }
}

void check_csr_residual(const std::string& frp, const std::string& fc, const std::string& fv, const std::string& fx,
                        const std::string& fb, double tol) {
  auto x = load(fx), b = load(fb);
  const std::size_t n = b.values.size();
  expect(x.values.size() == n, "x and b differ in length");
  const std::vector<double> dense = csr_to_dense(frp, fc, fv, n);
  double rr = 0.0, bb = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    double s = 0.0;
    for (std::size_t j = 0; j < n; ++j) s += dense[i * n + j] * x.values[j];
    rr += (s - b.values[i]) * (s - b.values[i]);
    bb += b.values[i] * b.values[i];
  }
  expect(std::sqrt(rr) <= tol * std::sqrt(bb),
         "|M x - b| = " + num(std::sqrt(rr)) + " > tol * |b| = " + num(tol * std::sqrt(bb)));
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> a(argv + 1, argv + argc);
  try {
    if (a.size() == 4 && a[0] == "equal")
      check_equal(a[1], a[2], std::stod(a[3]));
    else if (a.size() == 5 && a[0] == "value")
      check_value(a[1], std::stoul(a[2]), std::stod(a[3]), std::stod(a[4]));
    else if (a.size() == 3 && a[0] == "constant")
      check_constant(a[1], std::stod(a[2]));
    else if (a.size() == 3 && a[0] == "sorted-permutation")
      check_sorted_permutation(a[1], a[2]);
    else if (a.size() == 6 && a[0] == "lu")
      check_lu(a[1], a[2], a[3], a[4], std::stod(a[5]));
    else if (a.size() == 3 && a[0] == "first-pivot")
      check_first_pivot(a[1], a[2]);
    else if (a.size() == 5 && a[0] == "residual")
      check_residual(a[1], a[2], a[3], std::stod(a[4]));
    else if (a.size() == 3 && a[0] == "stencil-bounds")
      check_stencil_bounds(a[1], a[2]);
    else if (a.size() == 5 && a[0] == "pi")
      check_pi(a[1], a[2], a[3], std::stoll(a[4]));
    else if (a.size() == 5 && a[0] == "lu-inplace")
      check_lu_inplace(a[1], a[2], a[3], std::stod(a[4]));
    else if (a.size() == 4 && a[0] == "prefix-sum")
      check_prefix_sum(a[1], a[2], std::stod(a[3]));
    else if (a.size() == 7 && a[0] == "spmv")
      check_spmv(a[1], a[2], a[3], a[4], a[5], std::stod(a[6]));
    else if (a.size() == 7 && a[0] == "csr-residual")
      check_csr_residual(a[1], a[2], a[3], a[4], a[5], std::stod(a[6]));
    else {
      std::fprintf(stderr, "ref_check: unknown check or wrong argument count (see the comment in ref_check.cpp)\n");
      return 2;
    }
  } catch (const CheckFailed& e) {
    std::fprintf(stderr, "ref_check %s: FAILED: %s\n", a[0].c_str(), e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ref_check %s: error: %s\n", a[0].c_str(), e.what());
    return 1;
  }
  std::printf("ref_check %s: ok\n", a[0].c_str());
  return 0;
}
