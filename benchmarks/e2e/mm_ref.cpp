// Hand-written block matrix multiply c = a b (float), sequential or with T threads over row
// blocks (threads=T), same .bin inputs/outputs as the IT program. i-k-j loops, unit stride.
#include "bench_io.h"
#include <thread>

static void rows(const Matrix& a, const Matrix& b, Matrix& c, long r0, long r1) {
  const long n = b.cols, m = a.cols;
  for (long i = r0; i < r1; ++i) {
    float* ci = c.v.data() + i * n;
    for (long k = 0; k < m; ++k) {
      const float aik = a.v[static_cast<size_t>(i * m + k)];
      const float* bk = b.v.data() + k * n;
      for (long j = 0; j < n; ++j) ci[j] += aik * bk[j];
    }
  }
}

int main(int argc, char** argv) {
  auto args = kv(argc, argv);
  Matrix a = read_bin(args["input_file_1"]), b = read_bin(args["input_file_2"]);
  Matrix c{a.rows, b.cols, std::vector<float>(static_cast<size_t>(a.rows * b.cols), 0.f)};
  int t = args.count("threads") ? std::atoi(args["threads"].c_str()) : 1;
  std::vector<std::thread> ts;
  for (int k = 0; k < t; ++k)
    ts.emplace_back(rows, std::cref(a), std::cref(b), std::ref(c), a.rows * k / t, a.rows * (k + 1) / t);
  for (auto& x : ts) x.join();
  write_bin(args["output_file"], c);
}
