// Implements TaskInstance (program.h): LPU grids and their placement on ranks and threads,
// allocation of this rank's parts, input reading and hand-over between tasks, the pieces of a
// padding refresh (exchanged by flow.cpp), and the hand-back of environmental data.
// Must not know IT syntax: the generated code describes spaces and arrays through LpsDesc.
#include "runtime/data/io/file_layout.h"
#include "runtime/data/transfer_schedule.h"
#include "runtime/task/boxes.h"
#include "runtime/task/program.h"
#include "runtime/task/task_state.h"
#include "runtime/engine/pinning.h"
#include "runtime/support/mpi_calls.h"

#include <mpi.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <limits>
#include <set>

namespace itrt::task {
using namespace boxes;

// A dimension bound no one has set yet (Initialize must set every bound of a task's new array).
constexpr int64_t kUnsetBound = std::numeric_limits<int64_t>::min();

TaskInstance::TaskInstance(Program& prog, std::string task_name, Env& env)
    : prog_(prog),
      name_(std::move(task_name)),
      env_(env),
      comm_(TaskScheduler::task_comm()),
      s_(std::make_unique<State>()) {}

TaskInstance::~TaskInstance() = default;

std::string TaskInstance::at_execute() const {
  return env_.execute_site().empty() ? std::string() : env_.execute_site() + ": ";
}

std::string TaskInstance::task_label() const { return at_execute() + "task `" + name_; }

const std::vector<Lpu>& TaskInstance::lpus(int lps) const { return s_->grid_[static_cast<size_t>(lps)]; }
int64_t TaskInstance::max_subpartitions(int lps) const { return s_->max_subpartitions_[static_cast<size_t>(lps)]; }
void TaskInstance::view_in(int array, int lps, int storage) { s_->views_.push_back({array, lps, storage}); }
void TaskInstance::sync_lines(std::vector<int> lines) { s_->sync_lines_ = std::move(lines); }
const std::vector<std::vector<int>>& TaskInstance::thread_cpus() const { return s_->thread_cpus_; }

TaskInstance::ViewSource TaskInstance::view_source(int array, const Lpu& u) {
  const int h = storage_space(array, u.lps);
  if (u.lps == h) {
    PartStorage& s = storage(array, u);
    return {&s, &s.part};
  }
  // A space that views its ancestor's parts: this LPU's cells inside them (same memory).
  return {&storage(array, ancestor(u, h)), &part_of(array, u.lps, u.id)};
}

std::optional<TaskInstance::ViewSource> TaskInstance::sub_view_source(int array, const Lpu& u, int64_t sub) {
  PartStorage& s = storage(array, u);
  auto subs = s_->sub_parts_.find({u.lps, array});
  if (subs == s_->sub_parts_.end() || subs->second[static_cast<size_t>(u.id)].empty()) return ViewSource{&s, &s.part};
  const auto& mine = subs->second[static_cast<size_t>(u.id)];
  if (sub >= static_cast<int64_t>(mine.size())) return std::nullopt;
  return ViewSource{&s, &mine[static_cast<size_t>(sub)]};
}

std::optional<TaskInstance::ViewSource> TaskInstance::turn_view_source(int array, const Lpu& u, int64_t sub) {
  if (s_->turn_copies_.count({u.lps, array})) {
    PartStorage* copy = turn_copy_of(array, u, sub);
    if (!copy) return std::nullopt;
    return ViewSource{copy, &copy->part};
  }
  auto it = s_->turn_parts_.find({u.lps, array});
  if (it == s_->turn_parts_.end()) return view_source(array, u);  // not in the sub-partition
  const auto& turns = it->second[static_cast<size_t>(u.id)];
  if (sub >= static_cast<int64_t>(turns.size()) || !turns[static_cast<size_t>(sub)]) return std::nullopt;
  return ViewSource{&storage(array, ancestor(u, storage_space(array, u.lps))), &*turns[static_cast<size_t>(sub)]};
}

void TaskInstance::declare_array(int index, const std::string& name, int dims, size_t elem_size,
                                 const ElementCodec* codec, bool environmental, int link_mode, int home, int versions,
                                 bool written) {
  size_t i = static_cast<size_t>(index);
  if (arrays.size() <= i) {
    arrays.resize(i + 1);
    s_->home_.resize(i + 1, -1);
    s_->versions_.resize(i + 1, 1);
    s_->written_.resize(i + 1, false);
    s_->store_.resize(i + 1);
    s_->other_store_.resize(i + 1);
    s_->section_fixed_.resize(i + 1);
    s_->linked_ranges_.resize(i + 1);
    s_->given_to_initialize_.resize(i + 1, 0);
  }
  std::shared_ptr<ArrayData> a;
  if (environmental && env_.array(name) && env_.array(name)->section) {
    a = env_.array(name);
  } else if (environmental) {
    auto& item = env_.array(name);
    bool exists = item && (item->has_ranges || !item->pending_input.empty() || item->shapeless);
    if (link_mode == 0 && !exists)
      fail_collective(task_label() + "` links environment item `" + name +
                      "`, but it has not been created, bound to an input file or assigned");
    // Creating it would drop the file unread, which is never what binding it meant.
    if (link_mode == 1 && item && !item->pending_input.empty())
      fail_collective(task_label() + "` creates environment item `" + name + "`, but the file `" + item->pending_input +
                      "` bound or loaded into it has not been read; link the item in the task (`" + name +
                      ": link`) to read the file, or do not bind it");
    // An item that holds nothing yet is filled in place: environments that share it
    // (`env.x = other.y` before this task ran) see the new array. `create` of an item that
    // exists replaces it in this environment only: others that share it keep the old array.
    if (!item || (link_mode == 1 && exists))
      item = std::make_shared<ArrayData>();
    else if (!exists)
      *item = ArrayData{};
    a = item;
  } else {
    a = std::make_shared<ArrayData>();
  }
  // Two items of this task sharing one array (`env.x = env.y = other.z`): each gets parts of its
  // own, so the task may read both but write neither (a write through one would not be seen
  // through the other).
  for (size_t j = 0; j < arrays.size(); ++j)
    if (j != i && arrays[j] == a && (written || s_->written_[j]))
      fail_collective(task_label() + "`: environment items `" + a->name + "` and `" + name +
                      "` are the same array (assigned from one item), and the task writes it; a task "
                      "may only read an array it sees under two names — give one of them another array");
  a->name = name;
  a->dims = dims;
  a->elem_size = elem_size;
  a->codec = codec;
  // Bounds Initialize must set start out unset, so that launch() can name one it did not set.
  if (!a->has_ranges || a->ranges.size() != static_cast<size_t>(dims))
    a->ranges.assign(static_cast<size_t>(dims), DimRange{kUnsetBound, kUnsetBound});
  if (!a->pending_input.empty()) read_input_shape(index, *a, dims, input_label(*a, name, name_) + ": ");
  arrays[i] = a;
  s_->home_[i] = home;
  s_->versions_[i] = std::max(1, versions);
  s_->written_[i] = written;
  if (a->section) resolve_section(i);
  // The ranges of a linked array, which Initialize may not change (launch checks).
  s_->linked_ranges_[i] = a->has_ranges ? a->ranges : std::vector<DimRange>{};
}

namespace {
// PartStorage::index_tables of a part: the held indices of each dimension that is no interval
// (none at all, not even the outer vector, when every dimension is one: the common case).
std::vector<std::vector<int64_t>> index_tables_of(const Part& p) {
  std::vector<std::vector<int64_t>> t;
  for (int d = 0; d < p.rank(); ++d)
    if (!p.held(d).contiguous()) {
      t.resize(static_cast<size_t>(p.rank()));
      t[static_cast<size_t>(d)] = p.held(d).indices();
    }
  return t;
}

// Makes `a` one part, the whole array, held by rank 0: the next task takes its parts from there
// as from any distribution an earlier task left. Returns the part's memory on rank 0 (not
// cleared), null elsewhere.
std::byte* hold_whole_on_rank_zero(ArrayData& a, int rank) {
  const Part whole = Part::whole(a.ranges);
  a.parts = {whole};
  a.part_rank = {0};
  a.strided = !is_box(whole);
  a.owner = {1};
  a.canonical = {a.strided ? Box{} : owned_box(whole)};
  a.storage = {nullptr};
  if (rank != 0) return nullptr;
  auto ps = std::make_shared<PartStorage>();
  ps->part = whole;
  ps->index_tables = index_tables_of(whole);
  const size_t bytes = static_cast<size_t>(whole.element_count()) * a.elem_size;
  ps->versions.emplace_back(new std::byte[std::max<size_t>(bytes, 1)]);
  ps->set_counted(static_cast<int64_t>(bytes));
  a.storage[0] = ps;
  return ps->versions[0].get();
}

// An input file bound or loaded into an item (its element type known) that no task has read yet,
// needed before a task reads it part-wise (the coordinator reads the item, a task views a
// section of it): rank 0 reads it whole, collectively over `comm`, into one part of the item,
// from which the next task takes its parts as from any distribution.
void read_input_whole(MPI_Comm comm, int rank, ArrayData& a, const std::string& what) {
  if (a.pending_input.empty() || !a.parts.empty() || !a.codec || a.dims <= 0) return;
  const std::string file = a.pending_input;
  FileExpectation expect;
  expect.kind = Collection::array;
  expect.rank = a.dims;
  std::vector<int64_t> lengths(static_cast<size_t>(a.dims), 0);
  DataCollection text;
  std::string error;
  try {
    if (extension(file) == ".bin") {
      lengths = read_array_shape(comm, file, *a.codec, expect);
    } else if (rank == 0) {
      text = read_data_file(file, *a.codec, expect);
      lengths = text.shape;
    }
  } catch (const std::exception& e) {
    error = exception_text(e);
  }
  int bad = error.empty() ? 0 : 1;
  mpi::allreduce_in_place(&bad, 1, MPI_INT, MPI_MAX, comm);
  if (bad) fail_collective(what + "reading `" + file + "`: " + (error.empty() ? "unreadable" : error));
  mpi::bcast(lengths.data(), a.dims, MPI_INT64_T, 0, comm);
  a.pending_input.clear();
  a.ranges.clear();
  for (int64_t n : lengths) a.ranges.push_back(DimRange{0, n - 1});
  a.has_ranges = true;
  std::byte* mine = hold_whole_on_rank_zero(a, rank);
  if (extension(file) == ".bin") {
    std::vector<LocalPart> parts;
    if (mine) parts.push_back({&a.storage[0]->part, mine});
    read_array_parts(comm, file, *a.codec, a.ranges, parts);
  } else if (mine) {
    std::memcpy(mine, text.items[0].bytes.data(), text.items[0].bytes.size());
  }
}
}  // namespace

void TaskInstance::read_input_shape(int index, ArrayData& a, int dims, const std::string& what) {
  const std::string& file = a.pending_input;
  FileExpectation expect;
  expect.kind = Collection::array;
  expect.rank = dims;
  std::vector<int64_t> lengths;
  if (extension(file) == ".bin") {
    try {
      lengths = read_array_shape(comm_, file, *a.codec, expect);
    } catch (const std::exception& e) {
      fail_collective(what + exception_text(e));
    }
  } else {
    lengths = read_text_input(index, file, *a.codec, expect, what);
  }
  a.dims = dims;
  a.ranges.assign(static_cast<size_t>(dims), DimRange{});
  for (int d = 0; d < dims; ++d) a.ranges[static_cast<size_t>(d)] = DimRange{0, lengths[static_cast<size_t>(d)] - 1};
  a.has_ranges = true;
}

void TaskInstance::resolve_section(size_t i) {
  ArrayData& a = *arrays[i];
  const std::shared_ptr<const Section> sec = a.section;
  ArrayData& of = *sec->of;
  const std::string what = task_label() + "`: environment item `" + a.name + "`" +
                           (sec->made_at.empty() ? "" : " (the view made at " + sec->made_at + ")") +
                           " is a view of a section of `" + of.name + "`";
  // A view of an input no task has read yet (`load` into an item, `bind_input`): read whole now.
  // Without a known shape, the file is read in the view's element type, with the view's
  // dimensions and those the section fixes.
  if (!of.pending_input.empty() && of.parts.empty()) {
    if (!of.has_ranges) {
      const int fixed = static_cast<int>(std::count_if(
          sec->dims.begin(), sec->dims.end(), [](const SectionDim& d) { return d.kind == SectionDim::index; }));
      of.elem_size = a.elem_size;
      of.codec = a.codec;
      of.dims = a.dims + fixed;
    }
    read_input_whole(comm_, prog_.rank(), of, input_label(of, of.name, name_) + ", viewed by `" + a.name + "`: ");
  }
  if (!of.has_ranges)
    fail_collective(what + (of.pending_input.empty() ? ", which has not been created or produced by any task"
                                                     : ", whose input file no task has read yet"));
  if (of.elem_size != a.elem_size) fail_collective(what + " of a different element type");
  std::vector<DimRange> ranges;
  std::vector<std::optional<int64_t>> fixed;
  bool drops = false;
  for (size_t d = 0; d < of.ranges.size(); ++d) {
    const SectionDim sd = d < sec->dims.size() ? sec->dims[d] : SectionDim{};
    const DimRange& r = of.ranges[d];
    const int64_t lo = std::min(r.min, r.max), hi = std::max(r.min, r.max);
    auto inside = [&](int64_t x) {
      if (x < lo || x > hi)
        fail_collective(what + ": index " + std::to_string(x) + " of dimension " + std::to_string(d + 1) +
                        " is outside its range " + std::to_string(r.min) + "..." + std::to_string(r.max));
    };
    switch (sd.kind) {
      case SectionDim::whole:
        ranges.push_back(r);
        fixed.push_back(std::nullopt);
        break;
      case SectionDim::range:
        if (sd.first > sd.last)
          fail_collective(what + ": the section " + std::to_string(sd.first) + "..." + std::to_string(sd.last) +
                          " of dimension " + std::to_string(d + 1) +
                          " runs downwards; a view's section runs upwards: write " + std::to_string(sd.last) + "..." +
                          std::to_string(sd.first));
        inside(sd.first);
        inside(sd.last);
        ranges.push_back(DimRange{sd.first, sd.last});
        fixed.push_back(std::nullopt);
        break;
      case SectionDim::index:
        inside(sd.first);
        fixed.push_back(sd.first);
        drops = true;
        break;
    }
  }
  if (static_cast<int>(ranges.size()) != a.dims)
    fail_collective(what + " with " + std::to_string(ranges.size()) + " dimensions, but the task declares it with " +
                    std::to_string(a.dims));
  // Fresh parts every time: the viewed item may have changed since the view was last used.
  ArrayData fresh;
  fresh.section = sec;
  fresh.name = a.name;
  fresh.elem_size = a.elem_size;
  fresh.codec = a.codec;
  fresh.dims = a.dims;
  fresh.ranges = std::move(ranges);
  fresh.has_ranges = true;
  a = std::move(fresh);
  s_->section_fixed_[i] = drops ? std::move(fixed) : std::vector<std::optional<int64_t>>{};
}

DimRange& TaskInstance::range(int array, int dim) {
  auto& a = *arrays[static_cast<size_t>(array)];
  a.has_ranges = true;
  return a.ranges[static_cast<size_t>(dim)];
}

void TaskInstance::set_ranges_set(int array) { arrays[static_cast<size_t>(array)]->has_ranges = true; }

void TaskInstance::copy_ranges(int dst, int src) {
  auto& d = *arrays[static_cast<size_t>(dst)];
  d.ranges = arrays[static_cast<size_t>(src)]->ranges;
  d.has_ranges = true;
}

void TaskInstance::initial_value(int array, const std::vector<DimRange>& ranges, const std::byte* data) {
  ArrayData& a = *arrays[static_cast<size_t>(array)];
  const std::string what = task_label() + "`: Initialize parameter `" + a.name + "`";
  if (a.section)
    fail_collective(what + " would replace environment item `" + a.name +
                    "`, a view of another array; give the item the array in the coordinator instead (`env." + a.name +
                    " = ...`)");
  if (ranges.size() != static_cast<size_t>(a.dims))
    fail_collective(what + " is given a " + std::to_string(ranges.size()) + "-dimensional array for a " +
                    std::to_string(a.dims) + "-dimensional one");
  for (size_t d = 0; d < ranges.size(); ++d) {
    if (ranges[d].length() <= 0)
      fail_collective(what + ": dimension " + std::to_string(d + 1) +
                      " of the array given has no range (set its range.min and range.max first)");
    const auto& linked = s_->linked_ranges_[static_cast<size_t>(array)];
    if (d < linked.size() && (linked[d].min != ranges[d].min || linked[d].max != ranges[d].max))
      fail_collective(what + " gives the linked array dimension " + std::to_string(d + 1) + " = " +
                      std::to_string(ranges[d].min) + "..." + std::to_string(ranges[d].max) + ", but it has " +
                      std::to_string(linked[d].min) + "..." + std::to_string(linked[d].max) +
                      "; a linked array keeps its ranges");
  }
  a.pending_input.clear();
  a.ranges = ranges;
  a.has_ranges = true;
  if (std::byte* mine = hold_whole_on_rank_zero(a, prog_.rank()))
    std::memcpy(mine, data, static_cast<size_t>(a.parts[0].element_count()) * a.elem_size);
  // As for a linked array, the body may not give it other ranges (launch checks).
  s_->linked_ranges_[static_cast<size_t>(array)] = ranges;
  s_->given_to_initialize_[static_cast<size_t>(array)] = 1;
}

const std::vector<DimRange>& TaskInstance::whole_ranges(int array) const {
  return arrays[static_cast<size_t>(array)]->ranges;
}

RangeValue TaskInstance::whole_range(int array, int d) const {
  const DimRange& r = arrays[static_cast<size_t>(array)]->ranges[static_cast<size_t>(d)];
  return RangeValue{static_cast<int32_t>(r.min), static_cast<int32_t>(r.max)};
}

RangeValue TaskInstance::local_range(int array, const Lpu& u, int d) const {
  const IndexSet1D& h = part_of(array, u.lps, u.id).held(d);
  if (h.empty()) return RangeValue{0, -1};
  return RangeValue{static_cast<int32_t>(h.first()), static_cast<int32_t>(h.last())};
}

bool TaskInstance::holds(int array, const Lpu& u, int d, int64_t index) const {
  return part_of(array, u.lps, u.id).held(d).contains(index);
}

TaskInstance::ViewSource TaskInstance::piece_view_source(int array, const Lpu& u, int64_t sub) {
  if (s_->turn_parts_.count({u.lps, array})) return turn_view_source(array, u, sub).value_or(view_source(array, u));
  for (const auto& [a, cfg] : s_->lps_[static_cast<size_t>(u.lps)].sub_configs)
    if (a == array) return sub_view_source(array, u, sub).value_or(view_source(array, u));
  return view_source(array, u);
}

RangeValue TaskInstance::local_range(int array, const Lpu& u, int d, int64_t sub) {
  const IndexSet1D& h = piece_view_source(array, u, sub).cells->held(d);
  if (h.empty()) return RangeValue{0, -1};
  return RangeValue{static_cast<int32_t>(h.first()), static_cast<int32_t>(h.last())};
}

bool TaskInstance::holds(int array, const Lpu& u, int d, int64_t index, int64_t sub) {
  return piece_view_source(array, u, sub).cells->held(d).contains(index);
}

void TaskInstance::add_lps(LpsDesc desc) { s_->lps_.push_back(std::move(desc)); }

void TaskInstance::add_storage(int array, int lps) { s_->other_store_[static_cast<size_t>(array)][lps]; }

void TaskInstance::turn_copy(int array, int lps, bool write_back) {
  s_->turn_copies_[{lps, array}].write_back = write_back;
}

// This rank's copies of every turn copy, and which replica writes back: the LPU at coordinate 0
// of every space dimension that does not split the array.
void TaskInstance::allocate_turn_copies() {
  const int me = prog_.rank();
  for (auto& [key, tc] : s_->turn_copies_) {
    const auto [l, a] = key;
    const LpsDesc& d = s_->lps_[static_cast<size_t>(l)];
    std::vector<bool> splits(static_cast<size_t>(d.dims), false);
    for (const auto& [array, cfg] : d.configs)
      if (array == a)
        for (size_t k = 0; k < cfg.dims.size() && k < splits.size(); ++k) splits[k] = !cfg.dims[k].replicated;
    const auto& grid = s_->grid_[static_cast<size_t>(l)];
    tc.copies.assign(grid.size(), {});
    tc.writes_back.assign(grid.size(), 0);
    const auto turns = s_->turn_parts_.find({l, a});
    tc.every_turn = turns == s_->turn_parts_.end();
    uint64_t allocated = 0;
    for (const Lpu& u : grid) {
      bool primary = true;
      for (size_t k = 0; k < splits.size() && k < u.coords.size(); ++k)
        primary = primary && (splits[k] || u.coords[k] == 0);
      tc.writes_back[static_cast<size_t>(u.id)] = tc.write_back && primary;
      if (u.rank != me) continue;
      ++tc.siblings[u.parent];
      auto& mine = tc.copies[static_cast<size_t>(u.id)];
      if (turns == s_->turn_parts_.end()) {
        mine.push_back(new_part_storage(static_cast<size_t>(a), l, part_of(a, l, u.id), true));
      } else {
        for (const std::optional<Part>& p : turns->second[static_cast<size_t>(u.id)])
          mine.push_back(p ? new_part_storage(static_cast<size_t>(a), l, *p, true) : nullptr);
      }
      for (const auto& ps : mine)
        if (ps)
          allocated += static_cast<uint64_t>(ps->part.element_count()) * arrays[static_cast<size_t>(a)]->elem_size *
                       ps->versions.size();
    }
    if (allocated) prog_.note_memory(arrays[static_cast<size_t>(a)]->name, allocated);
  }
}

PartStorage* TaskInstance::turn_copy_of(int array, const Lpu& u, int64_t sub) {
  auto it = s_->turn_copies_.find({u.lps, array});
  if (it == s_->turn_copies_.end() || static_cast<size_t>(u.id) >= it->second.copies.size()) return nullptr;
  const auto& mine = it->second.copies[static_cast<size_t>(u.id)];
  if (mine.empty()) return nullptr;
  if (it->second.every_turn) return mine.front().get();
  return sub >= 0 && sub < static_cast<int64_t>(mine.size()) ? mine[static_cast<size_t>(sub)].get() : nullptr;
}

namespace {

// Calls f(copy offset, storage offset) for every cell of `copy` that the storage's part holds
// and `keep` accepts (given the global indices).
template <class Keep, class F>
void for_each_shared_cell(const Part& copy, const Part& storage, Keep keep, F f) {
  const int n = copy.rank();
  std::vector<std::vector<int64_t>> idx(static_cast<size_t>(n));
  for (int d = 0; d < n; ++d) {
    idx[static_cast<size_t>(d)] = copy.held(d).indices();
    if (idx[static_cast<size_t>(d)].empty()) return;
  }
  std::vector<size_t> k(static_cast<size_t>(n), 0);
  std::vector<int64_t> g(static_cast<size_t>(n));
  for (;;) {
    for (size_t d = 0; d < static_cast<size_t>(n); ++d) g[d] = idx[d][k[d]];
    if (keep(g)) {
      const auto so = storage.local_offset(g);
      const auto co = copy.local_offset(g);
      if (so && co) f(*co, *so);
    }
    int d = n - 1;
    for (; d >= 0; --d) {
      if (++k[static_cast<size_t>(d)] < idx[static_cast<size_t>(d)].size()) break;
      k[static_cast<size_t>(d)] = 0;
    }
    if (d < 0) break;
  }
}

}  // namespace

// The copy a turn copy is filled from and written back to: the parent LPU's own turn copy
// (`parent_copy`: the block is entered from the parent's block, whose copy holds the turn's
// values), or the storage the space would view.
PartStorage* TaskInstance::turn_copy_source(int array, const Lpu& u, int64_t sub, bool parent_copy) {
  if (parent_copy) return turn_copy_of(array, ancestor(u, s_->lps_[static_cast<size_t>(u.lps)].parent), sub);
  return &storage(array, ancestor(u, storage_space(array, u.lps)));
}

void TaskInstance::fill_turn_copy(int array, const Lpu& u, int64_t sub, bool parent_copy) {
  PartStorage* copy = turn_copy_of(array, u, sub);
  PartStorage* from = copy ? turn_copy_source(array, u, sub, parent_copy) : nullptr;
  if (!from) return;  // no part in this turn
  const auto es = static_cast<int64_t>(arrays[static_cast<size_t>(array)]->elem_size);
  for (int v = 0; v < static_cast<int>(copy->versions.size()); ++v) {
    std::byte* dst = copy->version(v);
    const std::byte* src = from->version(v);
    for_each_shared_cell(
        copy->part, from->part, [](const std::vector<int64_t>&) { return true; },
        [&](int64_t c, int64_t s) { std::memcpy(dst + c * es, src + s * es, static_cast<size_t>(es)); });
  }
}

void TaskInstance::write_back_turn_copy(int array, const Lpu& u, int64_t sub, bool parent_copy) {
  auto it = s_->turn_copies_.find({u.lps, array});
  if (it == s_->turn_copies_.end()) return;
  auto& tc = it->second;
  std::vector<const Lpu*> arrived;
  {
    std::lock_guard<std::mutex> lock(tc.pending_mutex);
    auto& waiting = tc.pending[{u.parent, sub}];
    waiting.push_back(&u);
    if (static_cast<int64_t>(waiting.size()) < tc.siblings[u.parent]) return;  // the last one returns them all
    arrived = std::move(waiting);
    tc.pending.erase({u.parent, sub});
  }
  for (const Lpu* w : arrived)
    if (tc.writes_back[static_cast<size_t>(w->id)]) write_back_one_turn_copy(array, *w, sub, parent_copy);
}

void TaskInstance::write_back_one_turn_copy(int array, const Lpu& u, int64_t sub, bool parent_copy) {
  PartStorage* copy = turn_copy_of(array, u, sub);
  PartStorage* to = copy ? turn_copy_source(array, u, sub, parent_copy) : nullptr;
  if (!to) return;
  // Only the cells this LPU owns all the way up: not those of an ancestor's padding, which its
  // neighbour there owns (the turn parts of the spaces between, as their LPUs have them).
  std::vector<const Part*> chain{&copy->part, &to->part};
  const int top = parent_copy ? s_->lps_[static_cast<size_t>(u.lps)].parent : storage_space(array, u.lps);
  for (int l = s_->lps_[static_cast<size_t>(u.lps)].parent; l > 0 && l != top;
       l = s_->lps_[static_cast<size_t>(l)].parent) {
    const Lpu& w = ancestor(u, l);
    if (PartStorage* c = turn_copy_of(array, w, sub)) {
      chain.push_back(&c->part);
    } else if (auto tp = s_->turn_parts_.find({l, array}); tp != s_->turn_parts_.end()) {
      const auto& turns = tp->second[static_cast<size_t>(w.id)];
      if (sub < static_cast<int64_t>(turns.size()) && turns[static_cast<size_t>(sub)])
        chain.push_back(&*turns[static_cast<size_t>(sub)]);
    }
  }
  const auto owned = [&](const std::vector<int64_t>& g) {
    return std::all_of(chain.begin(), chain.end(), [&](const Part* p) { return p->owns(g); });
  };
  const auto es = static_cast<int64_t>(arrays[static_cast<size_t>(array)]->elem_size);
  for (int v = 0; v < static_cast<int>(copy->versions.size()); ++v) {
    const std::byte* src = copy->version(v);
    std::byte* dst = to->version(v);
    for_each_shared_cell(copy->part, to->part, owned, [&](int64_t c, int64_t s) {
      std::memcpy(dst + s * es, src + c * es, static_cast<size_t>(es));
    });
  }
}

void TaskInstance::age_piece(int array, const Lpu& u, int64_t sub) {
  const std::optional<ViewSource> v = sub_view_source(array, u, sub);
  if (!v) return;  // a turn beyond the LPU's own
  PartStorage& ps = *v->storage;
  const int nv = static_cast<int>(ps.versions.size());
  if (nv < 2) return;
  ps.writes.fetch_add(1, std::memory_order_relaxed);  // the versions changed: movements send them
  const size_t es = arrays[static_cast<size_t>(array)]->elem_size;
  if (v->cells == &ps.part) {
    ps.age(es);
    return;
  }
  // Oldest first: version k takes version k - 1's cells, the current version keeps its own.
  for (int k = nv - 1; k >= 1; --k) {
    std::byte* dst = ps.version(k);
    const std::byte* src = ps.version(k - 1);
    for_each_shared_cell(
        *v->cells, ps.part, [](const std::vector<int64_t>&) { return true; },
        [&](int64_t, int64_t o) {
          std::memcpy(dst + o * static_cast<int64_t>(es), src + o * static_cast<int64_t>(es), es);
        });
  }
}

void TaskInstance::age_turn_copy(int array, const Lpu& u, int64_t sub) {
  PartStorage* copy = turn_copy_of(array, u, sub);
  if (copy && copy->versions.size() > 1) copy->age(arrays[static_cast<size_t>(array)]->elem_size);
}

int TaskInstance::storage_space(int array, int lps) const {
  const int h = s_->home_[static_cast<size_t>(array)];
  if (lps == h || s_->other_store_[static_cast<size_t>(array)].count(lps)) return lps;
  for (const ViewDesc& v : s_->views_)
    if (v.array == array && v.lps == lps) return v.storage;
  return h;
}

const Lpu& TaskInstance::ancestor(const Lpu& u, int lps) const {
  const Lpu* p = &u;
  while (p->lps != lps) {
    if (p->lps == 0) fail("itrt: internal error: LPS is not an ancestor");
    int parent = s_->lps_[static_cast<size_t>(p->lps)].parent;
    p = &s_->grid_[static_cast<size_t>(parent)][static_cast<size_t>(p->parent)];
  }
  return *p;
}

bool TaskInstance::is_ancestor(int a, int lps) const {
  for (int l = s_->lps_[static_cast<size_t>(lps)].parent; l >= 0; l = s_->lps_[static_cast<size_t>(l)].parent)
    if (l == a) return true;
  return false;
}

const Part& TaskInstance::part_of(int array, int lps, int64_t lpu) const {
  return s_->parts_[static_cast<size_t>(lps)].at(array)[static_cast<size_t>(lpu)];
}

// Partitions that would create more LPUs than the runtime holds (every rank keeps every LPU of a
// task, so the grid and its channels grow with the total) are refused before anything is built.
void TaskInstance::check_lpu_limit(const LpsDesc& d, const std::vector<ArrayConfig>& cfgs,
                                   const std::vector<int64_t>& counts, int64_t already) const {
  constexpr int64_t kMaxLpus = int64_t{1} << 24;
  int64_t n = 1;
  std::string shape;
  for (int64_t c : counts) {
    n = c > 0 && n > kMaxLpus / c ? kMaxLpus + 1 : n * c;
    shape += (shape.empty() ? "" : " x ") + std::to_string(c);
  }
  if (already + n <= kMaxLpus) return;
  std::string how;
  for (const ArrayConfig& c : cfgs)
    for (const DimInstruction& di : c.dims)
      if (!di.replicated)
        how += (how.empty() ? "" : ", ") + c.array + ": " + describe(di.spec) + " on dimension " +
               std::to_string(di.array_dim + 1);
  fail_collective(task_label() + "`, Space " + d.name + ": the partition gives " + shape + " LPUs" +
                  (already ? " per parent LPU" : "") + " (" + how + "), more than the " + std::to_string(kMaxLpus) +
                  " LPUs per space the runtime can hold; choose larger blocks or " + "fewer parts");
}

// The memory this process may fill: what the system had available when it first asked, shared
// with the other processes of the job on this machine; 0 when unknown.
struct MemoryForProcess {
  double bytes = 0;  // 0 when unknown
  const char* meaning = "";
};

static MemoryForProcess memory_for_this_process() {
  static const MemoryForProcess memory = [] {
    MemoryForProcess m{0, "the memory available on this machine, shared by the job's processes on it"};
    double bytes = 0;
    if (FILE* f = std::fopen("/proc/meminfo", "r")) {
      char key[64];
      unsigned long long kb = 0;
      while (std::fscanf(f, "%63s %llu kB", key, &kb) == 2)
        if (std::string(key) == "MemAvailable:") bytes = static_cast<double>(kb) * 1024.0;
      std::fclose(f);
    }
    const long page = sysconf(_SC_PAGE_SIZE);
    if (bytes <= 0) {
      const long pages = sysconf(_SC_PHYS_PAGES);
      bytes = pages > 0 && page > 0 ? static_cast<double>(pages) * static_cast<double>(page) : 0.0;
    }
    const char* local = std::getenv("OMPI_COMM_WORLD_LOCAL_SIZE");  // set by Open MPI's mpirun
    const long here = local ? std::strtol(local, nullptr, 10) : 1;
    m.bytes = bytes / static_cast<double>(std::max(here, 1L));
    // A limit on the address space (`ulimit -v`) leaves what it does not already hold.
    rlimit limit{};
    unsigned long long mapped_pages = 0;
    if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY && page > 0) {
      if (FILE* f = std::fopen("/proc/self/statm", "r")) {
        if (std::fscanf(f, "%llu", &mapped_pages) != 1) mapped_pages = 0;
        std::fclose(f);
      }
      const double room =
          static_cast<double>(limit.rlim_cur) - static_cast<double>(mapped_pages) * static_cast<double>(page);
      if (room > 0 && (m.bytes <= 0 || room < m.bytes)) {
        m.bytes = room;
        m.meaning = "the address space left under this process's limit, `ulimit -v`";
      }
    }
    return m;
  }();
  return memory;
}

