// Owns the text of every file itc reads (programs, mappings, machine models) and maps
// locations to lines. Locations are 1-based line and column; column counts bytes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace itc {

using FileId = std::uint32_t;
inline constexpr FileId kNoFile = 0;

struct SourceLocation {
    FileId file = kNoFile;
    std::uint32_t line = 0;
    std::uint32_t column = 0;
    bool valid() const { return file != kNoFile && line != 0; }
    friend bool operator==(const SourceLocation&, const SourceLocation&) = default;
};

struct SourceRange {
    SourceLocation begin;
    SourceLocation end; // inclusive: the last character of the range
    bool valid() const { return begin.valid(); }
    static SourceRange at(SourceLocation loc) { return {loc, loc}; }
};

class SourceManager {
public:
    // Registers text under a display path. The returned id is never kNoFile.
    FileId addBuffer(std::string path, std::string text);
    // Reads a file; on failure returns nullopt and sets `error` to the OS reason.
    std::optional<FileId> loadFile(const std::string& path, std::string& error);

    const std::string& path(FileId id) const;
    const std::string& text(FileId id) const;
    // The text of one line, without its newline (empty past the end of the file).
    std::string_view lineText(FileId id, std::uint32_t line) const;
    std::uint32_t lineCount(FileId id) const;

private:
    struct File {
        std::string path;
        std::string text;
        std::vector<std::size_t> lineStarts;
    };
    const File& file(FileId id) const;
    std::vector<File> files_;
};

} // namespace itc
