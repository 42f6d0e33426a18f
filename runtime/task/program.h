// The one public header a generated IT program includes: the task-launch layer of libitrt
// (itrt_task) on top of the channel engine and the data parts. It provides the machine model's
// placement arithmetic, LPU grids, part allocation per rank, local views for stage loops,
// synchronisation (padding refresh, cross-LPU reductions) moved over channels, epoch version
// rings, environments between tasks, parallel file binding and IT_STATS counters.
// It knows nothing of IT syntax: the backend translates programs into calls of this API.
#pragma once

// Generated programs use MPI's C interface only: Open MPI's and MPICH's C++ bindings (dropped
// by MPI 3.0) would add about a fifth to the compile time of every program.
#ifndef OMPI_SKIP_MPICXX
#define OMPI_SKIP_MPICXX 1
#endif
#ifndef MPICH_SKIP_MPICXX
#define MPICH_SKIP_MPICXX 1
#endif

#include "runtime/data/data.h"
#include "runtime/engine/engine.h"
#include "runtime/support/small_vector.h"
#include "runtime/task/collections.h"
#include "runtime/task/flow.h"
#include "runtime/task/list.h"
#include "runtime/task/program_help.h"
#include "runtime/task/scheduler.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <set>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace itrt::task {

// ---------------------------------------------------------------------------------------------
// Values of the coordinator
// ---------------------------------------------------------------------------------------------

// `args.key`: a string converted to whatever the context needs.
class ArgValue {
 public:
  ArgValue() = default;
  ArgValue(std::string key, std::string text) : key_(std::move(key)), text_(std::move(text)) {}
  // A String written to a function's `&` parameter that received an `args` value (a copy).
  ArgValue& operator=(std::string text) {
    text_ = std::move(text);
    return *this;
  }
  operator int32_t() const { return as_int(); }
  operator int64_t() const { return as_int(); }  // index and range arithmetic in the coordinator
  operator double() const { return as_double(); }
  operator float() const { return as_float(); }
  operator std::string() const { return text_; }
  // Explicit, so that arithmetic on an ArgValue stays unambiguous (the backend casts).
  explicit operator bool() const { return as_bool(); }
  explicit operator char() const { return as_char(); }
  explicit operator unsigned char() const { return static_cast<unsigned char>(as_char()); }
  int32_t as_int() const;
  double as_double() const;
  float as_float() const;  // as as_double, within the range of a single-precision Real
  bool as_bool() const;    // 1, 0, TRUE, FALSE, true, false (as Boolean data-file elements)
  char as_char() const;    // a single character
  const std::string& text() const { return text_; }
  // `-args.x`: still a command-line value, typed by where it is used, with the sign turned.
  ArgValue operator-() const {
    if (!text_.empty() && text_[0] == '-') return ArgValue(key_, text_.substr(1));
    if (!text_.empty() && text_[0] == '+') return ArgValue(key_, "-" + text_.substr(1));
    return ArgValue(key_, "-" + text_);
  }

 private:
  std::string key_;
  std::string text_;
};

inline int64_t to_int(int64_t v) { return v; }
inline int64_t to_int(const ArgValue& v) { return v.as_int(); }
// An element of a fixed-size array (`Array[n] of T`, a std::array; indices 0 to n - 1), its
// index checked: a class field's neighbours lie right behind it. `a` may be a temporary (a field of
// a copy of an environment item), read within the full expression.
template <class A>
decltype(auto) static_at(A&& a, int64_t i, const char* where) {
  if (i < 0 || i >= static_cast<int64_t>(a.size())) [[unlikely]]
    fail_alike(std::string(where) + ": index " + std::to_string(i) + " is outside the fixed-size array's indices 0..." +
               std::to_string(static_cast<int64_t>(a.size()) - 1));
  return a[static_cast<size_t>(i)];
}

// Integer shifts for every count (C++ leaves a count outside 0 to width - 1 undefined): `a << k`
// is a * 2^k wrapped to the width and `a >> k` is floor(a / 2^k), so counts of the width or more
// give 0 (or -1 for a negative `a >> k`), and a negative count shifts the other way.
template <class A, class K>
auto int_shl(A a, K k) -> decltype(a << 0);
template <class A, class K>
auto int_shr(A a, K k) -> decltype(a >> 0) {
  using R = decltype(a >> 0);
  constexpr int64_t width = static_cast<int64_t>(sizeof(R)) * 8;
  const int64_t n = static_cast<int64_t>(k);
  if (n < 0) return int_shl(static_cast<R>(a), n < -width ? width : -n);
  if (n >= width) return static_cast<R>(a < 0 ? -1 : 0);
  return static_cast<R>(static_cast<R>(a) >> n);
}
template <class A, class K>
auto int_shl(A a, K k) -> decltype(a << 0) {
  using R = decltype(a << 0);
  using U = std::make_unsigned_t<R>;
  constexpr int64_t width = static_cast<int64_t>(sizeof(R)) * 8;
  const int64_t n = static_cast<int64_t>(k);
  if (n < 0) return int_shr(static_cast<R>(a), n < -width ? width : -n);
  if (n >= width) return R(0);
  return static_cast<R>(static_cast<U>(static_cast<R>(a)) << n);
}

// Integer `/` and `%` with the divisor checked: C++ leaves division by zero undefined (the
// process dies of SIGFPE without a word), and the lowest value divided by -1 too (it wraps
// here, as addition does). A constant divisor folds the checks away.
template <class A, class B>
auto int_div(A a, B b, const char* where) {
  using R = decltype(a / b);
  if (b == 0) [[unlikely]]
    fail_alike(std::string(where) + ": integer division by zero");
  if constexpr (std::is_signed_v<R>)
    if (b == -1) [[unlikely]]
      return static_cast<R>(std::make_unsigned_t<R>(0) - static_cast<std::make_unsigned_t<R>>(a));
  return static_cast<R>(a / b);
}
template <class A, class B>
auto int_mod(A a, B b, const char* where) {
  using R = decltype(a % b);
  if (b == 0) [[unlikely]]
    fail_alike(std::string(where) + ": integer remainder (`%`) of a division by zero");
  if constexpr (std::is_signed_v<R>)
    if (b == -1) [[unlikely]]
      return R(0);
  return static_cast<R>(a % b);
}

// A Real assigned to an Integer or a Character: truncated toward zero, then, like an Integer,
// wrapped into the target's width (a Character keeps the low byte: -3.7 gives 253, 300.5 gives
// 44). C++ leaves a double outside the target's range undefined, and g++ folded constants one
// way (saturating) and converted at run time another. Beyond the 64-bit range, and NaN, give 0.
template <class T>
T real_to(double v) {
  static_assert(std::is_integral_v<T>);
  if (!(v > -9.2e18 && v < 9.2e18)) return T(0);
  const auto whole = static_cast<int64_t>(v);
  return static_cast<T>(static_cast<std::make_unsigned_t<T>>(static_cast<uint64_t>(whole)));
}

// A loop's `step`, checked: a step of 0 or less would never end the loop.
inline int64_t loop_step(int64_t step, const char* where) {
  if (step <= 0)
    fail_alike(std::string(where) + ": the loop's step is " + std::to_string(step) +
               "; a step must be a positive Integer");
  return step;
}

// A coordinator array made with `new Nd Array of T`: whole, on every rank.
template <class T>
struct LocalArray {
  using Cell = CellOf<T>;  // T, but a byte for a Boolean
  std::vector<DimRange> ranges;
  std::vector<Cell> data;
  // A part passed to a function from a stage (part_array) has one entry per dimension (empty
  // for every other array). Along a dimension that stride() or block_stride() cuts, the indices
  // the LPU holds in the order of its storage, ranges[d] their first and last, and elements
  // stored by held position; empty along the other dimensions, whose indices are ranges[d].
  std::vector<std::vector<int64_t>> held;
  explicit LocalArray(int dims = 1) : ranges(static_cast<size_t>(dims)) {}
  bool held_along(size_t d) const { return !held.empty() && !held[d].empty(); }
  bool cut_by_stride() const {
    return std::any_of(held.begin(), held.end(), [](const std::vector<int64_t>& h) { return !h.empty(); });
  }
  int64_t length(size_t d) const { return held_along(d) ? static_cast<int64_t>(held[d].size()) : ranges[d].length(); }
  void allocate() {
    int64_t n = 1;
    for (size_t d = 0; d < ranges.size(); ++d) n *= length(d);
    data.assign(static_cast<size_t>(n), T{});
  }
  T& at(std::initializer_list<int64_t> idx, const char* where = "an array element") {
    if (data.empty()) allocate();
    int64_t off = 0;
    size_t d = 0;
    for (int64_t i : idx) {
      if (held_along(d)) [[unlikely]] {
        off = off * length(d) + held_position(d, i, where);
        ++d;
        continue;
      }
      if (!ranges[d].contains(i)) [[unlikely]]
        fail_alike(std::string(where) + ": index " + std::to_string(i) + " of dimension " + std::to_string(d + 1) +
                   (held.empty() ? " is outside the array's range "
                                 : " is not among the indices this LPU holds of the array passed here, ") +
                   std::to_string(ranges[d].min) + "..." + std::to_string(ranges[d].max));
      off = off * ranges[d].length() + ranges[d].position_of(i);
      ++d;
    }
    return data[static_cast<size_t>(off)];
  }

