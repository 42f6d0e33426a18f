// The data of a TaskInstance (runtime/task/program.h) that generated programs never touch: its
// LPU grids, parts and their storage, the synchronisations of its flow and the plans that carry
// them out. Only the runtime's own sources include this header; program.h, which generated code
// includes, holds the task API and a pointer to this state.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <tuple>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "runtime/task/program.h"

namespace itrt::task {

struct TaskInstance::Piece {
  Box box;      // global index interval per dimension
  int64_t src;  // home LPU holding the source cells
  std::vector<int> dst_ranks;
  std::vector<int64_t> dst;  // home LPUs to fill (all ranks)
};

struct TaskInstance::ViewDesc {
  int array, lps, storage;
};

struct TaskInstance::SyncDesc {
  enum class Kind { padding, reduction, token, move, scalar } kind = Kind::padding;
  int array = -1, lps = -1;        // padding (lps: the padded space); move: the array
  int home = -1;                   // padding: the storage space whose LPUs exchange
  int from = -1, to = -1;          // move, scalar: sending and receiving spaces
  int scalar = -1;                 // scalar: its number
  size_t bytes = 0;                // scalar: its size
  bool whole = false;              // move: every sender sends (MoveSenders::every)
  bool written_in_task = false;    // move: every part written since launch sends (MoveSenders)
  bool every_lpu = false;          // scalar: every LPU to every LPU (ScalarSenders::every_lpu)
  int invoking = -1, target = -1;  // reduction; token: parent and child space
  bool down = true;                // token: parent -> child (entry), else child -> parent
  Combiner combiner;
  std::vector<int> readers;
  std::string name;
};

// The fields keep the trailing underscore of the members they were: TaskInstance code reads
// `s_->grid_` as its own state.
struct TaskInstance::State {
  std::vector<ViewDesc> views_;
  std::vector<SyncDesc> syncs_;
  std::vector<int> sync_lines_;      // [sync] -> IT source line (empty: not given)
  std::vector<char> drop_for_test_;  // [sync] -> never send its packets (ITRT_TEST_DROP_SYNC)
  std::mutex published_mutex_;
  std::map<int, std::vector<std::byte>> published_;
  std::vector<std::vector<int>> thread_cpus_;  // per local worker thread (empty: not pinned)
  // (array, storage space, padded space) -> the pieces that refresh the padding: one padded space
  // may refresh the copies of two storage spaces (its own parts and a lower space's).
  std::map<std::tuple<int, int, int>, std::vector<Piece>> refresh_plans_;
  std::map<int, DataCollection> text_inputs_;
  std::vector<LpsDesc> lps_;
  std::vector<std::vector<Lpu>> grid_;
  // parts_[lps][array] -> part per LPU of that LPS (only for LPSes at or below a configuring one)
  std::vector<std::map<int, std::vector<Part>>> parts_;
  std::vector<int> home_;
  std::vector<int> versions_;
  std::vector<bool> written_;
  std::vector<std::vector<std::shared_ptr<PartStorage>>> store_;  // [array][lpu of home]
  // Parts of storage spaces other than the home: [array][space][lpu of that space].
  std::vector<std::map<int, std::vector<std::shared_ptr<PartStorage>>>> other_store_;
  // (space, array) -> [lpu of that space] -> its sub-partition parts (two spaces may both
  // sub-partition one array, with LPUs in different processes).
  std::map<std::pair<int, int>, std::vector<std::vector<Part>>> sub_parts_;
  // [array] -> for views of sections, where its dimensions sit in the viewed item's (see
  // Part::with_fixed); empty otherwise.
  std::vector<std::vector<std::optional<int64_t>>> section_fixed_;
  std::vector<std::vector<DimRange>> linked_ranges_;  // [array] -> its ranges when linked, or empty
  std::vector<char> given_to_initialize_;             // [array] -> an Initialize parameter set it (initial_value)
  std::vector<int64_t> max_subpartitions_;            // [lps]
  // [lps][lpu id] -> its number of sub-partitions, for every LPU (a space below may sit on
  // another rank than its ancestor there and still takes that ancestor's turns).
  std::vector<std::vector<int64_t>> sub_counts_;
  // Spaces dividing sub-partitions: [(lps, array)][lpu][turn] -> the LPU's part in that turn.
  std::map<std::pair<int, int>, std::vector<std::vector<std::optional<Part>>>> turn_parts_;
  // Turn copies (TaskInstance::turn_copy), per (lps, array).
  struct TurnCopies {
    bool write_back = false;
    // [lpu][turn] -> this rank's copy (null: another rank's LPU, or no part in that turn); one
    // entry per LPU when the part is the same in every turn (`every_turn`).
    std::vector<std::vector<std::shared_ptr<PartStorage>>> copies;
    bool every_turn = false;
    std::vector<char> writes_back;  // [lpu]: the one replica that returns the cells it owns
    // A turn's copies go back once every sibling (the space's LPUs of one parent LPU, all on its
    // rank) has filled its own: a sibling fills its padding from cells another returns, so a
    // return before that fill would show it the other's new values, not the entry's
    // (TaskInstance::write_back_turn_copy).
    std::map<int64_t, int64_t> siblings;  // parent LPU -> its LPUs in the space on this rank
    std::mutex pending_mutex;
    std::map<std::pair<int64_t, int64_t>, std::vector<const Lpu*>> pending;  // (parent LPU, turn) -> arrived
  };
  std::map<std::pair<int, int>, TurnCopies> turn_copies_;
};

}  // namespace itrt::task