static std::string gib_text(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f GiB", bytes / (1024.0 * 1024.0 * 1024.0));
  return text;
}

// A part larger than the memory this rank may use is refused with its size, instead of the
// kernel killing the process without a word (check_rank_memory sums them first).
void TaskInstance::check_part_size(size_t a, int lps, const Part& p) const {
  const MemoryForProcess limit = memory_for_this_process();
  const double memory = limit.bytes;
  const double bytes = static_cast<double>(p.element_count()) * static_cast<double>(arrays[a]->elem_size) *
                       static_cast<double>(s_->versions_[a]);
  if (memory <= 0 || bytes <= memory) return;
  fail(task_label() + "`, Space " + s_->lps_[static_cast<size_t>(lps)].name + ": one part of `" + arrays[a]->name +
       "` needs " + gib_text(bytes) + " (" + std::to_string(p.element_count()) + " elements" +
       (s_->versions_[a] > 1 ? " x " + std::to_string(s_->versions_[a]) + " epoch versions" : "") +
       "), more than the " + gib_text(memory) + " of memory this process may use (" + limit.meaning +
       "); partition it into smaller parts over more processes or machines");
}

// Before any part is allocated: the home parts of every array this rank holds must fit the
// memory this rank may use. Parts that LPUs share because they are equal (as the allocation
// shares them) count once, which is worked out only when the plain sum is too large: with many
// LPUs the parts' signatures cost as much as the check.
void TaskInstance::check_rank_memory() const {
  const MemoryForProcess limit = memory_for_this_process();
  const double memory = limit.bytes;
  if (memory <= 0) return;
  const int me = prog_.rank();
  double total = 0;
  std::string largest;
  double largest_bytes = 0;
  int arrays_held = 0;
  for (const bool shared : {false, true}) {
    total = largest_bytes = 0;
    arrays_held = 0;
    for (size_t a = 0; a < arrays.size(); ++a) {
      if (!arrays[a] || s_->home_[a] < 0) continue;
      const int h = s_->home_[a];
      const bool may_share = shared && !s_->written_[a] && s_->other_store_[a].empty();
      std::set<std::vector<int64_t>> seen;
      double bytes = 0;
      for (const Lpu& u : s_->grid_[static_cast<size_t>(h)]) {
        if (u.rank != me) continue;
        const Part& p = part_of(static_cast<int>(a), h, u.id);
        if (!shared) check_part_size(a, h, p);  // one part alone too large: said so
        if (may_share && !seen.insert(p.signature()).second) continue;
        bytes += static_cast<double>(p.element_count()) * static_cast<double>(arrays[a]->elem_size) *
                 static_cast<double>(s_->versions_[a]);
      }
      total += bytes;
      arrays_held += bytes > 0;
      if (bytes > largest_bytes) {
        largest_bytes = bytes;
        largest = arrays[a]->name;
      }
    }
    if (total <= memory) return;
  }
  fail(task_label() + "`: the parts this process holds need " + gib_text(total) +
       (arrays_held > 1 ? " (the most, " + gib_text(largest_bytes) + ", of `" + largest + "`)"
                        : " (of `" + largest + "`)") +
       ", more than the " + gib_text(memory) + " of memory this process may use (" + limit.meaning +
       "); partition the arrays over more processes or machines, or use smaller ones");
}