 private:
  // The position of index i among the held indices of dimension d (increasing or decreasing).
  int64_t held_position(size_t d, int64_t i, const char* where) const {
    const std::vector<int64_t>& h = held[d];
    const auto found = h.front() <= h.back() ? std::lower_bound(h.begin(), h.end(), i)
                                             : std::lower_bound(h.begin(), h.end(), i, std::greater<>());
    if (found == h.end() || *found != i) [[unlikely]] {
      std::string list;  // a few of them: all up to six, else the first three and the last two
      for (size_t k = 0; k < h.size(); ++k) {
        if (h.size() > 6 && k == 3) {
          list += ", ...";
          k = h.size() - 2;
        }
        list += (list.empty() ? "" : ", ") + std::to_string(h[k]);
      }
      fail_alike(std::string(where) + ": index " + std::to_string(i) + " of dimension " + std::to_string(d + 1) +
                 " is not among the indices this LPU holds of the array passed here, which stride() or "
                 "block_stride() cuts: " +
                 list);
    }
    return found - h.begin();
  }
};

// The indices a loop over dimension d of an array visits, one position after another: every
// index of the range, or the held indices of a part cut by stride() (LocalArray::held).
struct HeldIndices {
  const int64_t* held = nullptr;  // null: first, first + dir, ...
  int64_t first = 0, dir = 1, count = 0;
  int64_t at(int64_t k) const { return held ? held[k] : first + dir * k; }
};
template <class T>
HeldIndices held_indices(const LocalArray<T>& a, int d) {
  const auto dim = static_cast<size_t>(d);
  const DimRange& r = a.ranges.at(dim);
  if (a.held_along(dim)) return HeldIndices{a.held[dim].data(), r.min, 1, static_cast<int64_t>(a.held[dim].size())};
  return HeldIndices{nullptr, r.min, r.min <= r.max ? 1 : -1, r.length()};
}

// Calls f(position in a.data, global indices) for every element of `a`, in storage order; along
// a held dimension only its held indices.
template <class T, class F>
void for_each_held_element(const LocalArray<T>& a, F f) {
  const size_t n = a.ranges.size();
  std::vector<HeldIndices> dims;
  int64_t count = 1;
  for (size_t d = 0; d < n; ++d) {
    dims.push_back(held_indices(a, static_cast<int>(d)));
    count *= dims.back().count;
  }
  std::vector<int64_t> k(n, 0), g(n);
  for (int64_t e = 0; e < count; ++e) {
    for (size_t d = 0; d < n; ++d) g[d] = dims[d].at(k[d]);
    f(e, g.data());
    for (size_t d = n; d-- > 0 && ++k[d] == dims[d].count;) k[d] = 0;
  }
}

// Dimension d of an array value as a range (its bounds as Integers).
template <class T>
RangeValue range_of(const LocalArray<T>& a, int d) {
  const DimRange& r = a.ranges.at(static_cast<size_t>(d));
  return RangeValue{static_cast<int32_t>(r.min), static_cast<int32_t>(r.max)};
}

// A dimension that takes the bounds of another array's (a range of the generated code).
template <class R>
void set_dim_range(DimRange& d, const R& r) {
  d.min = r.min;
  d.max = r.max;
}

// A LocalArray as an element of a list that moves (a List of Arrays): its ranges, then its
// elements (runtime/task/list.h: value_bytes).
template <class T>
void value_append(std::vector<std::byte>& out, const LocalArray<T>& a) {
  value_append(out, static_cast<int64_t>(a.ranges.size()));
  for (const DimRange& r : a.ranges) {
    value_append(out, r.min);
    value_append(out, r.max);
  }
  value_append(out, static_cast<int64_t>(a.data.size()));
  for (const T& e : a.data) value_append(out, e);
}
template <class T>
const std::byte* value_read(LocalArray<T>& a, const std::byte* p, const std::byte* end) {
  int64_t dims = 0, count = 0;
  p = value_read(dims, p, end);
  a.ranges.assign(static_cast<size_t>(dims), DimRange{});
  for (DimRange& r : a.ranges) {
    p = value_read(r.min, p, end);
    p = value_read(r.max, p, end);
  }
  p = value_read(count, p, end);
  a.data.assign(static_cast<size_t>(count), T{});
  for (T& e : a.data) p = value_read(e, p, end);
  return p;
}

// ---------------------------------------------------------------------------------------------
// The machine model, as far as placement needs it
// ---------------------------------------------------------------------------------------------

struct MachineDesc {
  std::string file;             // for messages
  int top = 1;                  // highest PPS number
  std::vector<int64_t> fanout;  // fanout[L] for L = 1..top (index 0 unused)
  int segment = 0;              // `<segment>` level, 0 when none
  int core = 1;                 // `<core>` level
  // OS processor ids of the `<core>` PPUs inside one unit, depth-first (the model's
  // `Processors` line); empty when the model does not say.
  std::vector<int> processors;
  int64_t total(int level) const;                  // PPUs of a level in the whole machine
  int64_t per_parent(int level, int above) const;  // PPUs of `level` inside one PPU of `above`
  int64_t segments() const { return segment ? total(segment) : 1; }
  int64_t cores_per_segment() const { return total(core) / segments(); }
};

// ---------------------------------------------------------------------------------------------
// Statistics (IT_STATS=1)
// ---------------------------------------------------------------------------------------------

// A box of global indices: one closed interval per dimension (first <= last when not empty).
// In place up to three dimensions: a task computes a few boxes per LPU when it ends.
using Box = SmallVector<std::pair<int64_t, int64_t>, 3>;

struct SyncCounters {
  uint64_t intra_bytes = 0, intra_messages = 0, inter_bytes = 0, inter_messages = 0;
};

// ---------------------------------------------------------------------------------------------
// The process: MPI, arguments, worker threads
// ---------------------------------------------------------------------------------------------

// Which sender LPUs of a movement between spaces send their cells (the task plan decides):
// `changed`: those whose part changed since it last went to the receiving space; `every`: all
// (what the task starts with); `written_in_task`: every part written since the task started,
// changed since its last send or not (a gather that follows another space's into the same parts).
enum class MoveSenders { changed, every, written_in_task };
// Which LPUs a scalar movement between a space and its ancestor connects. `related`: each LPU
// with the LPU above or below it; `every_lpu`: every sending LPU with every receiving LPU, for a
// value that one LPU of the sending space wrote under `Where`/`If`.
enum class ScalarSenders { related, every_lpu };

class Program {
 public:
  // `known_args`: the `args` keys the coordinator reads (the generated kArgs). With it, `--help`
  // lists them and other keys are errors; without it (hand-written tests) any key is accepted.
  // `--help`/`-h` prints the usage on rank 0 and ends every rank with exit status 0.
  // `concurrent_tasks`: the coordinator may have several tasks in flight (the backend says so when
  // it launches more than one); MPI is then started with MPI_THREAD_MULTIPLE, which makes every
  // message slower, so a program with one task keeps MPI_THREAD_SERIALIZED.
  Program(int& argc, char**& argv, MachineDesc machine, std::string program_name,
          std::optional<std::vector<ArgSpec>> known_args = std::nullopt, bool concurrent_tasks = false);
  ~Program();
  // The program this process runs (one per process): for generated functions that read or write
  // the items of a task environment they were given, which have no `prog` of their own.
  static Program& current();
  int rank() const { return runtime_->rank(); }
  int size() const { return runtime_->size(); }
  const MachineDesc& machine() const { return machine_; }
  const std::string& name() const { return name_; }  // the IT program's file, for messages
  ArgValue arg(const std::string& key) const;
  bool debug = false;

  // Sends each rank its bytes (send[r]; empty = nothing) over a one-shot VSA of the channel
  // engine on `comm` (the task's communicator); returns what every rank sent here (recv[r]).
  // Counts the traffic under `sync`. pairs[s][d] != 0 when rank s sends to rank d; every rank
  // passes the same matrix.
  std::vector<std::vector<std::byte>> exchange(const std::string& sync, const std::vector<std::vector<char>>& pairs,
                                               std::vector<std::vector<std::byte>> send, MPI_Comm comm);
  // `execute`: runs `body` (the task's run) without making the coordinator wait (scheduler.h).
  void launch(const std::string& task, Env& env, std::function<void()> body) {
    scheduler_->launch(task, env, std::move(body));
  }
  void count(const std::string& sync, bool inter, uint64_t bytes, uint64_t messages = 1);
  void note_memory(const std::string& what, uint64_t bytes);
  // Writes pending bind_output files and prints IT_STATS; called once at the end of main.
  void finish();
  std::vector<std::function<void()>> at_exit;  // pending bind_output writes
  // Output file -> the item first bound to it ("`x` of task `T`") and its data, so that binding
  // other data to the same file is reported, once per file (the file keeps the last one bound).
  std::map<std::string, std::pair<std::string, const void*>> output_owners;
  // A file both written by `store` and bound with bind_output: the bound output, written at the
  // end, replaces what `store` wrote. Called by each; warns once per such file (rank 0).
  void note_stored(const std::string& file);
  void note_bound_output(const std::string& file, const std::string& owner);

 private:
  std::set<std::string> stored_files_, overwrite_warned_;
  void warn_store_overwritten(const std::string& file, const std::string& owner);
  // Per synchronisation name: intra bytes, intra messages, inter bytes, inter messages.
  using SyncTotals = std::pair<std::string, std::array<uint64_t, 4>>;
  // Sums every rank's counters by name (collective); the result is complete on rank 0 only.
  std::vector<SyncTotals> gather_sync_counters();
  void print_stats_lines(const std::vector<SyncTotals>& summed);  // IT_STATS=1 (collective)
  std::unique_ptr<Runtime> runtime_;
  std::unique_ptr<TaskScheduler> scheduler_;  // after runtime_: ends its tasks before MPI ends
  MachineDesc machine_;
  std::string name_;
  Args args_;
  struct Counters;  // IT_STATS counters and memory notes, behind a mutex (program.cpp)
  std::unique_ptr<Counters> counters_;
};

