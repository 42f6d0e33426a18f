// Implements args.h. Numbers must use the whole value (no trailing junk) and fit the type.
#include "runtime/engine/args.h"

#include <fmt/format.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>

namespace itrt {
namespace {

[[noreturn]] void malformed(const std::string& key, const char* expected, const std::string& v) {
  throw ArgumentError(fmt::format("argument '{}': expected {}, found '{}'", key, expected, v));
}

}  // namespace

Args::Args(int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) add(argv[i]);
}

Args::Args(const std::vector<std::string>& words) {
  for (const auto& w : words) add(w);
}

void Args::add(const std::string& word) {
  size_t eq = word.find('=');
  if (eq == std::string::npos || eq == 0)
    throw ArgumentError(fmt::format("command-line word '{}' is not of the form key=value", word));
  values_[word.substr(0, eq)] = word.substr(eq + 1);  // last occurrence wins
}

const std::string& Args::get_string(const std::string& key) const {
  auto it = values_.find(key);
  if (it == values_.end())
    throw ArgumentError(fmt::format("argument '{}': missing; pass {}=<value> on the command line", key, key));
  return it->second;
}

int32_t Args::get_int(const std::string& key) const {
  const std::string& v = get_string(key);
  int32_t out = 0;
  const char* end = v.data() + v.size();
  const char* begin = v.data() + (!v.empty() && v[0] == '+' ? 1 : 0);
  auto [ptr, ec] = std::from_chars(begin, end, out);
  if (ec == std::errc::result_out_of_range) malformed(key, "a 32-bit integer", v);
  if (v.empty() || ec != std::errc() || ptr != end) malformed(key, "an integer", v);
  return out;
}

double Args::get_double(const std::string& key) const {
  const std::string& v = get_string(key);
  char* end = nullptr;
  errno = 0;
  double d = std::strtod(v.c_str(), &end);
  if (v.empty() || end != v.c_str() + v.size() || std::isspace(static_cast<unsigned char>(v[0])))
    malformed(key, "a real number", v);
  if (errno == ERANGE && std::isinf(d)) malformed(key, "a real number in double range", v);
  return d;
}

float Args::get_float(const std::string& key) const {
  const std::string& v = get_string(key);
  char* end = nullptr;
  errno = 0;
  float f = std::strtof(v.c_str(), &end);
  if (v.empty() || end != v.c_str() + v.size() || std::isspace(static_cast<unsigned char>(v[0])))
    malformed(key, "a real number", v);
  if (errno == ERANGE && std::isinf(f)) malformed(key, "a real number in single range", v);
  return f;
}

bool Args::get_bool(const std::string& key) const {
  const std::string& v = get_string(key);
  if (v == "TRUE" || v == "true" || v == "1") return true;
  if (v == "FALSE" || v == "false" || v == "0") return false;
  malformed(key, "a boolean (TRUE or FALSE)", v);
}

char Args::get_char(const std::string& key) const {
  const std::string& v = get_string(key);
  if (v.size() != 1) malformed(key, "a single character", v);
  return v[0];
}

}  // namespace itrt
