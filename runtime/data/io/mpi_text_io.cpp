// Parallel `bind_input`/`bind_output` of text (`.txt`) Array files. Text has no fixed element
// size, so rank 0 gathers the owned elements and writes the file sequentially (atomically), or
// reads it and broadcasts it; every rank then copies only its parts. Meant for small data.
#include <algorithm>
#include <cstring>
#include <fmt/format.h>

#include "runtime/data/data_error.h"
#include "runtime/data/io/data_file.h"
#include "runtime/data/io/mpi_io_internal.h"

namespace itrt::detail {
namespace {

constexpr int64_t kChunk = int64_t{1} << 30;

void bcast_bytes(MPI_Comm comm, std::vector<std::byte>& bytes) {
    long long n = static_cast<long long>(bytes.size());
    mpi::bcast(&n, 1, MPI_LONG_LONG, 0, comm);
    bytes.resize(n);
    for (int64_t at = 0; at < n; at += kChunk)
        mpi::bcast(bytes.data() + at, static_cast<int>(std::min<int64_t>(kChunk, n - at)), MPI_BYTE, 0, comm);
}

} // namespace

void write_text_array_parts(MPI_Comm comm, const std::string& path, const ElementCodec& codec,
                            const std::vector<DimRange>& ranges, const std::vector<ConstLocalPart>& parts) {
    const int rank = mpi::rank(comm), size = mpi::size(comm);
    const size_t msz = codec.memory_size();
    std::vector<Segment> segs;
    for (size_t i = 0; i < parts.size(); ++i)
        part_segments(*parts[i].part, true, ranges, i, segs);
    std::vector<long long> meta;
    std::vector<std::byte> data;
    for (const Segment& s : segs) {
        meta.push_back(s.file);
        meta.push_back(s.length);
        const auto* src = static_cast<const std::byte*>(parts[s.part].storage) + s.local * msz;
        data.insert(data.end(), src, src + s.length * msz);
    }
    int counts[2] = {static_cast<int>(meta.size()), static_cast<int>(data.size())};
    std::vector<int> all(2 * static_cast<size_t>(size));
    mpi::gather(counts, 2, MPI_INT, all.data(), 0, comm);
    std::vector<int> mcount(size), mdisp(size), dcount(size), ddisp(size);
    for (int r = 0, m = 0, d = 0; r < size; ++r) {
        mcount[r] = all[2 * static_cast<size_t>(r)];
        dcount[r] = all[2 * static_cast<size_t>(r) + 1];
        mdisp[r] = m;
        ddisp[r] = d;
        m += mcount[r];
        d += dcount[r];
    }
    std::vector<long long> all_meta(rank == 0 ? mdisp.back() + mcount.back() : 0);
    std::vector<std::byte> all_data(rank == 0 ? ddisp.back() + dcount.back() : 0);
    mpi::gatherv(meta.data(), counts[0], MPI_LONG_LONG, all_meta.data(), mcount.data(), mdisp.data(), 0, comm);
    mpi::gatherv(data.data(), counts[1], MPI_BYTE, all_data.data(), dcount.data(), ddisp.data(), 0, comm);
    std::string error;
    if (rank == 0) {
        std::vector<int64_t> lengths;
        int64_t elements = 1;
        for (const DimRange& r : ranges) {
            lengths.push_back(r.length());
            elements *= r.length();
        }
        ElementBlock block{lengths, std::vector<std::byte>(elements * msz)};
        int64_t covered = 0;
        const std::byte* in = all_data.data();
        for (size_t i = 0; i < all_meta.size(); i += 2) {
            std::memcpy(block.bytes.data() + all_meta[i] * msz, in, all_meta[i + 1] * msz);
            in += all_meta[i + 1] * msz;
            covered += all_meta[i + 1];
        }
        try {
            if (covered != elements)
                throw DataFileError(fmt::format("{}: internal error: the parts written cover {} elements, but the "
                                                "{} array has {} "
                                                "(each element must be written by exactly one part)",
                                                path, covered, format_lengths(lengths), elements));
            write_data_file(path, codec, DataCollection::array(std::move(block)));
        } catch (const DataFileError& e) {
            error = e.what();
        }
    }
    throw_if_any(comm, error);
}

void read_text_array_parts(MPI_Comm comm, const std::string& path, const ElementCodec& codec,
                           const std::vector<DimRange>& ranges, const std::vector<LocalPart>& parts) {
    const int rank = mpi::rank(comm);
    FileExpectation expect{Collection::array, static_cast<int>(ranges.size()), {}};
    for (const DimRange& r : ranges)
        expect.lengths.push_back(r.length());
    std::vector<std::byte> full;
    std::string error;
    if (rank == 0) {
        try {
            full = std::move(read_data_file(path, codec, expect).items[0].bytes);
        } catch (const DataFileError& e) {
            error = e.what();
        }
    }
    throw_if_any(comm, error);
    bcast_bytes(comm, full);
    const size_t msz = codec.memory_size();
    std::vector<Segment> segs;
    for (size_t i = 0; i < parts.size(); ++i)
        part_segments(*parts[i].part, false, ranges, i, segs);
    for (const Segment& s : segs)
        std::memcpy(static_cast<std::byte*>(parts[s.part].storage) + s.local * msz, full.data() + s.file * msz,
                    s.length * msz);
}

} // namespace itrt::detail