// ---------------------------------------------------------------------------------------------
// Distributed arrays and environments
// ---------------------------------------------------------------------------------------------

// Bytes of parts alive in this process at once, for IT_STATS's peak: each PartStorage counts
// the versions it holds (PartStorage::set_counted) until it drops them or is destroyed.
namespace part_memory {
void add(int64_t bytes);
uint64_t peak();
}  // namespace part_memory

// Storage of one LPU part of an array on this rank, with its epoch versions (ring).
struct PartStorage {
  PartStorage() = default;
  PartStorage(const PartStorage&) = delete;
  PartStorage& operator=(const PartStorage&) = delete;
  ~PartStorage() { part_memory::add(-counted_bytes); }
  // IT_STATS: the bytes of `versions` this storage holds, set when it allocates or drops some.
  void set_counted(int64_t bytes) {
    part_memory::add(bytes - counted_bytes);
    counted_bytes = bytes;
  }
  int64_t counted_bytes = 0;
  Part part;
  std::vector<std::unique_ptr<std::byte[]>> versions;  // versions[0] is allocated always
  int current = 0;
  // Per dimension that is no interval: the held indices by local position (empty for the
  // others, whose index is first + dir * position; View::global_at). Built by index_tables_of.
  std::vector<std::vector<int64_t>> index_tables;
  // Movements between spaces send only what changed: stages that write the part count up
  // `writes`; `sent[space]` is the count when the part last went to that space's parts.
  std::atomic<uint64_t> writes{0};  // LPUs working in views of the part count too
  std::map<int, uint64_t> sent;
  uint64_t writes_at_launch = 0;  // `writes` when the task that uses the part now started
  // Epoch entry by rotation (FlowContext::rotate_epoch): the box of global indices the first
  // stage of the epoch wrote in the new current version, as that stage reports it
  // (TaskInstance::epoch_wrote); FlowContext::complete_epoch copies every other cell from the
  // previous version. Empty: nothing reported, so every cell is copied.
  Box epoch_written;
  // A part that is not one box (stride()) cannot copy "every cell outside the written box":
  // rotate_epoch copies the whole part instead, as advance_epoch does, and complete_epoch
  // then has nothing left to do.
  bool epoch_copied = false;
  std::byte* version(int lag) {
    int n = static_cast<int>(versions.size());
    return versions[static_cast<size_t>(((current - lag) % n + n) % n)].get();
  }
  // Entering an Epoch by copying: every version moves one step older and the new current one
  // starts as a copy of the old current one.
  void age(size_t elem_size) {
    std::byte* old = version(0);
    current = (current + 1) % static_cast<int>(versions.size());
    std::memcpy(version(0), old, static_cast<size_t>(part.element_count()) * elem_size);
  }
};

struct ArrayData;

// One subscript of an environment view `env.x = other.y[...][...]`: `first...last`, a single
// index (which drops the dimension) or `...` (the whole dimension).
struct SectionDim {
  enum Kind : int { range, index, whole } kind = whole;
  int64_t first = 0, last = 0;
};

// An environment item that is a view of a section of another item (§4.2): a task linking it
// works on copies of the section's cells in parts of its own, taken from the other item when
// it starts and written back into it when it ends, keeping the original indices.
struct Section {
  std::shared_ptr<ArrayData> of;
  std::vector<SectionDim> dims;  // one per dimension of `of` (missing trailing ones: whole)
  std::string made_at;           // "prog.it:12", the coordinator's line that made the view (or "")
};

// An array as it lives between and during tasks: ranges, element type and where its parts are.
struct ArrayData {
  std::shared_ptr<const Section> section;  // set for views of a section of another item
  std::string name;
  size_t elem_size = 0;
  const ElementCodec* codec = nullptr;
  int dims = 0;
  std::vector<DimRange> ranges;
  bool has_ranges = false;
  // `env.x = new 1d Array of T`: the item exists, without ranges, until a task linking it sets
  // them in its Initialize.
  bool shapeless = false;
  // Distribution left by the last task (canonical owned parts per LPU, all ranks known):
  // index = LPU number of the home LPS; storage only for local LPUs.
  std::vector<Part> parts;
  std::vector<int> part_rank;
  std::vector<std::shared_ptr<PartStorage>> storage;  // null for LPUs of other ranks
  std::vector<Box> canonical;                         // cells each LPU owns through the whole chain (empty: a replica)
  std::string pending_input;                          // bind_input not yet read
  std::string input_site;                             // "file.it:line" of that bind_input or load
  // Left in parts that are not boxes (stride(), block_stride()): each cell is then taken from
  // the `owner` LPU whose part owns it (one replica of replicated parts), by transfer schedules.
  bool strided = false;
  std::vector<char> owner;
};

// A list item of an environment: its value serialised (list_bytes), or an input file not read.
struct ListData {
  std::vector<std::byte> bytes;
  bool set = false;
  uint64_t version = 0;                 // counts the changes of `bytes` (Env::coordinator_list refreshes on one)
  const ElementCodec* codec = nullptr;  // for bind_output
  // The value as a data-file collection (a List, or a List of Arrays), for bind_output.
  std::function<DataCollection(const std::vector<std::byte>&)> to_file;
};

// A scalar item of an environment (also Reduction results, with one value per LPU of X).
struct ScalarData {
  std::vector<std::byte> bytes;
  bool set = false;
  // A Reduction result made per LPU of this space (`Space A`), which had several LPUs: the value
  // kept is one LPU's, and the coordinator has no one value to read.
  std::string per_lpu;
};

