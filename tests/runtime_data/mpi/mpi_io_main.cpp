// Array file I/O test, run by ctest under `mpirun -np 1` (the POSIX path), `-np 2` and `-np 4`
// (MPI-IO): block-partitioned (and block-strided) 2-D arrays written part-wise and read back
// sequentially, and the reverse;
// malformed files fail identically on every rank. A SIGALRM watchdog turns a hang into a failure.
#include <mpi.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "runtime/data/data_error.h"
#include "runtime/data/io/data_file.h"
#include "runtime/data/io/mpi_array_io.h"
#include "runtime/data/space_config.h"

namespace {

using namespace itrt;
namespace fs = std::filesystem;

int g_rank = 0, g_size = 1, g_failures = 0;

#define CHECK(cond, ...)                                                                                   \
    do {                                                                                                   \
        if (!(cond)) {                                                                                     \
            ++g_failures;                                                                                  \
            std::fprintf(stderr, "rank %d: %s:%d: check failed: %s: ", g_rank, __FILE__, __LINE__, #cond); \
            std::fprintf(stderr, __VA_ARGS__);                                                             \
            std::fprintf(stderr, "\n");                                                                    \
        }                                                                                                  \
    } while (0)

double value_at(int64_t i, int64_t j, int salt) { return salt * 1000.0 + i * 37.0 + j * 0.5; }

struct Layout {
    std::vector<DimRange> ranges;
    ArrayConfig config;
    std::vector<int64_t> counts;
    std::vector<Part> parts; // the parts of this rank (LPUs dealt round-robin)
};

// `other` (optional) is a second array of the space that splits the dimensions `config` replicates.
// With `all_replicas` false only the primary replica of each shared part is kept.
Layout make_layout(std::vector<DimRange> ranges, ArrayConfig config, const ArrayConfig* other = nullptr,
                   std::vector<DimRange> other_ranges = {}, bool all_replicas = false) {
    Layout L{std::move(ranges), std::move(config), {}, {}};
    Part root = Part::whole(L.ranges);
    if (other) {
        L.counts = lpu_counts(2, {L.config, *other}, {root, Part::whole(other_ranges)});
    } else {
        L.counts = lpu_counts(2, {L.config}, {root});
    }
    auto coords = grid_coordinates(L.counts);
    for (size_t i = 0; i < coords.size(); ++i)
        if (static_cast<int>(i % g_size) == g_rank && (all_replicas || primary_replica(L.config, coords[i])))
            L.parts.push_back(lpu_part(root, L.config, coords[i]));
    return L;
}

// Calls f(g, local offset) for every held element g (two global indices) of a 2-D part.
template <class F> void for_each_held(const Part& p, F f) {
    for (int64_t a = 0; a < p.held(0).size(); ++a)
        for (int64_t b = 0; b < p.held(1).size(); ++b) {
            const int64_t g[] = {p.held(0).at(a), p.held(1).at(b)};
            f(g, *p.local_offset(g));
        }
}

// Fills held storage: owned elements get the reference value, padding gets garbage.
std::vector<std::vector<double>> fill(const Layout& L, int salt) {
    std::vector<std::vector<double>> st;
    for (const Part& p : L.parts) {
        std::vector<double> s(p.element_count(), -999.0);
        for_each_held(p, [&](const auto& g, int64_t at) {
            if (p.owns(g))
                s[at] = value_at(g[0], g[1], salt);
        });
        st.push_back(std::move(s));
    }
    return st;
}

void replicas_must_not_be_written_twice(const std::string& dir) {
    ArrayConfig v{"v", {DimInstruction::replicate(), DimInstruction::split(0, {PartitionFn::block_count, 2})}};
    ArrayConfig m{"m", {DimInstruction::split(0, {PartitionFn::block_count, 2}), DimInstruction::replicate()}};
    Layout dup = make_layout({{0, 3}, {0, 1}}, m, &v, {{0, 5}}, /*all_replicas=*/true);
    auto storage = fill(dup, 7);
    std::vector<ConstLocalPart> parts;
    for (size_t i = 0; i < dup.parts.size(); ++i)
        parts.push_back({&dup.parts[i], storage[i].data()});
    std::string msg;
    try {
        write_array_parts(MPI_COMM_WORLD, dir + "/dup.bin", double_codec(), dup.ranges, parts);
    } catch (const DataFileError& e) {
        msg = e.what();
    }
    CHECK(msg == dir + "/dup.bin: internal error: the parts written cover 16 elements, but the 4*2 "
                       "array has 8 (each "
                       "element must be written by exactly one part)",
          "got `%s`", msg.c_str());
    CHECK(!fs::exists(dir + "/dup.bin"), "dup.bin exists after a failed write");
}

void write_then_read_sequentially(const std::string& dir, const Layout& L, int salt, const char* ext = ".bin") {
    const std::string path = dir + "/parts" + std::to_string(salt) + ext;
    auto storage = fill(L, salt);
    std::vector<ConstLocalPart> parts;
    for (size_t i = 0; i < L.parts.size(); ++i)
        parts.push_back({&L.parts[i], storage[i].data()});
    write_array_parts(MPI_COMM_WORLD, path, double_codec(), L.ranges, parts);
    int bad = 0;
    if (g_rank == 0) {
        auto d =
            read_data_file(path, double_codec(), {Collection::array, 2, {L.ranges[0].length(), L.ranges[1].length()}});
        auto v = d.items[0].values<double>();
        for (int64_t p = 0; p < L.ranges[0].length(); ++p)
            for (int64_t q = 0; q < L.ranges[1].length(); ++q) {
                double want = value_at(L.ranges[0].index_at(p), L.ranges[1].index_at(q), salt);
                double got = v[p * L.ranges[1].length() + q];
                if (got != want && bad++ < 5)
                    CHECK(got == want, "%s: position (%lld,%lld): %g != %g", path.c_str(), (long long)p, (long long)q,
                          got, want);
            }
        int leftovers = 0;
        for (const auto& e : fs::directory_iterator(dir))
            leftovers += e.path().extension() == ".tmp";
        CHECK(leftovers == 0, "%d temporary files left in %s", leftovers, dir.c_str());
    }
}

void write_sequentially_then_read_parts(const std::string& dir, const Layout& L, int salt, const char* ext = ".bin") {
    const std::string path = dir + "/seq" + std::to_string(salt) + ext;
    if (g_rank == 0) {
        std::vector<double> v;
        for (int64_t p = 0; p < L.ranges[0].length(); ++p)
            for (int64_t q = 0; q < L.ranges[1].length(); ++q)
                v.push_back(value_at(L.ranges[0].index_at(p), L.ranges[1].index_at(q), salt));
        write_data_file(
            path, double_codec(),
            DataCollection::array(ElementBlock::of<double>({L.ranges[0].length(), L.ranges[1].length()}, v)));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (std::string(ext) == ".bin") {
        auto shape = read_array_shape(MPI_COMM_WORLD, path, double_codec(), {Collection::array, 2, {}});
        CHECK(shape == (std::vector<int64_t>{L.ranges[0].length(), L.ranges[1].length()}), "shape");
    }
    std::vector<std::vector<double>> storage;
    std::vector<LocalPart> parts;
    for (const Part& p : L.parts)
        storage.emplace_back(p.element_count(), -1.0);
    for (size_t i = 0; i < L.parts.size(); ++i)
        parts.push_back({&L.parts[i], storage[i].data()});
    read_array_parts(MPI_COMM_WORLD, path, double_codec(), L.ranges, parts);
    int bad = 0;
    for (size_t k = 0; k < L.parts.size(); ++k) {
        const Part& p = L.parts[k];
        for_each_held(p, [&](const auto& g, int64_t at) {
            double got = storage[k][at], want = value_at(g[0], g[1], salt);
            if (got != want && bad++ < 5)
                CHECK(got == want, "held (%lld,%lld) of %s: %g != %g", (long long)g[0], (long long)g[1],
                      p.to_string().c_str(), got, want);
        });
    }
}

// A codec whose binary form is not its memory form (Boolean: one byte 0/1 per element) goes
// through the encode/decode buffers, on one rank (POSIX) as on several (MPI-IO).
void booleans_round_trip(const std::string& dir, const Layout& L) {
    const std::string path = dir + "/flags.bin";
    auto flag = [](int64_t i, int64_t j) { return (i * 7 + j * 3) % 5 < 2; };
    std::vector<std::unique_ptr<bool[]>> out, in;
    std::vector<ConstLocalPart> written;
    std::vector<LocalPart> read;
    for (const Part& p : L.parts) {
        out.emplace_back(new bool[p.element_count()]());
        in.emplace_back(new bool[p.element_count()]());
        for_each_held(p, [&](const auto& g, int64_t at) { out.back()[at] = flag(g[0], g[1]); });
        written.push_back({&p, out.back().get()});
        read.push_back({&p, in.back().get()});
    }
    write_array_parts(MPI_COMM_WORLD, path, bool_codec(), L.ranges, written);
    read_array_parts(MPI_COMM_WORLD, path, bool_codec(), L.ranges, read);
    int bad = 0;
    for (size_t k = 0; k < L.parts.size(); ++k) {
        for_each_held(L.parts[k], [&](const auto& g, int64_t at) {
            const bool got = in[k][at];
            if (got != flag(g[0], g[1]) && bad++ < 5)
                CHECK(got == flag(g[0], g[1]), "flag (%lld,%lld) read back as %d", (long long)g[0], (long long)g[1],
                      got);
        });
    }
}

void malformed_fails_everywhere(const std::string& dir) {
    const std::string path = dir + "/bad.bin";
    if (g_rank == 0) {
        std::FILE* f = std::fopen(path.c_str(), "wb");
        std::fputs("Array\n0123456789\n2*3\n", f);
        std::fclose(f);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    Layout L = make_layout({{0, 1}, {0, 2}}, {"a",
                                              {DimInstruction::split(0, {PartitionFn::block_count, 2}),
                                               DimInstruction::split(1, {PartitionFn::block_count, 1})}});
    std::vector<double> dummy(6);
    std::vector<LocalPart> parts;
    for (const Part& p : L.parts)
        parts.push_back({&p, dummy.data()});
    std::string msg;
    try {
        read_array_parts(MPI_COMM_WORLD, path, double_codec(), L.ranges, parts);
    } catch (const DataFileError& e) {
        msg = e.what();
    }
    const std::string want =
        path + ": expected 48 content bytes for a 2*3 Array of Real double-precision (6 elements of 8 bytes), found 10";
    CHECK(msg == want, "got `%s`", msg.c_str());
    msg.clear();
    try {
        write_array_parts(MPI_COMM_WORLD, dir + "/out.dat", double_codec(), L.ranges, {});
    } catch (const DataFileError& e) {
        msg = e.what();
    }
    CHECK(msg == dir + "/out.dat: unknown data file extension `.dat` (expected `.txt` or `.bin`)", "got `%s`",
          msg.c_str());
    msg.clear();
    try {
        read_array_parts(MPI_COMM_WORLD, dir + "/missing.txt", double_codec(), L.ranges, parts);
    } catch (const DataFileError& e) {
        msg = e.what();
    }
    CHECK(msg == dir + "/missing.txt: cannot open for reading: No such file or directory", "got `%s`", msg.c_str());
}

} // namespace

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
    signal(SIGALRM, [](int) {
        const char m[] = "runtime_data_mpi_io: watchdog expired (hang)\n";
        (void)!write(2, m, sizeof m - 1);
        _exit(3);
    });
    alarm(90);
    if (argc < 2) {
        std::fprintf(stderr, "usage: runtime_data_mpi_io <scratch dir>\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const std::string dir = argv[1];
    if (g_rank == 0) {
        fs::remove_all(dir);
        fs::create_directories(dir);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    try {
        auto split = [](int d, PartitionSpec s) { return DimInstruction::split(d, s); };
        // Block partition with padding, inverted first dimension, non-zero starts, uneven division.
        Layout blocks = make_layout(
            {{5, -6}, {2, 11}},
            {"a", {split(0, {PartitionFn::block_count, 3, 1, 1}), split(1, {PartitionFn::block_size, 4, 0, 2})}});
        // Block-strided rows and strided columns: non-contiguous parts.
        Layout strided = make_layout(
            {{0, 12}, {-3, 6}},
            {"b", {split(0, {PartitionFn::block_stride, 2, 0, 0, 3}), split(1, {PartitionFn::stride, 1, 0, 0, 2})}});
        // More LPUs than elements per rank and a rank without parts (np=4): 3x1 grid.
        Layout few = make_layout(
            {{0, 2}, {0, 4}}, {"c", {split(0, {PartitionFn::block_size, 1}), split(1, {PartitionFn::block_count, 1})}});
        // Rows split along space dimension 1, replicated along dimension 2 (split by another
        // array).
        ArrayConfig v{"v", {DimInstruction::replicate(), split(0, {PartitionFn::block_count, 3})}};
        Layout replicated = make_layout(
            {{3, -4}, {0, 4}}, {"m", {split(0, {PartitionFn::block_size, 3, 1, 0}), DimInstruction::replicate()}}, &v,
            {{0, 8}});
        Layout replicated_all = make_layout(
            {{3, -4}, {0, 4}}, {"m", {split(0, {PartitionFn::block_size, 3, 1, 0}), DimInstruction::replicate()}}, &v,
            {{0, 8}}, true);
        int salt = 1;
        write_then_read_sequentially(dir, replicated, 50);
        write_sequentially_then_read_parts(dir, replicated_all, 51);
        replicas_must_not_be_written_twice(dir);
        for (const Layout* L : {&blocks, &strided, &few}) {
            write_then_read_sequentially(dir, *L, salt);
            write_sequentially_then_read_parts(dir, *L, salt + 10);
            // Text files take the gather/broadcast path.
            write_then_read_sequentially(dir, *L, salt + 20, ".txt");
            write_sequentially_then_read_parts(dir, *L, salt + 30, ".txt");
            ++salt;
        }
        booleans_round_trip(dir, blocks);
        malformed_fails_everywhere(dir);
    } catch (const std::exception& e) {
        ++g_failures;
        std::fprintf(stderr, "rank %d: unexpected exception: %s\n", g_rank, e.what());
    }
    int total = 0;
    MPI_Allreduce(&g_failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (g_rank == 0)
        std::printf("runtime_data_mpi_io: %d ranks, %d failed checks\n", g_size, total);
    MPI_Finalize();
    return total == 0 ? 0 : 1;
}
