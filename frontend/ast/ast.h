// The IT abstract syntax tree: plain structs owned through unique_ptr, every node with the
// source range it came from. It records what the user wrote, resolved nothing: names, types
// and partitions are checked in semantic/. No ANTLR type appears here or anywhere past
// frontend/; the builder (parse tree -> AST) is the only code that sees both.
#pragma once

#include "frontend/source_manager.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace itc::ast {

// The common base of one node family (expressions, statements, flow parts): the kind tag, the
// source range and a checked downcast, `node.as<Binary>()`, which is null for other kinds.
template <typename Base, typename KindEnum> struct NodeFamily {
    explicit NodeFamily(KindEnum k) : kind(k) {}
    virtual ~NodeFamily() = default;
    const KindEnum kind;
    SourceRange range;

    template <typename T> T* as() { return kind == T::kKind ? static_cast<T*>(static_cast<Base*>(this)) : nullptr; }
    template <typename T> const T* as() const {
        return kind == T::kKind ? static_cast<const T*>(static_cast<const Base*>(this)) : nullptr;
    }
};

// ---------------------------------------------------------------------------------------------
// Names and types
// ---------------------------------------------------------------------------------------------

// An identifier as written (variable, class, stage, function, space letter, task string).
struct Name {
    std::string text;
    SourceRange range;
};

enum class TypeKind {
    Integer,
    RealSingle, // Real single-precision
    RealDouble, // Real double-precision
    Character,
    Boolean,
    String,
    Range,
    Class,           // a TYPE_NAME: className holds it
    StaticArray,     // Array[3][4] of T  /  T[3][4]: lengths, element
    DynamicArray,    // 2d Array of T: dimensionality, element (T static, or a List of static)
    List,            // List of T: element (T static, or a dynamic array of static)
    TaskEnvironment, // only in `new TaskEnvironment(...)`
};

struct TypeExpr {
    TypeKind kind = TypeKind::Integer;
    SourceRange range;
    std::string className;             // TypeKind::Class
    std::vector<std::int64_t> lengths; // TypeKind::StaticArray, dimension 1 first
    int dimensionality = 0;            // TypeKind::DynamicArray
    std::unique_ptr<TypeExpr> element; // arrays and lists
};

// `a, b: 2d Array of Real double-precision`  /  `total: Integer Reduction`
struct VarDecl {
    std::vector<Name> names;
    TypeExpr type;
    bool isReduction = false; // declared `T Reduction` (§3.4)
    SourceRange range;
};

// ---------------------------------------------------------------------------------------------
// Expressions
// ---------------------------------------------------------------------------------------------

enum class ExprKind {
#define EXPR_KIND(k) k,
#include "frontend/ast/node_kinds.def"
#undef EXPR_KIND
};

struct Expr : NodeFamily<Expr, ExprKind> {
    using NodeFamily::NodeFamily;
};
using ExprPtr = std::unique_ptr<Expr>;

#define ITC_AST_NODE(Base, KindEnum, K)            \
    static constexpr KindEnum kKind = KindEnum::K; \
    K() : Base(kKind) {}

struct IntLiteral : Expr {
    ITC_AST_NODE(Expr, ExprKind, IntLiteral)
    std::int64_t value = 0;
};
struct RealLiteral : Expr {
    ITC_AST_NODE(Expr, ExprKind, RealLiteral)
    double value = 0;
    std::string spelling; // as written, e.g. "0.25": precision is decided by context
};
struct CharLiteral : Expr {
    ITC_AST_NODE(Expr, ExprKind, CharLiteral)
    char value = 0;
};
struct StringLiteral : Expr {
    ITC_AST_NODE(Expr, ExprKind, StringLiteral)
    std::string value; // without the quotes
};
struct BoolLiteral : Expr {
    ITC_AST_NODE(Expr, ExprKind, BoolLiteral)
    bool value = false;
};
struct NameRef : Expr {
    ITC_AST_NODE(Expr, ExprKind, NameRef)
    std::string name;
};

enum class UnaryOp { Negate, Not };
struct Unary : Expr {
    ITC_AST_NODE(Expr, ExprKind, Unary)
    UnaryOp op = UnaryOp::Negate;
    ExprPtr operand;
};

enum class BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Power,
    ShiftLeft,
    ShiftRight,
    BitAnd,
    BitXor,
    BitOr,
    Less,
    Greater,
    LessEqual,
    GreaterEqual,
    Equal,
    NotEqual,
    And,
    Or, // `and`/`&&`, `or`/`||`
};
struct Binary : Expr {
    ITC_AST_NODE(Expr, ExprKind, Binary)
    BinaryOp op = BinaryOp::Add;
    SourceRange opRange;
    ExprPtr lhs, rhs;
};