// Generated programs make every environment with std::make_shared (bind_output keeps it alive).
class Env : public std::enable_shared_from_this<Env> {
 public:
  explicit Env(std::string task) : task_(std::move(task)) {}
  const std::string& task() const { return task_; }
  // The coordinator's `execute` line that runs this environment's task now ("prog.it:12"), for
  // the task's messages; environments used by one task at a time have one.
  void executing_at(const char* where) { execute_site_ = where ? where : ""; }
  const std::string& execute_site() const { return execute_site_; }
  std::shared_ptr<ArrayData>& array(const std::string& item) {
    settle();
    return arrays_[item];
  }
  std::shared_ptr<ScalarData>& scalar(const std::string& item) {
    settle();
    return scalars_[item];
  }
  // This environment and every object it holds (items, and what its views are sections of),
  // sorted: tasks whose footprints meet do not run at once (scheduler.h).
  std::vector<const void*> footprint() const;
  // The files bound with bind_input to items no task has read yet.
  std::vector<std::string> pending_inputs() const;
  // Stops every rank alike: the coordinator read `item` (at IT line `where`, if known), which has
  // no value.
  [[noreturn]] void fail_no_value(const std::string& item, const char* where) const;
  [[noreturn]] void fail_per_lpu(const std::string& item, const char* where, const std::string& space) const;
  // `where`: the IT line that reads it, for the message when it has no value.
  // The coordinator's reads name their line; a task's start reads do not.
  template <class T>
  T get(const std::string& item, const char* where = nullptr) {
    settle();
    auto& s = scalars_[item];
    if (!s || !s->set) fail_no_value(item, where);
    if (where && !s->per_lpu.empty()) fail_per_lpu(item, where, s->per_lpu);
    T v{};
    if constexpr (std::is_trivially_copyable_v<T>)
      std::memcpy(&v, s->bytes.data(), sizeof(T));
    else  // a String, or an object with String fields (list.h)
      value_from_bytes(v, s->bytes.data(), s->bytes.size());
    return v;
  }
  template <class T>
  void set(const std::string& item, const T& v) {
    settle();
    auto& s = scalars_[item];
    if (!s) s = std::make_shared<ScalarData>();
    if constexpr (std::is_trivially_copyable_v<T>) {
      s->bytes.resize(sizeof(T));
      std::memcpy(s->bytes.data(), &v, sizeof(T));
    } else {
      s->bytes = value_bytes(v);
    }
    s->set = true;
    s->per_lpu.clear();
  }
  // After a task: scalar `item` is a Reduction result made per LPU of `space`, which had several.
  void mark_per_lpu(const std::string& item, const std::string& space) { scalars_[item]->per_lpu = space; }
  // `where` ("file.it:line") starts the messages about the file, which come when a task reads it.
  void bind_input(Program& prog, const std::string& item, const std::string& file, const char* where = nullptr);
  // bind_input of an array item, with its element type and dimensions: the coordinator, or the
  // write of a bound output at the end, may read the file before any task links the item.
  void bind_input(Program& prog, const std::string& item, const std::string& file, const ElementCodec& codec, int dims,
                  const char* where = nullptr);
  // A list item into `out` (from the file bound to it if no task has produced it yet); false when
  // the item has no value. `rank`: for a List of Arrays, the dimensionality its arrays must have.
  template <class T>
  bool get_list(const std::string& item, List<T>& out, const ElementCodec& codec, int rank = -1);
  // `l = env.item` in the coordinator: a copy of the list item.
  template <class T>
  List<T> list_copy(const std::string& item, const ElementCodec& codec, int rank = -1, const char* where = nullptr) {
    List<T> l;
    if (!get_list(item, l, codec, rank)) fail_no_value(item, where);
    return l;
  }
  template <class T>
  void set_list(const std::string& item, const List<T>& l, const ElementCodec& codec) {
    settle();
    auto& d = lists_[item];
    if (!d) d = std::make_shared<ListData>();
    d->bytes = value_bytes(l);
    d->set = true;
    ++d->version;
    d->codec = &codec;
    d->to_file = [](const std::vector<std::byte>& b) {
      List<T> v;
      value_from_bytes(v, b.data(), b.size());
      return list_collection(v);
    };
  }
  // `env.item = l` in the coordinator: the item gets a copy of `l` in a fresh object, so that
  // environments that shared the old one (`k.item = env.item`) keep it, as for arrays.
  template <class T>
  void assign_list(const std::string& item, const List<T>& l, const ElementCodec& codec) {
    settle();
    lists_[item] = std::make_shared<ListData>();
    set_list(item, l, codec);
  }
  // At the start of a task that `create`s list `item`: one that holds a value is replaced in this
  // environment only (others sharing it keep it); one that holds nothing yet is filled in place,
  // where environments sharing it see the task's list. As for arrays (TaskInstance::declare_array).
  void start_created_list(const std::string& item) {
    settle();
    auto& d = lists_[item];
    if (d && d->set) d = std::make_shared<ListData>();
  }
  // The list functions applied to a list item in the coordinator (`get_cursor(env.item)`,
  // `insert_at(env.item, c, v)`, ...) work on one decoded copy of the item, so that cursors stay
  // valid from one statement to the next; it is decoded again when a task or an assignment has
  // changed the item since, and each change made through it goes back into the item (commit_list)
  // before the statement ends. An item with no value yet starts as an empty list, capacity unset.
  template <class T>
  List<T>& coordinator_list(const std::string& item, const ElementCodec& codec, int rank = -1) {
    settle();
    DecodedList& c = decoded_[item];
    if (!c.list) c.list = std::make_shared<List<T>>();
    List<T>& l = *static_cast<List<T>*>(c.list.get());
    const auto found = lists_.find(item);
    const ListData* d = found == lists_.end() ? nullptr : found->second.get();
    if (!d || c.data != d || c.version != d->version) {
      if (!get_list(item, l, codec, rank)) l = List<T>{};
      note_decoded(item);
    }
    return l;
  }
  template <class T>
  void commit_list(const std::string& item, const ElementCodec& codec) {
    set_list(item, *static_cast<List<T>*>(decoded_.at(item).list.get()), codec);
    note_decoded(item);
  }
  // `load(env.item, file)`: the next task using the item reads the file, part-wise (as
  // bind_input: the result is the same, the reading parallel).
  void load(Program& prog, const std::string& item, const std::string& file, const char* where = nullptr) {
    bind_input(prog, item, file, where);
  }
  // `load(env.item, file)` of an array: as bind_input, with the element type and dimensions, so
  // that the coordinator can read the file itself if it reads the item before any task does.
  void load(Program& prog, const std::string& item, const std::string& file, const ElementCodec& codec, int dims,
            const char* where = nullptr) {
    bind_input(prog, item, file, codec, dims, where);
  }
  // `env.item = other.other_item` (§4.2): both environments share one array from now on.
  void share(const std::string& item, Env& other, const std::string& other_item);
  // `env.x = other.y` for a scalar item: both name one value object from now on.
  void share_scalar(const std::string& item, Env& other, const std::string& other_item);
  // `env.item = other.other_item[s1][s2]...` (§4.2): `item` is a view of that section.
  // `where`: the coordinator's line that made the view, for the messages of tasks that use it.
  void section(const std::string& item, Env& other, const std::string& other_item, std::vector<SectionDim> dims,
               const char* where = "");
  // `env.item[i][j]...` in the coordinator: the element as the last task left it, on every rank
  // (a collective: the rank owning it sends it to the others).
  // `where`: the IT source line, for messages ("prog.it:12"), or null.
  template <class T>
  T element(Program& prog, const std::string& item, std::initializer_list<int64_t> index, const char* where = nullptr) {
    T v{};
    read_element(prog, item, std::vector<int64_t>(index), &v, sizeof v, where);
    return v;
  }
  void read_element(Program& prog, const std::string& item, std::vector<int64_t> index, void* out, size_t n,
                    const char* where = nullptr);
  // `env.item[i][j]... = v` in the coordinator: every copy of the element, on every rank.
  template <class T>
  void set_element(Program& prog, const std::string& item, std::initializer_list<int64_t> index, T v,
                   const char* where = nullptr) {
    write_element(prog, item, std::vector<int64_t>(index), &v, sizeof v, where);
  }
  void write_element(Program& prog, const std::string& item, std::vector<int64_t> index, const void* value, size_t n,
                     const char* where = nullptr);
  // Writes every cell of the item (of the array it views, for a view) from a row-major copy of
  // it with the same ranges, as write_element does each: the item stays the same object, so
  // items that share it see the change.
  void write_cells(Program& prog, const std::string& item, const std::vector<DimRange>& ranges, const std::byte* data,
                   size_t elem_size);
  // `env.item = a` for a coordinator array `a`: the item becomes a copy of it (the next task
  // takes its parts from it; later changes to `a` do not reach the item).
  template <class T>
  void assign(Program& prog, const std::string& item, LocalArray<T>& a, const ElementCodec& codec) {
    if (a.data.empty()) a.allocate();
    assign_array(item, a.ranges, reinterpret_cast<const std::byte*>(a.data.data()), sizeof(T), codec, prog.rank());
  }
  template <class T>  // `env.item = a[2...5]`: a section made for the item
  void assign(Program& prog, const std::string& item, LocalArray<T>&& a, const ElementCodec& codec) {
    assign(prog, item, a, codec);
  }
  void assign_array(const std::string& item, const std::vector<DimRange>& ranges, const std::byte* data,
                    size_t elem_size, const ElementCodec& codec, int rank);
  // `env.item = new 2d Array of T`: a new array without ranges (a fresh object, as assign_array
  // makes); the next task that links the item gives it its ranges in Initialize.
  void assign_shapeless(const std::string& item, int dims);
  // `a = env.item` in the coordinator: a copy of the whole item, on every rank (collective).
  template <class T>
  LocalArray<T> array_copy(Program& prog, const std::string& item, int dims) {
    LocalArray<T> out(dims);
    std::vector<std::byte> bytes = read_whole(prog, item, out.ranges);
    out.data.resize(bytes.size() / sizeof(T));
    if (!bytes.empty()) std::memcpy(out.data.data(), bytes.data(), bytes.size());
    return out;
  }
  std::vector<std::byte> read_whole(Program& prog, const std::string& item, std::vector<DimRange>& ranges);
  // `env.item.dimensionK` (d = K - 1) in the coordinator, for an item of `dims` dimensions and
  // element `codec`; an input not read yet is asked for its shape.
  RangeValue range(Program& prog, const std::string& item, int dims, int d, const ElementCodec& codec);
  void bind_output(Program& prog, const std::string& item, const std::string& file, const char* where = nullptr);
  // Writes the item to `file` now (`store(env.item, file)`, and bind_output at the end; `bound`:
  // the item's data when it was bound, if it has been replaced since).
  void write_item(Program& prog, const std::string& item, const std::string& file,
                  const std::shared_ptr<ArrayData>& bound = nullptr);
  // The copy of an item that the `&` arguments of one call work on (EnvArrayRef, EnvScalarRef,
  // ...): arguments naming the same item (`swap(env.v[0], env.v[1])`, `f(env.cfg, env.cfg.k)`)
  // share one, made by `make` for the first, which gives it back to the item when the last of
  // them ends (its destructor).
  template <class Copy, class... Args>
  std::shared_ptr<Copy> shared_copy(const std::string& key, Args&&... args) {
    if (auto open = open_copies_.find(key); open != open_copies_.end())
      if (auto copy = open->second.lock()) return std::static_pointer_cast<Copy>(copy);
    std::shared_ptr<Copy> copy(new Copy(std::forward<Args>(args)...), [this, key](Copy* c) {
      delete c;  // gives the copy back to the item
      open_copies_.erase(key);
    });
    open_copies_[key] = copy;
    return copy;
  }

 private:
  std::map<std::string, std::weak_ptr<void>> open_copies_;
  // The coordinator waits here for the tasks in flight that use this environment's objects;
  // a call from a task's own threads never waits.
  void settle() const { TaskScheduler::settle_for_coordinator(*this); }
  std::string execute_site_;
  std::string task_;
  std::map<std::string, std::shared_ptr<ArrayData>> arrays_;
  std::map<std::string, std::shared_ptr<ScalarData>> scalars_;
  std::map<std::string, std::shared_ptr<ListData>> lists_;
  // coordinator_list's copies: the list (a List<T>), and the item's data and version it was
  // decoded from.
  struct DecodedList {
    std::shared_ptr<void> list;
    const ListData* data = nullptr;
    uint64_t version = 0;
  };
  std::map<std::string, DecodedList> decoded_;
  void note_decoded(const std::string& item) {
    const auto found = lists_.find(item);
    DecodedList& c = decoded_[item];
    c.data = found == lists_.end() ? nullptr : found->second.get();
    c.version = c.data ? c.data->version : 0;
  }
  // The elements of a List data file (every rank reads it: lists are small).
  // The input file of list item `item`, as `expect` says (errors stop every rank).
  DataCollection read_list_file(const std::string& item, const std::string& file, const ElementCodec& codec,
                                const FileExpectation& expect);
};

