// Seeded values for `itc data make`. The kinds and the random stream are those of the test-only
// tests/reference/make_input (SplitMix64, the same draws in the same order), so for an Array or a
// List of int, float or double both tools write the same file for the same options.
#pragma once

#include "runtime/data/io/data_file.h"
#include "tools/itc/data_element_type.h"
#include "tools/itc/data_shape.h"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace itc::data {

struct GenerateOptions {
    std::string kind = "uniform";
    uint64_t seed = 1;
    std::optional<double> lo, hi; // default 0 and 1; 'a' and 'z' for Character scalars
    double value = 0.0;
    double coefA = 1.0, coefB = 0.0;
};

// The kinds, for usage messages and validation.
inline constexpr const char* kGenerateKinds = "uniform, constant, flat, linear, identity, diagdom, spd";

// A request that cannot be met: unknown kind, a kind the shape does not allow, a value that
// does not fit the element type. The message is a complete sentence.
class GenerateError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Makes the collection: every array or list of the shape, and in it every scalar of every
// element. A class's scalars are generated one leaf at a time, each as if it were a whole array
// of its own, so `identity` gives identity matrices in every numeric field. String leaves are
// left empty.
itrt::DataCollection generate(const ElementType& type, const ShapeSpec& shape, const GenerateOptions& options);

} // namespace itc::data
