// The dense idiom matcher (semantic/idiom): which stage loop nests are gemm/gemv, with which
// operands, transposes and signs, and which look alike but must keep their loops.
#include "semantic/idiom/dense_idiom.h"
#include "semantic/semantic.h"
#include "tests/support/parse_for_test.h"

#include <gtest/gtest.h>

using namespace itc;
using namespace itc::semantic;

namespace {

struct Checked : test::ParsedForTest {
    CheckedProgram out;
    bool ok = false;
};

// A task whose one stage `s(c, a, b)` has `body`, called as `s(<args>)`. Arrays: x y z w (2d
// single), d e f (2d double), v u t (1d single), g (1d double), n m (2d Integer).
std::unique_ptr<Checked> check(const std::string& body, const std::string& args) {
    std::string text = R"(Program (args) {
    env = new TaskEnvironment(name: "T")
    execute(task: "T"; environment: env)
}

Task "T":
    Define:
        x, y, z, w: 2d Array of Real single-precision
        d, e, f: 2d Array of Real double-precision
        v, u, t: 1d Array of Real single-precision
        g: 1d Array of Real double-precision
        n, m: 2d Array of Integer
    Environment:
        x, y, z, w, d, e, f, v, u, t, g, n, m: create
    Initialize:
        x.dimension = y.dimension = z.dimension = w.dimension = n.dimension
        d.dimension = e.dimension = f.dimension = n.dimension = m.dimension
        v.dimension = u.dimension = t.dimension = g.dimension = n.dimension1
    Stages:
        s(c, a, b) {
)" + body + R"(
        }
    Computation:
        Space A { s()" +
                       args + R"() }
    Partition:
        Space A <un-partitioned> { x, y, z, w, d, e, f, v, u, t, g, n, m }
)";
    auto c = std::make_unique<Checked>();
    c->parse("dense.it", text);
    if (!c->diags->hasErrors())
        c->ok = checkProgram(*c->program, c->sources, *c->diags, c->out);
    return c;
}

// The matcher's answer for the stage's statement number `stmt` (a parallel loop).
std::optional<DenseIdiom> match(const std::string& body, const std::string& args = "x, y, z", size_t stmt = 0) {
    auto c = check(body, args);
    EXPECT_TRUE(c->ok) << c->diagText();
    if (!c->ok)
        return std::nullopt;
    const TaskInfo* task = c->out.findTask("T");
    EXPECT_NE(task, nullptr);
    EXPECT_EQ(task->stageInstances.size(), 1u);
    const StageInstance& inst = task->stageInstances.at(0);
    auto* loop = inst.stage->body.stmts.at(stmt)->as<ast::ParallelLoop>();
    EXPECT_NE(loop, nullptr);
    if (!loop)
        return std::nullopt;
    return matchDenseIdiom(*loop, inst);
}

TEST(DenseIdiom, MatrixMultiplyOfTheExample) {
    auto d = match("do { c[i][j] = c[i][j] + a[i][k] * b[k][j] } for i, j in c; k in a");
    ASSERT_TRUE(d);
    EXPECT_EQ(d->kind, DenseIdiom::Kind::Gemm);
    EXPECT_EQ(d->out, "c");
    EXPECT_EQ(d->a, "a");
    EXPECT_EQ(d->b, "b");
    EXPECT_FALSE(d->transA);
    EXPECT_FALSE(d->transB);
    EXPECT_EQ(d->alpha, 1);
    EXPECT_EQ(d->beta, 1);
    EXPECT_EQ(d->m, "i");
    EXPECT_EQ(d->n, "j");
    EXPECT_EQ(d->k, "k");
    EXPECT_EQ(d->element, TypeKind::RealSingle);
}

TEST(DenseIdiom, LoopOrderAndOperandOrderDoNotMatter) {
    auto d = match("do { c[i][j] = b[k][j] * a[i][k] + c[i][j] } for k in a; i, j in c");
    ASSERT_TRUE(d);
    EXPECT_EQ(d->a, "a"); // the factor over (i, k) is A whatever its place in the product
    EXPECT_EQ(d->b, "b");
    EXPECT_FALSE(d->transA);
    EXPECT_FALSE(d->transB);
    EXPECT_EQ(d->k, "k");
}

TEST(DenseIdiom, TransposedOperandsAreFlagged) {
    // b[j][k]: the product with b transposed, not the plain gemm
    auto d = match("do { c[i][j] = c[i][j] + a[i][k] * b[j][k] } for i, j in c; k in a");
    ASSERT_TRUE(d);
    EXPECT_FALSE(d->transA);
    EXPECT_TRUE(d->transB);
    auto e = match("do { c[i][j] = c[i][j] - a[k][i] * b[k][j] } for i, j in c; k in b");
    ASSERT_TRUE(e);
    EXPECT_TRUE(e->transA);
    EXPECT_FALSE(e->transB);
    EXPECT_EQ(e->alpha, -1);
}

TEST(DenseIdiom, DoublePrecision) {
    auto d = match("do { c[i][j] = c[i][j] + a[i][k] * b[k][j] } for i, j in c; k in a", "d, e, f");
    ASSERT_TRUE(d);
    EXPECT_EQ(d->element, TypeKind::RealDouble);
}