namespace {
// The storages of one array's parts in grid order, each once (LPUs whose parts of an array no
// stage writes are equal share one). Sorted pointers, not a set: a task may have 10^6 LPUs.
std::vector<PartStorage*> distinct_storages(const std::vector<std::shared_ptr<PartStorage>>& store) {
  std::vector<PartStorage*> all;
  all.reserve(store.size());
  for (const auto& ps : store)
    if (ps) all.push_back(ps.get());
  std::vector<PartStorage*> sorted = all;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end()) return all;
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  std::vector<char> taken(sorted.size(), 0);
  std::vector<PartStorage*> distinct;
  for (PartStorage* ps : all) {
    const size_t k = static_cast<size_t>(std::lower_bound(sorted.begin(), sorted.end(), ps) - sorted.begin());
    if (!std::exchange(taken[k], 1)) distinct.push_back(ps);
  }
  return distinct;
}
}  // namespace

std::shared_ptr<PartStorage> TaskInstance::new_part_storage(size_t a, int lps, const Part& p, bool clear_all,
                                                            bool clear_current) const {
  check_part_size(a, lps, p);
  auto ps = std::make_shared<PartStorage>();
  ps->part = p;
  ps->index_tables = index_tables_of(p);
  const size_t n = std::max<size_t>(static_cast<size_t>(p.element_count()) * arrays[a]->elem_size, 1);
  ps->versions.reserve(static_cast<size_t>(s_->versions_[a]));
  for (int v = 0; v < s_->versions_[a]; ++v)
    ps->versions.emplace_back((v == 0 && clear_current) || clear_all ? new std::byte[n]() : new std::byte[n]);
  ps->set_counted(static_cast<int64_t>(n * ps->versions.size()));
  return ps;
}

