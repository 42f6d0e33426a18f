// The read-only visitor reaches every node: for each example, the number of nodes of a few kinds
// seen by a Visitor subclass equals the number the AST printer prints.
#include "frontend/ast/ast_printer.h"
#include "frontend/ast/ast_visitor.h"
#include "frontend/parser.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <sstream>

namespace {

using namespace itc;

struct Counter : ast::Visitor {
    std::map<std::string, int> seen;
    void visitNameRef(const ast::NameRef& n) override {
        ++seen["NameRef"];
        Visitor::visitNameRef(n);
    }
    void visitCall(const ast::Call& n) override {
        ++seen["Call"];
        Visitor::visitCall(n);
    }
    void visitStageCall(const ast::StageCall& n) override {
        ++seen["StageCall"];
        Visitor::visitStageCall(n);
    }
    void visitBinary(const ast::Binary& n) override {
        ++seen["Binary"];
        Visitor::visitBinary(n);
    }
    void visitExprStmt(const ast::ExprStmt& n) override {
        ++seen["ExprStmt"];
        Visitor::visitExprStmt(n);
    }
};

int printedCount(const std::string& text, const std::string& kind) {
    std::istringstream in(text);
    std::string line;
    int n = 0;
    while (std::getline(in, line)) {
        auto first = line.find_first_not_of(' ');
        if (first != std::string::npos && line.compare(first, kind.size() + 1, kind + " ") == 0)
            ++n;
    }
    return n;
}

TEST(Visitor, ReachesEveryNodeOfEveryExample) {
    int examples = 0;
    for (const auto& dir : std::filesystem::directory_iterator(ITC_EXAMPLES_DIR)) {
        if (!dir.is_directory())
            continue;
        for (const auto& f : std::filesystem::directory_iterator(dir.path())) {
            if (f.path().extension() != ".it")
                continue;
            ++examples;
            SourceManager sources;
            DiagnosticEngine diags(sources);
            std::string error;
            auto file = sources.loadFile(f.path().string(), error);
            ASSERT_TRUE(file) << error;
            auto program = parseProgram(*file, sources, diags);
            ASSERT_FALSE(diags.hasErrors()) << f.path();
            Counter counter;
            counter.visitProgram(*program);
            std::string printed = ast::printAst(*program);
            for (const char* kind : {"NameRef", "Call", "StageCall", "Binary", "ExprStmt"})
                EXPECT_EQ(counter.seen[kind], printedCount(printed, kind)) << f.path() << " " << kind;
        }
    }
    EXPECT_GT(examples, 0);
}

} // namespace
