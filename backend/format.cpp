// Formatting of emitted C++ with clang's libFormat (LLVM-based style, 100 columns), so that
// generated programs read like code a person wrote and diff stably.
#include "backend/backend.h"

#include <clang/Format/Format.h>
#include <clang/Tooling/Core/Replacement.h>
#include <llvm/Config/llvm-config.h>

namespace itc::backend {

std::string llvmVersion() { return LLVM_VERSION_STRING; }

std::string formatCpp(const std::string& code, const std::string& fileName) {
    clang::format::FormatStyle style = clang::format::getLLVMStyle();
    style.ColumnLimit = 100;
    style.IndentWidth = 2;
    std::vector<clang::tooling::Range> ranges{clang::tooling::Range(0, static_cast<unsigned>(code.size()))};
    clang::tooling::Replacements repl = clang::format::reformat(style, code, ranges, fileName);
    llvm::Expected<std::string> out = clang::tooling::applyAllReplacements(code, repl);
    if (!out) {
        llvm::consumeError(out.takeError());
        return code;
    }
    return *out;
}

} // namespace itc::backend
