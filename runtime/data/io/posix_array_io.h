// The one-process path of the binary Array reads and writes (runtime/data/io/mpi_array_io.cpp):
// with a single rank there is nothing to agree on, and MPI-IO only adds a staging copy and its
// own buffering. Parts are read and written in place with vectored POSIX calls when the codec's
// binary form is the memory form, through a bounded buffer otherwise. Internal.
#pragma once

#include <string>
#include <vector>

#include "runtime/data/io/mpi_io_internal.h"

namespace itrt::detail {

// Writes the `segments` (sorted by file position, disjoint) of `parts` into the open file `fd`,
// the content starting at byte `content_begin`. Returns "" or what went wrong (errno's text).
std::string posix_write_segments(int fd, int64_t content_begin, const std::vector<Segment>& segments,
                                 const std::vector<ConstLocalPart>& parts, const ElementCodec& codec);

// Writes `bytes` at byte `at` of the open file `fd`. Returns "" or what went wrong.
std::string posix_write_at(int fd, const std::string& bytes, int64_t at);

// Reads the `segments` (sorted by file position; they may overlap) of `parts` from `path`, the
// content starting at byte `content_begin`. Returns "" or what went wrong.
std::string posix_read_segments(const std::string& path, int64_t content_begin, const std::vector<Segment>& segments,
                                const std::vector<LocalPart>& parts, const ElementCodec& codec);

} // namespace itrt::detail
