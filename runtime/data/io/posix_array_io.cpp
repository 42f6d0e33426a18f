// Implements posix_array_io.h. Segments that follow each other in the file become one preadv /
// pwritev of up to IOV_MAX pieces (one piece when they also follow each other in a part), so a
// part of whole rows is one call whatever its row count.
#include "runtime/data/io/posix_array_io.h"

#include <fcntl.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <memory>

namespace itrt::detail {
namespace {

// Transfers every byte of `iov` at `offset`, continuing after short transfers. Returns 0, or the
// errno of the failure (EIO for an end of file before the last byte).
int transfer_fully(int fd, std::vector<iovec>& iov, int64_t offset, bool write) {
    size_t first = 0;
    while (first < iov.size()) {
        const int n = static_cast<int>(std::min<size_t>(iov.size() - first, IOV_MAX));
        const ssize_t done =
            write ? ::pwritev(fd, iov.data() + first, n, offset) : ::preadv(fd, iov.data() + first, n, offset);
        if (done < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        if (done == 0)
            return EIO;
        offset += done;
        for (auto left = static_cast<size_t>(done); left > 0;) {
            iovec& v = iov[first];
            const size_t step = std::min(left, v.iov_len);
            v.iov_base = static_cast<std::byte*>(v.iov_base) + step;
            v.iov_len -= step;
            left -= step;
            if (v.iov_len == 0)
                ++first;
        }
        while (first < iov.size() && iov[first].iov_len == 0)
            ++first;
    }
    return 0;
}

// Calls `io(iov, offset)` once per stretch of segments that follow each other in the file, with
// pieces `piece(segment)` (merged where they also follow each other in memory).
template <class Piece, class Io>
int for_each_stretch(const std::vector<Segment>& segments, int64_t content_begin, size_t esz, Piece piece, Io io) {
    std::vector<iovec> iov;
    int64_t start = 0, end = -1;
    for (const Segment& s : segments) {
        const int64_t at = content_begin + s.file * static_cast<int64_t>(esz);
        const size_t bytes = static_cast<size_t>(s.length) * esz;
        if (at != end && !iov.empty()) {
            if (int rc = io(iov, start))
                return rc;
            iov.clear();
        }
        if (iov.empty())
            start = at;
        std::byte* base = piece(s);
        if (!iov.empty() && static_cast<std::byte*>(iov.back().iov_base) + iov.back().iov_len == base)
            iov.back().iov_len += bytes;
        else
            iov.push_back({base, bytes});
        end = at + static_cast<int64_t>(bytes);
    }
    return iov.empty() ? 0 : io(iov, start);
}

std::string errno_text(int rc) { return rc == EIO ? std::string("unexpected end of file") : std::strerror(rc); }

// Elements per round of the encode / decode buffer for codecs whose binary form differs.
constexpr int64_t kChunkElements = 1 << 16;

} // namespace

std::string posix_write_segments(int fd, int64_t content_begin, const std::vector<Segment>& segments,
                                 const std::vector<ConstLocalPart>& parts, const ElementCodec& codec) {
    const size_t esz = codec.binary_size(), msz = codec.memory_size();
    if (codec.binary_is_memory()) {
        auto piece = [&](const Segment& s) {
            // pwritev takes non-const iovecs; the bytes are only read
            return const_cast<std::byte*>(static_cast<const std::byte*>(parts[s.part].storage)) + s.local * msz;
        };
        auto io = [&](std::vector<iovec>& iov, int64_t at) { return transfer_fully(fd, iov, at, true); };
        const int rc = for_each_stretch(segments, content_begin, esz, piece, io);
        return rc ? errno_text(rc) : std::string();
    }
    std::unique_ptr<std::byte[]> chunk(new std::byte[kChunkElements * esz]);
    for (const Segment& s : segments) {
        for (int64_t done = 0; done < s.length;) {
            const int64_t n = std::min(kChunkElements, s.length - done);
            codec.encode_run(static_cast<const std::byte*>(parts[s.part].storage) + (s.local + done) * msz, chunk.get(),
                             n);
            std::vector<iovec> iov{{chunk.get(), static_cast<size_t>(n) * esz}};
            if (int rc = transfer_fully(fd, iov, content_begin + (s.file + done) * static_cast<int64_t>(esz), true))
                return errno_text(rc);
            done += n;
        }
    }
    return {};
}

std::string posix_write_at(int fd, const std::string& bytes, int64_t at) {
    std::vector<iovec> iov{{const_cast<char*>(bytes.data()), bytes.size()}}; // pwritev only reads it
    const int rc = transfer_fully(fd, iov, at, true);
    return rc ? errno_text(rc) : std::string();
}

std::string posix_read_segments(const std::string& path, int64_t content_begin, const std::vector<Segment>& segments,
                                const std::vector<LocalPart>& parts, const ElementCodec& codec) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return std::string("cannot open for reading: ") + std::strerror(errno);
    const size_t esz = codec.binary_size(), msz = codec.memory_size();
    int rc = 0;
    if (codec.binary_is_memory()) {
        auto piece = [&](const Segment& s) { return static_cast<std::byte*>(parts[s.part].storage) + s.local * msz; };
        auto io = [&](std::vector<iovec>& iov, int64_t at) { return transfer_fully(fd, iov, at, false); };
        rc = for_each_stretch(segments, content_begin, esz, piece, io);
    } else {
        std::unique_ptr<std::byte[]> chunk(new std::byte[kChunkElements * esz]);
        for (const Segment& s : segments) {
            for (int64_t done = 0; done < s.length && rc == 0;) {
                const int64_t n = std::min(kChunkElements, s.length - done);
                std::vector<iovec> iov{{chunk.get(), static_cast<size_t>(n) * esz}};
                rc = transfer_fully(fd, iov, content_begin + (s.file + done) * static_cast<int64_t>(esz), false);
                if (rc == 0)
                    codec.decode_run(chunk.get(),
                                     static_cast<std::byte*>(parts[s.part].storage) + (s.local + done) * msz, n);
                done += n;
            }
            if (rc)
                break;
        }
    }
    ::close(fd);
    return rc ? "read failed: " + errno_text(rc) : std::string();
}

} // namespace itrt::detail
