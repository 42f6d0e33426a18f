// How many diagnostics `itc` prints: every distinct one up to a hundred, then a count of the
// rest (a file that is no IT program gave thousands of lines; probe AY).
#include "frontend/diagnostics/diagnostics.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

namespace {

using itc::DiagKind;
using itc::DiagnosticEngine;
using itc::SourceLocation;
using itc::SourceManager;
using itc::SourceRange;

std::string printed(int errors, bool twice) {
    SourceManager sources;
    std::string text;
    for (int i = 0; i < errors; ++i)
        text += "x\n";
    const auto file = sources.addBuffer("many.it", text);
    DiagnosticEngine diags(sources);
    for (int i = 0; i < errors; ++i)
        for (int k = 0; k < (twice ? 2 : 1); ++k)
            diags.error(DiagKind::UnexpectedToken,
                        SourceRange::at(SourceLocation{file, static_cast<std::uint32_t>(i + 1), 1}), "error {}", i);
    std::ostringstream out;
    diags.print(out);
    return out.str();
}

size_t count(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

TEST(DiagnosticLimit, AHundredAreAllShown) {
    const std::string out = printed(100, false);
    EXPECT_EQ(count(out, ": error: "), 100u);
    EXPECT_EQ(count(out, "not shown"), 0u);
}

TEST(DiagnosticLimit, MoreAreCounted) {
    const std::string out = printed(250, false);
    EXPECT_EQ(count(out, ": error: "), 100u);
    EXPECT_NE(out.find("error 99"), std::string::npos);
    EXPECT_EQ(out.find("error 100 "), std::string::npos);
    EXPECT_NE(out.find("itc: note: 150 more diagnostics not shown"), std::string::npos);
}

TEST(DiagnosticLimit, RepeatsCountOnce) {
    const std::string out = printed(101, true);
    EXPECT_EQ(count(out, ": error: "), 100u);
    EXPECT_NE(out.find("itc: note: 1 more diagnostic not shown"), std::string::npos);
}

} // namespace