void TaskInstance::launch() {
  const MachineDesc& m = prog_.machine();
  const int me = prog_.rank(), np = prog_.size();
  for (size_t a = 0; a < arrays.size(); ++a) {
    if (!arrays[a] || s_->home_[a] < 0) continue;
    if (!arrays[a]->has_ranges)
      fail_collective(task_label() + "`: array `" + arrays[a]->name +
                      "` has no dimension ranges after Initialize (set them there, or link it)");
    for (size_t d = 0; d < arrays[a]->ranges.size(); ++d) {
      const DimRange& r = arrays[a]->ranges[d];
      if (r.min == kUnsetBound || r.max == kUnsetBound)
        fail_collective(task_label() + "`: dimension " + std::to_string(d + 1) + " of array `" + arrays[a]->name +
                        "` has no range." + (r.min == kUnsetBound ? "min" : "max") + " after Initialize (set `" +
                        arrays[a]->name + ".dimension" + std::to_string(d + 1) +
                        "` there, or its `range.min` and `range.max`)");
    }
  }
  for (size_t a = 0; a < arrays.size(); ++a) {
    const auto& linked = s_->linked_ranges_[a];
    for (size_t d = 0; arrays[a] && d < linked.size() && d < arrays[a]->ranges.size(); ++d) {
      const DimRange& r = arrays[a]->ranges[d];
      if (linked[d].min == r.min && linked[d].max == r.max) continue;
      const bool given = s_->given_to_initialize_[a];  // by an Initialize parameter, not linked
      fail_collective(
          task_label() + "`: Initialize sets dimension " + std::to_string(d + 1) +
          (given ? " of array `" : " of the linked array `") + arrays[a]->name + "` to " + std::to_string(r.min) +
          "..." + std::to_string(r.max) +
          (given ? ", but the argument of its Initialize parameter has " : ", but the array it links has ") +
          std::to_string(linked[d].min) + "..." + std::to_string(linked[d].max) +
          (given ? "; an array given to Initialize keeps the argument's ranges"
                 : "; a linked array keeps its ranges (create a new array for other ranges)"));
    }
  }
  // Threads: one per PPU of the lowest PPS the mapping uses (L, at least `<core>`) inside each
  // segment this rank carries. An LPU at PPU `ppu` of PPS `pps` runs on the thread of the first L-PPU below it
  // (R-68 for spaces above L); its segment decides the rank (fewer ranks carry several).
  // Levels below `<core>` have no threads of their own: their LPUs run on their core (R-70).
  int lowest = m.top;
  for (const LpsDesc& d : s_->lps_) lowest = std::min(lowest, d.pps ? d.pps : m.top);
  lowest = std::max(lowest, std::min(m.core, m.top));
  const int seg_level = m.segment ? m.segment : m.top;
  const int64_t segs = m.segments();
  const int64_t per_seg = lowest < seg_level ? m.per_parent(lowest, seg_level) : 1;
  auto first_seg = [&](int r) { return (static_cast<int64_t>(r) * segs + np - 1) / np; };
  threads_ = static_cast<int>(std::max<int64_t>(1, (segs + np - 1) / np * per_seg));
  auto place = [&](Lpu& u, int pps) {
    int64_t low = pps >= lowest ? u.ppu * m.per_parent(lowest, pps) : u.ppu / m.per_parent(pps, lowest);
    int64_t seg = lowest < seg_level ? low / per_seg : low * m.per_parent(seg_level, lowest);
    u.rank = static_cast<int>(seg * np / segs);
    u.thread = static_cast<int>((seg - first_seg(u.rank)) * per_seg + (lowest < seg_level ? low % per_seg : 0));
  };
  // Pinning: the `<core>` PPU of each thread, through the model's processor numbering; without
  // one only on request (IT_PIN=1: thread k of the machine to the k-th processor).
  s_->thread_cpus_.assign(static_cast<size_t>(threads_), {});
  const char* pin = std::getenv("IT_PIN");
  const std::string pin_mode = pin ? pin : "";
  if (pin_mode != "0" && (!m.processors.empty() || pin_mode == "1")) {
    const int hw = std::max(hardware_pu_count(), 1);
    for (int th = 0; th < threads_; ++th) {
      int64_t seg = first_seg(me) + th / per_seg;
      if (seg >= segs) break;
      int64_t core = 0;
      if (lowest < seg_level) {
        int64_t low = seg * per_seg + th % per_seg;
        core = low * m.per_parent(m.core, lowest);
      } else if (m.core <= seg_level) {
        core = seg * m.per_parent(m.core, seg_level);
      }
      int cpu = m.processors.empty()
                    ? static_cast<int>((static_cast<int64_t>(me) * threads_ + th) % hw)
                    : m.processors[static_cast<size_t>(core % static_cast<int64_t>(m.processors.size()))];
      s_->thread_cpus_[static_cast<size_t>(th)] = {cpu};
    }
  }
  s_->grid_.assign(s_->lps_.size(), {});
  s_->parts_.assign(s_->lps_.size(), {});
  for (size_t l = 0; l < s_->lps_.size(); ++l) {
    LpsDesc& d = s_->lps_[l];
    int pps = d.pps ? d.pps : m.top;
    if (l == 0) {
      Lpu root;
      root.lps = 0;
      place(root, pps);
      s_->grid_[0].push_back(root);
      for (size_t a = 0; a < arrays.size(); ++a)
        if (arrays[a] && arrays[a]->has_ranges)
          s_->parts_[0][static_cast<int>(a)].push_back(Part::whole(arrays[a]->ranges));
      continue;
    }
    const LpsDesc& pd = s_->lps_[static_cast<size_t>(d.parent)];
    int ppps = pd.pps ? pd.pps : m.top;
    int64_t U = m.per_parent(pps, ppps);
    for (auto& [arr, cfg] : d.configs)
      for (auto& di : cfg.dims) di.spec.fanout = U;
    for (auto& [arr, cfg] : d.sub_configs)
      for (auto& di : cfg.dims) di.spec.fanout = 1;
    auto& grid = s_->grid_[l];
    auto& parts = s_->parts_[l];
    // The i-th of a parent's n child LPUs, on its share of the parent's PPUs, appended to the grid.
    auto add_child = [&](const Lpu& parent, std::vector<int64_t> coords, int64_t i, int64_t n) -> const Lpu& {
      Lpu u;
      u.lps = static_cast<int>(l);
      u.id = static_cast<int64_t>(grid.size());
      u.coords = std::move(coords);
      u.parent = parent.id;
      u.ppu = pps == ppps ? parent.ppu : parent.ppu * U + (U > 1 ? (i * U) / n : 0);
      place(u, pps);
      if (d.in_parent_process && u.rank != parent.rank) {
        // Dealt over the threads of the parent's segment, from the parent's own thread on.
        const int64_t first = parent.thread - parent.thread % per_seg;
        u.rank = parent.rank;
        u.thread = static_cast<int>(first + (parent.thread % per_seg + i) % per_seg);
      }
      grid.push_back(u);
      return grid.back();
    };
    for (auto& [a, v] : s_->parts_[static_cast<size_t>(d.parent)]) parts[a];
    // A space below one that divides sub-partitions works, turn by turn, in its parent's current
    // turn parts too (views of the same memory): its parts change every turn as well.
    std::set<int> parent_turn_arrays;
    for (auto& [key, v] : s_->turn_parts_)
      if (key.first == d.parent) parent_turn_arrays.insert(key.second);
    for (const Lpu& parent : s_->grid_[static_cast<size_t>(d.parent)]) {
      if (d.divides_sub || !parent_turn_arrays.empty()) {
        // The parent LPU's sub-partitions (or its own turn parts), turn by turn; this space
        // splits each of them. Its grid is that of the turn with the most LPUs; in a turn with
        // fewer, the others have no part (their stages skip that turn).
        std::map<int, std::vector<std::optional<Part>>> subs;
        if (d.divides_sub) {
          for (auto& [a, v] : subpartition_parts(d.parent, parent))
            for (const Part& p : v) subs[a].push_back(p);
        } else {
          for (int a : parent_turn_arrays) subs[a] = s_->turn_parts_.at({d.parent, a})[static_cast<size_t>(parent.id)];
        }
        size_t turns = 0;
        for (auto& [a, v] : subs) turns = std::max(turns, v.size());
        // An array with fewer pieces than the turns keeps its whole part in the later turns; a
        // parent's turn part that is absent (std::nullopt) means the parent takes no part.
        auto turn_part = [&](int a, size_t t) -> std::optional<Part> {
          auto it = subs.find(a);
          if (it != subs.end() && t < it->second.size()) return it->second[t];
          return part_of(a, d.parent, parent.id);
        };
        std::vector<ArrayConfig> cfgs;
        std::vector<int> cfg_arrays;
        for (auto& [a, cfg] : d.configs) {
          cfgs.push_back(cfg);
          cfg_arrays.push_back(a);
        }
        std::vector<std::vector<int64_t>> counts(std::max<size_t>(turns, 1));
        std::vector<int64_t> largest;
        int64_t most = -1;
        try {
          for (size_t t = 0; t < counts.size(); ++t) {
            std::vector<Part> pparts;
            bool present = true;  // the parent LPU takes part in turn t
            for (int a : cfg_arrays) {
              std::optional<Part> p = turn_part(a, t);
              present = present && p.has_value();
              if (p) pparts.push_back(*p);
            }
            for (auto& [a, v] : subs) present = present && turn_part(a, t).has_value();
            if (!present) {
              counts[t].assign(static_cast<size_t>(d.dims), 0);
              continue;
            }
            counts[t] = d.dims == 0 ? std::vector<int64_t>{} : lpu_counts(d.dims, cfgs, pparts);
            check_lpu_limit(d, cfgs, counts[t], static_cast<int64_t>(grid.size()));
            int64_t n = 1;
            for (int64_t c : counts[t]) n *= c;
            if (n > most) {
              most = n;
              largest = counts[t];
            }
          }
        } catch (const std::exception& e) {
          fail_collective(task_label() + "`, Space " + d.name + ": " + exception_text(e));
        }
        if (most < 0) largest.assign(static_cast<size_t>(d.dims), 0);  // the parent takes no turn
        const auto coords = grid_coordinates(largest);
        const int64_t n = static_cast<int64_t>(coords.size());
        for (int64_t i = 0; i < n; ++i) {
          const Lpu& u = add_child(parent, coords[static_cast<size_t>(i)], i, n);
          std::set<int> split;
          for (size_t k = 0; k < cfg_arrays.size(); ++k) {
            const int a = cfg_arrays[k];
            split.insert(a);
            auto& mine = s_->turn_parts_[{static_cast<int>(l), a}];
            mine.emplace_back();
            for (size_t t = 0; t < turns; ++t) {
              bool inside = true;
              for (size_t q = 0; q < u.coords.size(); ++q) inside = inside && u.coords[q] < counts[t][q];
              std::optional<Part> pp = turn_part(a, t);
              mine.back().push_back(inside && pp
                                        ? std::optional<Part>(d.dims > 0 ? lpu_part(*pp, cfgs[k], u.coords) : *pp)
                                        : std::nullopt);
            }
          }
          // Arrays of the sub-partition this space does not split: the whole current one (none
          // in a turn where the parent LPU takes no part).
          for (auto& [a, v] : subs) {
            if (split.count(a)) continue;
            auto& mine = s_->turn_parts_[{static_cast<int>(l), a}];
            mine.emplace_back();
            for (size_t t = 0; t < turns; ++t) mine.back().push_back(turn_part(a, t));
          }
          for (auto& [a, v] : parts) {
            auto tp = s_->turn_parts_.find({static_cast<int>(l), a});
            v.push_back(tp != s_->turn_parts_.end() && !tp->second.back().empty() && tp->second.back()[0]
                            ? *tp->second.back()[0]
                            : part_of(a, d.parent, parent.id));
          }
        }
        continue;
      }
      std::vector<std::vector<int64_t>> coords;
      try {
        if (d.dims == 0) {
          coords.push_back({});
        } else {
          std::vector<ArrayConfig> cfgs;
          std::vector<Part> pparts;
          for (auto& [a, cfg] : d.configs) {
            cfgs.push_back(cfg);
            pparts.push_back(part_of(a, d.parent, parent.id));
          }
          std::vector<int64_t> counts = lpu_counts(d.dims, cfgs, pparts);
          check_lpu_limit(d, cfgs, counts, static_cast<int64_t>(grid.size()));
          coords = grid_coordinates(counts);
        }
      } catch (const std::exception& e) {
        fail_collective(task_label() + "`, Space " + d.name + ": " + exception_text(e));
      }
      int64_t n = static_cast<int64_t>(coords.size());
      for (int64_t i = 0; i < n; ++i) {
        const Lpu& u = add_child(parent, coords[static_cast<size_t>(i)], i, n);
        for (auto& [a, v] : parts) {
          const Part& pp = part_of(a, d.parent, parent.id);
          const int array = a;  // clang 14 lambdas cannot capture structured bindings
          auto it = std::find_if(d.configs.begin(), d.configs.end(), [&](auto& c) { return c.first == array; });
          if (it != d.configs.end() && d.dims > 0)
            v.push_back(lpu_part(pp, it->second, u.coords));
          else
            v.push_back(pp);
        }
      }
    }
  }
  if (const char* v = std::getenv("IT_VERBOSE"); v && std::string(v) == "1") print_banner();
  // Sub-partitions of local LPUs.
  s_->max_subpartitions_.assign(s_->lps_.size(), 0);
  s_->sub_counts_.assign(s_->lps_.size(), {});
  for (size_t l = 0; l < s_->lps_.size(); ++l) {
    const LpsDesc& d = s_->lps_[l];
    if (d.sub_dims == 0) continue;
    s_->sub_counts_[l].assign(s_->grid_[l].size(), 0);
    for (auto& [a, cfg] : d.sub_configs) s_->sub_parts_[{static_cast<int>(l), a}].assign(s_->grid_[l].size(), {});
    for (const Lpu& u : s_->grid_[l]) {
      std::vector<ArrayConfig> cfgs;
      std::vector<Part> uparts;
      for (auto& [a, cfg] : d.sub_configs) {
        cfgs.push_back(cfg);
        uparts.push_back(part_of(a, static_cast<int>(l), u.id));
      }
      try {
        auto counts = subpartition_counts(d.sub_dims, cfgs, uparts);
        // Every LPU's count, on every rank: flows loop to the largest so that synchronisations
        // inside `Repeat foreach sub-partition` meet the same number of times everywhere.
        int64_t n = 1;
        for (int64_t c : counts) n *= c;
        s_->max_subpartitions_[l] = std::max(s_->max_subpartitions_[l], n);
        s_->sub_counts_[l][static_cast<size_t>(u.id)] = n;
        if (u.rank != me) continue;
        for (auto& c : subpartition_order(counts, d.sub_order))
          for (size_t k = 0; k < cfgs.size(); ++k)
            s_->sub_parts_[{static_cast<int>(l), d.sub_configs[k].first}][static_cast<size_t>(u.id)].push_back(
                lpu_part(uparts[k], cfgs[k], c));
      } catch (const std::exception& e) {
        fail_collective(task_label() + "`, Space " + d.name + " sub-partition: " + exception_text(e));
      }
    }
  }
  // Spaces that view their ancestor's parts: those must be in their memory.
  for (const ViewDesc& v : s_->views_) {
    const int a = v.array, l = v.lps, h = v.storage;
    for (const Lpu& u : s_->grid_[static_cast<size_t>(l)])
      if (ancestor(u, h).rank != u.rank)
        fail_collective(task_label() + "`: stages of Space " + s_->lps_[static_cast<size_t>(l)].name + " and Space " +
                        s_->lps_[static_cast<size_t>(h)].name + " both use `" + arrays[static_cast<size_t>(a)]->name +
                        "`, so a Space " + s_->lps_[static_cast<size_t>(l)].name +
                        " LPU must be in the memory of its Space " + s_->lps_[static_cast<size_t>(h)].name +
                        " LPU, but the mapping puts them on different processes; " + "map Space " +
                        s_->lps_[static_cast<size_t>(h)].name + " at or below the <segment> level");
  }
  check_rank_memory();
  // Allocation of this rank's parts of every array in its home LPS. A part the previous task
  // left on this rank with exactly the same shape is taken over as it is (no copy): objects keep
  // their distribution from task to task, data moves only where the partition differs.
  std::vector<std::vector<char>> adopted(arrays.size());
  for (size_t a = 0; a < arrays.size(); ++a) {
    if (!arrays[a] || s_->home_[a] < 0) continue;
    int h = s_->home_[a];
    auto& st = s_->store_[a];
    st.assign(s_->grid_[static_cast<size_t>(h)].size(), nullptr);
    adopted[a].assign(st.size(), 0);
    const ArrayData& prev = *arrays[a];
    const bool can_adopt = s_->versions_[a] == 1 && prev.pending_input.empty() && prev.storage.size() == st.size();
    std::map<std::vector<int64_t>, std::shared_ptr<PartStorage>> shared;
    const bool may_share = !s_->written_[a] && s_->other_store_[a].empty();
    uint64_t allocated = 0;
    for (const Lpu& u : s_->grid_[static_cast<size_t>(h)]) {
      if (u.rank != me) continue;
      const Part& p = part_of(static_cast<int>(a), h, u.id);
      const size_t g = static_cast<size_t>(u.id);
      const bool adoptable =
          can_adopt && prev.part_rank[g] == me && prev.storage[g] && prev.storage[g]->versions.size() == 1;
      std::vector<int64_t> key;
      if (adoptable || may_share) key = p.signature();
      if (adoptable && prev.storage[g]->part.signature() == key) {
        st[g] = prev.storage[g];
        adopted[a][g] = 1;
        continue;
      }
      if (may_share) {
        auto it = shared.find(key);
        if (it != shared.end()) {
          st[g] = it->second;
          continue;
        }
      }
      // Only the current version starts at zero: the others become copies of it below, once
      // inputs and handed-over data are in (R-34), so clearing them would be a wasted pass. An
      // input file fills every cell a part holds: nothing to clear then.
      st[g] = new_part_storage(a, h, p, false, prev.pending_input.empty());
      allocated += static_cast<uint64_t>(p.element_count()) * arrays[a]->elem_size * st[g]->versions.size();
      if (may_share) shared[std::move(key)] = st[g];
    }
    prog_.note_memory(arrays[a]->name, allocated);
  }
  // Parts of the other storage spaces: filled by the flow's movements, never shared.
  for (size_t a = 0; a < arrays.size(); ++a) {
    uint64_t allocated = 0;
    for (auto& [l, st] : s_->other_store_[a]) {
      st.assign(s_->grid_[static_cast<size_t>(l)].size(), nullptr);
      for (const Lpu& u : s_->grid_[static_cast<size_t>(l)]) {
        if (u.rank != me) continue;
        auto& ps = st[static_cast<size_t>(u.id)];
        ps = new_part_storage(a, l, part_of(static_cast<int>(a), l, u.id), true);
        allocated += static_cast<uint64_t>(ps->part.element_count()) * arrays[a]->elem_size * ps->versions.size();
      }
    }
    if (allocated) prog_.note_memory(arrays[a]->name, allocated);
  }
  allocate_turn_copies();
  // What this task writes in its parts from now on (MoveSenders::written_in_task).
  for (size_t a = 0; a < arrays.size(); ++a) {
    for (auto& ps : s_->store_[a])
      if (ps) ps->writes_at_launch = ps->writes.load(std::memory_order_relaxed);
    for (auto& [l, st] : s_->other_store_[a])
      for (auto& ps : st)
        if (ps) ps->writes_at_launch = ps->writes.load(std::memory_order_relaxed);
  }
  // Inputs and data handed over from earlier tasks. An input shared by two items is read into
  // the parts of both.
  std::map<const ArrayData*, std::string> inputs_read;
  for (size_t a = 0; a < arrays.size(); ++a) {
    if (!arrays[a] || s_->home_[a] < 0) continue;
    if (auto seen = inputs_read.find(arrays[a].get()); seen != inputs_read.end())
      arrays[a]->pending_input = seen->second;
    if (!arrays[a]->pending_input.empty()) {
      inputs_read[arrays[a].get()] = arrays[a]->pending_input;
      read_input(static_cast<int>(a));
    } else if (arrays[a]->section) {
      hand_over(a, *arrays[a]->section->of, adopted[a], s_->section_fixed_[a]);
    } else if (!arrays[a]->storage.empty()) {
      hand_over(a, *arrays[a], adopted[a], {});
    }
    // All versions start equal (R-34).
    if (s_->versions_[a] > 1)
      for (PartStorage* ps : distinct_storages(s_->store_[a]))
        for (size_t v = 1; v < ps->versions.size(); ++v)
          std::memcpy(ps->versions[v].get(), ps->versions[0].get(),
                      static_cast<size_t>(ps->part.element_count()) * arrays[a]->elem_size);
  }
}

