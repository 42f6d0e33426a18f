// Every diagnostic kind of machine.def is triggered by at least one test: a golden file under
// testdata/ (its .expected shows `[Kind]`) or a unit test source in this folder.
#include "frontend/diagnostics/diagnostics.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

TEST(PcubesDiagnostics, EveryMachineKindIsTested) {
    std::string corpus;
    namespace fs = std::filesystem;
    for (const char* dir : {PCUBES_TESTDATA, ITC_SOURCE_DIR "/tests/pcubes"})
        for (auto& e : fs::recursive_directory_iterator(dir)) {
            auto ext = e.path().extension();
            if (ext != ".expected" && ext != ".cpp")
                continue;
            if (e.path().filename() == "coverage_test.cpp")
                continue;
            std::ifstream in(e.path());
            std::stringstream s;
            s << in.rdbuf();
            corpus += s.str();
        }
    // The kinds declared in machine.def, read from the file itself.
    std::ifstream def(ITC_SOURCE_DIR "/frontend/diagnostics/machine.def");
    std::string line;
    int kinds = 0;
    while (std::getline(def, line)) {
        if (line.rfind("DIAG(", 0) != 0)
            continue;
        std::string name = line.substr(5, line.find(',') - 5);
        ++kinds;
        EXPECT_NE(corpus.find("[" + name + "]"), std::string::npos) << "no test triggers diagnostic kind " << name;
    }
    EXPECT_GE(kinds, 20);
}