// An environment item passed to a function's `&` parameter in the coordinator: the function
// works on a copy that goes back into the item when the call's full expression ends
// (`f(EnvScalarRef<double>(env, "x").value())`). Arguments of one call naming the same item
// share the copy (Env::shared_copy), so that no write-back undoes another's.
template <class T>
class EnvScalarRef {
  struct Copy {
    Copy(Env& e, std::string i) : env(e), item(std::move(i)) {
      if (auto& s = env.scalar(item); s && s->set) value = env.get<T>(item);
    }
    Copy(const Copy&) = delete;
    Copy& operator=(const Copy&) = delete;
    ~Copy() { env.set<T>(item, value); }
    Env& env;
    std::string item;
    T value{};
  };

 public:
  EnvScalarRef(Env& env, const std::string& item) : copy_(env.shared_copy<Copy>("scalar " + item, env, item)) {}
  EnvScalarRef(const EnvScalarRef&) = delete;
  EnvScalarRef& operator=(const EnvScalarRef&) = delete;
  T& value() { return copy_->value; }

 private:
  std::shared_ptr<Copy> copy_;
};

// `env.cells[i].k = v` in the coordinator: a copy of the element of an array item, whose every
// copy is written when the full expression ends (collective, as element reads and writes are).
template <class T>
class EnvElementRef {
  struct Copy {
    Copy(Program& p, Env& e, std::string i, std::vector<int64_t> x)
        : prog(p), env(e), item(std::move(i)), index(std::move(x)) {
      env.read_element(prog, item, index, &value, sizeof value);
    }
    Copy(const Copy&) = delete;
    Copy& operator=(const Copy&) = delete;
    ~Copy() { env.write_element(prog, item, index, &value, sizeof value); }
    Program& prog;
    Env& env;
    std::string item;
    std::vector<int64_t> index;
    T value{};
  };

 public:
  EnvElementRef(Program& prog, Env& env, const std::string& item, const std::vector<int64_t>& index)
      : copy_(env.shared_copy<Copy>(element_key(item, index), prog, env, item, index)) {}
  EnvElementRef(const EnvElementRef&) = delete;
  EnvElementRef& operator=(const EnvElementRef&) = delete;
  T& value() { return copy_->value; }

 private:
  static std::string element_key(const std::string& item, const std::vector<int64_t>& index) {
    std::string key = "element " + item;
    for (int64_t i : index) key += " " + std::to_string(i);
    return key;
  }
  std::shared_ptr<Copy> copy_;
};

// The same for an array item: a whole copy on every rank (collective, as every rank runs the
// coordinator), given back to the item as a coordinator array would be (`env.x = a`).
template <class T>
class EnvArrayRef {
  struct Copy {
    Copy(Program& p, Env& e, std::string i, int dims, const ElementCodec& c)
        : prog(p),
          env(e),
          item(std::move(i)),
          codec(c),
          array(env.array_copy<T>(prog, item, dims)),
          ranges(array.ranges) {}
    Copy(const Copy&) = delete;
    Copy& operator=(const Copy&) = delete;
    Program& prog;
    Env& env;
    std::string item;
    const ElementCodec& codec;
    LocalArray<T> array;
    std::vector<DimRange> ranges;  // the item's when the call began
    // Cells changed in place keep the item shared; an array the function gave other ranges
    // replaces it (as `env.x = a` does).
    ~Copy() {
      if (array.ranges == ranges && !array.data.empty())
        env.write_cells(prog, item, ranges, reinterpret_cast<const std::byte*>(array.data.data()), sizeof(T));
      else
        env.assign(prog, item, array, codec);
    }
  };

 public:
  EnvArrayRef(Program& prog, Env& env, const std::string& item, int dims, const ElementCodec& codec)
      : copy_(env.shared_copy<Copy>("array " + item, prog, env, item, dims, codec)) {}
  EnvArrayRef(const EnvArrayRef&) = delete;
  EnvArrayRef& operator=(const EnvArrayRef&) = delete;
  LocalArray<T>& array() { return copy_->array; }

 private:
  std::shared_ptr<Copy> copy_;
};

// The same for a list item: a copy given back to the item (an item without a value starts empty).
template <class T>
class EnvListRef {
  struct Copy {
    Copy(Env& e, std::string i, const ElementCodec& c) : env(e), item(std::move(i)), codec(c) {
      env.get_list(item, list, codec);
    }
    Copy(const Copy&) = delete;
    Copy& operator=(const Copy&) = delete;
    ~Copy() { env.set_list(item, list, codec); }
    Env& env;
    std::string item;
    const ElementCodec& codec;
    List<T> list;
  };

 public:
  EnvListRef(Env& env, const std::string& item, const ElementCodec& codec)
      : copy_(env.shared_copy<Copy>("list " + item, env, item, codec)) {}
  EnvListRef(const EnvListRef&) = delete;
  EnvListRef& operator=(const EnvListRef&) = delete;
  List<T>& list() { return copy_->list; }

 private:
  std::shared_ptr<Copy> copy_;
};

template <class T>
bool Env::get_list(const std::string& item, List<T>& out, const ElementCodec& codec, int rank) {
  settle();
  auto& d = lists_[item];
  if (!d) d = std::make_shared<ListData>();
  auto a = arrays_.find(item);
  if (!d->set && a != arrays_.end() && a->second && !a->second->pending_input.empty()) {
    set_list(item,
             list_of_collection<T>(read_list_file(item, a->second->pending_input, codec, list_expectation<T>(rank))),
             codec);
    a->second->pending_input.clear();
  }
  if (!d->set) return false;
  value_from_bytes(out, d->bytes.data(), d->bytes.size());
  return true;
}

// Rank 0 runs `write` (of `file`); every rank calls this and learns whether it could, so that all
// stop alike with one message when it could not.
void write_on_root(Program& prog, const std::string& file, const std::function<void()>& write);
// A file the program will write later (bind_output), tested on rank 0 now: one that cannot be
// written stops every rank alike, with `what` and the reason, before the run computes it.
// Collective on MPI_COMM_WORLD: the coordinator's thread only.
void check_output_writable(Program& prog, const std::string& file, const std::string& what);
// "file.it:line: input for `item` of task `name`": the start of a message about an input file,
// at the bind_input or load that named it when the generated code gave its line.
std::string input_label(const ArrayData& a, const std::string& item, const std::string& task);
// Rank 0 writes a collection made from a program value (collections.h); every rank calls it (only
// rank 0's `c` is used). store_collection is `store`: it also notes the file, so that a bound
// output of the same file warns; write_collection writes a bound output.
void store_collection(Program& prog, const DataCollection& c, const ElementCodec& codec, const std::string& file);
void write_collection(Program& prog, const DataCollection& c, const ElementCodec& codec, const std::string& file);
// Every rank reads a file into a collection, rank 0 first (so it sees what an earlier `store`
// wrote); errors stop every rank with the file named.
DataCollection load_collection(const ElementCodec& codec, const std::string& file, const FileExpectation& expect);

// Sequential `store` of a coordinator array or list (rank 0 writes).
template <class T>
void store(Program& prog, const LocalArray<T>& a, const ElementCodec& codec, const std::string& file);
// `load(a, file)` for a coordinator array: every rank reads the whole file (ranges 0..n-1).
template <class T>
void load(Program&, LocalArray<T>& a, const ElementCodec& codec, const std::string& file) {
  FileExpectation expect;
  expect.kind = Collection::array;
  expect.rank = static_cast<int>(a.ranges.size());
  a = array_of_block<T>(load_collection(codec, file, expect).items.at(0));
}

template <class T>
void store(Program& prog, const List<T>& l, const ElementCodec& codec, const std::string& file) {
  if constexpr (IsLocalArray<T>::value)
    for (const auto& a : l.items) check_strings_fit(a.data, file);
  else
    check_strings_fit(l.items, file);
  TaskScheduler::settle_readers_for_coordinator(file);
  store_collection(prog, prog.rank() == 0 ? list_collection(l) : DataCollection{}, codec, file);
}
template <class T>
void store(Program& prog, const LocalArray<List<T>>& a, const ElementCodec& codec, const std::string& file) {
  for (const auto& l : a.data) check_strings_fit(l.items, file);
  TaskScheduler::settle_readers_for_coordinator(file);
  store_collection(prog, prog.rank() == 0 ? lists_array_collection(a) : DataCollection{}, codec, file);
}
// `load(l, file)` for a coordinator list (a List, or a List of Arrays) or array of lists.
template <class T>
void load(Program&, List<T>& l, const ElementCodec& codec, const std::string& file, int rank = -1) {
  // The file gives the elements; a capacity set before (set_capacity) stays if they fit in it.
  List<T> loaded = list_of_collection<T>(load_collection(codec, file, list_expectation<T>(rank)));
  loaded.capacity = std::max(loaded.capacity, l.capacity);
  l = std::move(loaded);
}
template <class T>
void load(Program&, LocalArray<List<T>>& a, const ElementCodec& codec, const std::string& file) {
  FileExpectation expect;
  expect.kind = Collection::array_of_lists;
  expect.rank = static_cast<int>(a.ranges.size());
  a = lists_array_of_collection<T>(load_collection(codec, file, expect));
}

// ---------------------------------------------------------------------------------------------
// Views: what stage loops see of one LPU's part
// ---------------------------------------------------------------------------------------------

