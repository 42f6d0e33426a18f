// Dependency classification: one small program per synchronisation kind (none, replica
// broadcast, padding exchange, gather up, scatter down, redistribution, reduction), plus the
// loop-carried and flow-point details the plan report relies on.
#include "semantic/plan/build_plan.h"
#include "semantic/plan/print_plan.h"
#include "pcubes/machine_model.h"
#include "pcubes/mapping.h"
#include "tests/support/parse_for_test.h"

#include <gtest/gtest.h>

#include <memory>
#include <sstream>

using namespace itc;
using namespace itc::semantic;

namespace {

struct Planned : test::ParsedForTest {
    ProgramPlan plan;

    const TaskPlan& task() const { return plan.tasks.at(0); }
    std::string accessName(int idx) const {
        const FlowAccess& a = task().usage.accesses.at(static_cast<std::size_t>(idx));
        return a.kind == FlowAccess::Kind::Stage ? a.stage : task().flow.at(a.node).label;
    }
    // Every dependency of `var` from stage `writer` to stage `reader`.
    std::vector<const Dependency*> deps(const std::string& var, const std::string& writer,
                                        const std::string& reader) const {
        std::vector<const Dependency*> r;
        for (const Dependency& d : task().dependencies.deps)
            if (d.var == var && accessName(d.writer) == writer && accessName(d.reader) == reader)
                r.push_back(&d);
        return r;
    }
    std::vector<SyncKind> kinds(const std::string& var, const std::string& writer, const std::string& reader) const {
        std::vector<SyncKind> r;
        for (const Dependency* d : deps(var, writer, reader))
            r.push_back(d->kind);
        return r;
    }
    int syncCount(SyncKind k) const {
        int n = 0;
        for (const Synchronization& s : task().dependencies.syncs)
            n += s.kind == k ? 1 : 0;
        return n;
    }
    // The synchronisations of kind `k` inside the flow (not at the task's start or end).
    std::vector<const Synchronization*> inFlow(SyncKind k) const {
        std::vector<const Synchronization*> r;
        for (const Synchronization& s : task().dependencies.syncs)
            if (s.kind == k && s.point != Synchronization::Point::TaskStart &&
                s.point != Synchronization::Point::TaskEnd)
                r.push_back(&s);
        return r;
    }
    const Synchronization* atEnd(Synchronization::Point point) const {
        for (const Synchronization& s : task().dependencies.syncs)
            if (s.point == point)
                return &s;
        return nullptr;
    }
};

std::unique_ptr<Planned> plan(const std::string& taskText) {
    auto p = std::make_unique<Planned>();
    std::string text = "Program (args) {\n}\n\n" + taskText;
    p->parse("test.it", text);
    EXPECT_FALSE(p->diags->hasErrors()) << p->diagText();
    p->plan = buildProgramPlan(*p->program, PlanTarget{}, *p->diags);
    EXPECT_FALSE(p->diags->hasErrors()) << p->diagText();
    EXPECT_EQ(p->plan.tasks.size(), 1u);
    return p;
}

TEST(DependencyClassification, SameSpaceSamePartNeedsNothing) {
    auto p = plan(R"(Task "T":
    Define:
        a: 1d Array of Integer
    Environment:
        a: link
    Stages:
        produce(x) {
            do { x[i] = i } for i in x
        }
        consume(x) {
            do { x[i] = x[i] * 2 } for i in x
        }
    Computation:
        Space A {
            produce(a)
            consume(a)
        }
    Partition (k):
        Space A <1d> { a: block_size(k) }
)");
    EXPECT_EQ(p->kinds("a", "produce", "consume"), std::vector<SyncKind>{SyncKind::None});
    EXPECT_TRUE(p->task().dependencies.syncs.empty());
}

TEST(DependencyClassification, GuardedWriteToReplicatedDataIsBroadcast) {
    auto p = plan(R"(Task "T":
    Define:
        v, w: 1d Array of Integer
    Environment:
        v, w: link
    Stages:
        setFirst(x) {
            do { x[i] = 1 } for i in x
        }
        scale(x, y) {
            do { x[i] = x[i] * y[0] } for i in x
        }
    Computation:
        Space A {
            Where 0 in v.local.dimension1.range { setFirst(w) }
            scale(v, w)
        }
    Partition (n):
        Space A <1d> {
            v: block_count(n)
            w: replicated
        }
)");
    EXPECT_EQ(p->kinds("w", "setFirst", "scale"), std::vector<SyncKind>{SyncKind::ReplicaBroadcast});
    ASSERT_EQ(p->syncCount(SyncKind::ReplicaBroadcast), 1);
    const Synchronization& s = p->task().dependencies.syncs.at(0);
    EXPECT_EQ(s.point, Synchronization::Point::AfterStage);
    EXPECT_EQ(p->task().flow.at(s.node).label, "setFirst(w)");
}

TEST(DependencyClassification, LeavingPaddedSpaceExchangesPadding) {
    auto p = plan(R"(Task "T":
    Define:
        s: 1d Array of Real double-precision
        it, inner: Integer
    Environment:
        s: link
    Stages:
        relax(x) {
            do { x[i] = (x[i-1] + x[i+1]) / 2.0 } for i in x \
                and i > x.local.dimension1.range.min and i < x.local.dimension1.range.max
        }
    Computation:
        Repeat for it in [1...10] {
            Space A {
                Repeat for inner in [1...2] {
                    relax(s)
                }
            }
        }
    Partition (k):
        Space A <1d> { s: block_size(k) padding(2) }
)");
    std::vector<SyncKind> k = p->kinds("s", "relax", "relax");
    // Across `inner` iterations the padded copies stay stale (none); across `it` iterations the
    // flow leaves Space A, which refreshes them.
    ASSERT_EQ(k.size(), 2u);
    EXPECT_EQ(k[0], SyncKind::None);
    EXPECT_EQ(k[1], SyncKind::PaddingExchange);
    ASSERT_EQ(p->syncCount(SyncKind::PaddingExchange), 1);
    const Synchronization& s = p->task().dependencies.syncs.at(0);
    EXPECT_EQ(s.point, Synchronization::Point::SpaceExit);
    EXPECT_EQ(p->task().flow.at(s.node).label, "Space A");
    const FlowAccess& relax =
        p->task().usage.accesses.at(static_cast<std::size_t>(p->deps("s", "relax", "relax")[0]->reader));
    EXPECT_EQ(relax.find("s")->readOffsetsText(), "[-1..+1]");
    EXPECT_NE(p->deps("s", "relax", "relax")[0]->carriedBy, -1);
}

TEST(DependencyClassification, LowerWriteReadAboveIsGatherUp) {
    auto p = plan(R"(Task "T":
    Define:
        x: 1d Array of Integer
        total: Integer
    Environment:
        x: link
    Stages:
        fill(v) {
            do { v[i] = 1 } for i in v
        }
        add(v, t) {
            do { t = reduce("sum", v[i]) } for i in v
        }
    Computation:
        Space A {
            Space B { fill(x) }
            add(x, total)
        }
    Partition:
        Space A <un-partitioned> { x }
        Space B <1d> divides Space A partitions { x: stride() }
)");
    // stride() parts are no views of Space A's: Space B has parts of its own.
    EXPECT_EQ(p->task().storage.storageOf("x", p->task().lps.find("B")), p->task().lps.find("B"));
    EXPECT_EQ(p->kinds("x", "fill", "add"), std::vector<SyncKind>{SyncKind::GatherUp});
    auto gathers = p->inFlow(SyncKind::GatherUp);
    ASSERT_EQ(gathers.size(), 1u);
    EXPECT_EQ(gathers[0]->point, Synchronization::Point::SpaceExit);
    // The linked input reaches Space B's parts first, and Space B's writes return home last.
    const Synchronization* start = p->atEnd(Synchronization::Point::TaskStart);
    const Synchronization* end = p->atEnd(Synchronization::Point::TaskEnd);
    ASSERT_TRUE(start && end);
    EXPECT_EQ(start->kind, SyncKind::ScatterDown);
    EXPECT_EQ(end->kind, SyncKind::GatherUp);
    EXPECT_EQ(p->task().lps.at(end->toLps).name, "A");
}

TEST(DependencyClassification, ViewsOfTheParentsPartsNeedOnlyTokens) {
    auto p = plan(R"(Task "T":
    Define:
        x: 1d Array of Integer
        total: Integer
    Environment:
        x: link
    Stages:
        fill(v) {
            do { v[i] = 1 } for i in v
        }
        add(v, t) {
            do { t = reduce("sum", v[i]) } for i in v
        }
    Computation:
        Space A {
            Space B { fill(x) }
            add(x, total)
        }
    Partition (n):
        Space A <un-partitioned> { x }
        Space B <1d> divides Space A partitions { x: block_count(n) }
)");
    // Without a mapping the plan describes one process: Space B works in views of Space A's parts.
    EXPECT_EQ(p->task().storage.storageOf("x", p->task().lps.find("B")), p->task().lps.find("A"));
    EXPECT_EQ(p->kinds("x", "fill", "add"), std::vector<SyncKind>{SyncKind::None});
    EXPECT_EQ(p->syncCount(SyncKind::GatherUp), 0);
    ASSERT_EQ(p->syncCount(SyncKind::Token), 2);
    EXPECT_EQ(p->task().dependencies.syncs.at(0).point, Synchronization::Point::SpaceEntry);
    EXPECT_EQ(p->task().dependencies.syncs.at(1).point, Synchronization::Point::SpaceExit);
}

TEST(DependencyClassification, UpperWriteReadBelowIsScatterDown) {
    auto p = plan(R"(Task "T":
    Define:
        x: 1d Array of Integer
    Environment:
        x: link
    Stages:
        init(v) {
            do { v[i] = i } for i in v
        }
        bump(v) {
            do { v[i] = v[i] + 1 } for i in v
        }
    Computation:
        Space A {
            init(x)
            Space B { bump(x) }
        }
    Partition (n):
        Space A <un-partitioned> { x }
        Space B <1d> divides Space A partitions { x: block_count(n) padding(1) }
)");
    EXPECT_EQ(p->kinds("x", "init", "bump"), std::vector<SyncKind>{SyncKind::ScatterDown});
    auto scatters = p->inFlow(SyncKind::ScatterDown);
    ASSERT_EQ(scatters.size(), 1u);
    EXPECT_EQ(scatters[0]->point, Synchronization::Point::SpaceEntry);
    EXPECT_EQ(p->task().flow.at(scatters[0]->node).label, "Space B");
}

TEST(DependencyClassification, UnrelatedSpacesRedistribute) {
    auto p = plan(R"(Task "T":
    Define:
        x: 1d Array of Integer
    Environment:
        x: link
    Stages:
        init(v) {
            do { v[i] = i } for i in v
        }
        bump(v) {
            do { v[i] = v[i] + 1 } for i in v
        }
    Computation:
        Space A { init(x) }
        Space B { bump(x) }
    Partition (k, n):
        Space A <1d> { x: block_size(k) }
        Space B <1d> { x: block_count(n) }
)");
    EXPECT_EQ(p->kinds("x", "init", "bump"), std::vector<SyncKind>{SyncKind::Redistribution});
    auto moves = p->inFlow(SyncKind::Redistribution);
    ASSERT_EQ(moves.size(), 1u);
    EXPECT_EQ(moves[0]->point, Synchronization::Point::BeforeAccess);
    EXPECT_EQ(p->task().lps.at(moves[0]->fromLps).name, "A");
    EXPECT_EQ(p->task().lps.at(moves[0]->toLps).name, "B");
    // Space A, the first user, is the home: Space B's writes go back there at the end.
    const Synchronization* end = p->atEnd(Synchronization::Point::TaskEnd);
    ASSERT_TRUE(end);
    EXPECT_EQ(p->task().lps.at(end->fromLps).name, "B");
}

TEST(DependencyClassification, SpaceArgumentIsReduction) {
    auto p = plan(R"(Task "T":
    Define:
        x: 1d Array of Integer
        total: Integer Reduction
        shown: Integer
    Environment:
        x: link
        total: create
    Stages:
        count(v, t) {
            do { reduce(t, "sum", v[i]) } for i in v
        }
        show(t, s) {
            s = t
        }
    Computation:
        Space A {
            Space B { count(x, Space A: total) }
            show(total, shown)
        }
    Partition (n):
        Space A <un-partitioned> { x }
        Space B <1d> divides Space A partitions { x: block_count(n) }
)");
    ASSERT_EQ(p->syncCount(SyncKind::Reduction), 1);
    const Synchronization* red = nullptr;
    for (const Synchronization& s : p->task().dependencies.syncs)
        if (s.kind == SyncKind::Reduction)
            red = &s;
    EXPECT_EQ(red->var, "total");
    EXPECT_EQ(p->task().lps.at(red->fromLps).name, "B");
    EXPECT_EQ(p->task().lps.at(red->toLps).name, "A");
    EXPECT_EQ(red->point, Synchronization::Point::AfterStage);
    // The result lives in Space A, where it is read: nothing more to move.
    EXPECT_EQ(p->kinds("total", "count", "show"), std::vector<SyncKind>{SyncKind::None});
}

TEST(DependencyClassification, RepeatVariableNeedsNoMovement) {
    auto p = plan(R"(Task "T":
    Define:
        x: 1d Array of Integer
        k: Integer
    Environment:
        x: link
    Stages:
        mark(v, pos) {
            do { v[i] = pos } for i in v
        }
    Computation:
        Space A {
            Repeat for k in [1...4] {
                Space B { mark(x, k) }
            }
        }
    Partition (n):
        Space A <un-partitioned> { x }
        Space B <1d> divides Space A partitions { x: block_count(n) }
)");
    // Every LPU runs the loop and sets k itself: nothing moves.
    EXPECT_EQ(p->kinds("k", "Repeat for k in [1...4]", "mark"), std::vector<SyncKind>{SyncKind::None});
    EXPECT_EQ(p->syncCount(SyncKind::ScatterDown), 0);
}

TEST(DependencyClassification, GuardedScalarWriteReadAboveIsGatherUp) {
    auto p = plan(R"(Task "T":
    Define:
        x: 1d Array of Integer
        best: Integer
    Environment:
        x: link
    Stages:
        pick(v, b) {
            b = v[v.local.dimension1.range.min]
        }
        use(v, b) {
            do { v[i] = b } for i in v
        }
    Computation:
        Space A {
            Space B {
                Where 0 in x.local.dimension1.range { pick(x, best) }
            }
            use(x, best)
        }
    Partition (n):
        Space A <un-partitioned> { x }
        Space B <1d> divides Space A partitions { x: block_count(n) }
)");
    EXPECT_EQ(p->kinds("best", "pick", "use"), std::vector<SyncKind>{SyncKind::GatherUp});
}

TEST(PlanReport, EpochVersionDepthIsLargestLagPlusOne) {
    auto p = plan(R"(Task "T":
    Define:
        s: 1d Array of Real double-precision
        it: Integer
    Environment:
        s: link
    Stages:
        smooth(x) {
            do { x[i] at (current) = (x[i] at (current - 1) + x[i] at (current - 2)) / 2.0 \
            } for i in x
        }
    Computation:
        Repeat for it in [1...3] {
            Space A { Epoch { smooth(s) } }
        }
    Partition (k):
        Space A <1d> { s: block_size(k) }
)");
    EXPECT_EQ(p->task().versionDepth.at("s"), 3);
    std::string report = printTaskPlan(p->task());
    EXPECT_NE(report.find("s: 3 versions (current, current - 1, current - 2)"), std::string::npos) << report;
}

TEST(PlanReport, LpuCountFormulas) {
    auto p = plan(R"(Task "T":
    Define:
        c: 2d Array of Real single-precision
    Environment:
        c: link
    Stages:
        zero(m) {
            do { m[i][j] = 0 } for i, j in m
        }
    Computation:
        Space B { zero(c) }
    Partition (k, l, q):
        Space A <2d> { c: block_size(k, l) padding(1) }
        Space B <1d> divides Space A partitions { c<dim2>: block_count(q) }
)");
    const TaskPlan& t = p->task();
    EXPECT_EQ(t.spaces.at(1).lpusPerParent, "ceil(len(c.dim1)/k) x ceil(len(c.dim2)/l)");
    EXPECT_EQ(t.spaces.at(2).lpusPerParent, "min(q, len(c.dim2 in A))");
    EXPECT_EQ(t.spaces.at(2).dimCounts.at(0).heldNote, "a Space A part of c.dim2 holds at most l+2*1 indices");
}

TEST(PlanReport, SpaceDividingSubpartitionsSplitsTheCurrentSubpartition) {
    auto p = plan(R"(Task "T":
    Define:
        x: 1d Array of Integer
    Environment:
        x: link
    Stages:
        bump(v) {
            do { v[i] = v[i] + 1 } for i in v
        }
    Computation:
        Space A {
            Repeat foreach sub-partition {
                Space B { bump(x) }
            }
        }
    Partition (n, q, r):
        Space A <1d> {
            x: block_count(n)
            Sub-partition <1d> <increasing> { x: block_size(q) }
        }
        Space B <1d> divides Space A sub-partitions { x: block_count(r) }
)");
    EXPECT_EQ(p->task().spaces.at(2).lpusPerParent, "min(r, len(x.dim1 in a sub-partition of A))");
}

TEST(PlanReport, MachinePlacementGivesRanksThreadsAndStrideCounts) {
    auto p = plan(R"(Task "T":
    Define:
        x: 1d Array of Integer
    Environment:
        x: link
    Stages:
        bump(v) {
            do { v[i] = v[i] + 1 } for i in v
        }
    Computation:
        Space A { Space B { bump(x) } }
    Partition (n):
        Space A <1d> { x: block_count(n) }
        Space B <1d> divides Space A partitions { x: stride() }
)");
    pcubes::MachineModel m;
    auto level = [](int number, const char* name, std::uint64_t fan, std::uint64_t total) {
        pcubes::Level l;
        l.number = number;
        l.name = name;
        l.fanOut = fan;
        l.totalPPUs = total;
        return l;
    };
    m.levels = {level(3, "Cluster", 1, 1), level(2, "Node", 4, 4), level(1, "Core", 2, 8)};
    m.levels[1].segment = true;
    m.levels[2].core = true;
    std::vector<pcubes::TaskMapping> maps(1);
    maps[0].task = "T";
    maps[0].root = 3;
    maps[0].spaces = {{"A", 2}, {"B", 1}};
    PlanTarget target;
    target.machine = &m;
    target.mappings = &maps;
    target.machineFile = "m.pcubes";
    DiagnosticEngine diags(p->sources);
    TaskPlan t = buildTaskPlan(p->program->tasks.at(0), target, diags);
    EXPECT_TRUE(t.mapped);
    EXPECT_EQ(t.ranks, 4u);
    EXPECT_EQ(t.threadsPerRank, 2u);
    ASSERT_TRUE(t.spaces.at(2).placement.has_value());
    EXPECT_EQ(t.spaces.at(2).placement->ppusPerParentPpu, 2u);
    EXPECT_EQ(t.spaces.at(2).placement->ppus, 8u);
    EXPECT_FALSE(t.spaces.at(1).placement->computes);
    EXPECT_EQ(t.spaces.at(2).lpusPerParent, "min(2, len(x.dim1 in A))");
}

TEST(PlanReport, EnvironmentHandOverComparesPartitions) {
    auto p = std::make_unique<Planned>();
    std::string text = R"(Program (args) {
    e1 = new TaskEnvironment(name: "Produce")
    e2 = new TaskEnvironment(name: "Consume")
    e3 = new TaskEnvironment(name: "Consume Again")
    execute(task: "Produce"; environment: e1; partition: 4)
    e2.y = e1.x
    execute(task: "Consume"; environment: e2; partition: 4)
    e3.z = e2.y
    execute(task: "Consume Again"; environment: e3; partition: 4)
}

Task "Produce":
    Define:
        x: 1d Array of Integer
    Environment:
        x: link
    Stages:
        fill(v) {
            do { v[i] = i } for i in v
        }
    Computation:
        Space A { fill(x) }
    Partition (n):
        Space A <1d> { x: block_count(n) }

Task "Consume":
    Define:
        y: 1d Array of Integer
    Environment:
        y: link
    Stages:
        bump(v) {
            do { v[i] = v[i] + 1 } for i in v
        }
    Computation:
        Space A { bump(y) }
    Partition (n):
        Space A <1d> { y: block_count(n) }

Task "Consume Again":
    Define:
        z: 1d Array of Integer
    Environment:
        z: link
    Stages:
        bump(v) {
            do { v[i] = v[i] + 1 } for i in v
        }
    Computation:
        Space A { bump(z) }
    Partition (n):
        Space A <1d> { z: block_size(n) }
)";
    FileId f = p->sources.addBuffer("env.it", text);
    p->diags = std::make_unique<DiagnosticEngine>(p->sources);
    p->program = parseProgram(f, p->sources, *p->diags);
    ASSERT_FALSE(p->diags->hasErrors()) << p->diagText();
    p->plan = buildProgramPlan(*p->program, PlanTarget{}, *p->diags);
    ASSERT_EQ(p->plan.handovers.size(), 2u);
    EXPECT_EQ(p->plan.handovers[0].item, "e2.y (= e1.x)");
    EXPECT_EQ(p->plan.handovers[0].kind, SyncKind::None);
    EXPECT_EQ(p->plan.handovers[1].fromTask, "Consume");
    EXPECT_EQ(p->plan.handovers[1].toTask, "Consume Again");
    EXPECT_EQ(p->plan.handovers[1].kind, SyncKind::Redistribution);
}

TEST(DependencyClassification, UnlistedArrayInUnpartitionedSpaceIsTheParentsPart) {
    auto p = plan(R"(Task "T":
    Define:
        x, y: 1d Array of Integer
    Environment:
        x, y: link
    Stages:
        init(v) {
            do { v[i] = i } for i in v
        }
        bump(v) {
            do { v[i] = v[i] + 1 } for i in v
        }
    Computation:
        Space A {
            init(x)
            Space B { bump(x) }
        }
    Partition (n):
        Space A <1d> { x, y: block_count(n) }
        Space B <un-partitioned> divides Space A partitions { y }
)");
    EXPECT_EQ(p->kinds("x", "init", "bump"), std::vector<SyncKind>{SyncKind::None});
}

} // namespace
