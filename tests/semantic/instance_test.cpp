// Stage and function instantiation on parsed programs: a polymorphic stage (or brace-form
// function) gets one instance per combination of argument types, each with its own local types.
#include "semantic/semantic.h"
#include "tests/support/parse_for_test.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace itc;
using namespace itc::semantic;

namespace {

struct Checked : test::ParsedForTest {
    CheckedProgram out;
    bool ok = false;
    std::string messages() const { return diagText(); }
};

std::unique_ptr<Checked> check(const std::string& text) {
    auto c = std::make_unique<Checked>();
    c->parse("test.it", text);
    if (c->diags->hasErrors())
        return c;
    c->ok = checkProgram(*c->program, c->sources, *c->diags, c->out);
    return c;
}

const char* kTwoPrecisions = R"(Program (args) {
    env = new TaskEnvironment(name: "Scale")
    bind_input(env, "a", args.a)
    bind_input(env, "b", args.b)
    execute(task: "Scale"; environment: env; partition: args.p)
}

Task "Scale":
    Define:
        a: 1d Array of Real single-precision
        b: 1d Array of Real double-precision
        factor: Integer
    Environment:
        a, b: link
    Stages:
        scale(x, f) {
            do {
                t = x[i] * 2.0
                x[i] = t + f
            } for i in x
        }
    Computation:
        Space A {
            scale(a, factor)
            scale(b, factor)
            scale(a, factor)
        }
    Partition (p):
        Space A <1d> { a, b: block_count(p) }
)";

TEST(StageInstances, OneInstancePerArgumentTypes) {
    auto c = check(kTwoPrecisions);
    ASSERT_TRUE(c->ok) << c->messages();
    const TaskInfo* task = c->out.findTask("Scale");
    ASSERT_NE(task, nullptr);
    ASSERT_EQ(task->stageInstances.size(), 2u);
    const StageInstance& single = task->stageInstances[0];
    const StageInstance& dbl = task->stageInstances[1];
    EXPECT_EQ(single.stage->name.text, "scale");
    EXPECT_EQ(single.calls.size(), 2u); // the third call reuses the first instance
    EXPECT_EQ(single.space, "A");
    EXPECT_EQ(typeName(single.params[0].type), "1d Array of Real single-precision");
    EXPECT_EQ(typeName(dbl.params[0].type), "1d Array of Real double-precision");
    // The local `t` follows the element type: x[i] * 2.0 has x's precision (R-6).
    EXPECT_EQ(typeName(single.locals.at("t")), "Real single-precision");
    EXPECT_EQ(typeName(dbl.locals.at("t")), "Real double-precision");
    EXPECT_EQ(typeName(single.locals.at("t")), "Real single-precision");
}

TEST(StageInstances, ErrorInsideAnInstanceHasANoteAtTheCallSite) {
    std::string text = kTwoPrecisions;
    text.replace(text.find("x[i] = t + f"), 12, "x[i] = t and f");
    auto c = check(text);
    ASSERT_FALSE(c->ok);
    ASSERT_EQ(c->diags->errorCount(), 1u) << c->messages();
    const Diagnostic& d = c->diags->diagnostics()[0];
    EXPECT_EQ(d.kind, DiagKind::InvalidOperands);
    ASSERT_FALSE(d.notes.empty());
    EXPECT_NE(d.notes.back().message.find("invoked here"), std::string::npos);
    EXPECT_EQ(d.notes.back().range.begin.line, 24u);
}

TEST(FunctionInstances, OnePerArgumentTypes) {
    auto c = check(R"(Function twice(v) {
    w = v + v
    return w
}

Program (args) {
    i = twice(3)
    r = twice(1.5)
    c = twice('a')
}
)");
    ASSERT_TRUE(c->ok) << c->messages();
    ASSERT_EQ(c->out.functions.size(), 3u);
    EXPECT_EQ(typeName(c->out.functions[0].result), "Integer");
    EXPECT_EQ(typeName(c->out.functions[1].result), "Real double-precision");
    EXPECT_EQ(typeName(c->out.functions[1].locals.at("w")), "Real double-precision");
    EXPECT_EQ(typeName(c->out.coordinatorLocals.at("i")), "Integer");
    EXPECT_EQ(typeName(c->out.coordinatorLocals.at("r")), "Real double-precision");
    EXPECT_EQ(typeName(c->out.coordinatorLocals.at("c")), "Integer");
}

TEST(CoordinatorLocals, InferredFromFirstAssignment) {
    auto c = check(R"(Program (args) {
    n = args.n
    x = 1
    y = x * 0.5
    ok = x < 3
    r = new Range(min: 1, max: n)
}
)");
    ASSERT_TRUE(c->ok) << c->messages();
    EXPECT_EQ(typeName(c->out.coordinatorLocals.at("n")), "String"); // R-18
    EXPECT_EQ(typeName(c->out.coordinatorLocals.at("y")), "Real double-precision");
    EXPECT_EQ(typeName(c->out.coordinatorLocals.at("ok")), "Boolean");
    EXPECT_EQ(typeName(c->out.coordinatorLocals.at("r")), "Range");
}

} // namespace

namespace {

TEST(StageInstances, OnePerInvokingSpaceWithGlobalsRecorded) {
    auto c = check(R"(Program (args) {
    env = new TaskEnvironment(name: "Levels")
    bind_input(env, "v", args.v)
    execute(task: "Levels"; environment: env; partition: args.p)
}

Task "Levels":
    Define:
        v: 1d Array of Integer
        total: Integer Reduction
        bias: Integer
    Environment:
        v: link
        total: create
    Stages:
        bump(x) {
            do { x[i] = x[i] + bias } for i in x
        }
        count(x, t) {
            do { reduce(t, "sum", x[i]) } for i in x
        }
    Computation:
        Space A {
            bump(v)
            Space B {
                bump(v)
                count(v, Space A: total)
            }
        }
    Partition (p):
        Space A <1d> { v: block_count(p) }
        Space B <1d> divides Space A partitions { v: block_count(p) }
)");
    ASSERT_TRUE(c->ok) << c->messages();
    const TaskInfo* task = c->out.findTask("Levels");
    ASSERT_NE(task, nullptr);
    ASSERT_EQ(task->stageInstances.size(), 3u);
    EXPECT_EQ(task->stageInstances[0].space, "A");
    EXPECT_EQ(task->stageInstances[1].space, "B");
    EXPECT_EQ(task->stageInstances[1].globalsUsed, std::vector<std::string>{"bias"});
    EXPECT_EQ(task->stageInstances[2].params[1].spaceTarget, "A");
    EXPECT_EQ(task->spaceParent.at("B"), "A");
    ASSERT_EQ(task->globals.size(), 3u);
    EXPECT_TRUE(task->globals[1].isReduction);
    EXPECT_TRUE(task->globals[1].environmental);
    EXPECT_FALSE(task->globals[2].environmental);
}

} // namespace
