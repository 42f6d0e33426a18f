// Sequential reading and writing of whole data files (`load`/`store`, §4.4) in both encodings
// and all four collection types. Elements live in memory in the codec's memory representation;
// typed helpers convert from/to std::vector<T> for trivially copyable T.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "runtime/data/dim_range.h"
#include "runtime/data/io/element_codec.h"
#include "runtime/data/io/file_layout.h"

namespace itrt {

// One array (its lengths) or one list ({length}) of elements in memory, row-major.
struct ElementBlock {
    std::vector<int64_t> lengths;
    std::vector<std::byte> bytes; // count() * codec.memory_size()
    int64_t count() const;

    template <class T> static ElementBlock of(std::vector<int64_t> lengths, const std::vector<T>& values) {
        static_assert(std::is_trivially_copyable_v<T>);
        ElementBlock b{std::move(lengths), std::vector<std::byte>(values.size() * sizeof(T))};
        if (!values.empty())
            std::memcpy(b.bytes.data(), values.data(), b.bytes.size());
        return b;
    }
    template <class T> std::vector<T> values() const {
        static_assert(std::is_trivially_copyable_v<T>);
        std::vector<T> v(bytes.size() / sizeof(T));
        if (!v.empty())
            std::memcpy(v.data(), bytes.data(), v.size() * sizeof(T));
        return v;
    }
};

// The content of a data file. `shape` is as in FileLayout: array lengths (Array), {length}
// (List), {number of arrays} (List of Arrays), outer lengths (Array of Lists). `items` holds the
// collections in content order: one for Array and List, one per array or per cell otherwise.
struct DataCollection {
    Collection kind = Collection::array;
    std::vector<int64_t> shape;
    std::vector<ElementBlock> items;

    static DataCollection array(ElementBlock a);
    static DataCollection list(ElementBlock l);
    static DataCollection list_of_arrays(std::vector<ElementBlock> arrays);
    static DataCollection array_of_lists(std::vector<int64_t> outer, std::vector<ElementBlock> lists);
};

// Writes `data` to `path` (`.txt` or `.bin`) through a temporary file and a rename.
void write_data_file(const std::string& path, const ElementCodec& codec, const DataCollection& data);

// Reads `path`, checking it against `expect`; arrays read back have ranges 0..d-1.
// Throws DataFileError with a precise message for any malformed or mismatching file.
DataCollection read_data_file(const std::string& path, const ElementCodec& codec, const FileExpectation& expect);

// The ranges an array read from a file gets: 0..d-1 per dimension.
std::vector<DimRange> ranges_from_file(const std::vector<int64_t>& lengths);

// read_data_file on the bytes of a file already in memory; `path` names it in messages and
// gives the encoding.
DataCollection read_data_bytes(const std::string& path, const std::string& file, const ElementCodec& codec,
                               const FileExpectation& expect);

// Throws DataFileError unless `path` is a regular file: a directory, FIFO, socket or device is
// named as such (reading a FIFO would block), a missing file with the OS reason.
void check_regular_file(const std::string& path);

// Reads the whole file (for scan_layout); throws DataFileError if it cannot be opened or read.
std::string read_whole_file(const std::string& path);

} // namespace itrt
