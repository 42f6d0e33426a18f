// The semantic types of IT (guide: Types): a small value type with structural equality, the
// promotion and conversion rules, and the spelling used in diagnostics. It knows nothing about
// scopes or the AST beyond translating a declared ast::TypeExpr.
#pragma once

#include "frontend/ast/ast.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace itc::semantic {

enum class TypeKind {
    Error, // an erroneous expression: every rule accepts it silently (one mistake, one message)
    Void,  // a call of a function without `return`
    Integer,
    RealSingle,
    RealDouble,
    RealLiteral, // a real literal (or arithmetic on literals) whose precision comes from context
    Character,
    Boolean,
    String,
    ArgValue, // `args.key`: a String converted to whatever the context requires
    Range,
    Class,           // name: the class
    StaticArray,     // lengths + element
    DynamicArray,    // dims + element
    List,            // element
    TaskEnvironment, // name: the task it was created for
    Cursor,          // a list cursor (guide: Lists); element: the list's element type
    Dimension,       // `a.dimensionK` (dims = 1) or `a.dimension` (dims = dimensionality of a)
    LocalView,       // `a.local`: element = the array; only `.dimension...` may follow
    Args,            // the coordinator's `args` object itself
};

struct Type {
    TypeKind kind = TypeKind::Error;
    std::string name;                    // Class: class name; TaskEnvironment: task name
    std::vector<std::int64_t> lengths;   // StaticArray
    int dims = 0;                        // DynamicArray, Dimension
    std::shared_ptr<const Type> element; // StaticArray, DynamicArray, List, Cursor, LocalView

    static Type error() { return Type{}; }
    static Type simple(TypeKind k) {
        Type t;
        t.kind = k;
        return t;
    }
    static Type integer() { return simple(TypeKind::Integer); }
    static Type boolean() { return simple(TypeKind::Boolean); }
    static Type range() { return simple(TypeKind::Range); }
    static Type classType(std::string className);
    static Type taskEnvironment(std::string task);
    static Type staticArray(std::vector<std::int64_t> lengths, Type element);
    static Type dynamicArray(int dims, Type element);
    static Type list(Type element);
    static Type cursor(Type element);
    static Type dimension(int dims);
    static Type localView(Type array);

    bool isError() const { return kind == TypeKind::Error; }
    bool isNumeric() const; // Character, Integer, reals (incl. RealLiteral)
    bool isReal() const;    // RealSingle, RealDouble, RealLiteral
    bool isArray() const { return kind == TypeKind::StaticArray || kind == TypeKind::DynamicArray; }
    bool isScalar() const; // primitives, Range, String, ArgValue (not classes or collections)
    // Number of dimensions of an array (0 for anything else).
    int arrayDims() const;
    const Type& elementType() const { return *element; }

    friend bool operator==(const Type& a, const Type& b);
    friend bool operator!=(const Type& a, const Type& b) { return !(a == b); }
};

// The spelling of a type in diagnostics, e.g. `2d Array of Real double-precision`.
std::string typeName(const Type& t);

// The type declared by an AST type expression (class names are not checked here).
Type typeFromAst(const ast::TypeExpr& t);

// The type a local takes when it is first assigned a value of type `t`: real literals become
// double (guide: Lexical rules); everything else keeps its type.
Type inferredLocalType(const Type& t);

// Rank in the promotion order Character < Integer < Real single < Real double (guide: Types);
// -1 for non-numeric types. RealLiteral ranks as a real of unknown precision.
int promotionRank(const Type& t);

// The common type of the two numeric operands of an arithmetic operator (guide: Types, Lexical
// rules).
Type promote(const Type& a, const Type& b);

// Whether a value of type `from` may be stored in a location of type `to`: identical types,
// implicit numeric conversion (guide: Types), command-line values (guide: The coordinator), real
// literals (guide: Lexical rules). Booleans never convert. Error on either side is accepted.
bool isAssignable(const Type& to, const Type& from);

// Whether two types may be compared with == / != (guide: Expressions).
bool isEqualityComparable(const Type& a, const Type& b);

} // namespace itc::semantic
