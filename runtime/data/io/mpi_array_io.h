// Part-wise parallel reading and writing of `Array` files (`bind_input`, `bind_output`, §4.4).
// Binary files use MPI-IO: each rank reads or writes only the elements of its own parts, through
// a file view, in one collective call; rank 0 handles header and trailer. A single rank uses
// POSIX calls on its parts in place instead (posix_array_io.h). Text files go through
// rank 0 (gather/broadcast). All ranks see the same errors. Output goes to a temporary name and
// is renamed at the end, after all ranks agree that the write succeeded.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#include "runtime/data/dim_range.h"
#include "runtime/data/io/element_codec.h"
#include "runtime/data/io/file_layout.h"
#include "runtime/data/part.h"

namespace itrt {

// A part of the array on this rank and its local storage (row-major over the held set,
// codec.memory_size() bytes per element).
struct LocalPart {
    const Part* part;
    void* storage;
};
struct ConstLocalPart {
    const Part* part;
    const void* storage;
};

// Collective over `comm`. Writes `path` (`.bin` or `.txt`) as an Array with the lengths of
// `ranges`; each rank writes the owned elements of its `parts`. The owned sets of all parts on all
// ranks must cover the array exactly once (pass one replica of replicated parts).
// Throws DataFileError on every rank if any rank fails.
void write_array_parts(MPI_Comm comm, const std::string& path, const ElementCodec& codec,
                       const std::vector<DimRange>& ranges, const std::vector<ConstLocalPart>& parts);

// Collective. The dimension lengths stored in the binary Array file `path` (rank 0 reads the
// trailer and checks that the content holds exactly that many elements of `codec`, so callers
// may allocate for the lengths returned).
std::vector<int64_t> read_array_shape(MPI_Comm comm, const std::string& path, const ElementCodec& codec,
                                      const FileExpectation& expect);

// Collective. Fills the held elements (padding included) of each of this rank's `parts` from
// the Array file `path`, whose lengths must equal those of `ranges`.
void read_array_parts(MPI_Comm comm, const std::string& path, const ElementCodec& codec,
                      const std::vector<DimRange>& ranges, const std::vector<LocalPart>& parts);

} // namespace itrt
