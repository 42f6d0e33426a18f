// Shared plumbing for the sequential reference programs: `key=value` command-line arguments,
// read the same way as an IT coordinator's `args` (§4.1), and a main() wrapper that turns
// exceptions into a message and exit code 1. No itc or runtime code may be used here.
#pragma once

#include <cstdio>
#include <exception>
#include <map>
#include <stdexcept>
#include <string>

#include "data_file.h"

namespace itref {

class Args {
 public:
  Args(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
      std::string word = argv[i];
      std::size_t eq = word.find('=');
      if (eq == std::string::npos || eq == 0)
        throw std::runtime_error("argument '" + word + "' is not of the form key=value");
      values_[word.substr(0, eq)] = word.substr(eq + 1);  // the last occurrence wins
    }
  }
  bool has(const std::string& key) const { return values_.count(key) != 0; }
  std::string str(const std::string& key) const {
    auto it = values_.find(key);
    if (it == values_.end()) throw std::runtime_error("missing argument " + key + "=...");
    return it->second;
  }
  long long integer(const std::string& key) const {
    std::string v = str(key);
    std::size_t used = 0;
    long long r = 0;
    try {
      r = std::stoll(v, &used);
    } catch (const std::logic_error&) {
      used = 0;
    }
    if (used == 0 || used != v.size()) throw std::runtime_error(key + "=" + v + " is not an Integer");
    return r;
  }
  long long integer(const std::string& key, long long fallback) const { return has(key) ? integer(key) : fallback; }
  double real(const std::string& key) const {
    std::string v = str(key);
    std::size_t used = 0;
    double r = 0;
    try {
      r = std::stod(v, &used);
    } catch (const std::logic_error&) {
      used = 0;
    }
    if (used == 0 || used != v.size()) throw std::runtime_error(key + "=" + v + " is not a Real");
    return r;
  }

 private:
  std::map<std::string, std::string> values_;
};

template <typename Body>
int run_main(const char* name, int argc, char** argv, Body body) {
  try {
    Args args(argc, argv);
    body(args);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", name, e.what());
    return 1;
  }
}

}  // namespace itref