// Element (g0, ..., gN-1) of the part lives at origin[g0*stride[0] + ... + gN-1*stride[N-1]]:
// the global-to-local translation is folded into `origin` once per LPU, so loops use raw
// pointers with unit stride in the last dimension. lo/hi are the held indices (padding
// included), increasing; the stage loops run over them. Dimensions split by stride() or
// block_stride() are not intervals: there `index[d]` lists the held global indices by local
// position, loops run over positions and elements are reached with at_pos().
template <class T, int N>
struct View {
  T* origin = nullptr;
  T* base = nullptr;        // element at local position (0, ..., 0)
  int64_t stride[N] = {};   // between local positions
  int64_t gstride[N] = {};  // between global indices: -stride along an inverted dimension
  int dir[N] = {};          // +1, or -1 along an inverted dimension (min > max)
  int64_t lo[N] = {};
  int64_t hi[N] = {};
  int64_t first[N] = {};         // global index at local position 0
  int64_t len[N] = {};           // held positions
  const int64_t* index[N] = {};  // dimensions that are no interval: global index per position
  const IndexSet1D* held[N] = {};
  // The positions of the storage's part before this view's first: a sub-partition, or a child
  // space's block, of a part is a run of its positions, and loops over arrays that stride() or
  // block_stride() cut go by position from 0 to len (`held` numbers from the storage's first).
  int64_t pshift[N] = {};
  // The whole dimension of the array (a section passed to a stage: the section's indices), in
  // the dimension's direction: what `x.dimensionK.range` gives in a stage.
  int64_t wfrom[N] = {};
  int64_t wto[N] = {};

  // The global index at local position p of dimension d. Stage loops over the dimensions that
  // stride() or block_stride() split go by position, even where one LPU's part is one run.
  int64_t global_at(int d, int64_t p) const { return index[d] ? index[d][p] : first[d] + dir[d] * p; }

  template <class... I>
  T& operator()(I... idx) const {
    static_assert(sizeof...(I) == N);
    const int64_t g[N] = {static_cast<int64_t>(idx)...};
    return at_index(g);
  }
  // The element at global indices g[0..N-1] of a part whose dimensions are intervals.
  T& at_index(const int64_t* g) const {
    int64_t off = 0;
    for (int d = 0; d < N; ++d) off += g[d] * gstride[d];
    return origin[off];
  }
  template <class... I>
  T& at_pos(I... pos) const {
    const int64_t p[N] = {static_cast<int64_t>(pos)...};
    int64_t off = 0;
    for (int d = 0; d < N; ++d) off += p[d] * stride[d];
    return base[off];
  }
  // Element by a mix of local positions (dimensions whose bit is set in PosMask: strided ones,
  // and loop indices that already run over positions) and global indices (the others). Loops
  // over a contiguous dimension of a strided part then index memory linearly, so they
  // vectorise like loops over block parts.
  template <unsigned PosMask, class... I>
  T& at_mix(I... v) const {
    static_assert(sizeof...(I) == N);
    const int64_t x[N] = {static_cast<int64_t>(v)...};
    int64_t off = 0;
    for (int d = 0; d < N; ++d) off += ((PosMask >> d) & 1u) ? x[d] * stride[d] : (x[d] - first[d]) * gstride[d];
    return base[off];
  }
  // Local position of global index g in dimension d (any dimension kind); fails if not held.
  // Strided dimensions search the index set; the last answer per dimension is remembered, since
  // a loop usually asks for the same row (`a[r][j]` for every j) again and again.
  // `where` ("prog.it:LINE: `v`", from a stage's subscript) starts the message of an index the
  // LPU does not hold.
  int64_t pos_of(int d, int64_t g, const char* where = nullptr) const {
    if (!index[d]) {
      const int64_t p = dir[d] < 0 ? first[d] - g : g - first[d];
      // Any cell of the storage's part (a view of a sub-partition reaches its neighbours').
      if (p + pshift[d] < 0 || p + pshift[d] >= (held[d] ? held[d]->size() : len[d])) not_held(d, g, where);
      return p;
    }
    if (cached[d] && g == cached_g[d]) return cached_pos[d];
    auto p = held[d]->local_of(g);
    if (!p) not_held(d, g, where);
    cached[d] = true;
    cached_g[d] = g;
    cached_pos[d] = *p - pshift[d];
    return cached_pos[d];
  }
  [[noreturn]] static void not_held(int d, int64_t g, const char* where) {
    fail((where ? std::string(where) + ": " : std::string()) + "index " + std::to_string(g) + " of dimension " +
         std::to_string(d + 1) + " is not held by this LPU");
  }
  mutable bool cached[N] = {};
  mutable int64_t cached_g[N] = {};
  mutable int64_t cached_pos[N] = {};
  // With --debug: a bounds check that names the IT source line.
  template <class... I>
  T& checked(const char* where, I... idx) const {
    const int64_t g[N] = {static_cast<int64_t>(idx)...};
    for (int d = 0; d < N; ++d)
      if (g[d] < lo[d] || g[d] > hi[d])
        fail(std::string(where) + ": index " + std::to_string(g[d]) + " of dimension " + std::to_string(d + 1) +
             " is outside the LPU's part " + std::to_string(lo[d]) + "..." + std::to_string(hi[d]));
    return (*this)(idx...);
  }
  // Before a loop that reaches indices first...last of dimension d at every turn (a subscript
  // of its body, outside any test): one check for the whole loop.
  void reach(const char* where, int d, int64_t first, int64_t last) const {
    if (first < lo[d] || last > hi[d])
      fail(std::string(where) + ": the loop reaches indices " + std::to_string(first) + "..." + std::to_string(last) +
           " of dimension " + std::to_string(d + 1) + ", outside the LPU's part " + std::to_string(lo[d]) + "..." +
           std::to_string(hi[d]) +
           " (are the arrays' index ranges consistent? a loop over a padded array also visits its padding, which an "
           "array padded less does not hold)");
  }
  // With --debug, for parts with strided dimensions: the same check against the held indices.
  template <class... I>
  T& checked_held(const char* where, I... idx) const {
    static_assert(sizeof...(I) == N);
    const int64_t g[N] = {static_cast<int64_t>(idx)...};
    return held_at(where, g);
  }
  RangeValue range(int d) const {  // in the dimension's direction
    if (dir[d] < 0) return RangeValue{static_cast<int32_t>(hi[d]), static_cast<int32_t>(lo[d])};
    return RangeValue{static_cast<int32_t>(lo[d]), static_cast<int32_t>(hi[d])};
  }
  bool holds(int d, int64_t i) const { return index[d] ? held[d]->contains(i) : (i >= lo[d] && i <= hi[d]); }
  // An element read by a flow condition (`Where x[k] > 0`): any kind of part; an index the LPU
  // does not hold is an error naming the IT line.
  template <class... I>
  T held_value(const char* where, I... idx) const {
    static_assert(sizeof...(I) == N);
    const int64_t g[N] = {static_cast<int64_t>(idx)...};
    return held_at(where, g);
  }
  // The element at global indices g[0..N-1] of any kind of part, checked; `of` says whose index
  // the message names (" of the section").
  T& held_at(const char* where, const int64_t* g, const char* of = "") const {
    int64_t off = 0;
    for (int d = 0; d < N; ++d) {
      if (!holds(d, g[d]))
        fail(std::string(where) + ": index " + std::to_string(g[d]) + " of dimension " + std::to_string(d + 1) + of +
             " is not held by this LPU");
      off += pos_of(d, g[d]) * stride[d];
    }
    return base[off];
  }
  RangeValue whole_range(int d) const {
    return RangeValue{static_cast<int32_t>(wfrom[d]), static_cast<int32_t>(wto[d])};
  }
};

// ---------------------------------------------------------------------------------------------
// Task instances
// ---------------------------------------------------------------------------------------------

struct Lpu {
  int lps = 0;
  int64_t id = 0;               // number within its LPS (grid order)
  std::vector<int64_t> coords;  // lpuId
  int64_t parent = 0;           // number of the parent LPU in the parent LPS
  int64_t ppu = 0;              // global PPU number at the LPS's PPS
  int rank = 0;
  int thread = 0;  // worker thread on that rank
};

// One space as the generated code describes it at launch (partition arguments substituted).
struct LpsDesc {
  std::string name;                                  // "Root", "A", ...
  int parent = -1;                                   // index of the parent LPS (-1 for Root)
  int dims = 0;                                      // 0 = un-partitioned
  int pps = 0;                                       // mapped PPS (0: the machine's top)
  std::vector<std::pair<int, ArrayConfig>> configs;  // array index -> configuration
  // `divides Space X sub-partitions`: the space splits the parent LPU's *current* sub-partition,
  // so its parts change from one `Repeat foreach` turn to the next (turn_part()).
  bool divides_sub = false;
  // Its parts change every foreach turn and its PPS would put LPUs in other processes than their
  // parent LPU: they run in the parent LPU's process, on the threads of its segment (the plan's
  // LpsPlacement::inParentProcess).
  bool in_parent_process = false;
  int sub_dims = 0;  // Sub-partition dimensions (0: none)
  VisitOrder sub_order = VisitOrder::increasing;
  std::vector<std::pair<int, ArrayConfig>> sub_configs;
};

class TaskInstance {
 public:
  TaskInstance(Program& prog, std::string task_name, Env& env);
  ~TaskInstance();
  Program& program() { return prog_; }
  const std::string& name() const { return name_; }
  // "prog.it:12: " for the coordinator's `execute` line running the task, or "" (generated
  // run() functions begin their messages with it).
  std::string at_execute() const;

