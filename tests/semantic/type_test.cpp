// The type rules of semantic/types (§3.6): promotion, conversion, literals, spelling.
#include "semantic/types/type.h"

#include <gtest/gtest.h>

using namespace itc::semantic;

namespace {
Type k(TypeKind kind) { return Type::simple(kind); }
} // namespace

TEST(Types, PromotionFollowsTheChain) {
    EXPECT_EQ(promote(k(TypeKind::Character), k(TypeKind::Integer)).kind, TypeKind::Integer);
    EXPECT_EQ(promote(k(TypeKind::Integer), k(TypeKind::RealSingle)).kind, TypeKind::RealSingle);
    EXPECT_EQ(promote(k(TypeKind::RealSingle), k(TypeKind::RealDouble)).kind, TypeKind::RealDouble);
    EXPECT_EQ(promote(k(TypeKind::Character), k(TypeKind::Character)).kind, TypeKind::Integer);
}

TEST(Types, RealLiteralTakesThePrecisionOfTheOtherOperand) {
    EXPECT_EQ(promote(k(TypeKind::RealLiteral), k(TypeKind::RealSingle)).kind, TypeKind::RealSingle);
    EXPECT_EQ(promote(k(TypeKind::RealDouble), k(TypeKind::RealLiteral)).kind, TypeKind::RealDouble);
    EXPECT_EQ(promote(k(TypeKind::RealLiteral), k(TypeKind::Integer)).kind, TypeKind::RealLiteral);
    // ... and defaults to double when it lands in a new local.
    EXPECT_EQ(inferredLocalType(k(TypeKind::RealLiteral)).kind, TypeKind::RealDouble);
}

TEST(Types, BooleansNeverConvert) {
    EXPECT_FALSE(isAssignable(Type::integer(), Type::boolean()));
    EXPECT_FALSE(isAssignable(Type::boolean(), Type::integer()));
    EXPECT_FALSE(isAssignable(Type::boolean(), k(TypeKind::RealLiteral)));
    EXPECT_TRUE(isAssignable(Type::boolean(), Type::boolean()));
}

TEST(Types, NumericAssignmentsConvertImplicitly) {
    EXPECT_TRUE(isAssignable(Type::integer(), k(TypeKind::RealDouble)));
    EXPECT_TRUE(isAssignable(k(TypeKind::RealSingle), Type::integer()));
    EXPECT_TRUE(isAssignable(k(TypeKind::RealSingle), k(TypeKind::RealLiteral)));
    EXPECT_FALSE(isAssignable(k(TypeKind::String), Type::integer()));
}

TEST(Types, CommandLineValuesConvertByContext) {
    Type arg = k(TypeKind::ArgValue);
    EXPECT_TRUE(isAssignable(Type::integer(), arg));
    EXPECT_TRUE(isAssignable(Type::boolean(), arg));
    EXPECT_TRUE(isAssignable(k(TypeKind::String), arg));
    EXPECT_FALSE(isAssignable(Type::dynamicArray(1, Type::integer()), arg));
    EXPECT_EQ(promote(arg, Type::integer()).kind, TypeKind::Integer);
}

TEST(Types, ErrorTypeIsSilent) {
    EXPECT_TRUE(isAssignable(Type::integer(), Type::error()));
    EXPECT_TRUE(isAssignable(Type::error(), Type::boolean()));
    EXPECT_TRUE(isEqualityComparable(Type::error(), k(TypeKind::String)));
    EXPECT_TRUE(promote(Type::error(), Type::integer()).isError());
}

TEST(Types, CollectionsCompareStructurally) {
    Type a = Type::dynamicArray(2, k(TypeKind::RealDouble));
    EXPECT_EQ(a, Type::dynamicArray(2, k(TypeKind::RealDouble)));
    EXPECT_NE(a, Type::dynamicArray(2, k(TypeKind::RealSingle)));
    EXPECT_NE(a, Type::dynamicArray(1, k(TypeKind::RealDouble)));
    EXPECT_FALSE(isAssignable(a, Type::dynamicArray(2, k(TypeKind::RealSingle))));
    EXPECT_TRUE(isAssignable(Type::dimension(2), Type::dimension(2)));
    EXPECT_FALSE(isAssignable(Type::dimension(2), Type::dimension(1)));
    EXPECT_FALSE(isAssignable(Type::taskEnvironment("A"), Type::taskEnvironment("B")));
}

TEST(Types, Spelling) {
    EXPECT_EQ(typeName(Type::dynamicArray(2, k(TypeKind::RealDouble))), "2d Array of Real double-precision");
    EXPECT_EQ(typeName(Type::staticArray({3, 4}, Type::integer())), "Array[3][4] of Integer");
    EXPECT_EQ(typeName(Type::list(Type::classType("Sample"))), "List of Sample");
    EXPECT_EQ(typeName(Type::taskEnvironment("Heat")), "TaskEnvironment of \"Heat\"");
}

TEST(Types, EqualityComparisons) {
    EXPECT_TRUE(isEqualityComparable(Type::integer(), k(TypeKind::Character)));
    EXPECT_TRUE(isEqualityComparable(k(TypeKind::String), k(TypeKind::String)));
    EXPECT_FALSE(isEqualityComparable(k(TypeKind::String), Type::integer()));
    EXPECT_FALSE(isEqualityComparable(Type::boolean(), Type::integer()));
    EXPECT_FALSE(isEqualityComparable(Type::range(), Type::range()));
}
