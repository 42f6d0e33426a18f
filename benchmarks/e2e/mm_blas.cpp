// OpenBLAS reference for the matrix multiply benchmark: c = a b with one cblas_sgemm/dgemm call
// on T threads (threads=T, OpenBLAS's own), same .bin inputs/outputs as the IT program.
// element=float|double picks the precision (the IT program's, from the files' contents).
// Prints the time of the gemm call alone to stderr: `gemm S s`.
#include <cblas.h>

#include <chrono>

#include "bench_io.h"

template <typename T>
static void multiply(std::map<std::string, std::string>& args) {
  Array<T> a = read_array<T>(args["input_file_1"]), b = read_array<T>(args["input_file_2"]);
  const long n = a.dims.at(0), m = a.dims.at(1), p = b.dims.at(1);
  std::vector<T> c(static_cast<size_t>(n * p), T(0));
  auto start = std::chrono::steady_clock::now();
  if constexpr (sizeof(T) == 4)
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, p, m, 1.0f, a.v.data(), m, b.v.data(), p, 0.0f, c.data(),
                p);
  else
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, p, m, 1.0, a.v.data(), m, b.v.data(), p, 0.0, c.data(),
                p);
  std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  std::fprintf(stderr, "gemm %.6f s\n", took.count());
  write_array<T>(args["output_file"], {n, p}, c.data());
}

int main(int argc, char** argv) {
  auto args = kv(argc, argv);
  openblas_set_num_threads(args.count("threads") ? std::atoi(args["threads"].c_str()) : 1);
  if (args.count("element") && args["element"] == "double")
    multiply<double>(args);
  else
    multiply<float>(args);
}
