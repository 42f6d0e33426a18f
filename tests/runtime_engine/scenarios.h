// VSA scenarios shared by the single-process tests (loopback transport) and the mpirun tests:
// each builds the same VSA on every rank (replicated construction) and then checks, on each rank,
// the VDPs that ran there against a sequential reference. Must not call MPI (callers aggregate).
#pragma once

#include "runtime/engine/engine.h"
#include "tests/runtime_engine/reduction_tree.h"

#include <cstdint>
#include <string>

namespace itrt::testing {

struct Result {
  int64_t checked = 0;  // facts verified on this rank
  int64_t errors = 0;   // facts that were wrong
  std::string first_error;
  void expect(bool ok, const std::string& what);
  void add(const Result& o);
};

// Spreads tuples over all threads by hash (deterministic, so every rank agrees).
MappingFunction hash_mapping();

// Token ring of n VDPs, `laps` rounds; VDP 0 records the final token.
void build_ring(Vsa& vsa, int n, int laps);
Result check_ring(Vsa& vsa, int n, int laps);

// Producer (0) sends `count` sequence-numbered packets to consumer (1); consumer checks order.
// Producer and consumer placements come from the mapping.
void build_fifo(Vsa& vsa, int count, int payload_ints);
Result check_fifo(Vsa& vsa, int count);

// Cannon's algorithm on an nt x nt mesh of nb x nb tiles; C tiles compared with a plain product.
void build_cannon(Vsa& vsa, int nt, int nb, uint32_t seed);
Result check_cannon(Vsa& vsa, int nt, int nb, uint32_t seed);

// One packet broadcast from VDP (0) to `fanout` consumers; consumers check the payload.
void build_broadcast(Vsa& vsa, int fanout, int rounds);
Result check_broadcast(Vsa& vsa, int fanout, int rounds);

// Data-dependent loop ended with finish(): producer sends the Collatz sequence from `start`,
// consumer finishes when it sees 1. Both have unbounded counters.
void build_collatz(Vsa& vsa, int64_t start);
Result check_collatz(Vsa& vsa, int64_t start);

// Firing rules: X (70,2) has input 0 from A (70,0) and input 1, initially OFF, from B (70,1);
// B only pushes after X's first firing sends it a "go", so X's first firing proves an inactive
// empty channel does not block; X then switches slot 1 on (second firing needs B's packet) and
// off again (third firing does not). X logs what it saw; the check compares the log.
void build_gate(Vsa& vsa);
Result check_gate(Vsa& vsa);

// Every §6.7 operator on every applicable type through reduction trees, `contributors` VDPs,
// `rounds` rounds, compared with a sequential reduction over all values.
void build_reductions(Vsa& vsa, int contributors, int values_per_contributor, int rounds, uint32_t seed);
Result check_reductions(Vsa& vsa, int contributors);
// Number of (operator, type) cases the reduction scenario covers.
int reduction_case_count();

}  // namespace itrt::testing
