// Temporary-name-and-rename output (POSIX rename is atomic within one file system).
#include "runtime/data/io/atomic_output.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fmt/format.h>

#include "runtime/data/data_error.h"

namespace itrt {

std::string temporary_path_for(const std::string& path, std::string_view unique) {
    size_t slash = path.find_last_of('/');
    std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
    std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
    return fmt::format("{}.{}.{}.tmp", dir, base, unique);
}

void commit_temporary(const std::string& tmp, const std::string& path) {
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        int err = errno;
        std::remove(tmp.c_str());
        throw DataFileError(fmt::format("{}: cannot create the output file: {}", path, std::strerror(err)));
    }
}

void write_file_atomically(const std::string& path, std::string_view bytes) {
    std::string tmp = temporary_path_for(path, std::to_string(::getpid()));
    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f)
        throw DataFileError(fmt::format("{}: cannot open for writing: {}", path, std::strerror(errno)));
    bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
    int err = errno;
    ok = (std::fclose(f) == 0) && ok;
    if (!ok) {
        std::remove(tmp.c_str());
        throw DataFileError(fmt::format("{}: write failed: {}", path, std::strerror(err)));
    }
    commit_temporary(tmp, path);
}

} // namespace itrt
