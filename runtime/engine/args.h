// Program arguments: `key=value` words from argv with typed access (IT §4.1, R-18): the last
// occurrence of a repeated key wins; a missing key or a malformed value throws ArgumentError
// whose message names the key. Must not print or exit (callers decide, e.g. fail_collective).
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace itrt {

class ArgumentError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Args {
 public:
  Args() = default;
  // Reads argv[1..argc): every word must be key=value with a non-empty key.
  Args(int argc, const char* const* argv);
  explicit Args(const std::vector<std::string>& words);

  bool has(const std::string& key) const { return values_.count(key) != 0; }
  const std::string& get_string(const std::string& key) const;
  int32_t get_int(const std::string& key) const;
  double get_double(const std::string& key) const;
  float get_float(const std::string& key) const;
  bool get_bool(const std::string& key) const;  // TRUE/true/1, FALSE/false/0
  char get_char(const std::string& key) const;  // exactly one character

  template <typename T>
  T get(const std::string& key) const;

 private:
  void add(const std::string& word);
  std::map<std::string, std::string> values_;
};

template <>
inline std::string Args::get<std::string>(const std::string& k) const {
  return get_string(k);
}
template <>
inline int32_t Args::get<int32_t>(const std::string& k) const {
  return get_int(k);
}
template <>
inline double Args::get<double>(const std::string& k) const {
  return get_double(k);
}
template <>
inline float Args::get<float>(const std::string& k) const {
  return get_float(k);
}
template <>
inline bool Args::get<bool>(const std::string& k) const {
  return get_bool(k);
}
template <>
inline char Args::get<char>(const std::string& k) const {
  return get_char(k);
}

}  // namespace itrt
