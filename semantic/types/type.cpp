// Implementation of the IT type rules (guide: Types; see type.h). Pure functions over Type values.
#include "semantic/types/type.h"

#include <fmt/format.h>

namespace itc::semantic {

Type Type::classType(std::string className) {
    Type t = simple(TypeKind::Class);
    t.name = std::move(className);
    return t;
}
Type Type::taskEnvironment(std::string task) {
    Type t = simple(TypeKind::TaskEnvironment);
    t.name = std::move(task);
    return t;
}
Type Type::staticArray(std::vector<std::int64_t> lengths, Type element) {
    Type t = simple(TypeKind::StaticArray);
    t.lengths = std::move(lengths);
    t.element = std::make_shared<const Type>(std::move(element));
    return t;
}
Type Type::dynamicArray(int dims, Type element) {
    Type t = simple(TypeKind::DynamicArray);
    t.dims = dims;
    t.element = std::make_shared<const Type>(std::move(element));
    return t;
}
Type Type::list(Type element) {
    Type t = simple(TypeKind::List);
    t.element = std::make_shared<const Type>(std::move(element));
    return t;
}
Type Type::cursor(Type element) {
    Type t = simple(TypeKind::Cursor);
    t.element = std::make_shared<const Type>(std::move(element));
    return t;
}
Type Type::dimension(int dims) {
    Type t = simple(TypeKind::Dimension);
    t.dims = dims;
    return t;
}
Type Type::localView(Type array) {
    Type t = simple(TypeKind::LocalView);
    t.element = std::make_shared<const Type>(std::move(array));
    return t;
}

bool Type::isNumeric() const { return promotionRank(*this) >= 0; }

bool Type::isReal() const {
    return kind == TypeKind::RealSingle || kind == TypeKind::RealDouble || kind == TypeKind::RealLiteral;
}

bool Type::isScalar() const {
    switch (kind) {
    case TypeKind::Integer:
    case TypeKind::RealSingle:
    case TypeKind::RealDouble:
    case TypeKind::RealLiteral:
    case TypeKind::Character:
    case TypeKind::Boolean:
    case TypeKind::String:
    case TypeKind::ArgValue:
    case TypeKind::Range: return true;
    default: return false;
    }
}

int Type::arrayDims() const {
    if (kind == TypeKind::StaticArray)
        return static_cast<int>(lengths.size());
    if (kind == TypeKind::DynamicArray)
        return dims;
    return 0;
}

bool operator==(const Type& a, const Type& b) {
    if (a.kind != b.kind || a.name != b.name || a.lengths != b.lengths || a.dims != b.dims)
        return false;
    if (!a.element || !b.element)
        return !a.element && !b.element;
    return *a.element == *b.element;
}

std::string typeName(const Type& t) {
    switch (t.kind) {
    case TypeKind::Error: return "<error>";
    case TypeKind::Void: return "no value";
    case TypeKind::Integer: return "Integer";
    case TypeKind::RealSingle: return "Real single-precision";
    case TypeKind::RealDouble: return "Real double-precision";
    case TypeKind::RealLiteral: return "Real";
    case TypeKind::Character: return "Character";
    case TypeKind::Boolean: return "Boolean";
    case TypeKind::String: return "String";
    case TypeKind::ArgValue: return "String";
    case TypeKind::Range: return "Range";
    case TypeKind::Class: return t.name;
    case TypeKind::StaticArray: {
        std::string s = "Array";
        for (auto n : t.lengths)
            s += fmt::format("[{}]", n);
        return s + " of " + typeName(*t.element);
    }
    case TypeKind::DynamicArray: return fmt::format("{}d Array of {}", t.dims, typeName(*t.element));
    case TypeKind::List: return "List of " + typeName(*t.element);
    case TypeKind::TaskEnvironment: return fmt::format("TaskEnvironment of \"{}\"", t.name);
    case TypeKind::Cursor: return "cursor of List of " + typeName(*t.element);
    case TypeKind::Dimension: return t.dims == 1 ? "dimension" : fmt::format("dimensions ({})", t.dims);
    case TypeKind::LocalView: return "local part of " + typeName(*t.element);
    case TypeKind::Args: return "command-line arguments";
    }
    return "?";
}

Type typeFromAst(const ast::TypeExpr& t) {
    switch (t.kind) {
    case ast::TypeKind::Integer: return Type::integer();
    case ast::TypeKind::RealSingle: return Type::simple(TypeKind::RealSingle);
    case ast::TypeKind::RealDouble: return Type::simple(TypeKind::RealDouble);
    case ast::TypeKind::Character: return Type::simple(TypeKind::Character);
    case ast::TypeKind::Boolean: return Type::boolean();
    case ast::TypeKind::String: return Type::simple(TypeKind::String);
    case ast::TypeKind::Range: return Type::range();
    case ast::TypeKind::Class: return Type::classType(t.className);
    case ast::TypeKind::StaticArray:
        return Type::staticArray(t.lengths, t.element ? typeFromAst(*t.element) : Type::error());
    case ast::TypeKind::DynamicArray:
        return Type::dynamicArray(t.dimensionality, t.element ? typeFromAst(*t.element) : Type::error());
    case ast::TypeKind::List: return Type::list(t.element ? typeFromAst(*t.element) : Type::error());
    case ast::TypeKind::TaskEnvironment: return Type::taskEnvironment("");
    }
    return Type::error();
}

Type inferredLocalType(const Type& t) {
    if (t.kind == TypeKind::RealLiteral)
        return Type::simple(TypeKind::RealDouble);
    return t;
}

int promotionRank(const Type& t) {
    switch (t.kind) {
    case TypeKind::Character: return 0;
    case TypeKind::Integer: return 1;
    case TypeKind::RealLiteral: return 2;
    case TypeKind::RealSingle: return 3;
    case TypeKind::RealDouble: return 4;
    default: return -1;
    }
}

Type promote(const Type& a, const Type& b) {
    if (a.isError() || b.isError())
        return Type::error();
    if (a.kind == TypeKind::ArgValue)
        return b;
    if (b.kind == TypeKind::ArgValue)
        return a;
    // A real literal takes the precision of the other real operand (guide: Lexical rules).
    if (a.kind == TypeKind::RealLiteral && b.isReal())
        return b;
    if (b.kind == TypeKind::RealLiteral && a.isReal())
        return a;
    int ra = promotionRank(a), rb = promotionRank(b);
    Type r = ra >= rb ? a : b;
    // Character arithmetic yields Integer, as in the promotion chain's next step.
    if (r.kind == TypeKind::Character)
        return Type::integer();
    return r;
}

bool isAssignable(const Type& to, const Type& from) {
    if (to.isError() || from.isError())
        return true;
    if (from.kind == TypeKind::Void)
        return false;
    if (from.kind == TypeKind::ArgValue)
        return to.isScalar() && to.kind != TypeKind::Range;
    if (to.kind == TypeKind::ArgValue)
        return from.kind == TypeKind::String || from.kind == TypeKind::ArgValue;
    if (to.isNumeric() && from.isNumeric())
        return true; // implicit conversion (guide: Types)
    if (to.kind == TypeKind::Dimension && from.kind == TypeKind::Dimension)
        return to.dims == from.dims;
    return to == from;
}

bool isEqualityComparable(const Type& a, const Type& b) {
    if (a.isError() || b.isError())
        return true;
    if (a.kind == TypeKind::ArgValue)
        return b.isScalar() && b.kind != TypeKind::Range;
    if (b.kind == TypeKind::ArgValue)
        return a.isScalar() && a.kind != TypeKind::Range;
    if (a.isNumeric() && b.isNumeric())
        return true;
    if (a.kind == TypeKind::Boolean && b.kind == TypeKind::Boolean)
        return true;
    if (a.kind == TypeKind::String && b.kind == TypeKind::String)
        return true;
    return false;
}

} // namespace itc::semantic