struct Assign : Expr {
    ITC_AST_NODE(Expr, ExprKind, Assign)
    ExprPtr target, value;
};

// base.name for ordinary names: class fields, Range min/max, args.key, env.item.
struct FieldAccess : Expr {
    ITC_AST_NODE(Expr, ExprKind, FieldAccess)
    ExprPtr base;
    Name field;
};

// The dimension-attribute properties, which are keywords only right after `.`.
enum class PropertyKind {
    Local,     // a.local
    Dimension, // a.dimension (dimensionIndex == 0) or a.dimensionK (dimensionIndex == K)
    Range,     // x.range
};
struct Property : Expr {
    ITC_AST_NODE(Expr, ExprKind, Property)
    ExprPtr base;
    PropertyKind property = PropertyKind::Local;
    int dimensionIndex = 0;
    SourceRange propertyRange;
};

// One `[ ... ]`: a single index, a section `e1...e2`, or the whole dimension `...`.
struct SubscriptItem {
    enum class Kind { Index, Section, Whole } kind = Kind::Index;
    ExprPtr index;       // Kind::Index
    ExprPtr first, last; // Kind::Section
    SourceRange range;
};
// base[s1][s2]...: consecutive brackets on one base are gathered into one node.
struct Subscript : Expr {
    ITC_AST_NODE(Expr, ExprKind, Subscript)
    ExprPtr base;
    std::vector<SubscriptItem> items;
};

// A call argument: an expression, or `Space X: v` (§6.7 [Ext]).
struct CallArg {
    ExprPtr value;                // set unless this is a space argument
    std::optional<Name> space;    // `Space X:` — the letter
    std::optional<Name> variable; // `Space X: v` — v
    SourceRange range;
    bool isSpaceArg() const { return space.has_value(); }
};
// f(args): functions, built-ins (bind_input, load, get_cursor, ...), stage calls in code bodies
// (an error found by semantic/), and the paper form of `reduce` never lands here.
struct Call : Expr {
    ITC_AST_NODE(Expr, ExprKind, Call)
    Name callee;
    std::vector<CallArg> args;
};

struct NamedArg {
    Name name;
    ExprPtr value;
    SourceRange range;
};
// new Range(min: a, max: b) / new Sensor(id: 3) / new TaskEnvironment(name: "T")
struct NewObject : Expr {
    ITC_AST_NODE(Expr, ExprKind, NewObject)
    TypeExpr type; // Range, Class or TaskEnvironment
    std::vector<NamedArg> args;
};
// new 1d Array of Integer / new List of T
struct NewCollection : Expr {
    ITC_AST_NODE(Expr, ExprKind, NewCollection)
    TypeExpr type;
};

// The operator of a reduction: a string literal or a stage parameter bound to one.
struct ReduceOperator {
    std::string text;
    bool isLiteral = true;
    SourceRange range;
};
// reduce("op", e): the paper's expression form.
struct ReduceExpr : Expr {
    ITC_AST_NODE(Expr, ExprKind, ReduceExpr)
    ReduceOperator op;
    ExprPtr operand;
};

struct LpuId : Expr {
    ITC_AST_NODE(Expr, ExprKind, LpuId)
};
struct PartitionParam : Expr {
    ITC_AST_NODE(Expr, ExprKind, PartitionParam)
    Name param;
};
// [e1...e2]
struct RangeLiteral : Expr {
    ITC_AST_NODE(Expr, ExprKind, RangeLiteral)
    ExprPtr first, last;
};
// The largest n of `at (current - n)` (the builder refuses more): each keeps a copy of the array.
inline constexpr std::int64_t kMaxEpochLag = 64;
// e at (current) / e at (current - n)
struct Epoch : Expr {
    ITC_AST_NODE(Expr, ExprKind, Epoch)
    ExprPtr operand;
    std::int64_t lag = 0;
};

// execute(task: "T"; environment: e; initialize: a, b; partition: p, q) — each label at most
// once, any order; the builder keeps them all so semantic/ can report duplicates.
struct ExecuteArg {
    enum class Label { Task, Environment, Initialize, Partition } label = Label::Task;
    SourceRange labelRange;
    std::vector<ExprPtr> values; // Task: one StringLiteral; Environment: one expression
    SourceRange range;
};
struct Execute : Expr {
    ITC_AST_NODE(Expr, ExprKind, Execute)
    std::vector<ExecuteArg> args;
};

// ---------------------------------------------------------------------------------------------
// Statements
// ---------------------------------------------------------------------------------------------

enum class StmtKind {
#define STMT_KIND(k) k,
#include "frontend/ast/node_kinds.def"
#undef STMT_KIND
};

struct Stmt : NodeFamily<Stmt, StmtKind> {
    using NodeFamily::NodeFamily;
};
using StmtPtr = std::unique_ptr<Stmt>;

