// Hand-written reference side of benchmarks/e2e: minimal readers/writers of IT binary Array
// files (`Array` LF, little-endian elements, LF, `d1*d2` LF) so the references read and write
// exactly what the IT programs do. Not IT code, no itc runtime.
#pragma once
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

struct Matrix {
  long rows = 0, cols = 0;
  std::vector<float> v;
};

inline Matrix read_bin(const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) { std::perror(path.c_str()); std::exit(1); }
  std::fseek(f, 0, SEEK_END);
  long size = std::ftell(f);
  std::string all(static_cast<size_t>(size), '\0');
  std::fseek(f, 0, SEEK_SET);
  if (std::fread(all.data(), 1, all.size(), f) != all.size()) std::exit(1);
  std::fclose(f);
  size_t trailer = all.rfind('\n', all.size() - 2) + 1;
  Matrix m;
  std::sscanf(all.c_str() + trailer, "%ld*%ld", &m.rows, &m.cols);
  m.v.resize(static_cast<size_t>(m.rows * m.cols));
  std::memcpy(m.v.data(), all.data() + 6, m.v.size() * sizeof(float));
  return m;
}

inline void write_bin(const std::string& path, const Matrix& m) {
  FILE* f = std::fopen(path.c_str(), "wb");
  std::fputs("Array\n", f);
  std::fwrite(m.v.data(), sizeof(float), m.v.size(), f);
  std::fprintf(f, "\n%ld*%ld\n", m.rows, m.cols);
  std::fclose(f);
}

inline std::map<std::string, std::string> kv(int argc, char** argv) {
  std::map<std::string, std::string> a;
  for (int i = 1; i < argc; ++i) {
    std::string s = argv[i];
    auto eq = s.find('=');
    if (eq != std::string::npos) a[s.substr(0, eq)] = s.substr(eq + 1);
  }
  return a;
}