namespace {
// One piece of a redistribution: cells of source part `src` that destination part `dst` holds,
// as a box (both parts boxes) or as a transfer schedule (any index sets).
struct Transfer {
  int64_t src, dst;
  Box box;
  std::shared_ptr<const TransferSchedule> ts;
  size_t bytes(size_t es) const {
    return (ts ? static_cast<size_t>(ts->element_count()) : static_cast<size_t>(box_size(box))) * es;
  }
  // `layout`: the part whose storage `from` / `to` is.
  void pack(std::byte* from, const Part& layout, std::byte* buf, size_t es) const {
    if (ts)
      ts->pack(from, es, buf);
    else
      copy_region(dense_of(from, layout), dense_of(buf, box), box, es);
  }
  void unpack(const std::byte* buf, std::byte* to, const Part& layout, size_t es) const {
    if (ts)
      ts->unpack(buf, es, to);
    else
      copy_region(dense_of(const_cast<std::byte*>(buf), box), dense_of(to, layout), box, es);
  }
};

// `from` seen in the index space of an item it is a section of (Part::with_fixed): the same
// storage, parts and owned boxes with the dropped dimensions put back.
ArrayData embedded(const ArrayData& from, const std::vector<std::optional<int64_t>>& fixed) {
  if (fixed.empty()) return from;
  ArrayData e = from;
  for (auto& p : e.parts) p = p.with_fixed(fixed);
  for (auto& b : e.canonical) {
    if (b.empty()) continue;
    Box full;
    size_t own = 0;
    for (const auto& f : fixed) full.push_back(f ? std::make_pair(*f, *f) : b.at(own++));
    b = std::move(full);
  }
  return e;
}
}  // namespace

// Every cell of `from` (from the one part that owns it: canonical boxes, or the owner parts of
// strided layouts) into each destination part k that holds it: layout to_parts[k] in `from`'s
// index space, on rank to_rank[k], stored at to_store[k] on this rank. skip[k]: part k of `from`
// is destination k's storage already. `from.parts[g]` is the layout of `from.storage[g]`.
void TaskInstance::move_cells(const std::string& sync, const ArrayData& from, const std::vector<Part>& to_parts,
                              const std::vector<int>& to_rank, const std::vector<std::byte*>& to_store,
                              const std::vector<char>& skip) {
  const int me = prog_.rank(), np = prog_.size();
  const size_t es = from.elem_size;
  std::vector<std::vector<char>> pairs(static_cast<size_t>(np), std::vector<char>(static_cast<size_t>(np), 0));
  std::vector<Transfer> xs;
  for (size_t k = 0; k < to_parts.size(); ++k) {
    const Part& dp = to_parts[k];
    const bool dbox = is_box(dp);
    for (size_t g = 0; g < from.parts.size(); ++g) {
      if (!from.owner[g]) continue;
      if (g == k && !skip.empty() && skip[k]) continue;  // already in place
      // a replica sharing the source's storage (an unwritten array adopted as it was left)
      if (g < from.storage.size() && from.storage[g] && to_store[k] == from.storage[g]->version(0)) continue;
      Transfer x{static_cast<int64_t>(g), static_cast<int64_t>(k), {}, nullptr};
      if (!from.strided && dbox) {
        x.box = intersect(held_box(dp), from.canonical[g]);
        if (empty(x.box)) continue;
      } else {
        x.ts = std::make_shared<const TransferSchedule>(TransferSchedule::owned_to_held(from.parts[g], dp));
        if (x.ts->empty()) continue;
      }
      pairs[static_cast<size_t>(from.part_rank[g])][static_cast<size_t>(to_rank[k])] = 1;
      xs.push_back(std::move(x));
    }
  }
  std::vector<std::vector<std::byte>> send(static_cast<size_t>(np));
  for (auto& x : xs) {
    const size_t g = static_cast<size_t>(x.src), k = static_cast<size_t>(x.dst);
    const int sr = from.part_rank[g], dr = to_rank[k];
    if (sr != me) continue;
    std::byte* src = from.storage[g]->version(0);
    if (dr == me) {
      std::vector<std::byte> tmp(x.bytes(es));
      x.pack(src, from.parts[g], tmp.data(), es);
      x.unpack(tmp.data(), to_store[k], to_parts[k], es);
      prog_.count(sync, false, tmp.size());
    } else {
      auto& buf = send[static_cast<size_t>(dr)];
      size_t off = buf.size();
      buf.resize(off + x.bytes(es));
      x.pack(src, from.parts[g], buf.data() + off, es);
    }
  }
  auto recv = prog_.exchange(sync, pairs, std::move(send), comm_);
  std::vector<size_t> cursor(static_cast<size_t>(np), 0);
  for (auto& x : xs) {
    const size_t k = static_cast<size_t>(x.dst);
    const int sr = from.part_rank[static_cast<size_t>(x.src)], dr = to_rank[k];
    if (dr != me || sr == me) continue;
    x.unpack(recv[static_cast<size_t>(sr)].data() + cursor[static_cast<size_t>(sr)], to_store[k], to_parts[k], es);
    cursor[static_cast<size_t>(sr)] += x.bytes(es);
  }
}

void TaskInstance::hand_over(size_t a, const ArrayData& old, const std::vector<char>& adopted,
                             const std::vector<std::optional<int64_t>>& fixed) {
  const int h = s_->home_[a];
  std::vector<Part> to_parts;
  std::vector<int> to_rank;
  std::vector<std::byte*> to_store;
  for (const Lpu& u : s_->grid_[static_cast<size_t>(h)]) {
    const Part& p = part_of(static_cast<int>(a), h, u.id);
    to_parts.push_back(fixed.empty() ? p : p.with_fixed(fixed));
    to_rank.push_back(u.rank);
    const auto& ps = s_->store_[a][static_cast<size_t>(u.id)];
    to_store.push_back(ps ? ps->version(0) : nullptr);
  }
  const std::string what =
      old.name == arrays[a]->name ? old.name : arrays[a]->name + " (a section of " + old.name + ")";
  move_cells("task " + name_ + ": hand-over of " + what, old, to_parts, to_rank, to_store,
             arrays[a]->section ? std::vector<char>{} : adopted);
}

void TaskInstance::write_back(size_t a) {
  const ArrayData& view = *arrays[a];
  ArrayData& of = *view.section->of;
  // An array a task created but no stage used has ranges and no parts yet (its cells are zero):
  // it gets one, the whole array on rank 0, to take the view's cells.
  if (of.parts.empty() && of.has_ranges && of.pending_input.empty())
    if (std::byte* mine = hold_whole_on_rank_zero(of, prog_.rank()))
      std::memset(mine, 0, static_cast<size_t>(of.parts[0].element_count()) * of.elem_size);
  std::vector<std::byte*> to_store;
  for (auto& ps : of.storage) to_store.push_back(ps ? ps->version(0) : nullptr);
  move_cells("task " + name_ + ": write-back of " + view.name + " into " + of.name,
             embedded(view, s_->section_fixed_[a]), of.parts, of.part_rank, to_store, {});
}

// A text file cannot be read part-wise: rank 0 reads it (and keeps it until launch), every rank
// learns its shape, or the error, from rank 0.
std::vector<int64_t> TaskInstance::read_text_input(int index, const std::string& file, const ElementCodec& codec,
                                                   const FileExpectation& expect, const std::string& what) {
  const int np = prog_.size();
  std::vector<std::byte> verdict;  // 'S' + int64 lengths, or 'E' + message
  auto put = [&](const void* p, size_t n) {
    verdict.insert(verdict.end(), static_cast<const std::byte*>(p), static_cast<const std::byte*>(p) + n);
  };
  if (prog_.rank() == 0) {
    try {
      DataCollection c = read_data_file(file, codec, expect);
      put("S", 1);
      put(c.shape.data(), c.shape.size() * sizeof(int64_t));
      s_->text_inputs_[index] = std::move(c);
    } catch (const std::exception& e) {
      verdict.clear();
      put("E", 1);
      put(e.what(), std::strlen(e.what()));
    }
  }
  std::vector<std::vector<char>> pairs(static_cast<size_t>(np), std::vector<char>(static_cast<size_t>(np), 0));
  std::vector<std::vector<std::byte>> send(static_cast<size_t>(np));
  for (int d = 1; d < np; ++d) {
    pairs[0][static_cast<size_t>(d)] = 1;
    send[static_cast<size_t>(d)] = verdict;
  }
  auto recv = prog_.exchange("task " + name_ + ": input " + file, pairs, std::move(send), comm_);
  const std::vector<std::byte>& v = prog_.rank() == 0 ? verdict : recv[0];
  if (v.empty() || static_cast<char>(v[0]) != 'S')
    fail_collective(what + std::string(reinterpret_cast<const char*>(v.data()) + 1, v.size() - 1));
  std::vector<int64_t> lengths((v.size() - 1) / sizeof(int64_t));
  std::memcpy(lengths.data(), v.data() + 1, lengths.size() * sizeof(int64_t));
  return lengths;
}

