// Implements scenarios.h. Every expected value is computed independently of the engine: the ring
// total by formula, Cannon by a plain triple loop, reductions by a sequential pass over all values.
#include "tests/runtime_engine/scenarios.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <memory>
#include <vector>

namespace itrt::testing {

void Result::expect(bool ok, const std::string& what) {
  ++checked;
  if (!ok) {
    if (errors == 0) first_error = what;
    ++errors;
  }
}

void Result::add(const Result& o) {
  if (errors == 0 && o.errors) first_error = o.first_error;
  checked += o.checked;
  errors += o.errors;
}

MappingFunction hash_mapping() {
  return [](const Tuple& t, int total) { return static_cast<int>(t.hash() % total); };
}

namespace {
PacketRef int_packet(int64_t v) { return Packet::copy_of(&v, sizeof v); }
int64_t int_of(const PacketRef& p) { return *p->as<int64_t>(); }
}  // namespace

// ---------------------------------------------------------------- ring
void build_ring(Vsa& vsa, int n, int laps) {
  for (int i = 0; i < n; ++i) {
    VdpSpec s;
    s.tuple = {10, i};
    s.counter = i == 0 ? laps + 1 : laps;
    s.input(0, {10, (i + n - 1) % n}, 0, /*active=*/i != 0);
    s.output(0, {10, (i + 1) % n}, 0);
    s.local = int64_t{-1};
    s.function = [i](Vdp& v) {
      if (i == 0 && v.fired() == 0) {
        v.push(0, int_packet(0));
        v.channel_on(0);
        return;
      }
      int64_t token = int_of(v.pop(0)) + i + 1;
      if (i == 0 && v.counter() == 1)
        v.local<int64_t>() = token;
      else
        v.push(0, int_packet(token));
    };
    vsa.insert(std::move(s));
  }
}

Result check_ring(Vsa& vsa, int n, int laps) {
  Result r;
  for (int i = 0; i < n; ++i) {
    Vdp* v = vsa.find({10, i});
    if (!v) continue;
    r.expect(v->finished(), fmt::format("ring VDP {} did not finish", i));
    if (i == 0) {
      int64_t want = static_cast<int64_t>(laps) * n * (n + 1) / 2;
      int64_t got = v->local<int64_t>();
      r.expect(got == want, fmt::format("ring total {} != {}", got, want));
    }
  }
  return r;
}

// ---------------------------------------------------------------- FIFO
namespace {
struct FifoState {
  int64_t next = 0;
  int64_t errors = 0;
};
}  // namespace

void build_fifo(Vsa& vsa, int count, int payload_ints) {
  VdpSpec p;
  p.tuple = {20, 0};
  p.counter = count;
  p.output(0, {20, 1}, 0);
  p.function = [payload_ints](Vdp& v) {
    PacketRef pk = v.new_packet(sizeof(int32_t) * payload_ints);
    int32_t* d = pk->as<int32_t>();
    for (int j = 0; j < payload_ints; ++j) d[j] = static_cast<int32_t>(v.fired() * 7 + j);
    v.push(0, pk);
  };
  vsa.insert(std::move(p));
  VdpSpec c;
  c.tuple = {20, 1};
  c.counter = count;
  c.input(0, {20, 0}, 0);
  c.local = FifoState{};
  c.function = [payload_ints](Vdp& v) {
    auto& st = v.local<FifoState>();
    PacketRef pk = v.pop(0);
    const int32_t* d = pk->as<int32_t>();
    bool ok = pk->size() == sizeof(int32_t) * payload_ints;
    for (int j = 0; ok && j < payload_ints; ++j) ok = d[j] == static_cast<int32_t>(st.next * 7 + j);
    if (!ok) ++st.errors;
    ++st.next;
  };
  vsa.insert(std::move(c));
}

Result check_fifo(Vsa& vsa, int count) {
  Result r;
  if (Vdp* c = vsa.find({20, 1})) {
    auto& st = c->local<FifoState>();
    r.expect(st.next == count, fmt::format("consumer saw {} packets, want {}", st.next, count));
    r.expect(st.errors == 0, fmt::format("{} packets out of order or corrupt", st.errors));
  }
  return r;
}

// ---------------------------------------------------------------- Cannon
namespace {
double element(uint32_t seed, int which, int i, int j) {
  uint64_t h = (uint64_t{seed} * 1000003u + which) * 1000033u + static_cast<uint64_t>(i) * 7919u +
               static_cast<uint64_t>(j) * 104729u;
  h ^= h >> 13;
  h *= 0x9E3779B97F4A7C15ull;
  h ^= h >> 29;
  return static_cast<double>(h % 9) - 4.0;  // small integers: every sum is exact
}

struct Tile {
  std::vector<double> a, b, c;
};

std::vector<double> tile_of(uint32_t seed, int which, int ti, int tj, int nb) {
  std::vector<double> t(static_cast<size_t>(nb) * nb);
  for (int i = 0; i < nb; ++i)
    for (int j = 0; j < nb; ++j) t[i * nb + j] = element(seed, which, ti * nb + i, tj * nb + j);
  return t;
}

void gemm(std::vector<double>& c, const double* a, const double* b, int nb) {
  for (int i = 0; i < nb; ++i)
    for (int k = 0; k < nb; ++k)
      for (int j = 0; j < nb; ++j) c[i * nb + j] += a[i * nb + k] * b[k * nb + j];
}
}  // namespace

void build_cannon(Vsa& vsa, int nt, int nb, uint32_t seed) {
  for (int m = 0; m < nt; ++m)
    for (int n = 0; n < nt; ++n) {
      // At step s VDP (m, n) holds A(m, k) and B(k, n) with k = (m + n + s) mod nt, so the next
      // A comes from the right neighbour and the next B from the one below.
      int k0 = (m + n) % nt;
      VdpSpec s;
      s.tuple = {30, m, n};
      s.counter = nt;
      s.input(0, {30, m, (n + 1) % nt}, 0, false);
      s.input(1, {30, (m + 1) % nt, n}, 1, false);
      s.output(0, {30, m, (n + nt - 1) % nt}, 0);
      s.output(1, {30, (m + nt - 1) % nt, n}, 1);
      s.local = Tile{tile_of(seed, 0, m, k0, nb), tile_of(seed, 1, k0, n, nb),
                     std::vector<double>(static_cast<size_t>(nb) * nb, 0.0)};
      s.function = [nb](Vdp& v) {
        Tile& t = v.local<Tile>();
        if (v.fired() == 0) {
          if (v.counter() > 1) {
            v.push(0, Packet::copy_of(t.a.data(), t.a.size() * sizeof(double)));
            v.push(1, Packet::copy_of(t.b.data(), t.b.size() * sizeof(double)));
          }
          gemm(t.c, t.a.data(), t.b.data(), nb);
          v.channel_on(0);
          v.channel_on(1);
          return;
        }
        PacketRef a = v.pop(0), b = v.pop(1);
        if (v.counter() > 1) {  // forward the very same packets: zero-copy systolic shift
          v.push(0, a);
          v.push(1, b);
        }
        gemm(t.c, a->as<double>(), b->as<double>(), nb);
      };
      vsa.insert(std::move(s));
    }
}

Result check_cannon(Vsa& vsa, int nt, int nb, uint32_t seed) {
  Result r;
  int size = nt * nb;
  for (int m = 0; m < nt; ++m)
    for (int n = 0; n < nt; ++n) {
      Vdp* v = vsa.find({30, m, n});
      if (!v) continue;
      const Tile& t = v->local<Tile>();
      int bad = 0;
      for (int i = 0; i < nb; ++i)
        for (int j = 0; j < nb; ++j) {
          double want = 0;
          for (int l = 0; l < size; ++l) want += element(seed, 0, m * nb + i, l) * element(seed, 1, l, n * nb + j);
          if (t.c[i * nb + j] != want) ++bad;
        }
      r.expect(bad == 0, fmt::format("Cannon tile ({}, {}): {} wrong elements", m, n, bad));
    }
  return r;
}

// ---------------------------------------------------------------- broadcast
namespace {
struct BroadcastSource {
  std::vector<int> ref_counts;
  std::vector<const void*> addresses;
};
struct BroadcastSink {
  std::vector<const void*> addresses;
  int64_t errors = 0;
};
constexpr int kBroadcastInts = 64;
}  // namespace

void build_broadcast(Vsa& vsa, int fanout, int rounds) {
  VdpSpec s;
  s.tuple = {40, 0};
  s.counter = rounds;
  for (int c = 0; c < fanout; ++c) s.output(c, {40, 1 + c}, 0);
  s.local = BroadcastSource{};
  s.function = [fanout](Vdp& v) {
    PacketRef p = v.new_packet(kBroadcastInts * sizeof(int32_t));
    for (int j = 0; j < kBroadcastInts; ++j) p->as<int32_t>()[j] = static_cast<int32_t>(v.fired() * 1000 + j);
    for (int c = 0; c < fanout; ++c) v.push(c, p);
    auto& st = v.local<BroadcastSource>();
    st.ref_counts.push_back(p->ref_count());
    st.addresses.push_back(p->data());
  };
  vsa.insert(std::move(s));
  for (int c = 0; c < fanout; ++c) {
    VdpSpec k;
    k.tuple = {40, 1 + c};
    k.counter = rounds;
    k.input(0, {40, 0}, c);
    k.local = BroadcastSink{};
    k.function = [](Vdp& v) {
      PacketRef p = v.pop(0);
      auto& st = v.local<BroadcastSink>();
      for (int j = 0; j < kBroadcastInts; ++j)
        if (p->as<int32_t>()[j] != static_cast<int32_t>(v.fired() * 1000 + j)) ++st.errors;
      st.addresses.push_back(p->data());
    };
    vsa.insert(std::move(k));
  }
}

Result check_broadcast(Vsa& vsa, int fanout, int rounds) {
  Result r;
  Vdp* src = vsa.find({40, 0});
  bool all_on_source_thread = true;
  for (int c = 0; c < fanout; ++c) all_on_source_thread &= vsa.thread_of({40, 1 + c}) == vsa.thread_of({40, 0});
  if (src) {
    auto& st = src->local<BroadcastSource>();
    r.expect(static_cast<int>(st.ref_counts.size()) == rounds, "source fired the wrong number of times");
    for (int rc : st.ref_counts) {
      // Consumers on the source's thread cannot pop during its firing: exactly one reference per
      // channel plus the source's own. Otherwise consumers/proxy may already have dropped theirs.
      if (all_on_source_thread)
        r.expect(rc == 1 + fanout, fmt::format("ref count after broadcast {} != {}", rc, 1 + fanout));
      else
        r.expect(rc >= 1 && rc <= 1 + fanout, fmt::format("ref count {} out of range", rc));
    }
  }
  for (int c = 0; c < fanout; ++c) {
    Vdp* k = vsa.find({40, 1 + c});
    if (!k) continue;
    auto& st = k->local<BroadcastSink>();
    r.expect(st.errors == 0, fmt::format("consumer {} saw {} wrong values", c, st.errors));
    r.expect(static_cast<int>(st.addresses.size()) == rounds, "consumer fired the wrong number of times");
    if (src && static_cast<int>(st.addresses.size()) == rounds) {
      auto& ss = src->local<BroadcastSource>();
      for (int i = 0; i < rounds; ++i)
        r.expect(st.addresses[i] == ss.addresses[i],
                 fmt::format("consumer {} round {}: intra-rank packet was copied", c, i));
    }
  }
  return r;
}

// ---------------------------------------------------------------- Collatz (explicit finish)
namespace {
int64_t collatz_next(int64_t n) { return n % 2 ? 3 * n + 1 : n / 2; }
int64_t collatz_length(int64_t n) {
  int64_t len = 1;
  while (n != 1) {
    n = collatz_next(n);
    ++len;
  }
  return len;
}
struct CollatzSink {
  int64_t expect;
  int64_t errors = 0;
};
}  // namespace

void build_collatz(Vsa& vsa, int64_t start) {
  VdpSpec p;
  p.tuple = {50, 0};
  p.counter = 0;  // unbounded
  p.output(0, {50, 1}, 0);
  p.local = start;
  p.function = [](Vdp& v) {
    int64_t& n = v.local<int64_t>();
    v.push(0, int_packet(n));
    if (n == 1)
      v.finish();
    else
      n = collatz_next(n);
  };
  vsa.insert(std::move(p));
  VdpSpec c;
  c.tuple = {50, 1};
  c.counter = 0;
  c.input(0, {50, 0}, 0);
  c.local = CollatzSink{start};
  c.function = [](Vdp& v) {
    auto& st = v.local<CollatzSink>();
    int64_t got = int_of(v.pop(0));
    if (got != st.expect) ++st.errors;
    if (got == 1) v.finish();
    st.expect = collatz_next(st.expect);
  };
  vsa.insert(std::move(c));
}

Result check_collatz(Vsa& vsa, int64_t start) {
  Result r;
  int64_t len = collatz_length(start);
  for (int i = 0; i < 2; ++i)
    if (Vdp* v = vsa.find({50, i})) {
      r.expect(v->finished(), "collatz VDP not finished");
      r.expect(v->fired() == len, fmt::format("collatz VDP {} fired {} times, want {}", i, v->fired(), len));
      if (i == 1) r.expect(v->local<CollatzSink>().errors == 0, "collatz values wrong");
    }
  return r;
}

// ---------------------------------------------------------------- firing rules (gate)
namespace {
struct GateLog {
  std::vector<std::string> events;
};
}  // namespace

void build_gate(Vsa& vsa) {
  VdpSpec a;
  a.tuple = {70, 0};
  a.counter = 3;
  a.output(0, {70, 2}, 0);
  a.function = [](Vdp& v) { v.push(0, int_packet(v.fired())); };
  vsa.insert(std::move(a));
  VdpSpec b;
  b.tuple = {70, 1};
  b.counter = 1;
  b.input(0, {70, 2}, 1);
  b.output(0, {70, 2}, 1);
  b.function = [](Vdp& v) {
    v.pop(0);
    v.push(0, int_packet(99));
  };
  vsa.insert(std::move(b));
  VdpSpec x;
  x.tuple = {70, 2};
  x.counter = 3;
  x.input(0, {70, 0}, 0).input(1, {70, 1}, 0, /*active=*/false).output(1, {70, 1}, 0);
  x.local = GateLog{};
  x.function = [](Vdp& v) {
    std::string e = fmt::format("fire{} a={}", v.fired(), int_of(v.pop(0)));
    if (v.channel_active(1)) e += fmt::format(" b={}", int_of(v.pop(1)));
    if (v.fired() == 0) {
      e += fmt::format(" queued1={}", v.queued(1));
      v.push(1, int_packet(0));  // let B run
      v.channel_on(1);
    } else if (v.fired() == 1) {
      v.channel_off(1);
    }
    v.local<GateLog>().events.push_back(e);
  };
  vsa.insert(std::move(x));
}

Result check_gate(Vsa& vsa) {
  Result r;
  if (Vdp* x = vsa.find({70, 2})) {
    auto& ev = x->local<GateLog>().events;
    std::vector<std::string> want{"fire0 a=0 queued1=0", "fire1 a=1 b=99", "fire2 a=2"};
    r.expect(ev == want, fmt::format("gate log [{}]", fmt::join(ev, "; ")));
  }
  return r;
}

// ---------------------------------------------------------------- reductions
namespace {

struct Case {
  std::string name;
  Combiner combiner;
  std::function<std::vector<char>(int contributor, int round)> partial;
  std::function<std::vector<char>(int round)> expected;
  std::function<bool(const void* got, const void* want)> equal;
};

uint64_t mix(uint64_t a, uint64_t b) {
  uint64_t h = a * 0x9E3779B97F4A7C15ull + b;
  h ^= h >> 31;
  h *= 0xBF58476D1CE4E5B9ull;
  h ^= h >> 27;
  return h;
}

template <ReduceOp Op, typename T>
T gen(uint64_t h) {
  constexpr bool entry = Op == ReduceOp::max_entry || Op == ReduceOp::min_entry;
  if constexpr (std::is_same_v<T, bool>) {
    return Op == ReduceOp::land ? h % 97 != 0 : h % 97 == 0;
  } else if constexpr (std::is_same_v<T, char>) {
    return static_cast<char>('a' + h % (entry ? 3 : 26));
  } else if constexpr (std::is_same_v<T, int32_t>) {
    if (entry) return static_cast<int32_t>(h % 4);  // many ties
    if (Op == ReduceOp::product) return static_cast<int32_t>(h % 5) - 2;
    if (Op == ReduceOp::band) return static_cast<int32_t>(~(1u << (h % 31)));
    if (Op == ReduceOp::bor) return static_cast<int32_t>(1u << (h % 31));
    return static_cast<int32_t>(h % 2001) - 1000;
  } else {
    if (entry) return static_cast<T>(h % 4);
    if (Op == ReduceOp::product) return static_cast<T>(1.0 + (static_cast<double>(h % 101) - 50) / 1000.0);
    return static_cast<T>(static_cast<double>(h % 100000) / 7.0 - 5000.0);
  }
}

template <ReduceOp Op, typename T>
Case make_case(int case_id, int values, int total, uint32_t seed) {
  using R = Reducer<Op, T>;
  using V = typename R::Value;
  auto value_at = [=](int round, int index) {
    return gen<Op, T>(mix(mix(seed, case_id), static_cast<uint64_t>(round) * 1000003u + index));
  };
  auto to_bytes = [](const V& v) {
    std::vector<char> b(sizeof(V));
    std::memcpy(b.data(), &v, sizeof(V));
    return b;
  };
  Case c;
  c.name = fmt::format("{}<{}>", reduce_op_name(Op), typeid(T).name());
  c.combiner = make_combiner<Op, T>();
  c.partial = [=](int contributor, int round) {
    // std::vector<bool> has no contiguous storage, so hold the values in a plain array.
    std::unique_ptr<T[]> vals(new T[values]);
    for (int i = 0; i < values; ++i) vals[i] = value_at(round, contributor * values + i);
    return to_bytes(R::over(std::span<const T>(vals.get(), values), contributor * values));
  };
  c.expected = [=](int round) {
    // Sequential reference: one pass over every value in index order (contributors unknown).
    V acc = R::identity();
    for (int i = 0; i < total; ++i) {
      if constexpr (R::kEntry)
        acc = R::combine(acc, V{value_at(round, i), i});
      else
        acc = R::combine(acc, value_at(round, i));
    }
    return to_bytes(acc);
  };
  c.equal = [](const void* g, const void* w) {
    V a, b;
    std::memcpy(&a, g, sizeof(V));
    std::memcpy(&b, w, sizeof(V));
    if constexpr (std::is_floating_point_v<T> && !R::kEntry) {
      double tol = std::is_same_v<T, float> ? 1e-3 : 1e-9;
      return std::fabs(static_cast<double>(a) - static_cast<double>(b)) <=
             tol * std::max(1.0, std::fabs(static_cast<double>(b)));
    } else {
      return a == b;
    }
  };
  return c;
}

}  // namespace

namespace {

std::vector<Case> all_cases(int contributors, int values, uint32_t seed) {
  std::vector<Case> cases;
  int total = contributors * values;
  int id = 0;
  auto add = [&](Case c) { cases.push_back(std::move(c)); };
#define ITRT_CASE(op, T) add(make_case<ReduceOp::op, T>(id++, values, total, seed))
  ITRT_CASE(sum, int32_t);
  ITRT_CASE(sum, float);
  ITRT_CASE(sum, double);
  ITRT_CASE(product, int32_t);
  ITRT_CASE(product, float);
  ITRT_CASE(product, double);
  ITRT_CASE(max, int32_t);
  ITRT_CASE(max, float);
  ITRT_CASE(max, double);
  ITRT_CASE(max, char);
  ITRT_CASE(min, int32_t);
  ITRT_CASE(min, float);
  ITRT_CASE(min, double);
  ITRT_CASE(min, char);
  ITRT_CASE(max_entry, int32_t);
  ITRT_CASE(max_entry, float);
  ITRT_CASE(max_entry, double);
  ITRT_CASE(max_entry, char);
  ITRT_CASE(min_entry, int32_t);
  ITRT_CASE(min_entry, float);
  ITRT_CASE(min_entry, double);
  ITRT_CASE(min_entry, char);
  ITRT_CASE(land, bool);
  ITRT_CASE(lor, bool);
  ITRT_CASE(band, int32_t);
  ITRT_CASE(bor, int32_t);
#undef ITRT_CASE
  return cases;
}

struct Contributor {
  int index;
  int rounds;
  std::shared_ptr<const std::vector<Case>> cases;
  int round = 0;
  bool waiting = false;
  Result result;
};

}  // namespace

int reduction_case_count() { return static_cast<int>(all_cases(1, 1, 0).size()); }

void build_reductions(Vsa& vsa, int contributors, int values, int rounds, uint32_t seed) {
  auto cases = std::make_shared<const std::vector<Case>>(all_cases(contributors, values, seed));
  int nc = static_cast<int>(cases->size());
  std::vector<ReductionTreeSpec> trees;
  for (int c = 0; c < nc; ++c) {
    ReductionTreeSpec t;
    t.id = {61, c};
    for (int i = 0; i < contributors; ++i) t.contributors.push_back({60, i});
    t.contribute_slot = c;
    t.result_slot = c;
    t.rounds = rounds;
    t.combiner = (*cases)[c].combiner;
    insert_reduction_tree(vsa, t);
    trees.push_back(std::move(t));
  }
  for (int i = 0; i < contributors; ++i) {
    VdpSpec s;
    s.tuple = {60, i};
    s.counter = 2 * rounds;
    for (auto& t : trees) add_contributor_channels(vsa, t, s);
    s.local = Contributor{i, rounds, cases, 0, false, {}};
    s.function = [nc](Vdp& v) {
      auto& st = v.local<Contributor>();
      const auto& cs = *st.cases;
      if (!st.waiting) {
        for (int c = 0; c < nc; ++c) {
          std::vector<char> b = cs[c].partial(st.index, st.round);
          v.push(c, Packet::copy_of(b.data(), b.size()));
          v.channel_on(c);
        }
      } else {
        for (int c = 0; c < nc; ++c) {
          PacketRef got = v.pop(c);
          std::vector<char> want = cs[c].expected(st.round);
          bool ok = got->size() == want.size() && cs[c].equal(got->data(), want.data());
          st.result.expect(
              ok, fmt::format("reduction {} round {} wrong on contributor {}", cs[c].name, st.round, st.index));
          v.channel_off(c);
        }
        ++st.round;
      }
      st.waiting = !st.waiting;
    };
    vsa.insert(std::move(s));
  }
}

Result check_reductions(Vsa& vsa, int contributors) {
  Result r;
  for (int i = 0; i < contributors; ++i)
    if (Vdp* v = vsa.find({60, i})) {
      auto& st = v->local<Contributor>();
      r.add(st.result);
      r.expect(st.round == st.rounds, "contributor did not complete every round");
    }
  return r;
}

}  // namespace itrt::testing
