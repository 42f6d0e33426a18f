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
#include <utility>
#include <vector>

struct Matrix {
  long rows = 0, cols = 0;
  std::vector<float> v;
};

inline Matrix read_bin(const std::string& path);

inline void write_bin(const std::string& path, const Matrix& m) {
  FILE* f = std::fopen(path.c_str(), "wb");
  std::fputs("Array\n", f);
  std::fwrite(m.v.data(), sizeof(float), m.v.size(), f);
  std::fprintf(f, "\n%ld*%ld\n", m.rows, m.cols);
  std::fclose(f);
}

// Any element type and rank (LU: double matrices and an Integer pivot vector; radix sort: a 1d
// Integer array): dims as in the trailer ("n" or "r*c"), elements row-major.
template <typename T>
struct Array {
  std::vector<long> dims;
  std::vector<T> v;
};

template <typename T>
inline Array<T> read_array(const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    std::perror(path.c_str());
    std::exit(1);
  }
  std::fseek(f, 0, SEEK_END);
  long size = std::ftell(f);
  std::string all(static_cast<size_t>(size), '\0');
  std::fseek(f, 0, SEEK_SET);
  if (std::fread(all.data(), 1, all.size(), f) != all.size()) std::exit(1);
  std::fclose(f);
  size_t trailer = all.rfind('\n', all.size() - 2) + 1;
  Array<T> a;
  long count = 1;
  for (const char* p = all.c_str() + trailer; *p && *p != '\n';) {
    char* end;
    a.dims.push_back(std::strtol(p, &end, 10));
    count *= a.dims.back();
    p = *end == '*' ? end + 1 : end;
  }
  a.v.resize(static_cast<size_t>(count));
  std::memcpy(a.v.data(), all.data() + 6, a.v.size() * sizeof(T));
  return a;
}

inline Matrix read_bin(const std::string& path) {
  Array<float> a = read_array<float>(path);
  Matrix m;
  m.rows = a.dims.at(0);
  m.cols = a.dims.size() > 1 ? a.dims[1] : 1;
  m.v = std::move(a.v);
  return m;
}

template <typename T>
inline void write_array(const std::string& path, const std::vector<long>& dims, const T* v) {
  FILE* f = std::fopen(path.c_str(), "wb");
  std::fputs("Array\n", f);
  long count = 1;
  for (long d : dims) count *= d;
  std::fwrite(v, sizeof(T), static_cast<size_t>(count), f);
  std::fputc('\n', f);
  for (size_t i = 0; i < dims.size(); ++i) std::fprintf(f, i ? "*%ld" : "%ld", dims[i]);
  std::fputc('\n', f);
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
