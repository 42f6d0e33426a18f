// Cross-rank reduction as a VSA pattern (no MPI_Allreduce): contributors push partial values to a
// combiner VDP on their rank, which combines them in contributor order and pushes one partial to a
// root combiner; the root combines the ranks' partials in rank order and broadcasts one packet
// back down, so every contributor receives the result (allreduce). The order is fixed by the spec,
// never by arrival, so results are reproducible for a fixed mapping. Must not call MPI.
#pragma once

#include "runtime/engine/reduction.h"
#include "runtime/engine/vdp.h"
#include "runtime/engine/vsa.h"

#include <vector>

namespace itrt {

struct ReductionTreeSpec {
  Tuple id;                         // tree VDPs are id+(0, rank) per rank and id+(1) for the root
  std::vector<Tuple> contributors;  // in combine order; non-empty
  int contribute_slot = 0;          // output slot on which each contributor pushes its partial
  int result_slot = 0;              // input slot on which each contributor receives the result
  int64_t rounds = 1;               // reductions performed (one per Repeat iteration, say)
  Combiner combiner;                // payload = array of combiner.value_size-byte values
};

// Places and inserts the combiner VDPs. Call on every rank, before inserting the contributors.
void insert_reduction_tree(Vsa& vsa, const ReductionTreeSpec& spec);

// Declares the contributor's two channels: output `contribute_slot` to its rank's combiner and
// input `result_slot` from it, initially OFF. A contributor pushes its partial, then turns the
// result slot on to wait for the result, pops it, and turns it off again.
void add_contributor_channels(const Vsa& vsa, const ReductionTreeSpec& spec, VdpSpec& contributor);

}  // namespace itrt