  // -- set-up, in this order: arrays, Initialize, spaces, launch --------------------------
  // Declares task-global array `index` (in Define order). Environmental arrays are linked or
  // created from the environment; `home` is the LPS whose stages use the array (-1: none).
  void declare_array(int index, const std::string& name, int dims, size_t elem_size, const ElementCodec* codec,
                     bool environmental, int link_mode, int home, int versions, bool written);
  DimRange& range(int array, int dim);  // dimension ranges (Initialize)
  void set_ranges_set(int array);
  void copy_ranges(int dst, int src);  // `x.dimension = y.dimension`
  // `Initialize (w)` with `w` a task array: the array starts as a copy of the `initialize:`
  // argument (its ranges and cells), which launch() distributes as it does an array an earlier
  // task left. Initialize may not change its ranges afterwards, as for a linked array.
  template <class T>
  void initial_value(int array, LocalArray<T>& v) {
    if (v.data.empty()) v.allocate();
    initial_value(array, v.ranges, reinterpret_cast<const std::byte*>(v.data.data()));
  }
  template <class T, size_t N>
  void initial_value(int array, const std::array<T, N>& v) {  // a fixed-size array: its ranges are set
    initial_value(array, whole_ranges(array), reinterpret_cast<const std::byte*>(v.data()));
  }
  void initial_value(int array, const std::vector<DimRange>& ranges, const std::byte* data);
  RangeValue whole_range(int array, int d) const;
  const std::vector<DimRange>& whole_ranges(int array) const;
  // The part of `array` held by LPU `u` of any LPS (metadata only: `a.local...`, `x in R`).
  RangeValue local_range(int array, const Lpu& u, int d) const;
  bool holds(int array, const Lpu& u, int d, int64_t index) const;
  // The same inside `Repeat foreach sub-partition`, at turn `sub`: the cells the LPU works in then
  // (its current sub-partition, or in a space dividing sub-partitions its turn part), as the
  // stages see them; its part when it has neither, or none in this turn.
  RangeValue local_range(int array, const Lpu& u, int d, int64_t sub);
  bool holds(int array, const Lpu& u, int d, int64_t index, int64_t sub);
  template <class T, int N>
  View<T, N> piece_view(int array, const Lpu& u, int64_t sub, int lag = 0);
  void add_lps(LpsDesc desc);
  // Space `lps` (not the home) keeps parts of its own of `array`; movements fill them.
  void add_storage(int array, int lps);
  // Stages of Space `lps` work in views into the parts of `array` held by their ancestors in
  // Space `storage` (same memory, no copy), which must therefore be on the same rank.
  void view_in(int array, int lps, int storage);
  // Space `lps`, whose parts change every foreach turn, works in views of `array` that cannot be
  // views (a stride(), padding, epoch versions): each of its LPUs gets a copy of its part in
  // every turn, filled from the storage it would view at each entry of its block and, with
  // `write_back`, its owned cells returned there at each exit (view_in names that storage).
  // `parent_copy`: the block is entered from the parent's block and the parent works in a turn
  // copy too: that copy is the source and the target, not the storage.
  void turn_copy(int array, int lps, bool write_back);
  void fill_turn_copy(int array, const Lpu& u, int64_t sub, bool parent_copy);
  void write_back_turn_copy(int array, const Lpu& u, int64_t sub, bool parent_copy);
  // Entering an Epoch inside the space's block: the LPU's copy ages by one version.
  void age_turn_copy(int array, const Lpu& u, int64_t sub);
  // Entering an Epoch inside `Repeat foreach sub-partition` of the LPU's own space: the cells of
  // the current piece of a sub-partitioned `array` age by one version (the rest keep theirs).
  void age_piece(int array, const Lpu& u, int64_t sub);
  // Builds the LPU grids, places LPUs on ranks and threads, allocates this rank's parts and
  // reads pending inputs. Checks that every array has its ranges.
  void launch();
  // Refusals before building: too many LPUs in a space, a part larger than the machine's memory.
  void check_lpu_limit(const LpsDesc& d, const std::vector<ArrayConfig>& cfgs, const std::vector<int64_t>& counts,
                       int64_t already) const;
  void check_part_size(size_t a, int lps, const Part& p) const;
  void check_rank_memory() const;
  // Storage for part `p` of array `a` in space `lps`, one block per epoch version: the current
  // one cleared (unless `clear_current` is false: an input fills it), the others too if
  // `clear_all` (else they are copied from it once filled).
  std::shared_ptr<PartStorage> new_part_storage(size_t a, int lps, const Part& p, bool clear_all,
                                                bool clear_current = true) const;

  // -- flow --------------------------------------------------------------------------------
  const std::vector<Lpu>& lpus(int lps) const;
  const Lpu& ancestor(const Lpu& u, int lps) const;
  bool is_ancestor(int ancestor, int lps) const;  // `ancestor` is a proper ancestor of `lps`
  template <class T, int N>
  View<T, N> view(int array, const Lpu& u, int lag = 0);
  // A view holding no element of `array` (a stage argument whose elements the stage never
  // touches) that still knows the array's whole ranges (`x.dimension1.range` in the stage).
  template <class T, int N>
  View<T, N> empty_view(int array) const {
    View<T, N> v;
    const std::vector<DimRange>& whole = whole_ranges(array);
    for (int d = 0; d < N; ++d) {
      v.hi[d] = -1;
      v.wfrom[d] = whole[static_cast<size_t>(d)].min;
      v.wto[d] = whole[static_cast<size_t>(d)].max;
    }
    return v;
  }
  // The same view restricted to sub-partition `sub` of the LPU (foreach), or nullopt when the
  // LPU has fewer sub-partitions.
  template <class T, int N>
  std::optional<View<T, N>> sub_view(int array, const Lpu& u, int64_t sub, int lag = 0);
  // The number of sub-partitions of LPU `u` of `lps` (any LPU, on any rank).
  int64_t subpartitions(int lps, const Lpu& u) const;
  // A space that divides its parent's sub-partitions: the view of `array` for LPU `u` in turn
  // `sub` of the parent's `Repeat foreach`, or nullopt when the LPU has no part in that turn.
  template <class T, int N>
  std::optional<View<T, N>> turn_view(int array, const Lpu& u, int64_t sub, int lag = 0);
  // The largest number of sub-partitions of any LPU of `lps` (the same on every rank).
  int64_t max_subpartitions(int lps) const;
  // Synchronisations of the flow, declared after launch() in the same order on every rank;
  // each returns the number FlowContext calls use. `sync` names the IT_STATS line.
  // Exit of padded Space `lps`: the padded copies of `array` are refreshed, owner wins.
  // `home`: the storage space whose LPUs hold the parts that are refreshed.
  int padding_sync(int array, int home, int lps, const std::string& sync);
  // Reduction into `Space target: v` from stages of `invoking`; `readers` are the spaces below
  // the target whose flows read the result (they receive it from their target LPU).
  int reduction_sync(int invoking, int target, Combiner combiner, std::vector<int> readers, const std::string& sync);
  // Entry into (down) or exit from (!down) Space `child` below Space `parent` when both use an
  // array: the LPUs wait for their parent LPU, or the parent LPU for all of them (no data).
  int token_sync(int parent, int child, bool down, const std::string& sync);
  // Movement of `array` from the parts of Space `from` to those of Space `to` (both storage
  // spaces; equal for a replica broadcast): the sender LPUs `senders` selects send the cells
  // they own that the receiver holds; the others send nothing.
  int move_sync(int array, int from, int to, MoveSenders senders, const std::string& sync);
  // Movement of a task-global scalar (each LPU keeps its own copy) of `bytes` bytes from the
  // LPUs of Space `from` that wrote it to those of Space `to`. `scalar` numbers it for wrote().
  int scalar_sync(int scalar, int from, int to, size_t bytes, const std::string& sync,
                  ScalarSenders senders = ScalarSenders::related);
  // The IT source line of each synchronisation's point in the flow (by number), which the
  // watchdog's report of a hung run names (runtime/engine/watchdog.h).
  void sync_lines(std::vector<int> lines);
  // Runs the flow: one VDP per LPU of every listed space, on this rank's worker threads (one per
  // PPU of the lowest PPS the mapping uses, pinned when the model numbers its processors).
  void run_flow(const std::vector<std::pair<int, SpaceFlow>>& spaces);
  // After run_flow: value `slot` published by LPU 0 of `lps`, on every rank.
  void published(int slot, int lps, void* bytes, size_t n);
  std::vector<std::byte> published_bytes(int slot, int lps);  // the same, of any size
  int threads() const { return threads_; }
  // The OS processors each worker thread is pinned to (empty: not pinned).
  const std::vector<std::vector<int>>& thread_cpus() const;
  // Keeps environmental arrays in the environment; called at the end of the task.
  void finish();
  // Called by a stage that writes exactly the box lo[d]...hi[d] (global indices, per dimension)
  // of `array` in LPU `u`'s current version and reads no other cell of that version: kept for
  // FlowContext::complete_epoch. Ignored where `u` works in a view of an ancestor's part.
  void epoch_wrote(int array, const Lpu& u, const int64_t* lo, const int64_t* hi);

  std::vector<std::shared_ptr<ArrayData>> arrays;

