// The structure of a data file (§13): extension -> encoding, the header line, and the metadata
// trailer (shape line, directory line). Finds the trailer by scanning backward from the end and
// validates it against what the program expects. Knows nothing about element values.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace itrt {

enum class Collection { array, list, array_of_lists, list_of_arrays };
enum class Encoding { text, binary };

std::string_view header_of(Collection kind); // "Array", "List", "Array of Lists", "List of Arrays"
// `.txt` -> text, `.bin` -> binary; anything else throws DataFileError.
Encoding encoding_of(std::string_view path);

// One collection stored in the content: an array (its lengths) or a list (one length).
struct DirEntry {
    int64_t offset = 0; // in elements from the start of the content
    std::vector<int64_t> lengths;
    int64_t count() const;
};

struct FileLayout {
    Collection kind = Collection::array;
    Encoding encoding = Encoding::text;
    std::vector<int64_t> shape;    // the last trailer line: array lengths, list length, number of
                                   // arrays (List of Arrays) or outer lengths (Array of Lists)
    std::vector<DirEntry> entries; // the collections in content order (Array and List: one)
    int64_t total_elements = 0;
    uint64_t content_begin = 0; // byte range of the content; for binary files the separator LF
    uint64_t content_end = 0;   // before the trailer is excluded
    int64_t trailer_line = 0;   // line number of the last trailer line (text files)
};

// What the program expects to read.
struct FileExpectation {
    Collection kind = Collection::array;
    int rank = -1;                // dimensionality of the array(s), or of the outer array of an
                                  // Array of Lists; -1 accepts any
    std::vector<int64_t> lengths; // required lengths (e.g. a linked array's); empty accepts any
};

// Reads `len` bytes at byte offset `off` of the file.
using ByteReader = std::function<std::string(uint64_t off, uint64_t len)>;

// Parses and validates header and trailer. Throws DataFileError with `path` in the message.
FileLayout scan_layout(const std::string& path, uint64_t file_size, const ByteReader& read,
                       const FileExpectation& expect);

// Throws DataFileError unless the binary content of `layout` is exactly total_elements elements
// of `element_size` bytes (`type_name` says which type in the message).
void check_binary_content(const std::string& path, const FileLayout& layout, size_t element_size,
                          const std::string& type_name);

// The header line, LF-terminated.
std::string render_header(Collection kind);
// The trailer lines, each LF-terminated, for the given shape and content collections.
std::string render_trailer(Collection kind, const std::vector<int64_t>& shape, const std::vector<DirEntry>& entries);
// "2*3" for {2, 3}.
std::string format_lengths(const std::vector<int64_t>& lengths);
// "a 2*3 Array", "a 4-element Array", "a List of length 4", "a List of 2 Arrays", "a 1*2 Array
// of Lists", "a 3-element Array of Lists".
std::string describe_shape(Collection kind, const std::vector<int64_t>& shape);

} // namespace itrt
