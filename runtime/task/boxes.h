// Box geometry and region copies shared by the task layer: launch (hand-over), padding
// exchange, bound outputs. A Box is one closed interval of global indices per dimension.
// Internal to runtime/task (generated code does not include it).
#pragma once

#include "runtime/task/program.h"

#include <string>
#include <utility>
#include <vector>

namespace itrt::task::boxes {

using Interval = std::pair<int64_t, int64_t>;

bool empty(const Interval& i);
bool empty(const Box& b);
// Throws for strided or inverted index sets: those are not boxes.
Interval interval(const IndexSet1D& s);
// Whether every held index set of the part is one ascending interval (or empty).
bool is_box(const Part& p);
// Every held dimension is an interval, upwards or downwards (boxes of it run upwards: min...max).
bool is_interval_part(const Part& p);
Box held_box(const Part& p);
Box owned_box(const Part& p);
Box intersect(const Box& a, const Box& b);
int64_t box_size(const Box& b);

// A dense buffer seen in global indices: element g is at base[sum (g[d]-lo[d])*stride[d]].
struct Dense {
  std::byte* base;
  std::vector<int64_t> lo, stride;
};
Dense dense_of(std::byte* base, const Part& p);
Dense dense_of(std::byte* base, const Box& b);
// Copies the cells of `region` from src to dst, one memcpy per innermost run.
void copy_region(const Dense& src, const Dense& dst, const Box& region, size_t elem);
// Copies the cells of `whole` outside `inner` from src to dst (all of `whole` when they do not
// meet), one copy_region per slab: at most two per dimension.
void copy_outside(const Dense& src, const Dense& dst, const Box& whole, const Box& inner, size_t elem);
// Copies every held element of a part (any index sets) from a dense buffer in global indices.
void copy_into_part(const Dense& src, PartStorage& ps, size_t elem);
std::string extension(const std::string& f);

}  // namespace itrt::task::boxes