// Rank 0 sends every other rank the bounding box of the indices its parts of `array` hold, and
// each rank copies its parts out of what it has: nobody else ever holds the whole text input.
void TaskInstance::scatter_text_input(int array, const std::vector<PartStorage*>& mine) {
  const ArrayData& a = *arrays[static_cast<size_t>(array)];
  const int np = prog_.size(), me = prog_.rank();
  const int h = s_->home_[static_cast<size_t>(array)];
  std::vector<Box> need(static_cast<size_t>(np));
  for (const Lpu& u : s_->grid_[static_cast<size_t>(h)]) {
    const Part& p = part_of(array, h, u.id);
    Box b;
    for (int d = 0; d < p.rank(); ++d) {
      const IndexSet1D& s = p.held(d);
      if (s.empty()) {
        b.clear();
        break;
      }
      b.push_back({std::min(s.first(), s.last()), std::max(s.first(), s.last())});
    }
    if (b.empty()) continue;
    Box& n = need[static_cast<size_t>(u.rank)];
    if (n.empty()) {
      n = b;
      continue;
    }
    for (size_t d = 0; d < b.size(); ++d) n[d] = {std::min(n[d].first, b[d].first), std::max(n[d].second, b[d].second)};
  }
  Box whole;
  for (auto& r : a.ranges) whole.push_back({std::min(r.min, r.max), std::max(r.min, r.max)});
  std::vector<std::vector<char>> pairs(static_cast<size_t>(np), std::vector<char>(static_cast<size_t>(np), 0));
  std::vector<std::vector<std::byte>> send(static_cast<size_t>(np));
  Dense all{nullptr, {}, {}};
  if (me == 0) all = dense_of(reinterpret_cast<std::byte*>(s_->text_inputs_.at(array).items[0].bytes.data()), whole);
  for (int r = 1; r < np; ++r) {
    const Box& n = need[static_cast<size_t>(r)];
    if (n.empty()) continue;
    pairs[0][static_cast<size_t>(r)] = 1;
    if (me != 0) continue;
    auto& buf = send[static_cast<size_t>(r)];
    buf.resize(static_cast<size_t>(box_size(n)) * a.elem_size);
    copy_region(all, dense_of(buf.data(), n), n, a.elem_size);
  }
  auto recv = prog_.exchange("task " + name_ + ": input of " + a.name, pairs, std::move(send), comm_);
  Dense src = me == 0 ? all : Dense{nullptr, {}, {}};
  if (me != 0 && !need[static_cast<size_t>(me)].empty()) src = dense_of(recv[0].data(), need[static_cast<size_t>(me)]);
  for (auto* ps : mine) copy_into_part(src, *ps, a.elem_size);
  s_->text_inputs_.erase(array);
}

void TaskInstance::read_input(int array) {
  ArrayData& a = *arrays[static_cast<size_t>(array)];
  const std::string file = a.pending_input;
  a.pending_input.clear();
  const std::vector<PartStorage*> mine = distinct_storages(s_->store_[static_cast<size_t>(array)]);
  try {
    if (extension(file) == ".bin") {
      std::vector<LocalPart> parts;
      for (auto* ps : mine) parts.push_back({&ps->part, ps->version(0)});
      read_array_parts(comm_, file, *a.codec, a.ranges, parts);
    } else {
      scatter_text_input(array, mine);
    }
  } catch (const std::exception& e) {
    fail((a.input_site.empty() ? std::string() : a.input_site + ": ") + "reading `" + file + "` for `" + a.name +
         "` of task `" + name_ + "`: " + exception_text(e));
  }
}

int64_t TaskInstance::subpartitions(int lps, const Lpu& u) const {
  const auto& counts = s_->sub_counts_[static_cast<size_t>(lps)];
  return static_cast<size_t>(u.id) < counts.size() ? counts[static_cast<size_t>(u.id)] : 0;
}

Part TaskInstance::owning_part(int array, int lps, int64_t lpu) const {
  Part p = part_of(array, lps, lpu);
  const Lpu* u = &s_->grid_[static_cast<size_t>(lps)][static_cast<size_t>(lpu)];
  while (u->lps != 0) {
    u = &s_->grid_[static_cast<size_t>(s_->lps_[static_cast<size_t>(u->lps)].parent)][static_cast<size_t>(u->parent)];
    if (s_->parts_[static_cast<size_t>(u->lps)].count(array) == 0) continue;  // not configured there
    const Part& pp = part_of(array, u->lps, u->id);
    std::vector<std::pair<int64_t, int64_t>> box;
    bool padded = false;
    for (int d = 0; d < pp.rank(); ++d) {
      const IndexSet1D& o = pp.owned(d);
      padded = padded || o.size() != pp.held(d).size();
      if (o.empty() || !o.contiguous())
        box.push_back({std::numeric_limits<int64_t>::min() / 2, std::numeric_limits<int64_t>::max() / 2});
      else
        box.push_back({std::min(o.first(), o.last()), std::max(o.first(), o.last())});
    }
    if (padded) p = p.owned_within(box);
  }
  return p;
}

// IT_VERBOSE=1: what this task runs on — per rank its worker threads and the processors they
// are pinned to (a warning when the threads outnumber the processors the process may use), and
// once, from rank 0, each space's PPS and LPU count.
void TaskInstance::print_banner() const {
  const int me = prog_.rank();
  // The processors this process may run on (mpirun may bind it to fewer than the machine has).
  const int usable = usable_processor_count();
  std::string line = "IT_VERBOSE task `" + name_ + "` rank " + std::to_string(me) + ": " + std::to_string(threads_) +
                     " worker thread" + (threads_ == 1 ? "" : "s");
  std::string pins;
  for (const auto& cpus : s_->thread_cpus_)
    for (int c : cpus) pins += (pins.empty() ? "" : ",") + std::to_string(c);
  line += pins.empty() ? ", not pinned" : ", pinned to processors " + pins;
  line += "; the process may use " + std::to_string(usable) + " processor" + (usable == 1 ? "" : "s");
  if (threads_ > usable)
    line += " — oversubscribed: threads share processors (map the spaces to fewer PPUs, or use more processes)";
  std::fprintf(stderr, "%s\n", line.c_str());
  if (me != 0) return;
  for (size_t l = 0; l < s_->lps_.size(); ++l)
    std::fprintf(stderr, "IT_VERBOSE task `%s` Space %s: PPS %d, %zu LPU%s\n", name_.c_str(), s_->lps_[l].name.c_str(),
                 s_->lps_[l].pps ? s_->lps_[l].pps : prog_.machine().top, s_->grid_[l].size(),
                 s_->grid_[l].size() == 1 ? "" : "s");
}

std::map<int, std::vector<Part>> TaskInstance::subpartition_parts(int lps, const Lpu& u) const {
  const LpsDesc& d = s_->lps_[static_cast<size_t>(lps)];
  std::map<int, std::vector<Part>> out;
  if (d.sub_dims == 0) return out;
  std::vector<ArrayConfig> cfgs;
  std::vector<Part> uparts;
  for (auto& [a, cfg] : d.sub_configs) {
    cfgs.push_back(cfg);
    uparts.push_back(part_of(a, lps, u.id));
  }
  try {
    auto counts = subpartition_counts(d.sub_dims, cfgs, uparts);
    for (auto& c : subpartition_order(counts, d.sub_order))
      for (size_t k = 0; k < cfgs.size(); ++k) out[d.sub_configs[k].first].push_back(lpu_part(uparts[k], cfgs[k], c));
  } catch (const std::exception& e) {
    fail_collective(task_label() + "`, Space " + d.name + " sub-partition: " + exception_text(e));
  }
  return out;
}

PartStorage& TaskInstance::storage(int array, const Lpu& u) {
  const auto& other = s_->other_store_[static_cast<size_t>(array)];
  auto it = other.find(u.lps);
  const auto* st = it != other.end()                                ? &it->second
                   : s_->home_[static_cast<size_t>(array)] == u.lps ? &s_->store_[static_cast<size_t>(array)]
                                                                    : nullptr;
  if (!st || static_cast<size_t>(u.id) >= st->size() || !(*st)[static_cast<size_t>(u.id)])
    // Seen after a stage wrote outside its part (memory the program does not own); without
    // --debug nothing checks those writes.
    fail("no part of `" + arrays[static_cast<size_t>(array)]->name +
         "` is kept in this process for this LPU: a stage may have written outside its LPU's part; compile with "
         "--debug to have every access checked and the line named (if it names none, report it as an itc bug)");
  return *(*st)[static_cast<size_t>(u.id)];
}

void TaskInstance::epoch_wrote(int array, const Lpu& u, const int64_t* lo, const int64_t* hi) {
  if (storage_space(array, u.lps) != u.lps) return;  // a view: the part is not this LPU's alone
  PartStorage& ps = storage(array, u);
  ps.epoch_written.resize(static_cast<size_t>(ps.part.rank()));
  for (size_t d = 0; d < ps.epoch_written.size(); ++d) ps.epoch_written[d] = {lo[d], hi[d]};
}

// The pieces that refresh the padded copies of `array` when the flow exits Space `lps` (S):
// for every pair (P, Q) of S-LPUs under one parent, the cells P holds and Q owns, cut along
// the home LPUs under Q that own them (the ownership chain from S down to the home LPS), and
// sent once to every rank holding home LPUs of P that need them.
std::vector<TaskInstance::Piece>& TaskInstance::refresh_plan(int array, int h, int lps) {
  const auto key = std::make_tuple(array, h, lps);
  auto it = s_->refresh_plans_.find(key);
  if (it != s_->refresh_plans_.end()) return it->second;
  auto& pieces = s_->refresh_plans_[key];
  const auto& S = s_->grid_[static_cast<size_t>(lps)];
  const auto& H = s_->grid_[static_cast<size_t>(h)];
  // The refresh copies boxes (of cells; a dimension that runs downwards is one too); strided
  // parts refresh through transfer schedules instead (flow.cpp, strided_padding).
  for (const Lpu& g : H)
    if (!is_interval_part(part_of(array, h, g.id)))
      fail_collective(
          task_label() + "`: the padding of `" + arrays[static_cast<size_t>(array)]->name + "` in Space " +
          s_->lps_[static_cast<size_t>(lps)].name +
          " cannot be refreshed by boxes: its parts are strided (internal: strided_padding refreshes those)");
  // Home LPUs under each S-LPU, and their chain-owned boxes below S.
  std::vector<std::vector<int64_t>> under(S.size());
  std::vector<Box> chain(H.size());
  for (const Lpu& g : H) {
    const Lpu* p = &g;
    Box b = held_box(part_of(array, h, g.id));
    while (true) {
      b = intersect(b, owned_box(part_of(array, p->lps, p->id)));
      if (p->lps == lps) break;
      p = &s_->grid_[static_cast<size_t>(s_->lps_[static_cast<size_t>(p->lps)].parent)][static_cast<size_t>(p->parent)];
    }
    chain[static_cast<size_t>(g.id)] = b;
    under[static_cast<size_t>(p->id)].push_back(g.id);
  }
  for (const Lpu& P : S) {
    Box pheld = held_box(part_of(array, lps, P.id));
    for (const Lpu& Q : S) {
      if (Q.id == P.id || Q.parent != P.parent) continue;
      Box b = intersect(pheld, owned_box(part_of(array, lps, Q.id)));
      if (empty(b)) continue;
      for (int64_t g : under[static_cast<size_t>(Q.id)]) {
        Box piece = intersect(b, chain[static_cast<size_t>(g)]);
        if (empty(piece)) continue;
        Piece pc{piece, g, {}, {}};
        for (int64_t d : under[static_cast<size_t>(P.id)]) {
          if (empty(intersect(piece, held_box(part_of(array, h, d))))) continue;
          pc.dst.push_back(d);
          int r = H[static_cast<size_t>(d)].rank;
          if (std::find(pc.dst_ranks.begin(), pc.dst_ranks.end(), r) == pc.dst_ranks.end()) pc.dst_ranks.push_back(r);
        }
        if (!pc.dst.empty()) pieces.push_back(std::move(pc));
      }
    }
  }
  return pieces;
}

namespace {
// Of LPUs whose canonical boxes are the same (replicas of one part), the first in grid order
// owns it; the others hold copies. One sort, not a set of boxes: a task may have 10^6 LPUs.
void keep_first_owner(ArrayData& d) {
  std::vector<uint32_t> order;
  order.reserve(d.canonical.size());
  for (size_t g = 0; g < d.canonical.size(); ++g)
    if (!d.canonical[g].empty()) order.push_back(static_cast<uint32_t>(g));
  std::stable_sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) { return d.canonical[x] < d.canonical[y]; });
  for (size_t k = 1, leader = 0; k < order.size(); ++k) {
    if (!(d.canonical[order[k]] == d.canonical[order[leader]])) {
      leader = k;
      continue;
    }
    d.canonical[order[k]].clear();
    d.owner[order[k]] = false;
  }
}
}  // namespace

