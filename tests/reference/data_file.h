// A tiny, self-contained reader/writer for IT data files (it-language.md §13): `Array` and `List`
// collections of scalars, text (.txt) and binary (.bin). Used only by the sequential reference
// programs in tests/reference; it deliberately shares no code with the runtime, so the two can
// check each other. Nested collections (Array of Lists, List of Arrays) are only written, in
// text (write_nested_text).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace itref {

// A collection read from or written to a file: dims empty means a List.
template <typename T>
struct Data {
  std::vector<std::size_t> dims;  // Array: dimension lengths, dimension 1 first; List: empty
  std::vector<T> values;          // row-major, last dimension fastest
  bool is_list = false;

  std::size_t rows() const { return dims.size() >= 1 ? dims[0] : values.size(); }
  std::size_t cols() const { return dims.size() >= 2 ? dims[1] : 1; }
  T& at(std::size_t i, std::size_t j) { return values[i * cols() + j]; }
  const T& at(std::size_t i, std::size_t j) const { return values[i * cols() + j]; }
};

[[noreturn]] inline void fail(const std::string& path, const std::string& what) {
  throw std::runtime_error(path + ": " + what);
}

inline bool is_binary_path(const std::string& path) {
  auto ends = [&](const char* ext) {
    std::size_t n = std::strlen(ext);
    return path.size() >= n && path.compare(path.size() - n, n, ext) == 0;
  };
  if (ends(".bin")) return true;
  if (ends(".txt")) return false;
  fail(path, "data files must end in .txt or .bin");
}

inline std::string trim(const std::string& s) {
  std::size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  std::size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

// Parses "d1*d2*...*dn" (Array) or "n" (List).
inline std::vector<std::size_t> parse_trailer(const std::string& path, const std::string& line) {
  std::vector<std::size_t> dims;
  std::string t = trim(line);
  std::size_t pos = 0;
  while (true) {
    std::size_t star = t.find('*', pos);
    std::string part = t.substr(pos, star == std::string::npos ? std::string::npos : star - pos);
    if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos)
      fail(path, "malformed metadata trailer '" + t + "'");
    dims.push_back(static_cast<std::size_t>(std::stoull(part)));
    if (star == std::string::npos) break;
    pos = star + 1;
  }
  return dims;
}

template <typename T>
T parse_text_element(const std::string& path, const std::string& tok) {
  try {
    std::size_t used = 0;
    if constexpr (std::is_same_v<T, bool>) {
      if (tok == "1" || tok == "TRUE") return true;
      if (tok == "0" || tok == "FALSE") return false;
      fail(path, "bad Boolean '" + tok + "'");
    } else if constexpr (std::is_same_v<T, char>) {
      int v = std::stoi(tok, &used);
      if (used != tok.size() || v < 0 || v > 255) fail(path, "bad Character code '" + tok + "'");
      return static_cast<char>(v);
    } else if constexpr (std::is_integral_v<T>) {
      long long v = std::stoll(tok, &used);
      if (used != tok.size()) fail(path, "bad Integer '" + tok + "'");
      return static_cast<T>(v);
    } else {
      double v = std::stod(tok, &used);
      if (used != tok.size()) fail(path, "bad Real '" + tok + "'");
      return static_cast<T>(v);
    }
  } catch (const std::logic_error&) {
    fail(path, "bad element '" + tok + "'");
  }
}

template <typename T>
std::string format_text_element(T v) {
  char buf[64];
  if constexpr (std::is_same_v<T, bool>) {
    return v ? "1" : "0";
  } else if constexpr (std::is_same_v<T, char>) {
    std::snprintf(buf, sizeof buf, "%d", static_cast<int>(static_cast<unsigned char>(v)));
  } else if constexpr (std::is_integral_v<T>) {
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
  } else if constexpr (std::is_same_v<T, float>) {
    std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(v));
  } else {
    std::snprintf(buf, sizeof buf, "%.17g", static_cast<double>(v));
  }
  return buf;
}

