// Exact index semantics of block_size, block_count, stride and block_stride (§9.5) and of
// padding (§9.6), over positions 0..n-1 of a parent part. No global indices here.
#include "runtime/data/partition_function.h"

#include <algorithm>
#include <cassert>
#include <string>

#include <fmt/format.h>

#include "runtime/data/data_error.h"

namespace itrt {
namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

} // namespace

// X-macro expansions: a formatter would join the #include into the macro's last line.
// clang-format off
std::string_view partition_fn_name(PartitionFn fn) {
    switch (fn) {
#define ITRT_PARTITION_FN(name, spelling, has_arg, has_padding)                                    \
    case PartitionFn::name:                                                                        \
        return spelling;
#include "runtime/data/partition_functions.def"
    }
    return "?";
}

bool partition_fn_takes_argument(PartitionFn fn) {
    switch (fn) {
#define ITRT_PARTITION_FN(name, spelling, has_arg, has_padding)                                    \
    case PartitionFn::name:                                                                        \
        return has_arg;
#include "runtime/data/partition_functions.def"
    }
    return false;
}

bool partition_fn_takes_padding(PartitionFn fn) {
    switch (fn) {
#define ITRT_PARTITION_FN(name, spelling, has_arg, has_padding)                                    \
    case PartitionFn::name:                                                                        \
        return has_padding;
#include "runtime/data/partition_functions.def"
    }
    return false;
}
// clang-format on

std::string describe(const PartitionSpec& spec) {
    std::string s = fmt::format("{}({})", partition_fn_name(spec.fn),
                                partition_fn_takes_argument(spec.fn) ? std::to_string(spec.arg) : "");
    if (spec.pad_front != 0 || spec.pad_back != 0)
        s += fmt::format(" padding({}, {})", spec.pad_front, spec.pad_back);
    return s;
}

void validate(const PartitionSpec& spec, std::string_view what) {
    auto name = partition_fn_name(spec.fn);
    if (partition_fn_takes_argument(spec.fn) && spec.arg <= 0)
        throw PartitionError(fmt::format("{}: the argument of `{}` must be positive, got {}", what, name, spec.arg));
    if (spec.fanout <= 0)
        throw PartitionError(
            fmt::format("{}: the PPU fan-out for `{}` must be positive, got {}", what, name, spec.fanout));
    if (spec.pad_front < 0 || spec.pad_back < 0)
        throw PartitionError(fmt::format("{}: padding of `{}` must not be negative, got padding({}, {})", what, name,
                                         spec.pad_front, spec.pad_back));
    if (!partition_fn_takes_padding(spec.fn) && (spec.pad_front != 0 || spec.pad_back != 0))
        throw PartitionError(fmt::format("{}: `{}` does not take padding", what, name));
}

int64_t part_count(const PartitionSpec& spec, int64_t n) {
    switch (spec.fn) {
    case PartitionFn::block_size: return ceil_div(n, spec.arg);
    case PartitionFn::block_count: return std::min(spec.arg, n);
    case PartitionFn::stride: return std::min(spec.fanout, n);
    case PartitionFn::block_stride: return std::min(spec.fanout, ceil_div(n, spec.arg));
    }
    return 0;
}

PartPositions part_positions(const PartitionSpec& spec, int64_t n, int64_t c) {
    const int64_t parts = part_count(spec, n);
    assert(c >= 0 && c < parts);
    PartPositions out;
    if (spec.fn == PartitionFn::block_size || spec.fn == PartitionFn::block_count) {
        int64_t lo, hi;
        if (spec.fn == PartitionFn::block_size) {
            lo = c * spec.arg;
            hi = std::min(n, (c + 1) * spec.arg) - 1;
        } else {
            int64_t q = n / parts;
            lo = c * q;
            hi = c == parts - 1 ? n - 1 : (c + 1) * q - 1;
        }
        int64_t hlo = std::max<int64_t>(0, lo - spec.pad_front);
        int64_t hhi = std::min<int64_t>(n - 1, hi + spec.pad_back);
        out.owned = Piece::interval(lo, hi - lo + 1);
        out.held = Piece::interval(hlo, hhi - hlo + 1);
        out.owned_in_held = Piece::interval(lo - hlo, hi - lo + 1);
        return out;
    }
    if (spec.fn == PartitionFn::stride) {
        out.owned = Piece::progression(c, parts, ceil_div(n - c, parts));
    } else {
        const int64_t s = spec.arg, blocks = ceil_div(n, s);
        const int64_t mine = ceil_div(blocks - c, parts); // blocks j = c, c+P, ... < blocks
        const int64_t last_j = c + (mine - 1) * parts;
        const int64_t count = last_j == blocks - 1 ? (mine - 1) * s + (n - last_j * s) : mine * s;
        out.owned = Piece::blocked(c * s, parts * s, s, count);
        if (parts == 1 || mine == 1)
            out.owned = Piece::interval(c * s, count);
    }
    out.held = out.owned;
    out.owned_in_held = Piece::interval(0, out.owned.count);
    return out;
}

} // namespace itrt