void TaskInstance::finish() {
  for (size_t a = 0; a < arrays.size(); ++a) {
    if (!arrays[a] || s_->home_[a] < 0) continue;
    ArrayData& d = *arrays[a];
    // Read only: the distribution the data had before this task is still valid (and where the
    // writer left it), so the next task hands over from there.
    if (!s_->written_[a] && !d.storage.empty() && !d.strided) continue;
    int h = s_->home_[a];
    const auto& H = s_->grid_[static_cast<size_t>(h)];
    d.parts.clear();
    d.part_rank.clear();
    d.canonical.clear();
    d.owner.clear();
    d.strided = false;
    d.parts.reserve(H.size());
    d.part_rank.reserve(H.size());
    d.canonical.reserve(H.size());
    d.owner.reserve(H.size());
    std::set<std::vector<int64_t>> owned_seen;
    for (const Lpu& g : H) {
      d.parts.push_back(owning_part(static_cast<int>(a), h, g.id));
      d.part_rank.push_back(g.rank);
      if (!is_box(d.parts.back())) d.strided = true;
      // A box part below a stride() space (one cell of each strided run) is still no box of its
      // ancestors' parts: the boxes below cannot be intersected with theirs.
      for (const Lpu* p = &g; p->lps != 0 && !d.strided;
           p = &s_->grid_[static_cast<size_t>(s_->lps_[static_cast<size_t>(p->lps)].parent)]
                         [static_cast<size_t>(p->parent)])
        if (!is_box(part_of(static_cast<int>(a), p->lps, p->id))) d.strided = true;
    }
    for (const Lpu& g : H) {
      const Lpu* p = &g;
      Box b;
      if (!d.strided) {
        b = held_box(d.parts[static_cast<size_t>(g.id)]);
        while (true) {
          b = intersect(b, owned_box(part_of(static_cast<int>(a), p->lps, p->id)));
          if (p->lps == 0) break;
          p = &s_->grid_[static_cast<size_t>(s_->lps_[static_cast<size_t>(p->lps)].parent)]
                        [static_cast<size_t>(p->parent)];
        }
        if (empty(b)) b.clear();
        d.owner.push_back(!b.empty());
      } else {
        // Strided parts: the LPU owns its part's owned cells; of replicas the first one.
        const Part& mine = d.parts[static_cast<size_t>(g.id)];
        std::vector<int64_t> sig;
        for (int k = 0; k < mine.rank(); ++k) {
          const IndexSet1D& o = mine.owned(k);
          sig.insert(sig.end(), {o.size(), o.empty() ? 0 : o.first(), o.empty() ? 0 : o.last()});
        }
        // (owning parts: a padded parent's cells are owned once, by its neighbour's LPUs)
        const bool first = mine.owned_count() > 0 && owned_seen.insert(sig).second;
        d.owner.push_back(first);
      }
      d.canonical.push_back(b);
    }
    if (!d.strided) keep_first_owner(d);
    // Keep only the current version of each local part. LPUs that shared one storage (replicas
    // of an array no stage writes) share the kept one too: its version moves out only once.
    // The storage itself moves to the item (no copy of its part): this task's bookkeeping of
    // writes and movements starts afresh in the next.
    d.storage.assign(H.size(), nullptr);
    for (size_t g = 0; g < H.size(); ++g) {
      std::shared_ptr<PartStorage>& ps = s_->store_[a][g];
      if (!ps) continue;
      if (ps->versions.size() > 1) {  // (a shared storage is down to one version after its first LPU)
        const auto held = static_cast<int64_t>(ps->versions.size());
        auto current = std::move(ps->versions[static_cast<size_t>(ps->current)]);
        ps->versions.clear();
        ps->versions.push_back(std::move(current));
        ps->set_counted(ps->counted_bytes / held);
      }
      ps->current = 0;
      ps->writes.store(0, std::memory_order_relaxed);
      ps->writes_at_launch = 0;
      ps->sent.clear();
      ps->epoch_written.clear();
      ps->epoch_copied = false;
      d.storage[g] = std::move(ps);
    }
    d.has_ranges = true;
    if (d.section && s_->written_[a]) write_back(a);
  }
}

namespace {

// Every copy of a cell changes: the owner's, replicas' and padded neighbours', on every rank
// (each rank runs the coordinator and writes its own parts), so no task sees a stale copy.
void write_copies(ArrayData& a, const std::vector<int64_t>& index, const void* value, size_t n) {
  const PartStorage* last = nullptr;  // (a storage several LPUs share may be written twice, alike)
  for (auto& ps : a.storage) {
    if (!ps || ps.get() == last) continue;
    last = ps.get();
    if (auto off = ps->part.local_offset(index)) {
      std::memcpy(ps->version(0) + static_cast<size_t>(*off) * a.elem_size, value, n);
      ps->writes.fetch_add(1, std::memory_order_relaxed);
    }
  }
}

// The array that holds element `index` of an environment item for the coordinator, with `index`
// in that array's indices (a view keeps the viewed item's indices: the element lives there);
// fails on every rank if no task or assignment has produced it, or the index is outside it.
std::shared_ptr<ArrayData> element_holder(Program& prog, std::shared_ptr<ArrayData> a, std::vector<int64_t>& index,
                                          const std::string& what) {
  if (a && a->section) {
    read_input_whole(MPI_COMM_WORLD, prog.rank(), *a->section->of, what);  // its ranges place the view's indices
    std::vector<int64_t> full;
    size_t own = 0;
    const ArrayData& of = *a->section->of;
    for (size_t d = 0; d < of.ranges.size(); ++d) {
      const SectionDim sd = d < a->section->dims.size() ? a->section->dims[d] : SectionDim{};
      full.push_back(sd.kind == SectionDim::index ? sd.first : own < index.size() ? index[own++] : 0);
    }
    a = a->section->of;
    index = std::move(full);
  }
  if (a) read_input_whole(MPI_COMM_WORLD, prog.rank(), *a, what);
  if (!a || !a->has_ranges || a->parts.empty())
    fail_collective(what + "no task has produced it yet" +
                    (a && !a->pending_input.empty() ? " (its input file is read by the first task that uses it)" : ""));
  for (size_t d = 0; d < index.size() && d < a->ranges.size(); ++d)
    if (!a->ranges[d].contains(index[d]))
      fail_collective(what + "index " + std::to_string(index[d]) + " of dimension " + std::to_string(d + 1) +
                      " is outside its range " + std::to_string(a->ranges[d].min) + "..." +
                      std::to_string(a->ranges[d].max));
  return a;
}
}  // namespace

namespace {
// "prog.it:12: " before a coordinator message, when the IT line is known.
std::string at_line(const char* where) { return where ? std::string(where) + ": " : std::string(); }
}  // namespace

void Env::read_element(Program& prog, const std::string& item, std::vector<int64_t> index, void* out, size_t n,
                       const char* where) {
  settle();
  const std::string what = at_line(where) + "reading `" + item + "` of task `" + task_ + "` in the coordinator: ";
  std::shared_ptr<ArrayData> a = element_holder(prog, arrays_[item], index, what);
  // The part that owns the cell: every rank finds the same one.
  int owner = -1;
  size_t part = 0;
  for (size_t g = 0; g < a->parts.size() && owner < 0; ++g) {
    const bool owns = a->strided ? a->owner[g] && a->parts[g].owns(index) : [&] {
      const Box& b = a->canonical[g];
      if (b.empty()) return false;
      for (size_t d = 0; d < b.size(); ++d)
        if (index[d] < b[d].first || index[d] > b[d].second) return false;
      return true;
    }();
    if (owns) {
      owner = a->part_rank[g];
      part = g;
    }
  }
  if (owner < 0) fail_collective(what + "no part holds the element");
  if (prog.rank() == owner) {
    const PartStorage& ps = *a->storage[part];
    auto off = ps.part.local_offset(index);
    if (!off) fail("itrt: internal error: the owning part does not hold the element");
    std::memcpy(out, const_cast<PartStorage&>(ps).version(0) + static_cast<size_t>(*off) * a->elem_size, n);
  }
  mpi::bcast(out, static_cast<int>(n), MPI_BYTE, owner, MPI_COMM_WORLD);
}

// --- bind_output: gathered on rank 0 at program end -------------------------------------------

// Every rank's bytes, concatenated on rank 0 (empty elsewhere); `starts[r]`: where rank r's
// begin. Collective.
static std::vector<std::byte> gather_on_root(const std::vector<std::byte>& mine, std::vector<size_t>& starts) {
  const int me = mpi::rank(MPI_COMM_WORLD), np = mpi::size(MPI_COMM_WORLD);
  int n = static_cast<int>(mine.size());
  std::vector<int> counts(static_cast<size_t>(np)), displs(static_cast<size_t>(np));
  mpi::gather(&n, 1, MPI_INT, counts.data(), 0, MPI_COMM_WORLD);
  std::vector<std::byte> all;
  if (me == 0) {
    int total = 0;
    for (int r = 0; r < np; ++r) {
      displs[static_cast<size_t>(r)] = total;
      total += counts[static_cast<size_t>(r)];
    }
    all.resize(static_cast<size_t>(std::max(total, 1)));
  }
  mpi::gatherv(mine.data(), n, MPI_BYTE, all.data(), counts.data(), displs.data(), 0, MPI_COMM_WORLD);
  starts.assign(displs.begin(), displs.end());
  return all;
}

// The whole array, in position order, on rank 0 (empty elsewhere); collective. Every rank packs
// the cells its parts own canonically (boxes), or its owner parts' owned cells by transfer
// schedules (parts that are not boxes: stride(), block_stride(), inverted ranges).
static ElementBlock whole_on_root(Program& prog, const ArrayData& d) {
  const int me = prog.rank();
  const size_t es = d.elem_size;
  const Part whole = Part::whole(d.ranges);
  auto schedule = [&](size_t g) { return TransferSchedule::owned_to_held(d.parts[g], whole); };
  std::vector<std::byte> mine;
  for (size_t g = 0; g < d.parts.size(); ++g) {
    if (d.part_rank[g] != me) continue;
    if (d.strided) {
      if (!d.owner[g]) continue;
      TransferSchedule ts = schedule(g);
      size_t off = mine.size();
      mine.resize(off + static_cast<size_t>(ts.element_count()) * es);
      ts.pack(d.storage[g]->version(0), es, mine.data() + off);
    } else if (!d.canonical[g].empty()) {
      size_t off = mine.size();
      mine.resize(off + static_cast<size_t>(box_size(d.canonical[g])) * es);
      auto& ps = *d.storage[g];
      copy_region(dense_of(ps.version(0), ps.part), dense_of(mine.data() + off, d.canonical[g]), d.canonical[g], es);
    }
  }
  std::vector<size_t> cursor;  // where each rank's bytes start in `all`
  std::vector<std::byte> all = gather_on_root(mine, cursor);
  std::vector<int64_t> lengths;
  for (auto& r : d.ranges) lengths.push_back(r.length());
  if (me != 0) return ElementBlock{lengths, {}};
  ElementBlock block{lengths, std::vector<std::byte>(static_cast<size_t>(whole.element_count()) * es)};
  if (d.strided) {
    for (size_t g = 0; g < d.parts.size(); ++g) {
      if (!d.owner[g]) continue;
      TransferSchedule ts = schedule(g);
      size_t r = static_cast<size_t>(d.part_rank[g]);
      ts.unpack(all.data() + cursor[r], es, block.bytes.data());
      cursor[r] += static_cast<size_t>(ts.element_count()) * es;
    }
    return block;
  }
  // Boxes: no inverted dimension, so ascending index order is position order.
  Box box;
  for (auto& r : d.ranges) box.push_back({std::min(r.min, r.max), std::max(r.min, r.max)});
  Dense out = dense_of(block.bytes.data(), box);
  for (size_t g = 0; g < d.canonical.size(); ++g) {
    if (d.canonical[g].empty()) continue;
    size_t r = static_cast<size_t>(d.part_rank[g]);
    copy_region(dense_of(all.data() + cursor[r], d.canonical[g]), out, d.canonical[g], es);
    cursor[r] += static_cast<size_t>(box_size(d.canonical[g])) * es;
  }
  return block;
}

void Env::bind_output(Program& prog, const std::string& item, const std::string& file, const char* where) {
  settle();
  // The file is written when the program ends: a name no data file can have is an error now,
  // not after the whole run.
  const std::string what =
      (where ? std::string(where) + ": " : std::string()) + "bind_output of `" + item + "` of task `" + task_ + "`";
  // (A directory has no extension either: say what it is first.)
  check_output_writable(prog, file, what);
  try {
    (void)encoding_of(file);
  } catch (const std::exception& e) {
    fail_collective(what + ": " + exception_text(e));
  }
  auto& a = arrays_[item];
  if (!a) a = std::make_shared<ArrayData>();
  std::shared_ptr<ArrayData> data = a;  // the item as bound now; later tasks fill it in place
  const std::string owner = "`" + item + "` of task `" + task_ + "`";
  prog.note_bound_output(file, owner);
  auto [known, fresh] = prog.output_owners.try_emplace(file, owner, data.get());
  if (!fresh && known->second.second != data.get() && known->second.second != nullptr) {
    if (prog.rank() == 0)
      std::fprintf(stderr,
                   "itrt: warning: `%s` is bound as the output of two different arrays (%s, and earlier %s): "
                   "the file will hold the one bound last; bind them to different files to keep both\n",
                   file.c_str(), owner.c_str(), known->second.first.c_str());
    known->second.second = nullptr;  // said once for this file
  }
  // The write happens at the end of the program: the environment may be gone from the coordinator's
  // variables by then (`env = new TaskEnvironment(...)` in a loop), so the hook keeps it alive.
  std::shared_ptr<Env> self = weak_from_this().lock();
  prog.at_exit.push_back([&prog, data, file, item, this, self] { write_item(prog, item, file, data); });
}

