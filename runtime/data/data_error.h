// Exceptions thrown by the data-part library. Messages are complete, user-facing sentences
// (lowercase start, no trailing period) naming what was expected and what was found.
// This file must not depend on MPI or on any IT syntax.
#pragma once

#include <stdexcept>
#include <string>

namespace itrt {

// A partition cannot be set up at launch: bad argument, disagreeing part counts, ...
class PartitionError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A data file is malformed, disagrees with the program, or cannot be read or written.
// The message starts with the file name: `data.txt: line 3: expected ...`.
class DataFileError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

} // namespace itrt
