// make_input: writes a deterministic (seeded) array or list in the IT data file format (§13),
// as input for the examples/ programs and their sequential references.
// It must not depend on itc or its runtime.
//
//   make_input -o FILE --type int|float|double --shape 100 | 64x64 | list:N
//              [--kind uniform|constant|flat|linear|identity|diagdom|spd] [--seed S]
//              [--lo L] [--hi H] [--value V] [--coef A,B]
//
// kinds:  uniform   random in [lo, hi) (Integers: lo ... hi inclusive)          (default)
//         constant  every element is V
//         flat      the row-major position k, times A (default 1), plus V
//         linear    V + A*i (+ B*j for 2d), with i, j the 0-based indices
//         identity  the identity matrix (2d)
//         diagdom   uniform, plus (n * max(|lo|,|hi|) + 1) on the diagonal (2d square)
//         spd       M*M^T/n + I with M uniform in [lo, hi): symmetric positive definite
// The generator is SplitMix64, so a seed gives the same file on every platform.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <type_traits>
#include <vector>

#include "data_file.h"

namespace {

struct SplitMix64 {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double unit() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }
};

struct Options {
  std::string out, type = "double", shape, kind = "uniform";
  std::uint64_t seed = 1;
  double lo = 0.0, hi = 1.0, value = 0.0, coef_a = 1.0, coef_b = 0.0;
};

[[noreturn]] void usage(const std::string& why) {
  std::fprintf(stderr,
               "make_input: %s\nusage: make_input -o FILE --type int|float|double --shape N|RxC|list:N\n"
               "       [--kind uniform|constant|flat|linear|identity|diagdom|spd] [--seed S]\n"
               "       [--lo L] [--hi H] [--value V] [--coef A,B]\n",
               why.c_str());
  std::exit(2);
}

template <typename T>
T convert(double v) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(std::llround(v));
  } else {
    return static_cast<T>(v);
  }
}

template <typename T>
int generate(const Options& o) {
  itref::Data<T> d;
  std::string shape = o.shape;
  if (shape.rfind("list:", 0) == 0) {
    d.is_list = true;
    d.dims.clear();
    shape = shape.substr(5);
  }
  std::vector<std::size_t> dims;
  std::size_t pos = 0;
  while (pos <= shape.size()) {
    std::size_t x = shape.find('x', pos);
    std::string part = shape.substr(pos, x == std::string::npos ? std::string::npos : x - pos);
    if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos)
      usage("bad --shape '" + o.shape + "'");
    dims.push_back(std::stoul(part));
    if (x == std::string::npos) break;
    pos = x + 1;
  }
  if (d.is_list && dims.size() != 1) usage("a list has one length");
  std::size_t count = 1;
  for (std::size_t n : dims) count *= n;
  std::size_t rows = dims[0], cols = dims.size() >= 2 ? dims[1] : 1;
  bool square = dims.size() == 2 && rows == cols;
  SplitMix64 rng{o.seed};
  auto uniform = [&]() {
    if constexpr (std::is_integral_v<T>) {
      auto lo = static_cast<long long>(std::llround(o.lo));
      auto hi = static_cast<long long>(std::llround(o.hi));
      if (hi < lo) usage("--hi must not be below --lo");
      return static_cast<double>(lo + static_cast<long long>(rng.next() % static_cast<std::uint64_t>(hi - lo + 1)));
    } else {
      return o.lo + (o.hi - o.lo) * rng.unit();
    }
  };
  std::vector<double> v(count, 0.0);
  if (o.kind == "uniform") {
    for (double& e : v) e = uniform();
  } else if (o.kind == "constant") {
    for (double& e : v) e = o.value;
  } else if (o.kind == "flat") {
    for (std::size_t k = 0; k < count; ++k) v[k] = o.value + o.coef_a * static_cast<double>(k);
  } else if (o.kind == "linear") {
    if (dims.size() > 2) usage("--kind linear needs a 1d or 2d shape");
    for (std::size_t i = 0; i < rows; ++i)
      for (std::size_t j = 0; j < cols; ++j)
        v[i * cols + j] = o.value + o.coef_a * static_cast<double>(i) + o.coef_b * static_cast<double>(j);
  } else if (o.kind == "identity") {
    if (dims.size() != 2) usage("--kind identity needs a 2d shape");
    for (std::size_t i = 0; i < rows && i < cols; ++i) v[i * cols + i] = 1.0;
  } else if (o.kind == "diagdom") {
    if (!square) usage("--kind diagdom needs a square 2d shape");
    for (double& e : v) e = uniform();
    double boost = static_cast<double>(rows) * std::max(std::fabs(o.lo), std::fabs(o.hi)) + 1.0;
    for (std::size_t i = 0; i < rows; ++i) v[i * cols + i] += boost;
  } else if (o.kind == "spd") {
    if (!square) usage("--kind spd needs a square 2d shape");
    std::vector<double> m(count);
    for (double& e : m) e = uniform();
    for (std::size_t i = 0; i < rows; ++i)
      for (std::size_t j = 0; j < rows; ++j) {
        double s = 0.0;
        for (std::size_t k = 0; k < rows; ++k) s += m[i * rows + k] * m[j * rows + k];
        v[i * rows + j] = s / static_cast<double>(rows) + (i == j ? 1.0 : 0.0);
      }
  } else {
    usage("unknown --kind '" + o.kind + "'");
  }
  if (!d.is_list) d.dims = dims;
  d.values.reserve(count);
  for (double e : v) d.values.push_back(convert<T>(e));
  itref::write_data(o.out, d);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) usage("missing value after " + a);
      return argv[++i];
    };
    try {
      if (a == "-o")
        o.out = next();
      else if (a == "--type")
        o.type = next();
      else if (a == "--shape")
        o.shape = next();
      else if (a == "--kind")
        o.kind = next();
      else if (a == "--seed")
        o.seed = std::stoull(next());
      else if (a == "--lo")
        o.lo = std::stod(next());
      else if (a == "--hi")
        o.hi = std::stod(next());
      else if (a == "--value")
        o.value = std::stod(next());
      else if (a == "--coef") {
        std::string c = next();
        std::size_t comma = c.find(',');
        o.coef_a = std::stod(c.substr(0, comma));
        if (comma != std::string::npos) o.coef_b = std::stod(c.substr(comma + 1));
      } else
        usage("unknown option '" + a + "'");
    } catch (const std::logic_error&) {
      usage("bad value for " + a);
    }
  }
  if (o.out.empty() || o.shape.empty()) usage("-o and --shape are required");
  try {
    if (o.type == "int") return generate<std::int32_t>(o);
    if (o.type == "float") return generate<float>(o);
    if (o.type == "double") return generate<double>(o);
    usage("unknown --type '" + o.type + "'");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "make_input: %s\n", e.what());
    return 1;
  }
}