// A view is made before the array it views may exist (a later task produces it): its indices are
// checked against that array's ranges when its values are read or written.
static void check_view_within(const Section& view, const std::vector<DimRange>& ranges, const std::string& what) {
  for (size_t d = 0; d < ranges.size() && d < view.dims.size(); ++d) {
    const SectionDim& sd = view.dims[d];
    if (sd.kind == SectionDim::whole) continue;
    for (const int64_t i : {sd.first, sd.kind == SectionDim::range ? sd.last : sd.first})
      if (!ranges[d].contains(i))
        fail_collective(what + "the view made " + (view.made_at.empty() ? std::string() : "at " + view.made_at) +
                        " has index " + std::to_string(i) + " of dimension " + std::to_string(d + 1) +
                        ", outside the range " + std::to_string(ranges[d].min) + "..." + std::to_string(ranges[d].max) +
                        " of the array it views");
  }
}

// The cells of a view's section of `whole` (the viewed array in position order over `ranges`),
// in the view's own position order (its ranges run upwards; an index drops its dimension).
static ElementBlock section_of_block(const ElementBlock& whole, const std::vector<DimRange>& ranges,
                                     const std::vector<SectionDim>& dims, size_t es) {
  const size_t n = ranges.size();
  std::vector<int64_t> start(n), step(n), count(n);
  ElementBlock out;
  for (size_t d = 0; d < n; ++d) {
    const SectionDim sd = d < dims.size() ? dims[d] : SectionDim{};
    const DimRange& r = ranges[d];
    auto pos = [&](int64_t i) { return r.dir() > 0 ? i - r.min : r.min - i; };
    start[d] = sd.kind == SectionDim::whole ? 0 : pos(sd.first);
    const int64_t end = sd.kind == SectionDim::whole   ? r.length() - 1
                        : sd.kind == SectionDim::range ? pos(sd.last)
                                                       : start[d];
    step[d] = end >= start[d] ? 1 : -1;
    count[d] = (end >= start[d] ? end - start[d] : start[d] - end) + 1;
    if (sd.kind != SectionDim::index) out.lengths.push_back(count[d]);
  }
  int64_t total = 1;
  for (int64_t c : count) total *= c;
  out.bytes.resize(static_cast<size_t>(total) * es);
  std::vector<int64_t> at(n, 0);
  for (int64_t k = 0; k < total; ++k) {
    int64_t off = 0;
    for (size_t d = 0; d < n; ++d) off = off * ranges[d].length() + start[d] + step[d] * at[d];
    std::memcpy(out.bytes.data() + static_cast<size_t>(k) * es, whole.bytes.data() + static_cast<size_t>(off) * es, es);
    for (size_t d = n; d-- > 0;) {
      if (++at[d] < count[d]) break;
      at[d] = 0;
    }
  }
  return out;
}

void Env::write_item(Program& prog, const std::string& item, const std::string& file,
                     const std::shared_ptr<ArrayData>& bound) {
  settle();
  TaskScheduler::settle_readers_for_coordinator(file);
  Program* p = &prog;
  const std::string& task = task_;
  std::shared_ptr<ArrayData> data = bound ? bound : arrays_[item];
  if (auto l = lists_.find(item); l != lists_.end() && l->second && l->second->set) {
    // A list: every rank has it; rank 0 writes it.
    const ListData& ld = *l->second;
    write_collection(*p, p->rank() == 0 ? ld.to_file(ld.bytes) : DataCollection{}, *ld.codec, file);
    return;
  }
  std::shared_ptr<ArrayData> cur = arrays_[item] ? arrays_[item] : data;
  if (!cur)
    fail_collective("writing environment item `" + item + "` of task `" + task + "` to `" + file +
                    "`: no task has produced it and nothing was assigned or bound to it");
  ArrayData& d = *cur;
  const int me = p->rank();
  // An input no task has read yet (bound or loaded, and linked by no stage since): written as
  // read, the file's cells, not zeros.
  const std::string what = "writing environment item `" + item + "` of task `" + task + "` to `" + file + "`: ";
  if (d.section && d.section->of) read_input_whole(MPI_COMM_WORLD, me, *d.section->of, what);
  read_input_whole(MPI_COMM_WORLD, me, d, what);
  if (d.section && d.section->of && d.section->of->has_ranges && !d.section->of->parts.empty()) {
    // A view's values live in the array it views, which later tasks may have written since the
    // view's own task: write its section of that array (rank 0, as for text files).
    const ArrayData& of = *d.section->of;
    check_view_within(*d.section, of.ranges, what);
    ElementBlock whole = whole_on_root(*p, of);
    write_on_root(*p, file, [&] {
      write_data_file(file, *of.codec,
                      DataCollection::array(section_of_block(whole, of.ranges, d.section->dims, of.elem_size)));
    });
    return;
  }
  if (!d.codec || !d.has_ranges)
    fail_collective(what + "no task has produced it and nothing was assigned or bound to it");
  size_t es = d.elem_size;
  if (d.strided || extension(file) != ".bin") {
    // Rank 0 writes the whole array (parts that are not boxes, and text files).
    ElementBlock block = whole_on_root(*p, d);
    write_on_root(*p, file, [&] { write_data_file(file, *d.codec, DataCollection::array(std::move(block))); });
    return;
  }
  // Parallel: every rank writes the boxes it owns canonically through one MPI-IO view. A part
  // that owns exactly its canonical box is written from its storage; others (replicas whose
  // cells another LPU writes, parts the chain cut) through a copy of the box.
  std::deque<Part> boxes;  // stable addresses for lp
  std::vector<std::unique_ptr<std::byte[]>> copies;
  std::vector<ConstLocalPart> lp;
  for (size_t g = 0; g < d.canonical.size(); ++g) {
    if (d.part_rank[g] != me || d.canonical[g].empty()) continue;
    auto& ps = *d.storage[g];
    if (is_box(ps.part) && owned_box(ps.part) == d.canonical[g]) {
      lp.push_back({&ps.part, ps.version(0)});
      continue;
    }
    std::vector<DimRange> r;
    for (auto& iv : d.canonical[g]) r.push_back(DimRange{iv.first, iv.second});
    boxes.push_back(Part::whole(r));
    copies.emplace_back(new std::byte[static_cast<size_t>(box_size(d.canonical[g])) * es]);  // every byte copied below
    copy_region(dense_of(ps.version(0), ps.part), dense_of(copies.back().get(), d.canonical[g]), d.canonical[g], es);
    lp.push_back({&boxes.back(), copies.back().get()});
  }
  try {
    write_array_parts(MPI_COMM_WORLD, file, *d.codec, d.ranges, lp);
  } catch (const std::exception& e) {
    // every rank has the same error (write_array_parts agrees on it): one message
    fail_collective(std::string("writing `") + file + "`: " + exception_text(e));
  }
}

// --- coordinator arrays and environment items -----------------------------------------------

void Env::write_element(Program& prog, const std::string& item, std::vector<int64_t> index, const void* value, size_t n,
                        const char* where) {
  settle();
  const std::string what =
      at_line(where) + "writing an element of `" + item + "` of task `" + task_ + "` in the coordinator: ";
  std::shared_ptr<ArrayData> a = element_holder(prog, arrays_[item], index, what);
  write_copies(*a, index, value, n);
}

void Env::write_cells(Program& prog, const std::string& item, const std::vector<DimRange>& ranges,
                      const std::byte* data, size_t elem_size) {
  settle();
  // The array that holds the cells (for a view, the one it views), checked as an element's is;
  // `fixed` becomes the holder's index of the copy's first cell, so it has the view's fixed
  // indices in the dimensions the view drops.
  const std::shared_ptr<ArrayData> item_data = arrays_[item];
  std::vector<int64_t> fixed;
  for (const DimRange& r : ranges) fixed.push_back(r.min);
  const std::shared_ptr<ArrayData> holder =
      element_holder(prog, item_data, fixed, "giving `" + item + "` of task `" + task_ + "` back from a function: ");
  const size_t rank = holder->ranges.size();
  // Per dimension of the holder: the copy's dimension along it, or -1 where the view fixes it.
  std::vector<int> along(rank, -1);
  size_t k = 0;
  for (size_t d = 0; d < rank; ++d) {
    const Section* sec = item_data->section.get();
    const bool dropped = sec && d < sec->dims.size() && sec->dims[d].kind == SectionDim::index;
    if (!dropped && k < ranges.size()) along[d] = static_cast<int>(k++);
  }
  std::vector<int64_t> copy_stride(ranges.size(), 1);
  for (size_t c = ranges.size(); c-- > 1;) copy_stride[c - 1] = copy_stride[c] * ranges[c].length();
  // Every copy of every cell, in each of this rank's parts (owners, replicas, padding): per
  // dimension the held positions the copy covers and where they are in the copy.
  const PartStorage* last = nullptr;
  for (auto& ps : holder->storage) {
    if (!ps || ps.get() == last) continue;
    last = ps.get();
    std::vector<std::vector<std::pair<int64_t, int64_t>>> cells(rank);  // (local position, copy offset)
    bool covered = true;
    for (size_t d = 0; d < rank && covered; ++d) {
      const std::vector<int64_t> held = ps->part.held(static_cast<int>(d)).indices();
      for (size_t pos = 0; pos < held.size(); ++pos) {
        const int64_t g = held[pos];
        if (along[d] < 0) {
          if (g == fixed[d]) cells[d].push_back({static_cast<int64_t>(pos), 0});
        } else if (const DimRange& r = ranges[static_cast<size_t>(along[d])]; r.contains(g)) {
          cells[d].push_back(
              {static_cast<int64_t>(pos), r.position_of(g) * copy_stride[static_cast<size_t>(along[d])]});
        }
      }
      covered = !cells[d].empty();
    }
    if (!covered) continue;
    const std::vector<int64_t> local_stride = ps->part.strides();
    std::vector<size_t> at(rank, 0);  // an odometer over the product of the cells
    while (true) {
      int64_t local = 0, copy = 0;
      for (size_t d = 0; d < rank; ++d) {
        local += cells[d][at[d]].first * local_stride[d];
        copy += cells[d][at[d]].second;
      }
      std::memcpy(ps->version(0) + static_cast<size_t>(local) * elem_size, data + static_cast<size_t>(copy) * elem_size,
                  elem_size);
      size_t d = rank;
      while (d-- > 0 && ++at[d] == cells[d].size()) at[d] = 0;
      if (d == static_cast<size_t>(-1)) break;
    }
    ps->writes.fetch_add(1, std::memory_order_relaxed);
  }
}

void Env::assign_array(const std::string& item, const std::vector<DimRange>& ranges, const std::byte* data,
                       size_t elem_size, const ElementCodec& codec, int rank) {
  settle();
  for (size_t d = 0; d < ranges.size(); ++d)
    if (ranges[d].length() <= 0)
      fail_collective("assigning an array to `" + item + "` of task `" + task_ + "`: dimension " +
                      std::to_string(d + 1) + " of the array has no range (set its range.min and range.max first)");
  // One part, the whole array, on rank 0: the next task takes its parts from there as from any
  // distribution an earlier task left (a fresh object: environments that shared the old one keep it).
  auto a = std::make_shared<ArrayData>();
  a->name = item;
  a->elem_size = elem_size;
  a->codec = &codec;
  a->dims = static_cast<int>(ranges.size());
  a->ranges = ranges;
  a->has_ranges = true;
  if (std::byte* mine = hold_whole_on_rank_zero(*a, rank))
    std::memcpy(mine, data, static_cast<size_t>(a->parts[0].element_count()) * elem_size);
  arrays_[item] = a;
}

void Env::assign_shapeless(const std::string& item, int dims) {
  settle();
  auto a = std::make_shared<ArrayData>();
  a->name = item;
  a->dims = dims;
  a->shapeless = true;
  arrays_[item] = a;
}

void Env::bind_input(Program& prog, const std::string& item, const std::string& file, const ElementCodec& codec,
                     int dims, const char* where) {
  bind_input(prog, item, file, where);
  ArrayData& a = *arrays_[item];
  a.codec = &codec;
  a.elem_size = codec.memory_size();
  a.dims = dims;
}

std::vector<std::byte> Env::read_whole(Program& prog, const std::string& item, std::vector<DimRange>& ranges) {
  settle();
  std::vector<int64_t> none;
  std::shared_ptr<ArrayData> a = arrays_[item];
  if (a && a->section) {
    // A view: its section of the array it views, where its values live (as write_item does).
    const Section& sec = *a->section;
    const std::string what = "reading `" + item + "` of task `" + task_ + "` in the coordinator: ";
    std::shared_ptr<ArrayData> of = element_holder(prog, sec.of, none, what);
    check_view_within(sec, of->ranges, what);
    ElementBlock whole = whole_on_root(prog, *of);
    const size_t bytes = static_cast<size_t>(Part::whole(of->ranges).element_count()) * of->elem_size;
    whole.bytes.resize(bytes);
    mpi::bcast(whole.bytes.data(), static_cast<int>(bytes), MPI_BYTE, 0, MPI_COMM_WORLD);
    ranges.clear();
    for (size_t d = 0; d < of->ranges.size(); ++d) {
      const SectionDim sd = d < sec.dims.size() ? sec.dims[d] : SectionDim{};
      if (sd.kind == SectionDim::whole) ranges.push_back(of->ranges[d]);
      if (sd.kind == SectionDim::range) ranges.push_back(DimRange{sd.first, sd.last});
    }
    return std::move(section_of_block(whole, of->ranges, sec.dims, of->elem_size).bytes);
  }
  a = element_holder(prog, a, none, "reading `" + item + "` of task `" + task_ + "` in the coordinator: ");
  ElementBlock block = whole_on_root(prog, *a);
  const size_t bytes = static_cast<size_t>(Part::whole(a->ranges).element_count()) * a->elem_size;
  block.bytes.resize(bytes);
  mpi::bcast(block.bytes.data(), static_cast<int>(bytes), MPI_BYTE, 0, MPI_COMM_WORLD);
  ranges = a->ranges;
  return std::move(block.bytes);
}

}  // namespace itrt::task