 private:
  PartStorage& storage(int array, const Lpu& u);
  const Part& part_of(int array, int lps, int64_t lpu) const;
  // The part with what it owns cut to what each padded ancestor part owns: the cells it may
  // hand on to others (a parent's padding belongs to the parent's neighbour).
  Part owning_part(int array, int lps, int64_t lpu) const;
  void read_input(int array);
  // The shape of `a`'s pending input file, as an array of `dims` dimensions (collective).
  void read_input_shape(int index, ArrayData& a, int dims, const std::string& what);
  // Fills this task's parts of `array` in its home space from the parts of `old` (each cell from
  // the one part that owns it), except those marked in `adopted`. `fixed`: for a section that
  // drops dimensions, where this array's dimensions sit in `old`'s (Part::with_fixed).
  void hand_over(size_t array, const ArrayData& old, const std::vector<char>& adopted,
                 const std::vector<std::optional<int64_t>>& fixed);
  void move_cells(const std::string& sync, const ArrayData& from, const std::vector<Part>& to_parts,
                  const std::vector<int>& to_rank, const std::vector<std::byte*>& to_store,
                  const std::vector<char>& skip);
  // A view of a section that this task wrote: its cells go back into the viewed item's parts.
  void write_back(size_t array);
  // Resolves a linked view of a section against the viewed item: ranges, element type.
  void resolve_section(size_t array);
  std::vector<int64_t> read_text_input(int index, const std::string& file, const ElementCodec& codec,
                                       const FileExpectation& expect, const std::string& what);
  void scatter_text_input(int array, const std::vector<PartStorage*>& mine);
  struct Piece;     // a box of cells a refresh moves from one home LPU (task_state.h)
  struct ViewDesc;  // a space working in views of an ancestor's parts (task_state.h)
  struct SyncDesc;  // one synchronisation of the flow (task_state.h)
  struct State;     // the instance's grids, parts and plans (task_state.h)
  std::vector<Piece>& refresh_plan(int array, int home, int lps);
  // The space whose parts stages of `lps` work in for `array` (itself, or the one it views).
  int storage_space(int array, int lps) const;
  // The storage and the cells of LPU `u`'s view of `array`: for view(), for sub_view() (nullopt:
  // the LPU has fewer sub-partitions) and for turn_view() (nullopt: no part in that turn).
  struct ViewSource {
    PartStorage* storage;
    const Part* cells;
  };
  ViewSource view_source(int array, const Lpu& u);
  std::optional<ViewSource> sub_view_source(int array, const Lpu& u, int64_t sub);
  std::optional<ViewSource> turn_view_source(int array, const Lpu& u, int64_t sub);
  void allocate_turn_copies();
  PartStorage* turn_copy_of(int array, const Lpu& u, int64_t sub);  // null: none in this turn
  PartStorage* turn_copy_source(int array, const Lpu& u, int64_t sub, bool parent_copy);
  void write_back_one_turn_copy(int array, const Lpu& u, int64_t sub, bool parent_copy);
  ViewSource piece_view_source(int array, const Lpu& u, int64_t sub);
  friend struct LpuState;
  friend class FlowContext;
  friend class FlowBuilder;
  // The watchdog's words for where LPU VDP `v` waits (empty for other VDPs).
  std::string describe_wait(Vdp& v) const;

  Program& prog_;
  std::string name_;
  Env& env_;
  // "prog.it:12: task `T`": how the task's messages begin (the `execute` line, when known).
  std::string task_label() const;
  // The task's own communicator (TaskScheduler::task_comm on the thread that made the instance):
  // every message and collective of the task goes over it, apart from other tasks' traffic.
  MPI_Comm comm_;
  std::unique_ptr<State> s_;
  // The sub-partition parts of every LPU of `lps` (all ranks), per array of its Sub-partition
  // section, in visiting order: [array][turn].
  std::map<int, std::vector<Part>> subpartition_parts(int lps, const Lpu& u) const;
  void print_banner() const;  // IT_VERBOSE=1
  int threads_ = 1;
};

// The indices a stage's sequential loop over `x.local.dimensionK.range` visits along dimension d
// of its view: along a dimension stride() or block_stride() cut, the ones the LPU holds (of the
// view's lo...hi), in storage order; along any other, lo...hi in the dimension's direction.
template <class T, int N>
HeldIndices held_indices(const View<T, N>& v, int d) {
  if (!v.index[d])
    return HeldIndices{nullptr, v.dir[d] < 0 ? v.hi[d] : v.lo[d], v.dir[d] < 0 ? -1 : 1,
                       std::max<int64_t>(0, v.hi[d] - v.lo[d] + 1)};
  const auto inside = [&](int64_t p) {
    const int64_t g = v.global_at(d, p);
    return g >= v.lo[d] && g <= v.hi[d];
  };
  int64_t first = 0, end = v.len[d];  // the held indices of a section are a run of positions
  while (first < end && !inside(first)) ++first;
  while (end > first && !inside(end - 1)) --end;
  return HeldIndices{v.index[d] + first, 0, 1, end - first};
}

// ---------------------------------------------------------------------------------------------
// Template implementations
// ---------------------------------------------------------------------------------------------

namespace detail {
// The first position in `held` of the cells `run` (a part within it, as a sub-partition or a
// child space's block of a stride() part is): they must be consecutive positions of it.
inline int64_t held_run(const IndexSet1D& held, const IndexSet1D& run) {
  if (run.empty()) return 0;
  const auto a = held.local_of(run.first()), b = held.local_of(run.last());
  if (!a || !b || std::max(*a, *b) - std::min(*a, *b) + 1 != run.size())
    fail("a view of a part cut by stride() or block_stride() whose cells are not consecutive in it (" +
         run.to_string() + " of " + held.to_string() + ")");
  return std::min(*a, *b);
}

template <class T, int N>
View<T, N> make_view(PartStorage& s, std::byte* data, const Part& range_part, const std::vector<DimRange>& whole) {
  View<T, N> v;
  const Part& held_part = s.part;
  std::vector<int64_t> st = held_part.strides();
  int64_t origin_off = 0, shift_off = 0;
  for (int d = 0; d < N; ++d) {
    const IndexSet1D& h = held_part.held(d);
    v.stride[d] = st[static_cast<size_t>(d)];
    v.len[d] = h.size();
    v.held[d] = &h;
    v.first[d] = h.empty() ? 0 : h.first();
    v.dir[d] = h.dir();
    v.gstride[d] = h.dir() < 0 ? -v.stride[d] : v.stride[d];
    const IndexSet1D& r = range_part.held(d);
    if (!h.contiguous()) {
      v.index[d] = s.index_tables[static_cast<size_t>(d)].data();  // filled at allocation
      // Stage loops over this dimension go by position from 0 to len: a view of fewer cells
      // than the storage holds (its run of positions) starts there.
      if (r.size() != h.size()) {
        v.pshift[d] = held_run(h, r);
        v.len[d] = r.size();
        v.index[d] += v.pshift[d];
        shift_off += v.pshift[d] * v.stride[d];
      }
    } else {
      if (r.size() != h.size() && !r.empty()) {  // likewise (loops over strided arrays go by position)
        v.pshift[d] = held_run(h, r);
        v.len[d] = r.size();
        v.first[d] = h.at(v.pshift[d]);
        shift_off += v.pshift[d] * v.stride[d];
      }
      origin_off += v.first[d] * v.gstride[d];
    }
    // Loops run from lo to hi whatever the direction (parallel loops have no order).
    v.lo[d] = r.empty() ? 0 : std::min(r.first(), r.last());
    v.hi[d] = r.empty() ? -1 : std::max(r.first(), r.last());
    v.wfrom[d] = whole[static_cast<size_t>(d)].min;
    v.wto[d] = whole[static_cast<size_t>(d)].max;
  }
  v.base = reinterpret_cast<T*>(data) + shift_off;
  v.origin = v.base - origin_off;  // slice() adds positions (from pos_of) of the indexed dimensions
  return v;
}
}  // namespace detail

template <class T, int N>
View<T, N> TaskInstance::view(int array, const Lpu& u, int lag) {
  const ViewSource v = view_source(array, u);
  return detail::make_view<T, N>(*v.storage, v.storage->version(lag), *v.cells, whole_ranges(array));
}

template <class T, int N>
std::optional<View<T, N>> TaskInstance::sub_view(int array, const Lpu& u, int64_t sub, int lag) {
  const std::optional<ViewSource> v = sub_view_source(array, u, sub);
  if (!v) return std::nullopt;
  return detail::make_view<T, N>(*v->storage, v->storage->version(lag), *v->cells, whole_ranges(array));
}

template <class T, int N>
std::optional<View<T, N>> TaskInstance::turn_view(int array, const Lpu& u, int64_t sub, int lag) {
  const std::optional<ViewSource> v = turn_view_source(array, u, sub);
  if (!v) return std::nullopt;
  return detail::make_view<T, N>(*v->storage, v->storage->version(lag), *v->cells, whole_ranges(array));
}

template <class T, int N>
View<T, N> TaskInstance::piece_view(int array, const Lpu& u, int64_t sub, int lag) {
  const ViewSource v = piece_view_source(array, u, sub);
  return detail::make_view<T, N>(*v.storage, v.storage->version(lag), *v.cells, whole_ranges(array));
}

template <class T>
void store(Program& prog, const LocalArray<T>& a, const ElementCodec& codec, const std::string& file) {
  check_strings_fit(a.data, file);
  TaskScheduler::settle_readers_for_coordinator(file);
  store_collection(prog, prog.rank() == 0 ? DataCollection::array(array_block(a)) : DataCollection{}, codec, file);
}

}  // namespace itrt::task
