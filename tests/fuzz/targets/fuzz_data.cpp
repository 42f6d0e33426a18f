// libFuzzer target `data`: the data file readers of runtime/data/io on arbitrary bytes, as
// `load` (read_data_bytes, every collection type) and bind_input (scan_layout and the binary
// content check that read_array_shape runs before a program allocates its parts) read them.
//
// Input: byte 0 picks what the program expects (bits 0-1 the collection type, bit 2 binary or
// text, bits 3-5 the element type), byte 1 the expected dimensionality (value % 5 - 1, -1 is
// any); the rest is the file. tests/fuzz/gather_seeds.py writes seeds in this form.
// A reader may only return a collection that agrees with its shape, or throw DataFileError with a
// message naming the file; anything else (another exception, a crash, UB, a huge allocation:
// -rss_limit_mb / -malloc_limit_mb in tools/fuzz.sh) is a bug.
#include "runtime/data/data_error.h"
#include "runtime/data/io/data_file.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

struct Point {
    int32_t x;
    double weight[2];
    char tag;
};

// A class element type, as generated code describes one: fields with padding between them.
const itrt::ElementCodec& point_codec() {
    static const itrt::StructCodec codec("Point", sizeof(Point),
                                         {{offsetof(Point, x), &itrt::integer_codec(), 1},
                                          {offsetof(Point, weight), &itrt::double_codec(), 2},
                                          {offsetof(Point, tag), &itrt::char_codec(), 1}});
    return codec;
}

const itrt::ElementCodec& codec_for(unsigned pick) {
    switch (pick % 8) {
    case 0: return itrt::integer_codec();
    case 1: return itrt::float_codec();
    case 2: return itrt::double_codec();
    case 3: return itrt::char_codec();
    case 4: return itrt::bool_codec();
    case 5: return itrt::string_codec();
    case 6: return itrt::range_codec();
    default: return point_codec();
    }
}

[[noreturn]] void bug(const std::string& what) {
    std::fprintf(stderr, "fuzz_data: %s\n", what.c_str());
    std::abort();
}

// A DataFileError must name the file first, as every user-facing message does.
void check_message(const std::string& path, const itrt::DataFileError& e) {
    std::string m = e.what();
    if (m.rfind(path + ":", 0) != 0)
        bug("message does not start with the file name: " + m);
}

void check_collection(const itrt::DataCollection& d, const itrt::ElementCodec& codec,
                      const itrt::FileExpectation& expect) {
    if (d.kind != expect.kind)
        bug("read a different collection type than expected");
    for (const itrt::ElementBlock& b : d.items)
        if (b.bytes.size() != static_cast<size_t>(b.count()) * codec.memory_size())
            bug("an element block's storage disagrees with its lengths");
    if ((expect.kind == itrt::Collection::array || expect.kind == itrt::Collection::list) &&
        (d.items.size() != 1 || d.items[0].lengths != d.shape))
        bug("an Array or List read back with a shape other than its content's");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 2)
        return 0;
    const unsigned pick = data[0];
    itrt::FileExpectation expect;
    expect.kind = static_cast<itrt::Collection>(pick & 3);
    expect.rank = data[1] % 5 - 1;
    const bool binary = (pick & 4) != 0;
    const itrt::ElementCodec& codec = codec_for(pick >> 3);
    const std::string path = binary ? "fuzz.bin" : "fuzz.txt";
    const std::string file(reinterpret_cast<const char*>(data) + 2, size - 2);

    // `load`: the whole file.
    try {
        check_collection(itrt::read_data_bytes(path, file, codec, expect), codec, expect);
    } catch (const itrt::DataFileError& e) {
        check_message(path, e);
    }

    // bind_input of a binary Array: the layout, then the content size, before any allocation.
    if (binary && expect.kind == itrt::Collection::array) {
        try {
            itrt::FileLayout L = itrt::scan_layout(
                path, file.size(), [&](uint64_t off, uint64_t len) { return file.substr(off, len); }, expect);
            itrt::check_binary_content(path, L, codec.binary_size(), codec.type_name());
            if (L.shape.size() != static_cast<size_t>(expect.rank) && expect.rank >= 0)
                bug("scan_layout accepted an Array of another dimensionality");
        } catch (const itrt::DataFileError& e) {
            check_message(path, e);
        }
    }
    return 0;
}
