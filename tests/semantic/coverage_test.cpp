// Every diagnostic kind of semantic.def is triggered by at least one golden test: some
// testdata/*.expected file shows `[Kind]`.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

TEST(SemanticDiagnostics, EveryKindHasAGoldenTest) {
    namespace fs = std::filesystem;
    std::string corpus;
    for (auto& e : fs::recursive_directory_iterator(SEMANTIC_TESTDATA)) {
        if (e.path().extension() != ".expected")
            continue;
        std::ifstream in(e.path());
        std::stringstream s;
        s << in.rdbuf();
        corpus += s.str();
    }
    std::ifstream def(ITC_SOURCE_DIR "/frontend/diagnostics/semantic.def");
    std::string line;
    int kinds = 0;
    while (std::getline(def, line)) {
        if (line.rfind("DIAG(", 0) != 0)
            continue;
        std::string name = line.substr(5, line.find(',') - 5);
        ++kinds;
        EXPECT_NE(corpus.find("[" + name + "]"), std::string::npos)
            << "no golden test triggers diagnostic kind " << name;
    }
    EXPECT_GE(kinds, 50);
}

// Each fail_*.it golden test expects exit 1 and exactly one diagnostic.
TEST(SemanticDiagnostics, FailTestsHaveExactlyOneError) {
    namespace fs = std::filesystem;
    int files = 0;
    for (auto& e : fs::directory_iterator(SEMANTIC_TESTDATA)) {
        std::string name = e.path().filename().string();
        if (name.rfind("fail_", 0) != 0 || e.path().extension() != ".expected")
            continue;
        ++files;
        std::ifstream in(e.path());
        std::stringstream s;
        s << in.rdbuf();
        std::string text = s.str();
        EXPECT_EQ(text.rfind("exit: 1\n", 0), 0u) << name;
        std::size_t errors = 0;
        for (std::size_t p = text.find(": error: "); p != std::string::npos; p = text.find(": error: ", p + 1))
            ++errors;
        EXPECT_EQ(errors, 1u) << name << " should report exactly one error";
    }
    EXPECT_GE(files, 60);
}