TEST(DenseIdiom, ReductionFormOfTheLuUpdate) {
    // the SAXPY task of examples/lu-factorization
    auto d = match(R"(do {
                do { total = reduce("sum", a[i][k] * b[k][j]) } for k in a
                c[i][j] = c[i][j] - total
            } for i, j in c)",
                   "d, e, f");
    ASSERT_TRUE(d);
    EXPECT_EQ(d->kind, DenseIdiom::Kind::Gemm);
    EXPECT_EQ(d->alpha, -1);
    EXPECT_EQ(d->beta, 1);
    EXPECT_EQ(d->k, "k");
}

TEST(DenseIdiom, MatrixVectorProducts) {
    // examples/conjugate-gradient's product overwrites the result (beta 0)
    auto d = match(R"(do {
                do { row_total = reduce("sum", a[i][j] * b[j]) } for j in b
                c[i] = row_total
            } for i in c)",
                   "v, x, u");
    ASSERT_TRUE(d);
    EXPECT_EQ(d->kind, DenseIdiom::Kind::Gemv);
    EXPECT_EQ(d->out, "c");
    EXPECT_EQ(d->a, "a");
    EXPECT_EQ(d->b, "b");
    EXPECT_EQ(d->beta, 0);
    EXPECT_EQ(d->m, "i");
    EXPECT_EQ(d->k, "j");
    auto e = match("do { c[i] = c[i] + b[j] * a[j][i] } for i in c; j in b", "v, x, u");
    ASSERT_TRUE(e);
    EXPECT_EQ(e->kind, DenseIdiom::Kind::Gemv);
    EXPECT_TRUE(e->transA);
    EXPECT_EQ(e->beta, 1);
}

TEST(DenseIdiom, LookAlikesKeepTheirLoops) {
    const char* mm = "do { c[i][j] = c[i][j] + a[i][k] * b[k][j] } for i, j in c; k in a";
    // the output also read as an input (one task-global under two names)
    EXPECT_FALSE(match(mm, "x, x, z"));
    EXPECT_FALSE(match(mm, "x, y, x"));
    // Integer arrays, and mixed precisions
    EXPECT_FALSE(match(mm, "n, m, n"));
    EXPECT_FALSE(match(mm, "x, d, z"));
    // a restriction: not whole index ranges
    EXPECT_FALSE(match("do { c[i][j] = c[i][j] + a[i][k] * b[k][j] } for i, j in c and i > 0; k in a"));
    // not a product over a shared summed index
    EXPECT_FALSE(match("do { c[i][j] = c[i][j] + a[i][k] * b[i][j] } for i, j in c; k in a"));
    EXPECT_FALSE(match("do { c[i][j] = c[i][j] + a[i][j] * b[i][j] } for i, j in c"));
    // the update reads another array than it writes, or overwrites without a reduction
    EXPECT_FALSE(match("do { c[i][j] = w[i][j] + a[i][k] * b[k][j] } for i, j in c; k in a", "x, y, z"));
    EXPECT_FALSE(match("do { c[i][j] = a[i][k] * b[k][j] } for i, j in c; k in a"));
    // the output transposed against its own loop indices' roles is still fine, but a repeated
    // index is not a matrix product
    EXPECT_FALSE(match("do { c[i][i] = c[i][i] + a[i][k] * b[k][i] } for i in c; k in a"));
    // the LU rank-1 update of examples/lu-factorization: restricted ranges, one input is the output
    EXPECT_FALSE(match(R"(k = 1
            do { c[i][j] = c[i][j] - b[j] * c[i][k] } for i, j in c and i > k and j > k)",
                       "x, y, v", 1));
}

TEST(DenseIdiom, ReductionLookAlikesKeepTheirLoops) {
    // another operator than "sum"
    EXPECT_FALSE(match(R"(do {
                do { total = reduce("max", a[i][k] * b[k][j]) } for k in a
                c[i][j] = total
            } for i, j in c)"));
    // the reduction result read again later: the kernel would not leave it set
    auto c = check(R"(do {
                do { total = reduce("sum", a[i][k] * b[k][j]) } for k in a
                c[i][j] = c[i][j] + total
            } for i, j in c
            do { c[i][j] = c[i][j] + total } for i, j in c)",
                   "x, y, z");
    ASSERT_TRUE(c->ok) << c->diagText();
    const StageInstance& inst = c->out.findTask("T")->stageInstances.at(0);
    EXPECT_FALSE(matchDenseIdiom(*inst.stage->body.stmts.at(0)->as<ast::ParallelLoop>(), inst));
    // native code in the stage may read the reduction variable by its IT name
    EXPECT_FALSE(match(R"(do {
                do { total = reduce("sum", a[i][k] * b[k][j]) } for k in a
                c[i][j] = total
            } for i, j in c
            @Extern {
                @Language "C++"
                ${
                    (void)total;
                }$
            })"));
    // the summed index restricted
    EXPECT_FALSE(match(R"(do {
                do { total = reduce("sum", a[i][k] * b[k][j]) } for k in a and k > 0
                c[i][j] = total
            } for i, j in c)"));
}

} // namespace
