// Value generation for `itc data make`, mirroring tests/reference/make_input draw for draw.
#include "tools/itc/data_generate.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>
#include <vector>

namespace itc::data {
namespace {

// SplitMix64: a seed gives the same stream on every platform.
struct SplitMix64 {
    uint64_t state;
    uint64_t next() {
        uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    double unit() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }
};

const char* scalarName(ScalarKind k) {
    switch (k) {
    case ScalarKind::integer: return "Integer";
    case ScalarKind::real_single: return "Real single-precision";
    case ScalarKind::real_double: return "Real double-precision";
    case ScalarKind::character: return "Character (0 to 255)";
    case ScalarKind::boolean: return "Boolean";
    case ScalarKind::string: return "String";
    }
    return "";
}

// Generates the values of one leaf over one array or list (make_input's `generate`).
class PlaneGenerator {
public:
    PlaneGenerator(const GenerateOptions& o, SplitMix64& rng) : o_(o), rng_(rng) {}

    // `first` is the content position of the plane's first element (for `flat`).
    std::vector<double> values(const std::vector<int64_t>& dims, ScalarKind kind, int64_t first) {
        int64_t count = 1;
        for (int64_t n : dims)
            count *= n;
        const auto n = static_cast<std::size_t>(count);
        const int64_t rows = dims.empty() ? 1 : dims[0], cols = dims.size() >= 2 ? dims[1] : 1;
        const bool square = dims.size() == 2 && rows == cols;
        const bool integral = isIntegral(kind);
        const double defaultLo = kind == ScalarKind::character ? 'a' : 0.0;
        const double defaultHi = kind == ScalarKind::character ? 'z' : 1.0;
        // Booleans are fair coins whatever --lo and --hi say, so a class's range options need
        // not suit its Boolean fields.
        const bool coin = kind == ScalarKind::boolean;
        lo_ = coin ? 0.0 : o_.lo.value_or(defaultLo);
        hi_ = coin ? 1.0 : o_.hi.value_or(defaultHi);
        if (integral ? std::llround(hi_) < std::llround(lo_) : hi_ < lo_)
            throw GenerateError("--hi must not be below --lo");
        std::vector<double> v(n, 0.0);
        const std::string& k = o_.kind;
        auto need = [&](bool ok, const char* what) {
            if (!ok)
                throw GenerateError(fmt::format("--kind {} needs {}", k, what));
        };
        if (k == "uniform") {
            for (double& e : v)
                e = uniform(integral);
        } else if (k == "constant") {
            std::fill(v.begin(), v.end(), o_.value);
        } else if (k == "flat") {
            for (std::size_t i = 0; i < n; ++i)
                v[i] = o_.value + o_.coefA * static_cast<double>(first + static_cast<int64_t>(i));
        } else if (k == "linear") {
            need(dims.size() <= 2, "a 1d or 2d array or a list");
            for (int64_t i = 0; i < rows; ++i)
                for (int64_t j = 0; j < cols; ++j)
                    v[i * cols + j] = o_.value + o_.coefA * static_cast<double>(i) + o_.coefB * static_cast<double>(j);
        } else if (k == "identity") {
            need(dims.size() == 2, "2d arrays");
            for (int64_t i = 0; i < rows && i < cols; ++i)
                v[i * cols + i] = 1.0;
        } else if (k == "diagdom") {
            need(square, "square 2d arrays");
            for (double& e : v)
                e = uniform(integral);
            const double boost = static_cast<double>(rows) * std::max(std::fabs(lo_), std::fabs(hi_)) + 1.0;
            for (int64_t i = 0; i < rows; ++i)
                v[i * cols + i] += boost;
        } else if (k == "spd") {
            need(square, "square 2d arrays");
            std::vector<double> m(n);
            for (double& e : m)
                e = uniform(integral);
            for (int64_t i = 0; i < rows; ++i)
                for (int64_t j = 0; j < rows; ++j) {
                    double s = 0.0;
                    for (int64_t t = 0; t < rows; ++t)
                        s += m[i * rows + t] * m[j * rows + t];
                    v[i * rows + j] = s / static_cast<double>(rows) + (i == j ? 1.0 : 0.0);
                }
        } else {
            throw GenerateError(fmt::format("unknown --kind `{}` (kinds: {})", k, kGenerateKinds));
        }
        return v;
    }

    // A String of `uniform`: a word of 1 to 8 letters `a` to `z`, drawn from the same stream.
    std::string word() {
        std::string w(1 + rng_.next() % 8, 'a');
        for (char& c : w)
            c = static_cast<char>('a' + rng_.next() % 26);
        return w;
    }

private:
    double uniform(bool integral) {
        if (integral) {
            const long long lo = std::llround(lo_), hi = std::llround(hi_);
            const auto span = static_cast<uint64_t>(hi - lo) + 1;
            return static_cast<double>(lo + static_cast<long long>(rng_.next() % span));
        }
        return lo_ + (hi_ - lo_) * rng_.unit();
    }

    const GenerateOptions& o_;
    SplitMix64& rng_;
    double lo_ = 0.0, hi_ = 1.0;
};

} // namespace

itrt::DataCollection generate(const ElementType& type, const ShapeSpec& shape, const GenerateOptions& options) {
    SplitMix64 rng{options.seed};
    PlaneGenerator planes(options, rng);
    std::vector<itrt::ElementBlock> items;
    int64_t position = 0;
    for (const std::vector<int64_t>& lengths : shape.itemLengths) {
        itrt::ElementBlock block{lengths, {}};
        const int64_t count = block.count();
        // Zero bytes are valid elements of every codec: 0, 0.0, false, "" (FixedString).
        block.bytes.assign(static_cast<std::size_t>(count) * type.size(), std::byte{0});
        for (const Leaf& leaf : type.leaves()) {
            if (leaf.kind == ScalarKind::string) {
                // Words under `uniform`; under the other kinds the text of the Integer the kind
                // gives, so that `flat` numbers the elements ("0", "1", ...).
                const bool words = options.kind == "uniform";
                std::vector<double> v =
                    words ? std::vector<double>{} : planes.values(lengths, ScalarKind::integer, position);
                for (int64_t i = 0; i < count; ++i) {
                    const itrt::FixedString text = itrt::FixedString::of(
                        words ? planes.word() : fmt::format("{}", std::llround(v[static_cast<std::size_t>(i)])));
                    std::memcpy(block.bytes.data() + i * type.size() + leaf.offset, &text, sizeof text);
                }
                continue;
            }
            std::vector<double> v = planes.values(lengths, leaf.kind, position);
            for (int64_t i = 0; i < count; ++i)
                if (!setLeafValue(block.bytes.data() + i * type.size(), leaf, v[i]))
                    throw GenerateError(fmt::format("--kind {} gives {}, which does not fit {}{}", options.kind, v[i],
                                                    leaf.path.empty() ? "" : "field `" + leaf.path.substr(1) + "`, ",
                                                    scalarName(leaf.kind)));
        }
        position += count;
        items.push_back(std::move(block));
    }
    switch (shape.kind) {
    case itrt::Collection::array: return itrt::DataCollection::array(std::move(items.front()));
    case itrt::Collection::list: return itrt::DataCollection::list(std::move(items.front()));
    case itrt::Collection::list_of_arrays: return itrt::DataCollection::list_of_arrays(std::move(items));
    case itrt::Collection::array_of_lists: return itrt::DataCollection::array_of_lists(shape.shape, std::move(items));
    }
    return {};
}

} // namespace itc::data
