// The families that the compiler and the runtime both know are one list each: the partition
// functions the frontend parses are exactly those of runtime/data/partition_functions.def, and
// every reduction operator of runtime/engine/reduce_ops.def (names and aliases) is accepted by
// the checker while a near miss is not.
#include "frontend/ast/ast_names.h"
#include "frontend/parser.h"
#include "semantic/semantic.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

using namespace itc;

TEST(SharedLists, PartitionFunctionsAreTheRuntimesList) {
    std::set<std::string> runtime;
#define ITRT_PARTITION_FN(enumerator, spelling, takesArgument, mayPad) runtime.insert(spelling);
#include "runtime/data/partition_functions.def"
    std::set<std::string> frontend;
    for (auto f : {ast::PartitionFunction::BlockSize, ast::PartitionFunction::BlockCount,
                   ast::PartitionFunction::Stride, ast::PartitionFunction::BlockStride})
        frontend.insert(std::string(ast::partitionFunctionName(f)));
    EXPECT_EQ(frontend, runtime);
}

namespace {
// Checks a one-stage program reducing with operator `op` over a Real, Boolean or Integer array.
bool reduces(const std::string& op, const std::string& element) {
    const std::string text = "Program (args) {\n}\nTask \"T\":\n    Define:\n        v: 1d Array of " + element +
                             "\n        r: " + element +
                             " Reduction\n    Environment:\n        v: link\n    Stages:\n        s(v, r) {\n"
                             "            do { reduce(r, \"" +
                             op +
                             "\", v[i]) } for i in v\n        }\n"
                             "    Computation:\n        Space A { s(v, Space A: r) }\n"
                             "    Partition:\n        Space A <un-partitioned> { v }\n";
    SourceManager sources;
    DiagnosticEngine diags(sources);
    FileId f = sources.addBuffer("t.it", text);
    auto program = parseProgram(f, sources, diags);
    EXPECT_FALSE(diags.hasErrors()) << text;
    semantic::CheckedProgram checked;
    return semantic::checkProgram(*program, sources, diags, checked);
}
} // namespace

TEST(SharedLists, EveryRuntimeReductionOperatorChecks) {
    int count = 0;
#define ITRT_REDUCE_OP(enumerator, name, kind)                                           \
    EXPECT_TRUE(reduces(name, std::string(#kind) == "logic"  ? "Boolean"                 \
                              : std::string(#kind) == "bits" ? "Integer"                 \
                                                             : "Real double-precision")) \
        << name;                                                                         \
    ++count;
#define ITRT_REDUCE_ALIAS(alias, enumerator) EXPECT_TRUE(reduces(alias, "Real double-precision")) << alias;
#include "runtime/engine/reduce_ops.def"
#undef ITRT_REDUCE_ALIAS
#undef ITRT_REDUCE_OP
    EXPECT_EQ(count, 10);
    EXPECT_FALSE(reduces("summ", "Real double-precision"));
    EXPECT_FALSE(reduces("land", "Real double-precision")); // a logic operator on numbers
}
