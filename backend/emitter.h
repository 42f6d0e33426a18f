// Internal to backend/: the shared state of one emission (the program, its checked form, plans
// and machine), C++ spellings of IT types, and the expression emitter whose hooks each kind of
// code body (stage, Initialize, flow condition, coordinator) fills in.
#pragma once

#include "backend/backend.h"

#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace itc::backend {

// Accumulates C++ text; every line is appended as written, libFormat indents it afterwards.
struct Out {
    std::ostringstream s;
    template <class T>
    Out& operator<<(const T& t) {
        s << t;
        return *this;
    }
    std::string str() const { return s.str(); }
};

std::string cppType(const sema::Type& t);          // scalars and element types
std::string cppElement(const sema::Type& array);    // element type of an array type
std::string codecOf(const sema::Type& element);     // `itrt::double_codec()`
std::string cString(const std::string& s);          // a C++ string literal
std::string ident(const std::string& s);            // a C++ identifier from any text

[[noreturn]] void unsupported(SourceRange r, const std::string& what);

// The C++ form of an expression; hooks give the meaning of names in one kind of body.
class ExprEmitter {
public:
    explicit ExprEmitter(const sema::ExprTypes* types) : types_(types) {}
    virtual ~ExprEmitter() = default;

    std::string emit(const ast::Expr& e);
    sema::Type typeOf(const ast::Expr& e) const;

protected:
    virtual std::string nameRef(const ast::NameRef& n) = 0;
    // a[i][j] (lag: epoch version); only arrays reach here.
    virtual std::string element(const ast::Subscript& s, const std::string& array,
                                const std::vector<std::string>& indices, int lag) {
        unsupported(s.range, "array element access here");
    }
    // `a.dimensionK.range` (local = `a.local.dimensionK.range`); k is 0-based.
    virtual std::string dimensionRange(const ast::Expr& at, const std::string& array, int k, bool local) {
        unsupported(at.range, "dimension attribute here");
    }
    virtual std::string fieldOfName(const ast::FieldAccess& f, const std::string& base) {
        return "";
    }
    virtual std::string lpuId(const ast::Expr& at) { unsupported(at.range, "`lpuId` here"); }
    virtual std::string partitionParam(const std::string& p) { return "p_" + p; }
    virtual std::string call(const ast::Call& c) { unsupported(c.range, "function calls"); }

    const sema::ExprTypes* types_;
    int lag_ = 0;

private:
    std::string binary(const ast::Binary& b);
    std::string property(const ast::Property& p);
};

// One IT source line as a comment: `// file.it:27: do { ... } for i in x`.
std::string lineComment(const BackendInput& in, SourceRange r);

} // namespace itc::backend
