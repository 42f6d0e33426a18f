// Exact data movement between two parts of one array: the intersection of a sender's index sets
// with a receiver's, compressed per dimension as runs of consecutive local positions, with pack
// (sender storage -> contiguous buffer) and unpack (buffer -> receiver storage).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "runtime/data/part.h"

namespace itrt {

// Elements src .. src+length-1 of the sender's local storage (along one dimension) correspond to
// elements dst .. dst+length-1 of the receiver's.
struct RunPair {
    int64_t src = 0;
    int64_t dst = 0;
    int64_t length = 0;
    friend bool operator==(const RunPair&, const RunPair&) = default;
};

// Intersection of two index sets of the same array dimension, as runs of consecutive indices,
// each given by its position in `a_local` and in `b_local` (the storage sequences the positions
// refer to, which must contain `a` and `b` respectively).
std::vector<RunPair> intersect_runs(const IndexSet1D& a, const IndexSet1D& a_local, const IndexSet1D& b,
                                    const IndexSet1D& b_local);

class TransferSchedule {
public:
    TransferSchedule() = default;
    // The elements the sender owns (`sender.owned`) that the receiver holds (`receiver.held`).
    static TransferSchedule owned_to_held(const Part& sender, const Part& receiver);
    // The elements held by both (e.g. redistribution between two held layouts).
    static TransferSchedule held_to_held(const Part& sender, const Part& receiver);

    int64_t element_count() const;
    bool empty() const { return element_count() == 0; }
    const std::vector<std::vector<RunPair>>& runs() const { return runs_; }
    // Number of contiguous segments (innermost runs times outer combinations) pack() copies.
    int64_t segment_count() const;

    // Copies the scheduled elements from the sender's local storage into `buffer`
    // (element_count() * elem_size bytes), and from `buffer` into the receiver's local storage.
    void pack(const void* sender_storage, size_t elem_size, void* buffer) const;
    void unpack(const void* buffer, size_t elem_size, void* receiver_storage) const;

    // The receiver-side global index tuples, in buffer order (for tests and debugging).
    std::vector<std::vector<int64_t>> receiver_indices(const Part& receiver) const;

private:
    TransferSchedule(std::vector<std::vector<RunPair>> runs, const std::vector<int64_t>& src_extents,
                     const std::vector<int64_t>& dst_extents);
    template <class Fn> void for_each_segment(Fn&& fn) const;

    std::vector<std::vector<RunPair>> runs_;
    std::vector<int64_t> src_strides_, dst_strides_;
};

} // namespace itrt
