// Source buffers and line lookup for diagnostics.
#include "frontend/source_manager.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace itc {

FileId SourceManager::addBuffer(std::string path, std::string text) {
    File f{std::move(path), std::move(text), {0}};
    for (std::size_t i = 0; i < f.text.size(); ++i)
        if (f.text[i] == '\n')
            f.lineStarts.push_back(i + 1);
    files_.push_back(std::move(f));
    return static_cast<FileId>(files_.size());
}

std::optional<FileId> SourceManager::loadFile(const std::string& path, std::string& error) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        error = "it is a directory; give the file";
        return std::nullopt;
    }
    if (std::filesystem::is_character_file(path, ec) || std::filesystem::is_block_file(path, ec)) {
        error = "it is a device, not a file"; // /dev/zero would never end
        return std::nullopt;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = std::strerror(errno);
        return std::nullopt;
    }
    // Read in pieces up to a bound: a pipe (`<(...)`) is fine, one that never ends is not.
    constexpr std::size_t kMaxBytes = std::size_t{256} << 20;
    std::string text;
    char piece[1 << 16];
    while (in.read(piece, sizeof piece) || in.gcount() > 0) {
        text.append(piece, static_cast<std::size_t>(in.gcount()));
        if (text.size() > kMaxBytes) {
            error = "it is larger than 256 MiB, which no source, mapping or machine file is";
            return std::nullopt;
        }
    }
    if (in.bad()) {
        error = "read error";
        return std::nullopt;
    }
    // A UTF-8 byte-order mark, which some editors write first, is no part of the text.
    if (text.rfind("\xEF\xBB\xBF", 0) == 0)
        text.erase(0, 3);
    return addBuffer(path, std::move(text));
}

const SourceManager::File& SourceManager::file(FileId id) const {
    if (id == kNoFile || id > files_.size())
        throw std::out_of_range("SourceManager: unknown file id");
    return files_[id - 1];
}

const std::string& SourceManager::path(FileId id) const { return file(id).path; }
const std::string& SourceManager::text(FileId id) const { return file(id).text; }

std::uint32_t SourceManager::lineCount(FileId id) const {
    const File& f = file(id);
    std::size_t n = f.lineStarts.size();
    // A trailing newline does not start a further line.
    if (n > 1 && f.lineStarts.back() == f.text.size())
        --n;
    return static_cast<std::uint32_t>(n);
}

std::string_view SourceManager::lineText(FileId id, std::uint32_t line) const {
    const File& f = file(id);
    if (line == 0 || line > f.lineStarts.size())
        return {};
    std::size_t begin = f.lineStarts[line - 1];
    std::size_t end = line < f.lineStarts.size() ? f.lineStarts[line] - 1 : f.text.size();
    if (end > begin && f.text[end - 1] == '\r')
        --end;
    return std::string_view(f.text).substr(begin, end - begin);
}

} // namespace itc
