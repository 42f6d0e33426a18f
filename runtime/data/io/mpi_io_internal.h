// Internal helpers shared by the MPI-IO paths (binary through file views, text through rank 0):
// file segments of a part, and error agreement across ranks. Not part of the public API.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#include "runtime/data/dim_range.h"
#include "runtime/data/io/element_codec.h"
#include "runtime/data/io/mpi_array_io.h"
#include "runtime/data/part.h"
#include "runtime/support/mpi_calls.h"

namespace itrt::detail {

// Elements [file, file+length) of the content (row-major positions) are elements
// [local, local+length) of local storage of part number `part`.
struct Segment {
    int64_t file = 0;
    int64_t local = 0;
    int64_t length = 0;
    size_t part = 0;
};

// File segments of one part: `owned` selects the owned set, otherwise the held set.
void part_segments(const Part& p, bool owned, const std::vector<DimRange>& ranges, size_t part_no,
                   std::vector<Segment>& out);

std::string mpi_error(int rc);
// Broadcasts a string from rank 0.
std::string bcast_string(MPI_Comm comm, std::string s);
// Every rank learns the first non-empty message (by rank order) and throws it as DataFileError.
void throw_if_any(MPI_Comm comm, const std::string& mine);

// Text (`.txt`) Array files: rank 0 gathers/reads the whole array and writes/broadcasts it.
void write_text_array_parts(MPI_Comm comm, const std::string& path, const ElementCodec& codec,
                            const std::vector<DimRange>& ranges, const std::vector<ConstLocalPart>& parts);
void read_text_array_parts(MPI_Comm comm, const std::string& path, const ElementCodec& codec,
                           const std::vector<DimRange>& ranges, const std::vector<LocalPart>& parts);

} // namespace itrt::detail
