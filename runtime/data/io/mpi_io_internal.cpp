// Shared MPI-IO helpers: part -> file segments (product of per-dimension runs, each segment
// contiguous in the file and in local storage) and all-ranks error agreement.
#include "runtime/data/io/mpi_io_internal.h"

#include "runtime/data/data_error.h"

namespace itrt::detail {

void part_segments(const Part& p, bool owned, const std::vector<DimRange>& ranges, size_t part_no,
                   std::vector<Segment>& out) {
    const int rank = p.rank();
    struct Run {
        int64_t file, local, length;
    };
    std::vector<std::vector<Run>> runs(rank);
    for (int d = 0; d < rank; ++d) {
        const IndexSet1D& s = owned ? p.owned(d) : p.held(d);
        for (const IndexRun& r : s.runs())
            runs[d].push_back({ranges[d].position_of(r.first), *p.held(d).local_of(r.first), r.length});
        if (runs[d].empty())
            return;
    }
    std::vector<int64_t> fstride(rank, 1), lstride = p.strides();
    for (int d = rank - 2; d >= 0; --d)
        fstride[d] = fstride[d + 1] * ranges[d + 1].length();
    std::vector<size_t> ri(rank, 0);
    std::vector<int64_t> off(rank, 0);
    const int last = rank - 1;
    while (true) {
        int64_t f = 0, l = 0;
        for (int d = 0; d < last; ++d) {
            f += (runs[d][ri[d]].file + off[d]) * fstride[d];
            l += (runs[d][ri[d]].local + off[d]) * lstride[d];
        }
        for (const Run& r : runs[last])
            out.push_back({f + r.file, l + r.local, r.length, part_no});
        int d = last - 1;
        for (; d >= 0; --d) {
            if (++off[d] < runs[d][ri[d]].length)
                break;
            off[d] = 0;
            if (++ri[d] < runs[d].size())
                break;
            ri[d] = 0;
        }
        if (d < 0)
            return;
    }
}

std::string mpi_error(int rc) {
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, msg, &len);
    return std::string(msg, len);
}

// Broadcasts a string from rank 0.
std::string bcast_string(MPI_Comm comm, std::string s) {
    long long n = static_cast<long long>(s.size());
    mpi::bcast(&n, 1, MPI_LONG_LONG, 0, comm);
    s.resize(n);
    if (n > 0)
        mpi::bcast(s.data(), static_cast<int>(n), MPI_CHAR, 0, comm);
    return s;
}

// Every rank learns the first non-empty error message (by rank order) and throws it.
void throw_if_any(MPI_Comm comm, const std::string& mine) {
    const int rank = mpi::rank(comm), size = mpi::size(comm);
    int flag = mine.empty() ? size : rank, first = size;
    mpi::allreduce(&flag, &first, 1, MPI_INT, MPI_MIN, comm);
    if (first == size)
        return;
    long long n = static_cast<long long>(mine.size());
    mpi::bcast(&n, 1, MPI_LONG_LONG, first, comm);
    std::string msg = rank == first ? mine : std::string(n, '\0');
    mpi::bcast(msg.data(), static_cast<int>(n), MPI_CHAR, first, comm);
    throw DataFileError(msg);
}

} // namespace itrt::detail
