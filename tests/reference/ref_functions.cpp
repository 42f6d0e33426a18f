// Sequential reference for tests/e2e/programs/functions.it (functions, classes, native code).
// Written from the IT program and the language reference only (§7: paper-form results start at
// zero, brace-form arguments are copies unless `&`; §3.3 classes; R-16 everything starts at zero).
// Arguments as for the IT program: x_file=... y_file=... keys_file=... summary_file=...
// factor=REAL modulus=INTEGER (> 0) n=INTEGER (> 0); p=... is ignored.
#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "ref_common.h"

namespace {

struct Stats {
  double total = 0;
  int32_t count = 0;
  double extremes[2] = {0, 0};
};

double clamp_to_unit(double x) { return x < 0.0 ? 0.0 : (x > 1.0 ? 1.0 : x); }

int32_t gcd(int32_t a, int32_t b) {
  while (b != 0) {
    int32_t t = b;
    b = a % b;
    a = t;
  }
  return a;
}

void record(Stats& s, double v) {
  s.total += v;
  s.count += 1;
  if (s.count == 1) {
    s.extremes[0] = s.extremes[1] = v;
  } else {
    if (v < s.extremes[0]) s.extremes[0] = v;
    if (v > s.extremes[1]) s.extremes[1] = v;
  }
}

double mean(Stats s) { return s.count == 0 ? 0.0 : s.total / s.count; }

}  // namespace

int main(int argc, char** argv) {
  return itref::run_main("ref_functions", argc, argv, [](const itref::Args& args) {
    auto x = itref::read_data<double>(args.str("x_file"));
    if (x.dims.size() != 1) throw std::runtime_error("x must be a 1d array");
    const double factor = args.real("factor");
    const long long modulus = args.integer("modulus");
    const long long n = args.integer("n");
    if (modulus <= 0 || n <= 0) throw std::runtime_error("modulus and n must be positive");

    // The task: keys and y, element by element (indices from 0, R-74).
    const double scale = factor * factor;
    const double offset = clamp_to_unit(factor - 1.0);
    auto y = x;
    auto keys = itref::make_array<int32_t>(x.dims, std::vector<int32_t>(x.values.size()));
    for (std::size_t i = 0; i < x.values.size(); ++i) {
      int32_t key = gcd(static_cast<int32_t>(i) + 1, static_cast<int32_t>(modulus));
      keys.values[i] = key;
      double v = x.values[i], w = clamp_to_unit(v);
      double step = std::floor(v * 8.0) / 8.0 + offset + static_cast<int>(i) % 2;
      Stats s;
      record(s, v);
      record(s, w);
      record(s, -v);
      y.values[i] = clamp_to_unit(v) * scale + key * key + std::hypot(v, w) + (v * v + step * step) + mean(s) +
                    s.extremes[1] - s.extremes[0] + s.count;
    }
    itref::write_data(args.str("y_file"), y);
    itref::write_data(args.str("keys_file"), keys);

    // The coordinator's own computation.
    const int32_t count = static_cast<int32_t>(n);
    Stats stats;
    std::vector<double> values;
    for (int32_t k = 1; k <= count; ++k) {
      values.push_back(clamp_to_unit(2.0 * k / count - 0.5));
      record(stats, values.back());
    }
    std::vector<double> summary(12);
    summary[0] = stats.total;
    summary[1] = stats.count;
    summary[2] = stats.extremes[0];
    summary[3] = stats.extremes[1];
    summary[4] = mean(stats);
    summary[5] = stats.total;
    summary[6] = gcd(count * 6, 84);
    summary[7] = count * count;
    double sum = 0, twice = 0;
    for (double v : values) sum += v;
    for (double v : values) twice += 2 * v;
    summary[8] = sum;
    summary[9] = twice;
    summary[10] = count + 0.25 + 5.0;
    summary[11] = count % 5;
    itref::write_data(args.str("summary_file"), itref::make_array<double>({summary.size()}, summary));
  });
}