template <typename T>
Data<T> read_data(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, "cannot open for reading");
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::size_t header_end = bytes.find('\n');
  if (header_end == std::string::npos) fail(path, "missing header line");
  std::string header = trim(bytes.substr(0, header_end));
  Data<T> d;
  if (header == "List") {
    d.is_list = true;
  } else if (header != "Array") {
    fail(path, "unsupported header '" + header + "' (expected Array or List)");
  }
  // the trailer is the last LF-terminated line
  if (bytes.empty() || bytes.back() != '\n') fail(path, "file does not end in LF");
  std::size_t trailer_start = bytes.rfind('\n', bytes.size() - 2);
  if (trailer_start == std::string::npos || trailer_start < header_end) fail(path, "missing metadata trailer");
  std::string trailer = bytes.substr(trailer_start + 1, bytes.size() - trailer_start - 2);
  std::vector<std::size_t> dims = parse_trailer(path, trailer);
  if (d.is_list && dims.size() != 1) fail(path, "a List trailer holds one length");
  std::size_t count = 1;
  for (std::size_t n : dims) count *= n;
  if (!d.is_list) d.dims = dims;
  std::size_t content_begin = header_end + 1;
  if (is_binary_path(path)) {
    // content ends at the separator LF right before the trailer
    if (trailer_start < content_begin) fail(path, "missing binary separator");
    std::size_t content_size = trailer_start - content_begin;
    if (content_size != count * sizeof(T)) fail(path, "binary content has the wrong size");
    d.values.resize(count);
    if (count) std::memcpy(d.values.data(), bytes.data() + content_begin, content_size);
  } else {
    std::istringstream content(bytes.substr(content_begin, trailer_start + 1 - content_begin));
    std::string tok;
    while (content >> tok) d.values.push_back(parse_text_element<T>(path, tok));
    if (d.values.size() != count)
      fail(path, "expected " + std::to_string(count) + " elements, found " + std::to_string(d.values.size()));
  }
  return d;
}

template <typename T>
void write_data(const std::string& path, const Data<T>& d) {
  std::size_t count = 1;
  for (std::size_t n : d.dims) count *= n;
  if (d.is_list) count = d.values.size();
  if (count != d.values.size()) fail(path, "shape does not match the number of values");
  std::ofstream out(path, std::ios::binary);
  if (!out) fail(path, "cannot open for writing");
  out << (d.is_list ? "List" : "Array") << '\n';
  if (is_binary_path(path)) {
    out.write(reinterpret_cast<const char*>(d.values.data()), static_cast<std::streamsize>(count * sizeof(T)));
    out << '\n';
  } else {
    // one innermost row (or the whole list) per line
    std::size_t row = d.is_list || d.dims.empty() ? count : d.dims.back();
    for (std::size_t i = 0; i < count; ++i) {
      out << format_text_element(d.values[i]);
      out << ((row == 0 || (i + 1) % row == 0) ? '\n' : ' ');
    }
    if (count == 0) out << '\n';
  }
  if (d.is_list) {
    out << count << '\n';
  } else {
    for (std::size_t k = 0; k < d.dims.size(); ++k) out << (k ? "*" : "") << d.dims[k];
    out << '\n';
  }
  if (!out) fail(path, "write failed");
}

template <typename T>
Data<T> make_array(std::vector<std::size_t> dims, std::vector<T> values) {
  Data<T> d;
  d.dims = std::move(dims);
  d.values = std::move(values);
  return d;
}

template <typename T>
Data<T> make_list(std::vector<T> values) {
  Data<T> d;
  d.is_list = true;
  d.values = std::move(values);
  return d;
}

// A `List of Arrays` (dims: each array's lengths) or `Array of Lists` (outer: the array's lengths,
// dims: {length} per cell) text file: one line per innermost row or list, the directory of
// `offset:lengths` entries, then the number of arrays or the outer lengths.
template <typename T>
void write_nested_text(const std::string& path, bool list_of_arrays, const std::vector<std::size_t>& outer,
                       const std::vector<Data<T>>& items) {
  std::ofstream out(path, std::ios::binary);
  if (!out) fail(path, "cannot open for writing");
  out << (list_of_arrays ? "List of Arrays" : "Array of Lists") << '\n';
  std::string directory;
  std::size_t offset = 0;
  auto lengths = [](const std::vector<std::size_t>& d) {
    std::string s;
    for (std::size_t k = 0; k < d.size(); ++k) s += (k ? "*" : "") + std::to_string(d[k]);
    return s;
  };
  for (const Data<T>& d : items) {
    const std::vector<std::size_t> shape = d.is_list ? std::vector<std::size_t>{d.values.size()} : d.dims;
    const std::size_t row = d.is_list || shape.empty() ? d.values.size() : shape.back();
    for (std::size_t i = 0; i < d.values.size(); ++i)
      out << format_text_element(d.values[i]) << ((row == 0 || (i + 1) % row == 0) ? '\n' : ' ');
    if (d.values.empty()) out << '\n';
    directory += (directory.empty() ? "" : " ") + std::to_string(offset) + ":" + lengths(shape);
    offset += d.values.size();
  }
  out << directory << '\n';
  out << (list_of_arrays ? std::to_string(items.size()) : lengths(outer)) << '\n';
  if (!out) fail(path, "write failed");
}

}  // namespace itref
