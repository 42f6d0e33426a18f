// The partition functions of §9.5 on one dimension of a parent part with n positions:
// part counts, the positions a part owns, and the positions it holds once padding (§9.6) is added.
// Works on positions only; index_set.h turns positions into global indices.
#pragma once

#include <cstdint>
#include <string_view>

#include "runtime/data/index_set.h"

namespace itrt {

enum class PartitionFn {
#define ITRT_PARTITION_FN(name, spelling, has_arg, has_padding) name,
#include "runtime/data/partition_functions.def"
};

std::string_view partition_fn_name(PartitionFn fn);
bool partition_fn_takes_argument(PartitionFn fn);
bool partition_fn_takes_padding(PartitionFn fn);

// One partition instruction on one array dimension: `fn(arg) padding(front, back)`.
// `arg` is ignored by stride(); `fanout` is U of R-58 (PPUs of the space's PPS per parent PPU),
// used only by stride() and block_stride().
struct PartitionSpec {
    PartitionFn fn = PartitionFn::block_size;
    int64_t arg = 1;
    int64_t pad_front = 0;
    int64_t pad_back = 0;
    int64_t fanout = 1;
};

// Throws PartitionError when an argument is <= 0, padding is negative, or padding is given to a
// function that does not take it. `what` names the array and dimension for the message.
void validate(const PartitionSpec& spec, std::string_view what);

// Number of parts P for a parent part of n positions.
int64_t part_count(const PartitionSpec& spec, int64_t n);

// The positions (of the parent part) owned and held by part c, 0 <= c < part_count(spec, n).
struct PartPositions {
    Piece owned;         // positions of the parent part owned by the part
    Piece held;          // positions of the parent part held (owned + padding, clipped at the ends)
    Piece owned_in_held; // owned, as positions of the held sequence
};
PartPositions part_positions(const PartitionSpec& spec, int64_t n, int64_t c);

// The "3..6 padding(1)" style text used in messages: `block_size(4) padding(1, 1)`.
std::string describe(const PartitionSpec& spec);

} // namespace itrt