// A code body: statements separated by newlines.
struct Block {
    std::vector<StmtPtr> stmts;
    SourceRange range;
};

struct ExprStmt : Stmt {
    ITC_AST_NODE(Stmt, StmtKind, ExprStmt)
    ExprPtr expr;
};

// `i, j in a.dimension2 and cond` — one group of a parallel loop.
struct IndexGroup {
    std::vector<Name> indices;
    Name collection;
    int dimensionIndex = 0; // K of `a.dimensionK`; 0 when no dimension is named
    ExprPtr restriction;    // the `and` expression, or null
    SourceRange range;
};
struct ParallelLoop : Stmt {
    ITC_AST_NODE(Stmt, StmtKind, ParallelLoop)
    Block body;
    std::vector<IndexGroup> groups; // separated by `;`
};

struct SequentialFor : Stmt {
    ITC_AST_NODE(Stmt, StmtKind, SequentialFor)
    Block body;
    Name index;
    ExprPtr rangeExpr;   // a RangeLiteral or any Range-valued expression
    ExprPtr step;        // or null
    ExprPtr restriction; // or null
};

struct While : Stmt {
    ITC_AST_NODE(Stmt, StmtKind, While)
    Block body;
    ExprPtr condition;
    bool inSequence = false; // written `do in sequence { } while`
};

struct IfBranch {
    ExprPtr condition;
    Block body;
    SourceRange range;
};
struct If : Stmt {
    ITC_AST_NODE(Stmt, StmtKind, If)
    std::vector<IfBranch> branches; // if, else if, ...
    std::optional<Block> elseBody;
};

// reduce(target, "op", e): the statement form [Ext].
struct ReduceStmt : Stmt {
    ITC_AST_NODE(Stmt, StmtKind, ReduceStmt)
    Name target;
    ReduceOperator op;
    ExprPtr operand;
};

struct Return : Stmt {
    ITC_AST_NODE(Stmt, StmtKind, Return)
    ExprPtr value;
};

// @Extern { @Language "C++" @Includes { a, b } @Libraries { m } ${ code }$ }: kept verbatim.
struct Extern : Stmt {
    ITC_AST_NODE(Stmt, StmtKind, Extern)
    std::string language;
    std::vector<Name> includes;
    std::vector<Name> libraries;
    std::string code;      // the text between ${ and }$, exactly as written
    SourceRange codeRange; // where that text starts and ends
};

// ---------------------------------------------------------------------------------------------
// The Computation section (flow)
// ---------------------------------------------------------------------------------------------

enum class FlowKind {
#define FLOW_KIND(k) k,
#include "frontend/ast/node_kinds.def"
#undef FLOW_KIND
};

struct FlowPart : NodeFamily<FlowPart, FlowKind> {
    using NodeFamily::NodeFamily;
};
using FlowPtr = std::unique_ptr<FlowPart>;
using FlowList = std::vector<FlowPtr>;

struct SpaceBlock : FlowPart {
    ITC_AST_NODE(FlowPart, FlowKind, SpaceBlock)
    Name space; // one letter
    FlowList body;
};
struct RepeatFor : FlowPart {
    ITC_AST_NODE(FlowPart, FlowKind, RepeatFor)
    Name variable;
    ExprPtr rangeExpr;
    ExprPtr step; // or null
    FlowList body;
};
struct RepeatForeach : FlowPart {
    ITC_AST_NODE(FlowPart, FlowKind, RepeatForeach)
    FlowList body;
};
struct RepeatWhile : FlowPart {
    ITC_AST_NODE(FlowPart, FlowKind, RepeatWhile)
    ExprPtr condition;
    bool explicitWhile = true; // false for the prose form `Repeat c { }`
    FlowList body;
};
// Where c { } / If c { } / Where x in R { }
struct Condition : FlowPart {
    ITC_AST_NODE(FlowPart, FlowKind, Condition)
    bool spelledIf = false;  // `If` rather than `Where` (synonyms, R-51)
    ExprPtr condition;       // the whole condition, or the `x` of `x in R`
    ExprPtr membershipRange; // R of `x in R`, or null
    FlowList body;
};
struct EpochBlock : FlowPart {
    ITC_AST_NODE(FlowPart, FlowKind, EpochBlock)
    FlowList body;
};
struct StageCall : FlowPart {
    ITC_AST_NODE(FlowPart, FlowKind, StageCall)
    Name stage;
    std::vector<CallArg> args;
};

