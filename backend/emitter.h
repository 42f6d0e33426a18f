// Internal to backend/: the shared state of one emission (the program, its checked form, plans
// and machine), C++ spellings of IT types, the expression emitter whose hooks each kind of
// code body (stage, Initialize, flow condition, coordinator, function) fills in, and the
// sequential body emitter shared by the coordinator and functions.
#pragma once

#include "backend/backend.h"
#include "backend/capability.h"

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace itc::backend {

// Accumulates C++ text; every line is appended as written, libFormat indents it afterwards.
struct Out {
    std::ostringstream s;
    template <class T> Out& operator<<(const T& t) {
        s << t;
        return *this;
    }
    std::string str() const { return s.str(); }
};

std::string cppType(const semantic::Type& t);                         // scalars, classes, static arrays, elements
std::string cppElement(const semantic::Type& array);                  // element type of an array type
std::string staticDimensionRange(const semantic::Type& array, int k); // `Range{0, L-1}` of a fixed-size array
std::string codecOf(const semantic::Type& element);                   // `itrt::double_codec()`
std::string classCodecOf(const semantic::Type& cls);                  // `c_Point_codec()`
std::string listCodecOf(const semantic::Type& list);
// `, N` for a List of N-dimensional Arrays (the rank its files must have), else nothing.
std::string listRankArg(const semantic::Type& list);       // the codec a list item keeps (for its files)
std::string fileCodecOf(const semantic::Type& collection); // the element codec of an array's or list's file
// Whether codecOf / fileCodecOf have a codec for an element type / a collection's file elements.
bool hasElementCodec(const semantic::Type& element, const semantic::CheckedProgram& cp);
// The same for `load` and `store` of coordinator values, which also convert Strings (256 bytes in
// a file; runtime/task/collections.h), unlike parts and environment items (fixed-size bytes).
bool hasStoreCodec(const semantic::Type& collection, const semantic::CheckedProgram& cp);
bool hasFileCodec(const semantic::Type& collection, const semantic::CheckedProgram& cp);
// Whether values of `t` hold a String (a String, or a class or fixed array with one inside):
// such values move serialised (value_bytes) and have no fixed-size memory codec.
bool hasString(const semantic::Type& t, const semantic::CheckedProgram& cp);
// Whether a class holding Strings has a fixed-size file form (`f_<Class>`: each String as the
// 256 bytes of a data file, runtime/task/collections.h file_form): every field is a number,
// Boolean, Character, Range, String, a class with a file form, or a fixed-size array of those.
bool hasFileForm(const semantic::Type& t, const semantic::CheckedProgram& cp);
std::string cString(const std::string& s);           // a C++ string literal
std::string commentText(const std::string& s);       // IT text made safe for a `//` comment line
std::string programBaseName(const BackendInput& in); // the IT file name without its folder
std::string ident(const std::string& s);             // a C++ identifier from any text
bool isCppKeyword(const std::string& s);
bool isReservedInCpp(const std::string& s);  // keywords, macros, names the generated code spells unqualified
std::string cppName(const std::string& s);   // an IT name as C++ (`class` -> `class_`)
std::string cppMember(const std::string& s); // a class field's name as C++ (keywords and macros renamed)

// A construct the capability check (capability.h) refuses reached an emitter: an internal error
// (std::logic_error), for the emitters translate only what the check let through.
[[noreturn]] void notTranslated(SourceRange r, const std::string& what);

// `std::array<itrt::task::SectionItem, dims>{{...}}` for the subscripts of section `s` (null: the
// whole array) of an array of `dims` dimensions (runtime/task/sections.h): `expr` emits an index
// expression, `whole` the item of dimension d written `...` or left out.
std::string sectionItems(const ast::Subscript* s, int dims, const std::function<std::string(const ast::Expr&)>& expr,
                         const std::function<std::string(int)>& whole);
// The same for items given per dimension (null: the whole dimension).
std::string sectionItems(const std::vector<const ast::SubscriptItem*>& items, int dims,
                         const std::function<std::string(const ast::Expr&)>& expr,
                         const std::function<std::string(int)>& whole);
// A section of a section, `(m[...][2...5])[3][4...5]`, as one section of the array: a section
// keeps the array's indices, so the outer items replace those of the dimensions the inner one
// keeps (an outer `...` keeps the inner item). Without `inner`, the items of `outer`.
std::vector<const ast::SubscriptItem*> composedItems(const ast::Subscript* inner, const ast::Subscript& outer,
                                                     int dims);

// Whether subscript `s` of an array of type `base` keeps a dimension (a section), rather than
// naming one element (which may itself be a static array, `(q[i])[0]`).
bool keepsDimension(const ast::Subscript& s, const semantic::Type& base);
// Whether `e` is a section of a dynamic array (some subscript a range, or fewer subscripts than
// dimensions), with the types `typeOf` gives.
bool isArraySection(const ast::Expr& e, const std::function<semantic::Type(const ast::Expr&)>& typeOf);

// Nested epochs: `(x at (current - j)) at (current - k)` is `x at (current - j)`, for an `at`
// applies to the task-global references inside it that have no `at` of their own. The innermost
// epoch of `e` (null when `e` is no epoch), and `e` without its epochs (`x`; `e` itself when it
// is no epoch).
const ast::Epoch* innermostEpoch(const ast::Expr& e);
const ast::Expr& withoutEpochs(const ast::Expr& e);

// `(v[2...5])[i]`, `(v[2...5] at (current - 1))[i]`, `((v at (current - 1))[2...5])[i]`: an
// element of a section of a named array, which is that array's element, for a section keeps the
// array's indices. `section` is the section (`v[2...5]`), `sectionEpoch` the epoch around it,
// `array` the array (`v`), `arrayEpoch` the epoch around the array inside the section (either
// may be null). Which of these `s` is, if any, the caller checks by the types: `section` must be
// a section of a dynamic array and `s` an element.
struct SectionElement {
    const ast::Subscript* section = nullptr;
    const ast::Epoch* sectionEpoch = nullptr;
    const ast::NameRef* array = nullptr;
    const ast::Epoch* arrayEpoch = nullptr;
};
std::optional<SectionElement> sectionElementShape(const ast::Subscript& s);

// Numbers the parts of a Computation section as semantic/usage/flow_tree numbers its nodes:
// pre-order, from `next`.
void numberFlowNodes(const ast::FlowList& list, int& next, std::map<const ast::FlowPart*, int>& out);

// The conjuncts of `a and b and ...` (an expression that is no `and`: itself).
void splitAnd(const ast::Expr& e, std::vector<const ast::Expr*>& out);

// The C++ functions of one program: one per FunctionInstance of semantic/check (guide: Types),
// named `fn_<function>_<k>` (k counts the instances of that function in check order), and the
// structs of its classes (`c_<Class>`). emitProgram() installs the table for the duration of
// one emission (FunctionScope), so every ExprEmitter, including those of Initialize and flow
// conditions, translates calls the same way.
class FunctionTable {
public:
    explicit FunctionTable(const BackendInput& in);
    struct Entry {
        const semantic::FunctionInstance* instance = nullptr;
        std::string name;
    };
    // The instance a call resolves to, from the argument types of the calling body; nullptr
    // for built-ins and unknown names.
    const Entry* find(const ast::Call& c, const semantic::ExprTypes* callerTypes) const;
    const std::vector<Entry>& entries() const { return entries_; }
    const BackendInput& in() const { return in_; }
    // Whether parameter `param` of `fn` may receive a part cut by stride() or block_stride()
    // (capability.h, stridedPartHolders): its dimension-range loops visit the held indices.
    bool heldPart(const ast::FunctionDef& fn, const std::string& param) const {
        return held_.parameters.count({&fn, param}) != 0;
    }
    // The same for a stage's local array (TaskEmitter::heldPart): one capability walk serves both.
    bool heldPart(const ast::StageDef& stage, const std::string& local) const {
        return held_.stageLocals.count({&stage, local}) != 0;
    }

private:
    const BackendInput& in_;
    std::vector<Entry> entries_;
    StridedHolders held_;
};
const FunctionTable* currentFunctions();
struct FunctionScope {
    explicit FunctionScope(const FunctionTable* t);
    ~FunctionScope();
    FunctionScope(const FunctionScope&) = delete;
    FunctionScope& operator=(const FunctionScope&) = delete;
    const FunctionTable* saved;
};

// Class structs (dependency order), their element codecs for arrays of objects, and one C++
// function per function instance (declarations first, so instances may call each other).
void emitClasses(Out& o, const BackendInput& in);
void emitFunctions(Out& o, const FunctionTable& table);
// `kArgs`: the `args` keys coordinator `c` reads, their types and IT lines (emit_args.cpp).
std::string argsTable(const BackendInput& in, const ast::Coordinator& c);
// `#include <...>` lines for every @Includes word of the program's @Extern blocks (sorted).
std::string externIncludes(const ast::Program& p);
// A native-code block (guide: Native code: @Extern): the IT variables `aliases` (IT name -> C++
// lvalue) are visible under their IT names, the 64-bit loop indices `indices` as Integers
// (`int32_t`), then the code runs in a block of its own.
std::string externBlock(const ast::Extern& x, const std::map<std::string, std::string>& aliases,
                        const std::set<std::string>& indices = {});

// The C++ form of an expression; hooks give the meaning of names in one kind of body.
class ExprEmitter {
public:
    explicit ExprEmitter(const semantic::ExprTypes* types) : types_(types) {}
    virtual ~ExprEmitter() = default;

    std::string emit(const ast::Expr& e);
    semantic::Type typeOf(const ast::Expr& e) const;

protected:
    virtual std::string nameRef(const ast::NameRef& n) = 0;
    // a[i][j] (lag: epoch version); only arrays reach here.
    virtual std::string element(const ast::Subscript& s, const std::string& array,
                                const std::vector<std::string>& indices, int lag) {
        notTranslated(s.range, "array element access here");
    }
    // `a.dimensionK.range` (local = `a.local.dimensionK.range`); k is 0-based.
    virtual std::string dimensionRange(const ast::Expr& at, const std::string& array, int k, bool local) {
        notTranslated(at.range, "dimension attribute here");
    }
    // `env.item[i][j]` (an element of one of the coordinator's environment arrays).
    virtual std::string fieldElement(const ast::Subscript& s, const ast::FieldAccess&) {
        notTranslated(s.range, "subscripts of computed values");
    }
    // `env.item.dimensionK` (the coordinator's environment arrays).
    virtual std::string fieldDimensionRange(const ast::Expr& at, const ast::FieldAccess&, int, bool) {
        notTranslated(at.range, "this dimension attribute");
    }
    virtual std::string fieldOfName(const ast::FieldAccess& f, const std::string& base) { return ""; }
    virtual std::string lpuId(const ast::Expr& at) { notTranslated(at.range, "`lpuId` here"); }
    virtual std::string partitionParam(const std::string& p) { return "p_" + p; }
    // Calls of user functions (guide: Functions) and of the list built-ins (guide: Lists); other
    // built-ins are reported unless a body kind handles them.
    virtual std::string call(const ast::Call& c);
    // `get_cursor`, `value`, `advance`, `insert_at`, `remove_at`, `set_capacity`; "" otherwise.
    std::string listCall(const ast::Call& c);
    // "prog.it:LINE" for run-time messages.
    std::string whereOf(SourceRange r) const;
    // A section (`a[i...j][k]`, `a[r]`) of a function's or the coordinator's array, `array` being
    // its C++ expression: a new array with the section's indices.
    std::string sectionValue(const ast::Subscript& s, const std::string& array, int dims);
    // `value` as a value of `target`'s type: a Real into an Integer or Character through
    // itrt::task::real_to (truncated, then wrapped like an Integer), anything else as it is.
    std::string converted(const ast::Expr& value, const semantic::Type& target);
    std::string sectionElement(const ast::Subscript& s, const SectionElement& se);
    // A section passed to a `&` parameter: a copy written back into the array when the call ends.
    std::string sectionArgument(const ast::Subscript& s);
    // Whether `e` is a section of an array (some subscript a range, or fewer than its dimensions).
    bool isSection(const ast::Expr& e) const;
    // `s[i...j] = value` where s is a static array held as std::array (a class field, a local;
    // not a task array): by position into it. "" when `a` assigns no such section.
    std::string staticSectionAssign(const ast::Assign& a);
    // A `&` argument of a function call: the C++ lvalue it names.
    virtual std::string referenceArg(const ast::Expr& e) { return emit(e); }
    // The list a list built-in works on (its first argument), as an lvalue; `commit` receives
    // what gives a change back where the list lives ("" when it is changed in place).
    virtual std::string listOperand(const ast::Expr& e, std::string& /*commit*/) { return emit(e); }
    // Whether whole arrays are values here (LocalArray), so that they can be function arguments.
    virtual bool wholeArrays() const { return false; }
    // Whether the array named `name` is a value here (a LocalArray, not a part of a task array).
    virtual bool arrayValue(const std::string&) const { return wholeArrays(); }
    // Whether `name` is a task-global array seen as a part (a view), also when its type is a
    // static array.
    virtual bool partArray(const std::string&) const { return false; }
    // A task array whose whole ranges this body knows without holding a part (flow headers).
    virtual bool rangesKnown(const std::string& name) const { return partArray(name); }
    // Whether `a` names a task-global array held in parts or an environment item (also when its
    // type is a static array), not a std::array value.
    bool heldAsTaskArray(const ast::Expr& a) const;
    // Where they are not: a whole array or list `a` passed to a function (`&` if byReference).
    virtual std::string partArgument(const ast::Expr& a, bool byReference);

    const semantic::ExprTypes* types_;
    int lag_ = 0;

private:
    std::string binary(const ast::Binary& b);
    std::string property(const ast::Property& p);
    static std::string rootName(const ast::Subscript& s);
    std::string sectionDimensionRange(const ast::Property& p, const ast::Subscript& s, int k, bool local);
    bool staticSection(const ast::Subscript& s);
    std::string staticSectionArgument(const ast::Subscript& s);
    std::string newObject(const ast::NewObject& o);
};

// Code bodies that run sequentially on every rank with whole local data: the coordinator and
// functions. Locals are `v_<name>`, arrays made with `new` are LocalArray values.
class SequentialBody : public ExprEmitter {
public:
    SequentialBody(const BackendInput& in, const semantic::ExprTypes* types,
                   const std::map<std::string, semantic::Type>* locals)
        : ExprEmitter(types), in_(in), locals_(locals) {}
    void block(Out& o, const ast::Block& b);

protected:
    std::string nameRef(const ast::NameRef& n) override { return "v_" + n.name; }
    std::string element(const ast::Subscript& s, const std::string& array, const std::vector<std::string>& idx,
                        int lag) override;
    std::string dimensionRange(const ast::Expr& at, const std::string& array, int k, bool local) override;
    bool wholeArrays() const override { return true; }
    semantic::Type localType(const std::string& n) const;
    std::string nameRefText(const std::string& name);
    // Assignments whose target is not a plain C++ lvalue (dimension ranges, `new` arrays).
    virtual std::string assign(const ast::Assign& a);
    // The value `a` gives its target: of a chain `x = y = v`, y is assigned first and its new
    // value read back (the inner target need not be a C++ lvalue: `b.dimension1.range.min`).
    std::string assignedValue(const ast::Assign& a);
    // The C++ of an assignment's target (an environment item's field is a copy given back).
    virtual std::string target(const ast::Expr& t) { return emit(t); }
    // `x.dimension = y.dimension`, `x.dimensionK = y.dimensionJ = z.dimensionL`: every target
    // dimension takes the source's bounds (a whole `.dimension` stands for dimension 1 when the
    // other side names one); "" when `a` assigns no dimension.
    std::string dimensionAssign(const ast::Assign& a);
    // The DimRange lvalue of dimension d of array `array` (a dimension target), and the range of
    // dimension d of the array a source `dim` (`y.dimension...`) names.
    virtual std::string dimensionLvalue(const ast::Expr& array, int d);
    std::string dimensionSource(const ast::Property& dim, int d);
    virtual void stmt(Out& o, const ast::Stmt& s);
    // IT name -> C++ lvalue of the variables native code sees.
    virtual std::map<std::string, std::string> externAliases() const;
    virtual void returnStmt(Out& o, const ast::Return& r) { notTranslated(r.range, "`return` here"); }
    // Whether array `name` may hold a part cut by stride() (a function's parameter, FunctionTable::heldPart).
    virtual bool heldPart(const std::string&) const { return false; }

    const BackendInput& in_;
    const std::map<std::string, semantic::Type>* locals_;
    std::set<std::string> loopVars_; // sequential loop indices that are not locals
};

// `if / else if / else` and `do { } while`, with the body's own condition and block emitters.
void emitIf(Out& o, const ast::If& i, const std::function<std::string(const ast::Expr&)>& cond,
            const std::function<void(const ast::Block&)>& block);
void emitDoWhile(Out& o, const ast::While& w, const std::function<std::string(const ast::Expr&)>& cond,
                 const std::function<void(const ast::Block&)>& block);

// The opening of `do in sequence { } for i in R step s`: `{`, the range (named `r`), and the C++
// `for` whose int64_t `var` runs over R in its direction, s indices apart (`range`, `step`: C++
// of R and s).
// With `heldArray` (the C++ of an array R is a dimension range of, `dim` from 0), the indices are
// the array's along that dimension one position after another (itrt::task::held_indices): for a
// part cut by stride() the indices the LPU holds, for any other array the same as R's. The
// caller writes the body and closes with `}\n}\n`.
void openSequentialFor(Out& o, const std::string& r, const std::string& var, const std::string& range,
                       const std::string& step, const std::string& heldArray = "", int dim = 0);

// One IT source line as a comment: `// file.it:27: do { ... } for i in x`.
std::string lineComment(const BackendInput& in, SourceRange r);

} // namespace itc::backend
