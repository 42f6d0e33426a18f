// The `--shape` / `--lengths` options of `itc data make`: which of the four collection types of
// the data-file formats (§13) to make, and the lengths of every array or list in it.
#pragma once

#include "runtime/data/io/file_layout.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace itc::data {

struct ShapeSpec {
    itrt::Collection kind = itrt::Collection::array;
    std::vector<int64_t> shape;                    // as DataCollection::shape
    std::vector<std::vector<int64_t>> itemLengths; // each array or list of the content, in order
};

// `shape` is one of
//   100 | 64x64 | 2x3x4     an Array
//   list:N                  a List of N elements
//   lists:3x2               an Array of Lists (outer lengths 3x2); `lengths` gives the length
//                           of every list (`1,2,3,4,5,6`) or one length for all (`4`)
//   arrays:N                a List of N Arrays; `lengths` gives each array's lengths
//                           (`2x3,4x3,1x3`) or one for all (`2x3`)
// On a mistake returns nullopt and sets `error` to a sentence naming the bad part.
std::optional<ShapeSpec> parseShape(const std::string& shape, const std::optional<std::string>& lengths,
                                    std::string& error);

} // namespace itc::data