// The flow nested in a flow part: the body of a Space block, a Repeat, a condition or an Epoch;
// nullptr for a stage call.
inline const FlowList* nestedFlow(const FlowPart& f) {
    if (auto s = f.as<SpaceBlock>())
        return &s->body;
    if (auto r = f.as<RepeatFor>())
        return &r->body;
    if (auto w = f.as<RepeatWhile>())
        return &w->body;
    if (auto fe = f.as<RepeatForeach>())
        return &fe->body;
    if (auto c = f.as<Condition>())
        return &c->body;
    if (auto e = f.as<EpochBlock>())
        return &e->body;
    return nullptr;
}

// ---------------------------------------------------------------------------------------------
// The Partition section
// ---------------------------------------------------------------------------------------------

// A partition-function argument: a Partition parameter name or an integer literal.
struct PartitionArg {
    std::optional<Name> param;
    std::int64_t literal = 0;
    SourceRange range;
};

enum class PartitionFunction { BlockSize, BlockCount, Stride, BlockStride };

struct PartitionInstruction {
    bool replicated = false; // `replicated` instead of a function
    PartitionFunction function = PartitionFunction::BlockSize;
    SourceRange functionRange;
    std::vector<PartitionArg> args;
    std::optional<PartitionArg> paddingFront; // padding(p) sets both front and back
    std::optional<PartitionArg> paddingBack;
    SourceRange paddingRange;
    SourceRange range;
};

// `a<dim2>` in a data configuration.
struct VarSelector {
    Name variable;
    std::vector<int> dimensions; // 1-based `dimN` selectors, in order; empty when none
    SourceRange range;
};

// `a<dim2>, b<dim1>: block_size(q)` — instructions as written (shorthand not yet expanded).
struct DataConfig {
    std::vector<VarSelector> variables;
    std::vector<PartitionInstruction> instructions;
    SourceRange range;
};

enum class SubpartitionOrder { Increasing, Decreasing, Unordered, Ordered };

struct SubpartitionConfig {
    int dimensionality = 0;
    SubpartitionOrder order = SubpartitionOrder::Unordered;
    std::vector<DataConfig> configs;
    SourceRange range;
};

struct SpaceConfig {
    Name space; // one letter
    bool unpartitioned = false;
    int dimensionality = 0; // 0 for un-partitioned spaces
    bool isDynamic = false;
    std::optional<Name> parent;        // `divides Space Y ...`
    bool dividesSubpartitions = false; // `... sub-partitions` rather than `... partitions`
    std::vector<DataConfig> configs;   // partitioned spaces
    std::vector<Name> bareNames;       // un-partitioned spaces: `{ a, b }`
    std::optional<SubpartitionConfig> subpartition;
    SourceRange range;
};

struct PartitionSection {
    std::vector<Name> params;
    std::vector<SpaceConfig> spaces;
    SourceRange range;
};

// ---------------------------------------------------------------------------------------------
// Program components
// ---------------------------------------------------------------------------------------------

enum class LinkMode { Link, Create, LinkOrCreate };

struct Linkage {
    std::vector<Name> names;
    LinkMode mode = LinkMode::Link;
    SourceRange range;
};

struct InitializeSection {
    std::vector<Name> params;
    Block body;
    SourceRange range;
};

struct StageDef {
    Name name;
    std::vector<Name> params;
    Block body;
    SourceRange range;
};

struct TaskDef {
    Name name; // the string between the quotes; range covers the literal
    std::vector<VarDecl> define;
    std::vector<Linkage> environment;
    std::optional<InitializeSection> initialize;
    std::vector<StageDef> stages;
    FlowList computation;
    PartitionSection partition;
    SourceRange defineRange, environmentRange, stagesRange, computationRange;
    SourceRange range;
    // The stage named `name`, or null.
    const StageDef* findStage(const std::string& stageName) const {
        for (const StageDef& s : stages)
            if (s.name.text == stageName)
                return &s;
        return nullptr;
    }
};

struct FunctionParam {
    Name name;
    bool byReference = false; // `&name`
};

struct FunctionDef {
    enum class Form { Paper, Brace } form = Form::Brace;
    Name name;
    // Paper form: typed arguments and result definitions.
    std::vector<VarDecl> arguments;
    std::vector<VarDecl> results;
    // Brace form: untyped parameters.
    std::vector<FunctionParam> params;
    Block body;
    SourceRange range;
};

struct ClassDef {
    Name name;
    bool braceForm = false;
    std::vector<VarDecl> fields;
    SourceRange range;
};

struct Coordinator {
    Name argsName;
    Block body;
    SourceRange range;
};

struct Program {
    FileId file = kNoFile;
    std::vector<ClassDef> classes;
    std::vector<FunctionDef> functions;
    std::vector<TaskDef> tasks;
    // Every `Program (args) { }` in source order; exactly one is required (checked in
    // semantic/), but all are kept so that a duplicate can be reported where it is.
    std::vector<Coordinator> coordinators;
};

#undef ITC_AST_NODE

} // namespace itc::ast
