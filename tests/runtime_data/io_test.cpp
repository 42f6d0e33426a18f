// Data file tests (§13): exact writer output for the manual's examples, round trips of every
// collection type in both encodings and for every element codec, and malformed files, each
// checked for its exact message.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "runtime/data/data_error.h"
#include "runtime/data/io/data_file.h"

namespace itrt {
namespace {

namespace fs = std::filesystem;

class DataFileTest : public ::testing::Test {
public:
    void SetUp() override {
        dir_ = fs::path(ITRT_TEST_TMPDIR) / ::testing::UnitTest::GetInstance()->current_test_info()->name();
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    std::string path(const std::string& name) const { return (dir_ / name).string(); }
    std::string put(const std::string& name, const std::string& bytes) const {
        std::ofstream(path(name), std::ios::binary) << bytes;
        return path(name);
    }
    static std::string slurp(const std::string& p) { return read_whole_file(p); }
    // Runs a read expected to fail and returns the message with the directory prefix removed.
    std::string error_of(const std::string& name, const std::string& bytes, const FileExpectation& e,
                         const ElementCodec& codec = integer_codec()) const {
        put(name, bytes);
        try {
            read_data_file(path(name), codec, e);
        } catch (const DataFileError& err) {
            std::string m = err.what();
            std::string prefix = dir_.string() + "/";
            if (m.rfind(prefix, 0) == 0)
                m = m.substr(prefix.size());
            return m;
        }
        return "(no error)";
    }
    fs::path dir_;
};

FileExpectation array2d() { return {Collection::array, 2, {}}; }

TEST_F(DataFileTest, WritesManualExamplesExactly) {
    write_data_file(path("a.txt"), integer_codec(),
                    DataCollection::array(ElementBlock::of<int32_t>({2, 3}, {4, 0, -7, 12, 5, 5})));
    EXPECT_EQ(slurp(path("a.txt")), "Array\n4 0 -7\n12 5 5\n2*3\n");
    write_data_file(path("la.txt"), integer_codec(),
                    DataCollection::list_of_arrays(
                        {ElementBlock::of<int32_t>({2}, {1, 2}), ElementBlock::of<int32_t>({3}, {7, 8, 9})}));
    EXPECT_EQ(slurp(path("la.txt")), "List of Arrays\n1 2\n7 8 9\n0:2 2:3\n2\n");
    write_data_file(path("al.txt"), integer_codec(),
                    DataCollection::array_of_lists(
                        {1, 2}, {ElementBlock::of<int32_t>({3}, {4, 4, 1}), ElementBlock::of<int32_t>({1}, {9})}));
    EXPECT_EQ(slurp(path("al.txt")), "Array of Lists\n4 4 1\n9\n0:3 3:1\n1*2\n");
    write_data_file(path("l.bin"), integer_codec(), DataCollection::list(ElementBlock::of<int32_t>({2}, {5, -1})));
    const unsigned char want[] = {0x4C, 0x69, 0x73, 0x74, 0x0A, 0x05, 0x00, 0x00,
                                  0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0x0A, 0x32, 0x0A};
    EXPECT_EQ(slurp(path("l.bin")), std::string(reinterpret_cast<const char*>(want), sizeof want));
    // No temporary file is left behind.
    int files = 0;
    for (const auto& e : fs::directory_iterator(dir_))
        files += e.path().filename().string()[0] != '.';
    EXPECT_EQ(files, 4);
    for (const auto& e : fs::directory_iterator(dir_))
        EXPECT_EQ(e.path().extension() == ".tmp", false) << e.path();
}

TEST_F(DataFileTest, ReadsManualExamples) {
    put("a.txt", "Array\n4 0 -7\n12 5 5\n2*3\n");
    auto a = read_data_file(path("a.txt"), integer_codec(), array2d());
    EXPECT_EQ(a.shape, (std::vector<int64_t>{2, 3}));
    EXPECT_EQ(a.items[0].values<int32_t>(), (std::vector<int32_t>{4, 0, -7, 12, 5, 5}));
    put("la.txt", "List of Arrays\n1 2\n7 8 9\n0:2 2:3\n2\n");
    auto la = read_data_file(path("la.txt"), integer_codec(), {Collection::list_of_arrays, 1, {}});
    ASSERT_EQ(la.items.size(), 2u);
    EXPECT_EQ(la.items[1].lengths, (std::vector<int64_t>{3}));
    EXPECT_EQ(la.items[1].values<int32_t>(), (std::vector<int32_t>{7, 8, 9}));
    put("al.txt", "Array of Lists\r\n4 4 1\n9\n0:3 3:1\n1*2\n"); // CR LF header accepted
    auto al = read_data_file(path("al.txt"), integer_codec(), {Collection::array_of_lists, 2, {}});
    EXPECT_EQ(al.shape, (std::vector<int64_t>{1, 2}));
    EXPECT_EQ(al.items[0].values<int32_t>(), (std::vector<int32_t>{4, 4, 1}));
    EXPECT_EQ(al.items[1].values<int32_t>(), (std::vector<int32_t>{9}));
    put("l.txt",
        "  List  \n5\t-1\n\n2\n"); // blanks around the header, any whitespace between elements
    EXPECT_EQ(read_data_file(path("l.txt"), integer_codec(), {Collection::list, -1, {}}).items[0].values<int32_t>(),
              (std::vector<int32_t>{5, -1}));
}

TEST_F(DataFileTest, TextEncodingsOfEveryElementType) {
    put("b.txt", "List\n1 0 TRUE FALSE\n4\n");
    auto b = read_data_file(path("b.txt"), bool_codec(), {Collection::list, -1, {}});
    EXPECT_EQ(b.items[0].values<uint8_t>(), (std::vector<uint8_t>{1, 0, 1, 0}));
    write_data_file(path("b.bin"), bool_codec(), b);
    EXPECT_EQ(slurp(path("b.bin")), std::string("List\n\x01\x00\x01\x00\n4\n", 12));
    EXPECT_EQ(read_data_file(path("b.bin"), bool_codec(), {Collection::list, -1, {}}).items[0].bytes, b.items[0].bytes);
    put("r.txt", "List\n3e-4 -2.5 7\n3\n");
    EXPECT_EQ(read_data_file(path("r.txt"), double_codec(), {Collection::list, -1, {}}).items[0].values<double>(),
              (std::vector<double>{3e-4, -2.5, 7}));
    put("c.txt", "List\n65 0 255\n3\n");
    EXPECT_EQ(read_data_file(path("c.txt"), char_codec(), {Collection::list, -1, {}}).items[0].values<char>(),
              (std::vector<char>{'A', '\0', static_cast<char>(255)}));
    put("s.txt", "List\n\"two words\" \"\"\n2\n");
    auto s = read_data_file(path("s.txt"), string_codec(), {Collection::list, -1, {}}).items[0].values<FixedString>();
    EXPECT_EQ(s[0].view(), "two words");
    EXPECT_EQ(s[1].view(), "");
    put("g.txt", "Array\n1 5 -3 0\n2\n");
    auto g = read_data_file(path("g.txt"), range_codec(), {Collection::array, 1, {}}).items[0].values<RangeValue>();
    EXPECT_EQ(g[1], (RangeValue{-3, 0}));
    // Reals are written with at most 9 / 17 significant digits and read back exactly.
    write_data_file(path("f.txt"), float_codec(), DataCollection::list(ElementBlock::of<float>({2}, {0.1f, 1e-30f})));
    EXPECT_EQ(slurp(path("f.txt")), "List\n0.1 1e-30\n2\n");
}

struct Sensor {
    float position[2];
    int32_t id;
    FixedString label;
    bool active;
};

const StructCodec& sensor_codec() {
    static const StructCodec c("Sensor", sizeof(Sensor),
                               {{offsetof(Sensor, position), &float_codec(), 2},
                                {offsetof(Sensor, id), &integer_codec(), 1},
                                {offsetof(Sensor, label), &string_codec(), 1},
                                {offsetof(Sensor, active), &bool_codec(), 1}});
    return c;
}

TEST_F(DataFileTest, StructFieldsInDeclarationOrder) {
    std::vector<Sensor> v(2);
    v[0] = {{1.5f, -2}, 7, FixedString::of("north gate"), true};
    v[1] = {{0, 3.25f}, -1, FixedString::of(""), false};
    write_data_file(path("s.txt"), sensor_codec(), DataCollection::list(ElementBlock::of<Sensor>({2}, v)));
    EXPECT_EQ(slurp(path("s.txt")), "List\n1.5 -2 7 \"north gate\" 1 0 3.25 -1 \"\" 0\n2\n");
    write_data_file(path("s.bin"), sensor_codec(), DataCollection::list(ElementBlock::of<Sensor>({2}, v)));
    EXPECT_EQ(sensor_codec().binary_size(), 4u + 4 + 4 + 256 + 1);
    EXPECT_EQ(fs::file_size(path("s.bin")), 5 + 2 * 269 + 1 + 2u);
    for (const char* name : {"s.txt", "s.bin"}) {
        auto r = read_data_file(path(name), sensor_codec(), {Collection::list, -1, {}}).items[0].values<Sensor>();
        ASSERT_EQ(r.size(), 2u) << name;
        EXPECT_EQ(r[0].position[1], -2.0f);
        EXPECT_EQ(r[0].id, 7);
        EXPECT_EQ(r[0].label.view(), "north gate");
        EXPECT_TRUE(r[0].active);
        EXPECT_EQ(r[1].position[1], 3.25f);
        EXPECT_EQ(r[1].id, -1);
        EXPECT_FALSE(r[1].active);
    }
}

// Random values for a round trip, per codec.
template <class T> std::vector<T> random_values(std::mt19937& g, int64_t n);
template <> std::vector<int32_t> random_values(std::mt19937& g, int64_t n) {
    std::vector<int32_t> v(n);
    for (auto& x : v)
        x = static_cast<int32_t>(g());
    return v;
}
template <> std::vector<double> random_values(std::mt19937& g, int64_t n) {
    std::vector<double> v(n);
    std::uniform_real_distribution<double> d(-1e6, 1e6);
    for (auto& x : v)
        x = d(g) / 3.0;
    return v;
}
template <> std::vector<float> random_values(std::mt19937& g, int64_t n) {
    std::vector<float> v(n);
    std::uniform_real_distribution<float> d(-1e3f, 1e3f);
    for (auto& x : v)
        x = d(g) / 7.0f;
    return v;
}
template <> std::vector<char> random_values(std::mt19937& g, int64_t n) {
    std::vector<char> v(n);
    for (auto& x : v)
        x = static_cast<char>(g() & 0xff);
    return v;
}
template <> std::vector<FixedString> random_values(std::mt19937& g, int64_t n) {
    std::vector<FixedString> v(n);
    for (auto& x : v) {
        std::string s;
        static const std::string alphabet = "abcXYZ019 .,;:!?-_'()[]";
        for (unsigned i = 0, len = g() % 12; i < len; ++i)
            s += alphabet[g() % alphabet.size()];
        x = FixedString::of(s);
    }
    return v;
}
template <> std::vector<RangeValue> random_values(std::mt19937& g, int64_t n) {
    std::vector<RangeValue> v(n);
    for (auto& x : v)
        x = {static_cast<int32_t>(g() % 2000) - 1000, static_cast<int32_t>(g() % 2000) - 1000};
    return v;
}

template <class T> bool same(const ElementBlock& a, const ElementBlock& b) {
    return a.lengths == b.lengths && a.bytes == b.bytes;
}

// Round trip of all four collection types in both encodings.
template <class T>
void round_trip(const DataFileTest& t, const std::string& stem, const ElementCodec& codec, uint32_t seed) {
    std::mt19937 g(seed);
    auto block = [&](std::vector<int64_t> lengths) {
        int64_t n = 1;
        for (int64_t x : lengths)
            n *= x;
        return ElementBlock::of<T>(lengths, random_values<T>(g, n));
    };
    std::vector<std::pair<DataCollection, FileExpectation>> cases = {
        {DataCollection::array(block({3, 1, 4})), {Collection::array, 3, {3, 1, 4}}},
        {DataCollection::list(block({5})), {Collection::list, -1, {}}},
        {DataCollection::list(block({0})), {Collection::list, -1, {}}},
        {DataCollection::list_of_arrays({block({2, 2}), block({1, 3}), block({4, 1})}),
         {Collection::list_of_arrays, 2, {}}},
        {DataCollection::list_of_arrays({}), {Collection::list_of_arrays, 2, {}}},
        {DataCollection::array_of_lists({2, 2}, {block({3}), block({0}), block({1}), block({2})}),
         {Collection::array_of_lists, 2, {}}},
    };
    for (const char* ext : {".txt", ".bin"}) {
        for (size_t i = 0; i < cases.size(); ++i) {
            std::string p = t.path(stem + std::to_string(i) + ext);
            write_data_file(p, codec, cases[i].first);
            DataCollection back = read_data_file(p, codec, cases[i].second);
            SCOPED_TRACE(p);
            EXPECT_EQ(back.kind, cases[i].first.kind);
            EXPECT_EQ(back.shape, cases[i].first.shape);
            ASSERT_EQ(back.items.size(), cases[i].first.items.size());
            for (size_t k = 0; k < back.items.size(); ++k)
                EXPECT_TRUE(same<T>(back.items[k], cases[i].first.items[k])) << k;
        }
    }
}

TEST_F(DataFileTest, RoundTripsEveryCollectionTypeAndEncoding) {
    std::cout << "[ seed ] DataFileTest.RoundTrips seeds=1..6\n";
    round_trip<int32_t>(*this, "int", integer_codec(), 1);
    round_trip<float>(*this, "float", float_codec(), 2);
    round_trip<double>(*this, "double", double_codec(), 3);
    round_trip<char>(*this, "char", char_codec(), 4);
    round_trip<FixedString>(*this, "string", string_codec(), 5);
    round_trip<RangeValue>(*this, "range", range_codec(), 6);
}

// ---- Malformed files: each message is checked exactly. ----

TEST_F(DataFileTest, ErrorUnknownExtension) {
    EXPECT_EQ(error_of("data.csv", "Array\n1\n1\n", array2d()),
              "data.csv: unknown data file extension `.csv` (expected `.txt` or `.bin`)");
}
TEST_F(DataFileTest, ErrorMissingFile) {
    try {
        read_data_file(path("nope.txt"), integer_codec(), array2d());
        FAIL();
    } catch (const DataFileError& e) {
        EXPECT_EQ(std::string(e.what()), path("nope.txt") + ": cannot open for reading: No such file or directory");
    }
}
TEST_F(DataFileTest, ErrorEmptyFile) {
    EXPECT_EQ(error_of("data.txt", "", array2d()),
              "data.txt: line 1: expected a header (`Array`, `List`, `Array of Lists` or `List of "
              "Arrays`), found an empty file");
}
TEST_F(DataFileTest, ErrorUnknownHeader) {
    EXPECT_EQ(error_of("data.txt", "array\n1 2\n2\n", array2d()),
              "data.txt: line 1: expected a header (`Array`, `List`, `Array of Lists` or `List of "
              "Arrays`), found `array`");
}
TEST_F(DataFileTest, ErrorByteOrderMark) {
    EXPECT_EQ(error_of("data.txt",
                       "\xEF\xBB\xBF"
                       "Array\n1 2\n2\n",
                       array2d()),
              "data.txt: line 1: the file starts with a UTF-8 byte-order mark, which some editors write; save it "
              "without one (data files are ASCII)");
}
TEST_F(DataFileTest, ErrorWrongHeaderForProgram) {
    EXPECT_EQ(error_of("data.txt", "List\n1 2\n2\n", array2d()),
              "data.txt: line 1: expected header `Array`, found `List`");
}
TEST_F(DataFileTest, ErrorWrongElementCountText) {
    EXPECT_EQ(error_of("data.txt", "Array\n4 0 -7\n12 5\n2*3\n", array2d()),
              "data.txt: line 4: expected 6 elements for a 2*3 Array, found 5");
    EXPECT_EQ(error_of("data.txt", "Array\n4 0 -7 12 5\n2*3\n", array2d()),
              "data.txt: line 3: expected 6 elements for a 2*3 Array, found 5");
}
TEST_F(DataFileTest, ErrorPartialRangeValues) {
    EXPECT_EQ(error_of("data.txt", "List\n1 2 3\n2\n", {Collection::list, -1, {}}, range_codec()),
              "data.txt: line 3: expected 2 elements (4 values) for a List of length 2 of Range, "
              "found 3 values");
    // Four numbers for one Range: counted in values, not as "found 2" (probe AR)
    EXPECT_EQ(error_of("data.txt", "List\n1 2 3 4\n1\n", {Collection::list, -1, {}}, range_codec()),
              "data.txt: line 3: expected 1 element (2 values) for a List of length 1 of Range, "
              "found 4 values");
}
TEST_F(DataFileTest, ErrorBadElementText) {
    EXPECT_EQ(error_of("data.txt", "Array\n1 2\n3 x4\n2*2\n", array2d()),
              "data.txt: line 3: expected an Integer, found `x4`");
    EXPECT_EQ(error_of("data.txt", "List\n1 0 yes\n3\n", {Collection::list, -1, {}}, bool_codec()),
              "data.txt: line 2: expected a Boolean (1, 0, TRUE or FALSE), found `yes`");
    EXPECT_EQ(error_of("data.txt", "List\n256\n1\n", {Collection::list, -1, {}}, char_codec()),
              "data.txt: line 2: expected a Character code 0..255, found `256`");
}
TEST_F(DataFileTest, ErrorUnterminatedString) {
    EXPECT_EQ(error_of("data.txt", "List\n\"abc\n\"d\"\n2\n", {Collection::list, -1, {}}, string_codec()),
              "data.txt: line 2: expected a closing `\"` for the String starting here, found the end of "
              "the line");
}
TEST_F(DataFileTest, ErrorBadShapeLine) {
    EXPECT_EQ(error_of("data.txt", "Array\n1 2 3 4 5 6\n2x3\n", array2d()),
              "data.txt: line 3: expected dimension lengths like `2*3`, found `2x3`");
    EXPECT_EQ(error_of("data.txt", "Array\n1\n0*1\n", array2d()),
              "data.txt: line 3: dimension lengths must be at least 1, found `0*1` (an array file holds at least one "
              "element)");
}
TEST_F(DataFileTest, ErrorDimensionalityMismatch) {
    EXPECT_EQ(error_of("data.txt", "Array\n1 2 3 4 5 6\n1*2*3\n", array2d()),
              "data.txt: line 3: expected 2-dimensional Array, found 3 dimensions `1*2*3`");
}
TEST_F(DataFileTest, ErrorLengthsDisagreeWithProgram) {
    EXPECT_EQ(error_of("data.txt", "Array\n1 2 3 4 5 6\n2*3\n", {Collection::array, 2, {3, 2}}),
              "data.txt: line 3: expected dimension lengths 3*2 (as the program's array), found 2*3");
}
TEST_F(DataFileTest, ErrorBadListLength) {
    EXPECT_EQ(error_of("data.txt", "List\n1 2\n-2\n", {Collection::list, -1, {}}),
              "data.txt: line 3: expected the list length as a non-negative integer, found `-2`");
}
// A text file whose last line has no LF (as editors often save it) reads as if it had one; a
// binary file without its final LF was cut short.
TEST_F(DataFileTest, TextWithoutFinalLf) {
    put("a.txt", "Array\n1 2\n3 4\n2*2");
    auto a = read_data_file(path("a.txt"), integer_codec(), array2d());
    EXPECT_EQ(a.shape, (std::vector<int64_t>{2, 2}));
    EXPECT_EQ(a.items[0].values<int32_t>(), (std::vector<int32_t>{1, 2, 3, 4}));
    put("la.txt", "List of Arrays\n1 2\n7 8 9\n0:2 2:3\n2");
    auto la = read_data_file(path("la.txt"), integer_codec(), {Collection::list_of_arrays, 1, {}});
    ASSERT_EQ(la.items.size(), 2u);
    EXPECT_EQ(la.items[1].values<int32_t>(), (std::vector<int32_t>{7, 8, 9}));
    EXPECT_EQ(error_of("cut.txt", "Array\n1 2\n3 4\n2*", array2d()).find("cut.txt: line 4:"), 0u);
}
TEST_F(DataFileTest, ErrorNoFinalLfBinary) {
    std::string bytes = "Array\n";
    const int32_t two[2] = {1, 2};
    bytes.append(reinterpret_cast<const char*>(two), sizeof two);
    bytes += "\n1*2";
    EXPECT_EQ(error_of("data.bin", bytes, array2d()),
              "data.bin: the file does not end with LF, so its trailer is missing or truncated");
}
TEST_F(DataFileTest, ErrorMissingTrailerLines) {
    EXPECT_EQ(error_of("data.txt", "List of Arrays\n2\n", {Collection::list_of_arrays, 1, {}}),
              "data.txt: expected 2 trailer lines after the content of `List of Arrays`, found 1");
}
TEST_F(DataFileTest, ErrorNonContiguousOffsets) {
    // Appendix B's mistake (E-19): 110 where 109 belongs.
    std::string content(109 + 500000, ' ');
    EXPECT_EQ(error_of("data.txt", "List of Arrays\n1\n0:10*10 100:3*3 110:100*5000\n3\n",
                       {Collection::list_of_arrays, 2, {}}),
              "data.txt: line 3: directory entry 3 `110:100*5000` has offset 110, expected 109 "
              "(offsets must be contiguous)");
    EXPECT_EQ(error_of("data.txt", "Array of Lists\n1 2 3\n1:3\n1\n", {Collection::array_of_lists, 1, {}}),
              "data.txt: line 3: directory entry 1 `1:3` has offset 1, expected 0 (offsets must be "
              "contiguous)");
}
TEST_F(DataFileTest, ErrorDirectoryEntryCountAndSyntax) {
    EXPECT_EQ(error_of("data.txt", "Array of Lists\n4 4 1 9\n0:3 3:1\n1*3\n", {Collection::array_of_lists, 2, {}}),
              "data.txt: line 3: expected 3 directory entries for a 1*3 Array of Lists, found 2");
    EXPECT_EQ(error_of("data.txt", "List of Arrays\n1 2\n0-2\n1\n", {Collection::list_of_arrays, 1, {}}),
              "data.txt: line 3: expected directory entry 1 as `offset:d1*...*dn`, found `0-2`");
    EXPECT_EQ(error_of("data.txt", "List of Arrays\n1 2 3\n0:2  2:1\n2\n", {Collection::list_of_arrays, 1, {}}),
              "data.txt: line 3: expected directory entries separated by single spaces, found `0:2 "
              " 2:1`");
    EXPECT_EQ(error_of("data.txt", "List of Arrays\n1 2\n0:1*2\n1\n", {Collection::list_of_arrays, 1, {}}),
              "data.txt: line 3: expected directory entry 1 to be a 1-dimensional Array, found `0:1*2`");
}
TEST_F(DataFileTest, ErrorBinarySizeMismatch) {
    std::string bin = "Array\n" + std::string(20, '\x01') + "\n2*3\n";
    EXPECT_EQ(error_of("data.bin", bin, array2d()),
              "data.bin: expected 24 content bytes for a 2*3 Array of Integer (6 elements of 4 "
              "bytes), found 20");
}
TEST_F(DataFileTest, ErrorBinaryMissingSeparator) {
    EXPECT_EQ(error_of("data.bin", "List\n0\n", {Collection::list, -1, {}}),
              "data.bin: expected an LF byte between the content and the trailer, found none");
}
TEST_F(DataFileTest, ErrorBinaryTrailerWording) {
    std::string bin = "Array\n" + std::string(8, '\x02') + "\n2\n";
    EXPECT_EQ(error_of("data.bin", bin, array2d()),
              "data.bin: last trailer line: expected 2-dimensional Array, found 1 dimension `2`");
}

TEST_F(DataFileTest, ErrorStringNotWritableAsText) {
    try {
        write_data_file(path("s.txt"), string_codec(),
                        DataCollection::list(ElementBlock::of<FixedString>({1}, {FixedString::of("say \"hi\"")})));
        FAIL();
    } catch (const DataFileError& e) {
        EXPECT_EQ(std::string(e.what()),
                  path("s.txt") + ": cannot write the String `say \"hi\"` as text: it contains `\"`");
    }
    EXPECT_FALSE(fs::exists(path("s.txt")));
}

TEST_F(DataFileTest, FailedWriteLeavesNoFileUnderFinalName) {
    std::string p = path("missing-dir/out.txt");
    EXPECT_THROW(write_data_file(p, integer_codec(), DataCollection::list(ElementBlock::of<int32_t>({1}, {1}))),
                 DataFileError);
    EXPECT_FALSE(fs::exists(p));
    EXPECT_THROW(
        write_data_file(path("out.dat"), integer_codec(), DataCollection::list(ElementBlock::of<int32_t>({1}, {1}))),
        DataFileError);
    EXPECT_TRUE(fs::is_empty(dir_));
}

TEST_F(DataFileTest, ErrorNestedElementCount) {
    EXPECT_EQ(error_of("data.txt", "List of Arrays\n1 2\n0:2 2:3\n2\n", {Collection::list_of_arrays, 1, {}}),
              "data.txt: line 4: expected 5 elements for a List of 2 Arrays, found 2");
    std::string bin = "Array of Lists\n" + std::string(12, '\x00') + "\n0:3 3:1\n1*2\n";
    EXPECT_EQ(error_of("data.bin", bin, {Collection::array_of_lists, 2, {}}),
              "data.bin: expected 16 content bytes for a 1*2 Array of Lists of Integer (4 elements "
              "of 4 bytes), found 12");
}

// Hostile files: a trailer claiming more elements than the content can hold is refused before
// anything is allocated for them, and lengths whose product overflows 64 bits are no UB.
TEST_F(DataFileTest, ErrorClaimBeyondContent) {
    std::string bin = "Array\n" + std::string(8, '\x01') + "\n1000000000000\n";
    EXPECT_EQ(error_of("data.bin", bin, {Collection::array, 1, {}}),
              "data.bin: last trailer line: `1000000000000` claims more elements than the 8 "
              "content bytes can hold (the file is truncated or its trailer is wrong)");
    EXPECT_EQ(error_of("data.txt", "Array\n1\n99999999999*99999999999\n", array2d()),
              "data.txt: line 3: `99999999999*99999999999` claims more elements than the 1 content "
              "byte can hold (the file is truncated or its trailer is wrong)");
    EXPECT_EQ(error_of("data.txt", "Array\n1 2 3\n1000000000000\n", {Collection::array, 1, {}}),
              "data.txt: line 3: expected 1000000000000 elements for a 1000000000000-element Array, found 3");
    std::string list = "List of Arrays\n" + std::string(4, '\x00') + "\n0:1000000*1000000\n1\n";
    EXPECT_EQ(error_of("data.bin", list, {Collection::list_of_arrays, 2, {}}),
              "data.bin: directory line: `0:1000000*1000000` claims more elements than the 4 content "
              "bytes can hold (the file is truncated or its trailer is wrong)");
    EXPECT_EQ(error_of("data.txt", "Array of Lists\n1\n0:1\n1000000*1000000\n", {Collection::array_of_lists, 2, {}}),
              "data.txt: line 4: `1000000*1000000` claims more collections than the directory "
              "line's 1 entry describe");
}

TEST_F(DataFileTest, ErrorNotARegularFile) {
    fs::create_directories(path("dir.txt"));
    try {
        read_data_file(path("dir.txt"), integer_codec(), array2d());
        FAIL();
    } catch (const DataFileError& e) {
        EXPECT_EQ(std::string(e.what()), path("dir.txt") + ": is a directory, expected a data file");
    }
    ASSERT_EQ(::mkfifo(path("pipe.bin").c_str(), 0600), 0);
    try {
        read_data_file(path("pipe.bin"), integer_codec(), array2d()); // would block if opened
        FAIL();
    } catch (const DataFileError& e) {
        EXPECT_EQ(std::string(e.what()), path("pipe.bin") + ": is a FIFO (named pipe), expected a regular data file");
    }
}

// A NaN or an infinity written to a text file reads back as itself (as from a binary file).
TEST_F(DataFileTest, NonFiniteRealsRoundTripThroughText) {
    const FileExpectation list{Collection::list, -1, {}};
    const double values[] = {1.0, std::numeric_limits<double>::quiet_NaN(), -std::numeric_limits<double>::infinity(),
                             -std::numeric_limits<double>::quiet_NaN()};
    ElementBlock b;
    b.lengths = {4};
    b.bytes.resize(sizeof values);
    std::memcpy(b.bytes.data(), values, sizeof values);
    write_data_file(path("nan.txt"), double_codec(), DataCollection::list(b));
    const DataCollection back = read_data_file(path("nan.txt"), double_codec(), list);
    double got[4];
    ASSERT_EQ(back.items[0].bytes.size(), sizeof got);
    std::memcpy(got, back.items[0].bytes.data(), sizeof got);
    EXPECT_EQ(got[0], 1.0);
    EXPECT_TRUE(std::isnan(got[1]));
    EXPECT_TRUE(std::isinf(got[2]) && got[2] < 0);
    EXPECT_TRUE(std::isnan(got[3]));
}

TEST_F(DataFileTest, ErrorNumbersOutOfRange) {
    const FileExpectation list{Collection::list, -1, {}};
    EXPECT_EQ(error_of("data.txt", "List\n1e999\n1\n", list, double_codec()),
              "data.txt: line 2: expected a Real double-precision (magnitude at most "
              "1.7976931348623157e+308), found `1e999`, which is out of range");
    EXPECT_EQ(error_of("data.txt", "List\n2147483648\n1\n", list),
              "data.txt: line 2: expected an Integer (-2147483648..2147483647), found "
              "`2147483648`, which is out of range");
    EXPECT_EQ(error_of("data.txt", "List\n0 -99999999999\n1\n", list, range_codec()),
              "data.txt: line 2: expected the Integer `max` of a Range (-2147483648..2147483647), "
              "found `-99999999999`, which is out of range");
}

// A value too small for the type underflows to the nearest one (0 or a subnormal), as arithmetic
// rounds; only one too large is an error.
TEST_F(DataFileTest, RealsTooSmallUnderflow) {
    const FileExpectation list{Collection::list, -1, {}};
    // The values of a text List file of reals of type T.
    auto reals = [&]<class T>(const std::string& name, const std::string& text, const ElementCodec& codec, T) {
        put(name, text);
        const DataCollection c = read_data_file(path(name), codec, list);
        std::vector<T> v(c.items[0].bytes.size() / sizeof(T));
        std::memcpy(v.data(), c.items[0].bytes.data(), v.size() * sizeof(T));
        return v;
    };
    EXPECT_EQ(reals("under.txt", "List\n1e-400 4.9e-324 -1e-50 2.5\n4\n", double_codec(), 0.0),
              (std::vector<double>{0.0, std::numeric_limits<double>::denorm_min(), -1e-50, 2.5}));
    EXPECT_EQ(reals("underf.txt", "List\n7e-46 1e-40\n2\n", float_codec(), 0.0f),
              (std::vector<float>{0.0f, 1e-40f})); // 1e-40 is a subnormal float
    EXPECT_EQ(error_of("data.txt", "List\n1e39\n1\n", list, float_codec()),
              "data.txt: line 2: expected a Real single-precision (magnitude at most 3.4028235e+38), found "
              "`1e39`, which is out of range");
}

TEST_F(DataFileTest, ArraysReadBackGetRangesFromZero) {
    write_data_file(path("a.bin"), integer_codec(),
                    DataCollection::array(ElementBlock::of<int32_t>({2, 3}, {1, 2, 3, 4, 5, 6})));
    auto d = read_data_file(path("a.bin"), integer_codec(), array2d());
    EXPECT_EQ(ranges_from_file(d.shape), (std::vector<DimRange>{{0, 1}, {0, 2}}));
}

} // namespace
} // namespace itrt
