// Element types of `itc data`: the runtime codec that reads and writes them (runtime/data/io) plus
// a flat list of the scalars inside one element ("leaves"), so that making, summarising and
// comparing values works the same for a primitive and for every field of a class.
#pragma once

#include "runtime/data/io/element_codec.h"

#include <cstddef>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace itc::data {

enum class ScalarKind { integer, real_single, real_double, character, boolean, string };

// One scalar inside an element.
struct Leaf {
    std::size_t offset = 0; // bytes from the start of the element in memory
    ScalarKind kind = ScalarKind::integer;
    std::string path;  // "" for a primitive element, ".x", ".coords[1]", ".span.min" otherwise
    std::string group; // the top-level field it belongs to ("" for primitives): statistics
                       // are per group, so a static-array field gets one line, not one per entry
};

class ElementType {
public:
    ElementType(std::string name, const itrt::ElementCodec& codec, std::vector<Leaf> leaves,
                std::vector<std::unique_ptr<itrt::StructCodec>> ownedCodecs = {});

    const std::string& name() const { return name_; } // as given: "double", or the class name
    const itrt::ElementCodec& codec() const { return *codec_; }
    const std::vector<Leaf>& leaves() const { return leaves_; }
    std::size_t size() const { return codec_->memory_size(); }

private:
    std::string name_;
    const itrt::ElementCodec* codec_;
    std::vector<Leaf> leaves_;
    // Class codecs (and those of nested classes) are built at run time and live here; codec_
    // may point into it, which stays valid when the ElementType is moved.
    std::vector<std::unique_ptr<itrt::StructCodec>> owned_;
};

// The names `--type` accepts, for usage messages.
inline constexpr const char* kPrimitiveTypeNames = "int, float, double, char, bool, string, range";

// A primitive element type by its `--type` name; nullopt for an unknown name.
std::optional<ElementType> primitiveElementType(const std::string& name);

// The element type of class `className` of the IT program `programPath` (parsed and checked).
// Diagnostics or "no such class" go to `err`; nullopt then.
std::optional<ElementType> classElementType(const std::string& programPath, const std::string& className,
                                            std::ostream& err);

bool isNumeric(ScalarKind k);  // every kind but string
bool isIntegral(ScalarKind k); // integer, character, boolean

// The value of a numeric leaf of the element at `element`.
double leafValue(const std::byte* element, const Leaf& leaf);
// Stores `v` (rounded for integral kinds) into a numeric leaf. False when it does not fit the
// kind (an Integer beyond 32 bits, a Character outside 0..255). A Boolean is true for nonzero.
bool setLeafValue(std::byte* element, const Leaf& leaf, double v);
// The leaf as written in messages: `3`, `0.25`, `97 ('a')`, `true`, `"text"`.
std::string leafText(const std::byte* element, const Leaf& leaf);
// Whether two leaves hold the same value (strings compared exactly, NaN equal to NaN).
bool leavesEqual(const std::byte* a, const std::byte* b, const Leaf& leaf);

} // namespace itc::data
