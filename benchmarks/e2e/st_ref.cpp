// Hand-written five-point Jacobi: iterations*p1 sweeps over the interior (the boundary ring
// stays fixed), which is what the IT stencil's ghost-zone scheme computes when p2 divides p1.
// Sequential or with T threads over row blocks (threads=T) and a barrier per sweep.
#include "bench_io.h"
#include <barrier>
#include <thread>

int main(int argc, char** argv) {
  auto args = kv(argc, argv);
  Matrix cur = read_bin(args["input_file"]);
  Matrix old = cur;
  long steps = std::atol(args["iterations"].c_str()) * std::atol(args["p1"].c_str());
  int t = args.count("threads") ? std::atoi(args["threads"].c_str()) : 1;
  const long R = cur.rows, C = cur.cols;
  std::barrier sync(t);
  auto work = [&](int k) {
    long r0 = std::max(1L, R * k / t), r1 = std::min(R - 1, R * (k + 1) / t);
    for (long s = 0; s < steps; ++s) {
      if (k == 0) std::swap(cur.v, old.v);
      sync.arrive_and_wait();
      for (long i = r0; i < r1; ++i) {
        const float* up = old.v.data() + (i - 1) * C;
        const float* mid = old.v.data() + i * C;
        const float* dn = old.v.data() + (i + 1) * C;
        float* out = cur.v.data() + i * C;
        for (long j = 1; j < C - 1; ++j) out[j] = 0.25f * (up[j] + dn[j] + mid[j - 1] + mid[j + 1]);
      }
      sync.arrive_and_wait();
    }
  };
  // boundary rows/cols of both buffers are the input's
  std::vector<std::thread> ts;
  for (int k = 0; k < t; ++k) ts.emplace_back(work, k);
  for (auto& x : ts) x.join();
  write_bin(args["output_file"], cur);
}
