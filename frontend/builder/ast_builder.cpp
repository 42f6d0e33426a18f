// Parse tree -> AST (see ast_builder.h). Each build function sits below the grammar rule it
// builds, quoted from grammar/IT.g4.
#include "frontend/builder/ast_builder.h"
#include "frontend/diagnostics/did_you_mean.h"

#include "ITLexer.h"

#include <fmt/format.h>

#include <charconv>
#include <limits>
#include <cstring>
#include <cstdlib>
#include <map>

namespace itc::frontend {

using namespace itc::ast;
using antlr4::ParserRuleContext;
using antlr4::Token;
using antlr4::tree::TerminalNode;
using P = itc::antlr::ITParser;
using L = itc::antlr::ITLexer;

namespace {

enum class NameClass { Variable, Class, Space };

class Builder {
public:
    Builder(FileId file, const std::string& text, DiagnosticEngine& diags) : file_(file), text_(text), diags_(diags) {}

    std::unique_ptr<Program> build(P::ProgramContext* tree);

private:
    // -- locations ------------------------------------------------------------------------------
    SourceRange range(const Token* t) const {
        SourceLocation b{file_, static_cast<std::uint32_t>(t->getLine()),
                         static_cast<std::uint32_t>(t->getCharPositionInLine() + 1)};
        SourceLocation e = b;
        std::size_t start = t->getStartIndex(), stop = t->getStopIndex();
        if (stop != static_cast<std::size_t>(-1) && stop >= start && stop < text_.size())
            for (std::size_t i = start; i < stop; ++i) {
                if (text_[i] == '\n') {
                    ++e.line;
                    e.column = 1;
                } else {
                    ++e.column;
                }
            }
        return {b, e};
    }
    SourceRange range(TerminalNode* n) const { return range(n->getSymbol()); }
    SourceRange range(ParserRuleContext* c) const {
        SourceRange r = range(c->getStart());
        const Token* stop = c->getStop();
        if (stop && stop->getTokenIndex() >= c->getStart()->getTokenIndex() && stop->getType() != Token::EOF)
            r.end = range(stop).end;
        return r;
    }
    std::string spelling(const Token* t) const {
        std::size_t a = t->getStartIndex(), b = t->getStopIndex();
        if (b == static_cast<std::size_t>(-1) || b < a || b >= text_.size())
            return {};
        return text_.substr(a, b - a + 1);
    }

    template <typename... Args>
    void error(DiagKind kind, SourceRange where, fmt::format_string<Args...> f, Args&&... args) {
        diags_.error(kind, where, f, std::forward<Args>(args)...);
    }

    // -- names ----------------------------------------------------------------------------------
    // anyName : VAR_NAME | TYPE_NAME | SPACE_ID ;
    Name name(P::AnyNameContext* c, NameClass want, std::string_view what);
    std::vector<Name> names(P::NameListContext* c, NameClass want, std::string_view what) {
        std::vector<Name> out;
        if (c)
            for (auto* n : c->anyName())
                out.push_back(name(n, want, what));
        return out;
    }

    // -- types ----------------------------------------------------------------------------------
    int dimensionality(P::DimensionalityContext* c);
    TypeExpr type(P::TypeSpecContext* c);
    TypeExpr staticType(P::StaticTypeContext* c);
    TypeExpr scalarType(P::ScalarTypeContext* c);
    VarDecl definition(P::DefinitionContext* c, std::string_view what);
    std::int64_t integer(const Token* t);

    // -- components -----------------------------------------------------------------------------
    ClassDef classDef(P::ClassDefContext* c);
    FunctionDef functionDef(P::FunctionDefContext* c);
    Coordinator coordinator(P::CoordinatorContext* c);
    TaskDef taskDef(P::TaskDefContext* c);
    StageDef stageDef(P::StageDefContext* c);
    Linkage linkage(P::LinkageContext* c);

    // -- code -----------------------------------------------------------------------------------
    Block block(P::BlockContext* c);
    Block code(P::CodeContext* c, SourceRange fallback);
    StmtPtr stmt(P::StmtContext* c);
    StmtPtr doStmt(P::DoStmtContext* c);
    StmtPtr ifStmt(P::IfStmtContext* c);
    StmtPtr externBlock(P::ExternBlockContext* c);
    std::vector<Name> externWords(P::ExternWordsContext* c);

    // -- expressions ----------------------------------------------------------------------------
    ExprPtr expr(ParserRuleContext* c);
    ExprPtr binaryLevel(ParserRuleContext* c);
    ExprPtr assign(P::AssignExprContext* c);
    ExprPtr unary(P::UnaryExprContext* c);
    ExprPtr power(P::PowExprContext* c);
    ExprPtr epoch(P::EpochExprContext* c);
    ExprPtr postfix(P::PostfixExprContext* c);
    ExprPtr primary(P::PrimaryContext* c);
    ExprPtr reduceExpr(P::ReduceCallContext* c);
    ExprPtr executeExpr(P::ExecuteCallContext* c);
    ExprPtr newExpr(P::NewExprContext* c);
    std::vector<CallArg> callArgs(P::CallArgsContext* c);
    SubscriptItem subscriptItem(P::SubscriptContext* c);
    bool reduceOperator(Expr* e, ReduceOperator& op);
    P::PrimaryContext* soleprimary(ParserRuleContext* c);

    // -- flow and partition ---------------------------------------------------------------------
    FlowPtr flowPart(P::FlowPartContext* c);
    FlowList flowList(const std::vector<P::FlowPartContext*>& parts);
    PartitionSection partitionSection(P::PartitionSectionContext* c);
    SpaceConfig spaceConfig(P::SpaceConfigContext* c);
    DataConfig dataConfig(P::DataConfigContext* c);
    PartitionInstruction instruction(P::InstructionContext* c);
    std::optional<PartitionArg> partitionArg(P::ExprContext* c);
    SubpartitionConfig subpartition(P::SubpartitionConfigContext* c);

    FileId file_;
    const std::string& text_;
    DiagnosticEngine& diags_;
    std::optional<std::string> coordinatorArgs_; // the coordinator's parameter, while its body is built
};

template <typename T, typename C> T* is(C* c) { return dynamic_cast<T*>(c); }

// =============================================================================================
// Names
// =============================================================================================

Name Builder::name(P::AnyNameContext* c, NameClass want, std::string_view what) {
    Name n{c->getText(), range(c)};
    std::size_t type = c->getStart()->getType();
    switch (want) {
    case NameClass::Variable:
        if (type != L::VAR_NAME)
            error(DiagKind::WrongIdentifierCase, n.range,
                  "{} `{}` must start with a lower-case letter; upper-case names are classes "
                  "(two or more letters) and spaces (one letter)",
                  what, n.text);
        break;
    case NameClass::Class:
        if (type == L::SPACE_ID)
            error(DiagKind::ClassNameTooShort, n.range,
                  "class name `{}` is a single letter, which names a space; class names have at "
                  "least two characters",
                  n.text);
        else if (type != L::TYPE_NAME)
            error(DiagKind::WrongIdentifierCase, n.range, "class name `{}` must start with an upper-case letter",
                  n.text);
        break;
    case NameClass::Space:
        if (type != L::SPACE_ID)
            error(DiagKind::WrongIdentifierCase, n.range,
                  "space name `{}` must be a single upper-case letter, like `A`", n.text);
        break;
    }
    return n;
}

// =============================================================================================
// Types
// =============================================================================================

std::int64_t Builder::integer(const Token* t) {
    std::string s = t->getText();
    std::int64_t v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size()) {
        error(DiagKind::IntegerOutOfRange, range(t),
              "integer literal `{}` is too large; the largest is 9223372036854775807", s);
        return 0;
    }
    return v;
}

// dimensionality : DIMENSIONALITY | TYPE_NAME ;
int Builder::dimensionality(P::DimensionalityContext* c) {
    std::string s = c->getText();
    if (c->getStart()->getType() == L::TYPE_NAME) {
        if (s == "Id")
            return 1; // the OCR spelling of 1d
        error(DiagKind::BadDimensionality, range(c), "expected a dimensionality like `1d` or `2D`, found `{}`", s);
        return 0;
    }
    std::string digits = s.substr(0, s.size() - 1);
    int v = 0;
    auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
    if (digits[0] == '0' || ec != std::errc() || v > 64) {
        error(DiagKind::BadDimensionality, range(c),
              "dimensionality `{}` is not allowed: write a number from 1 to 64 without leading "
              "zeros, followed by `d`",
              s);
        return 0;
    }
    return v;
}

// scalarType : 'Integer' | 'Real' precision? | 'Character' | 'Boolean' | 'String' | 'Range' | TYPE_NAME ;
TypeExpr Builder::scalarType(P::ScalarTypeContext* c) {
    TypeExpr t;
    t.range = range(c);
    switch (c->getStart()->getType()) {
    case L::K_INTEGER: t.kind = TypeKind::Integer; break;
    case L::K_CHARACTER: t.kind = TypeKind::Character; break;
    case L::K_BOOLEAN: t.kind = TypeKind::Boolean; break;
    case L::K_STRING: t.kind = TypeKind::String; break;
    case L::K_RANGE: t.kind = TypeKind::Range; break;
    case L::K_REAL:
        if (c->K_SINGLE()) {
            t.kind = TypeKind::RealSingle;
        } else if (c->K_DOUBLE()) {
            t.kind = TypeKind::RealDouble;
        } else {
            t.kind = TypeKind::RealDouble;
            error(DiagKind::MissingRealPrecision, range(c),
                  "`Real` needs a precision: write `Real single-precision` or `Real "
                  "double-precision`");
        }
        break;
    default: t.kind = TypeKind::Class; t.className = c->getText();
    }
    return t;
}

// staticType : 'Array' dimLen+ 'of' scalarType | scalarType dimLen* ;
TypeExpr Builder::staticType(P::StaticTypeContext* c) {
    std::vector<P::DimLenContext*> lens;
    P::ScalarTypeContext* scalar = nullptr;
    if (auto* a = is<P::ArrayOfTypeContext>(c)) {
        lens = a->dimLen();
        scalar = a->scalarType();
    } else if (auto* s = is<P::ScalarOrSuffixArrayContext>(c)) {
        lens = s->dimLen();
        scalar = s->scalarType();
    }
    TypeExpr element = scalarType(scalar);
    if (lens.empty())
        return element;
    TypeExpr t;
    t.kind = TypeKind::StaticArray;
    t.range = range(c);
    for (auto* len : lens) {
        const Token* tok = len->INTEGER()->getSymbol();
        std::int64_t n = integer(tok);
        // Elements are indexed by Integers (32 bits): 0 to length - 1.
        if (n < 1 || n > std::numeric_limits<std::int32_t>::max()) {
            if (n != 0 || tok->getText().find_first_not_of('0') == std::string::npos)
                error(DiagKind::IntegerOutOfRange, range(tok),
                      "the length of a fixed-size array must be 1 to 2147483647 (its elements are indexed "
                      "by Integers), found {}",
                      tok->getText());
            n = 1;
        }
        t.lengths.push_back(n);
    }
    t.element = std::make_unique<TypeExpr>(std::move(element));
    return t;
}

static TypeExpr wrap(TypeKind kind, SourceRange r, TypeExpr element, int dims = 0) {
    TypeExpr t;
    t.kind = kind;
    t.range = r;
    t.dimensionality = dims;
    t.element = std::make_unique<TypeExpr>(std::move(element));
    return t;
}

// typeSpec : dimensionality 'Array' 'of' (staticType | 'List' 'of' staticType)
//          | 'List' 'of' (staticType | dimensionality 'Array' 'of' staticType) | staticType ;
TypeExpr Builder::type(P::TypeSpecContext* c) {
    if (auto* d = is<P::DynArrayTypeContext>(c)) {
        TypeExpr element = staticType(d->staticType());
        if (d->K_LIST())
            element = wrap(TypeKind::List, range(d->staticType()), std::move(element));
        return wrap(TypeKind::DynamicArray, range(c), std::move(element), dimensionality(d->dimensionality()));
    }
    if (auto* l = is<P::ListTypeContext>(c)) {
        TypeExpr element = staticType(l->staticType());
        if (l->dimensionality())
            element = wrap(TypeKind::DynamicArray, range(l->dimensionality()), std::move(element),
                           dimensionality(l->dimensionality()));
        return wrap(TypeKind::List, range(c), std::move(element));
    }
    return staticType(is<P::PlainTypeContext>(c)->staticType());
}

// definition : nameList ':' typeSpec 'Reduction'? ;
VarDecl Builder::definition(P::DefinitionContext* c, std::string_view what) {
    VarDecl d;
    d.names = names(c->nameList(), NameClass::Variable, what);
    d.type = type(c->typeSpec());
    d.isReduction = c->K_REDUCTION() != nullptr;
    d.range = range(c);
    return d;
}

// =============================================================================================
// Components
// =============================================================================================

// program : component* EOF ;
std::unique_ptr<Program> Builder::build(P::ProgramContext* tree) {
    auto program = std::make_unique<Program>();
    program->file = file_;
    for (auto* comp : tree->component()) {
        if (auto* c = comp->classDef())
            program->classes.push_back(classDef(c));
        else if (auto* f = comp->functionDef())
            program->functions.push_back(functionDef(f));
        else if (auto* t = comp->taskDef())
            program->tasks.push_back(taskDef(t));
        else if (auto* p = comp->coordinator())
            program->coordinators.push_back(coordinator(p));
    }
    return program;
}

// classDef : 'Class' anyName ( ':' definition* | '{' definition* '}' ) ;
ClassDef Builder::classDef(P::ClassDefContext* c) {
    ClassDef d;
    d.name = name(c->anyName(), NameClass::Class, "class name");
    d.braceForm = c->LBRACE() != nullptr;
    d.range = range(c);
    for (auto* def : c->definition())
        d.fields.push_back(definition(def, "field name"));
    if (d.fields.empty())
        error(DiagKind::EmptySection, d.name.range, "class `{}` has no fields; declare at least one, like `x: Integer`",
              d.name.text);
    return d;
}

// functionDef : 'Function' anyName functionRest ;
// functionRest : '(' params ')' block | ':' functionSection* ;
FunctionDef Builder::functionDef(P::FunctionDefContext* c) {
    FunctionDef f;
    f.range = range(c);
    f.name = name(c->anyName(), NameClass::Variable, "function name");
    if (auto* b = is<P::BraceFunctionContext>(c->functionRest())) {
        f.form = FunctionDef::Form::Brace;
        for (auto* p : b->functionParam())
            f.params.push_back({name(p->anyName(), NameClass::Variable, "parameter"), p->AMP() != nullptr});
        f.body = block(b->block());
        return f;
    }
    auto* p = is<P::PaperFunctionContext>(c->functionRest());
    f.form = FunctionDef::Form::Paper;
    // Arguments (optional), Results, Compute — in this order, each once.
    static const char* kNames[] = {"Arguments", "Results", "Compute"};
    int last = -1;
    bool seen[3] = {false, false, false};
    for (auto* s : p->functionSection()) {
        int rank = is<P::ArgumentsSectionContext>(s) ? 0 : is<P::ResultsSectionContext>(s) ? 1 : 2;
        SourceRange where = range(s->getStart());
        if (seen[rank]) {
            error(DiagKind::DuplicateSection, where, "function `{}` has a second `{}` section; merge the two",
                  f.name.text, kNames[rank]);
        } else if (rank < last) {
            error(DiagKind::SectionOutOfOrder, where,
                  "the `{}` section of function `{}` must come before its `{}` section", kNames[rank], f.name.text,
                  kNames[last]);
        }
        seen[rank] = true;
        last = std::max(last, rank);
        if (auto* a = is<P::ArgumentsSectionContext>(s)) {
            for (auto* d : a->definition())
                f.arguments.push_back(definition(d, "argument name"));
            if (a->definition().empty())
                error(DiagKind::EmptySection, where,
                      "the `Arguments` section of function `{}` is empty; declare the arguments "
                      "or remove the section",
                      f.name.text);
        } else if (auto* r = is<P::ResultsSectionContext>(s)) {
            for (auto* d : r->definition())
                f.results.push_back(definition(d, "result name"));
            if (r->definition().empty())
                error(DiagKind::EmptySection, where,
                      "the `Results` section of function `{}` is empty; declare its result, like "
                      "`y: Integer`",
                      f.name.text);
        } else if (auto* k = is<P::ComputeSectionContext>(s)) {
            f.body = code(k->code(), where);
        }
    }
    for (int rank : {1, 2})
        if (!seen[rank])
            error(DiagKind::MissingSection, f.name.range,
                  "function `{}` has no `{}:` section; the paper form needs `Results:` and "
                  "`Compute:`",
                  f.name.text, kNames[rank]);
    return f;
}

// coordinator : 'Program' '(' anyName ')' block ;
Coordinator Builder::coordinator(P::CoordinatorContext* c) {
    Coordinator p;
    p.argsName = name(c->anyName(), NameClass::Variable, "the coordinator's parameter");
    coordinatorArgs_ = p.argsName.text;
    p.body = block(c->block());
    coordinatorArgs_.reset();
    p.range = range(c);
    return p;
}

// taskDef : 'Task' STRING ':' taskSection* ;
TaskDef Builder::taskDef(P::TaskDefContext* c) {
    TaskDef t;
    t.range = range(c);
    std::string quoted = c->STRING()->getText();
    t.name = {quoted.substr(1, quoted.size() - 2), range(c->STRING())};
    static const char* kNames[] = {"Define", "Environment", "Initialize", "Stages", "Computation", "Partition"};
    bool seen[6] = {};
    bool repeated = false; // one report: the sections after a lost `Task` header all repeat
    int last = -1;
    for (auto* s : c->taskSection()) {
        int rank = is<P::DefineSectionContext>(s)        ? 0
                   : is<P::EnvironmentSectionContext>(s) ? 1
                   : is<P::InitializeSectionContext>(s)  ? 2
                   : is<P::StagesSectionContext>(s)      ? 3
                   : is<P::ComputationSectionContext>(s) ? 4
                                                         : 5;
        SourceRange where = range(s->getStart());
        SourceRange whole = range(s);
        if (seen[rank]) {
            if (!repeated)
                error(DiagKind::DuplicateSection, where,
                      "task \"{}\" has a second `{}` section; merge the two, or, if a second task starts here, "
                      "give it its `Task \"Name\":` header",
                      t.name.text, kNames[rank]);
            repeated = true;
        } else if (rank < last) {
            error(DiagKind::SectionOutOfOrder, where,
                  "the `{}` section of task \"{}\" must come before its `{}` section (the order "
                  "is Define, Environment, Initialize, Stages, Computation, Partition)",
                  kNames[rank], t.name.text, kNames[last]);
        }
        seen[rank] = true;
        last = std::max(last, rank);
        auto empty = [&](bool isEmpty, std::string_view example) {
            if (isEmpty)
                error(DiagKind::EmptySection, where,
                      "the `{}` section of task \"{}\" is empty; it needs at least one entry, "
                      "like `{}`",
                      kNames[rank], t.name.text, example);
        };
        if (auto* d = is<P::DefineSectionContext>(s)) {
            for (auto* def : d->definition())
                t.define.push_back(definition(def, "task-global"));
            t.defineRange = whole;
            empty(d->definition().empty(), "a: 1d Array of Integer");
        } else if (auto* e = is<P::EnvironmentSectionContext>(s)) {
            for (auto* l : e->linkage())
                t.environment.push_back(linkage(l));
            t.environmentRange = whole;
            empty(e->linkage().empty(), "a: link");
        } else if (auto* i = is<P::InitializeSectionContext>(s)) {
            InitializeSection init;
            init.params = names(i->nameList(), NameClass::Variable, "Initialize parameter");
            init.body = code(i->code(), where);
            init.range = whole;
            t.initialize = std::move(init);
        } else if (auto* st = is<P::StagesSectionContext>(s)) {
            for (auto* sd : st->stageDef())
                t.stages.push_back(stageDef(sd));
            t.stagesRange = whole;
            empty(st->stageDef().empty(), "update(a) { ... }");
        } else if (auto* cs = is<P::ComputationSectionContext>(s)) {
            t.computation = flowList(cs->flowPart());
            t.computationRange = whole;
            empty(cs->flowPart().empty(), "Space A { update(a) }");
        } else if (auto* ps = is<P::PartitionSectionContext>(s)) {
            t.partition = partitionSection(ps);
            empty(ps->spaceConfig().empty(), "Space A <1d> { a: block_size(n) }");
        }
    }
    for (int rank : {0, 1, 3, 4, 5})
        if (!seen[rank]) {
            error(DiagKind::MissingSection, t.name.range,
                  "task \"{}\" has no `{}` section; every task needs Define, Environment, Stages, "
                  "Computation and Partition (Initialize is optional)",
                  t.name.text, kNames[rank]);
            break; // one message: the first missing section
        }
    return t;
}

// linkage : nameList ':' linkMode ;
Linkage Builder::linkage(P::LinkageContext* c) {
    Linkage l;
    l.names = names(c->nameList(), NameClass::Variable, "environment item");
    l.range = range(c);
    auto* m = c->linkMode();
    switch (m->getStart()->getType()) {
    case L::K_LINK: l.mode = LinkMode::Link; break;
    case L::K_CREATE: l.mode = LinkMode::Create; break;
    case L::K_LINK_OR_CREATE: l.mode = LinkMode::LinkOrCreate; break;
    default:
        if (m->getText() == "link_or_create") { // Appendix A spelling
            l.mode = LinkMode::LinkOrCreate;
        } else {
            std::string hint = didYouMean(m->getText(), {"link", "create", "link-or-create"});
            error(DiagKind::UnknownLinkMode, range(m), "unknown environment mode `{}`{}", m->getText(),
                  hint.empty() ? "; use `link`, `create` or `link-or-create`" : hint);
        }
    }
    return l;
}

// stageDef : anyName '(' nameList? ')' block ;
StageDef Builder::stageDef(P::StageDefContext* c) {
    StageDef s;
    s.name = name(c->anyName(), NameClass::Variable, "stage name");
    s.params = names(c->nameList(), NameClass::Variable, "stage parameter");
    s.body = block(c->block());
    s.range = range(c);
    if (s.params.empty())
        error(DiagKind::StageWithoutParameters, s.name.range,
              "stage `{}` has no parameters; a stage receives the data it works on, like `{}(a)`", s.name.text,
              s.name.text);
    return s;
}

// =============================================================================================
// Code bodies and statements
// =============================================================================================

// block : '{' code '}' ;
Block Builder::block(P::BlockContext* c) {
    Block b = code(c->code(), range(c));
    b.range = range(c);
    return b;
}

// code : ( stmt ( NL stmt )* )? ;
Block Builder::code(P::CodeContext* c, SourceRange fallback) {
    Block b;
    b.range = c->stmt().empty() ? fallback : range(c);
    for (auto* s : c->stmt())
        if (StmtPtr st = stmt(s))
            b.stmts.push_back(std::move(st));
    return b;
}

// The primary of an expression that is nothing but that primary (no operator or suffix).
P::PrimaryContext* Builder::soleprimary(ParserRuleContext* c) {
    while (c) {
        if (auto* p = is<P::PrimaryContext>(c))
            return p;
        if (c->children.size() != 1)
            return nullptr;
        c = dynamic_cast<ParserRuleContext*>(c->children[0]);
    }
    return nullptr;
}

// stmt : doStmt | ifStmt | returnStmt | externBlock | expr ;
StmtPtr Builder::stmt(P::StmtContext* c) {
    if (auto* d = c->doStmt())
        return doStmt(d);
    if (auto* i = c->ifStmt())
        return ifStmt(i);
    if (auto* e = c->externBlock())
        return externBlock(e);
    if (auto* r = c->returnStmt()) {
        auto s = std::make_unique<Return>();
        s->value = expr(r->expr());
        s->range = range(c);
        return s;
    }
    // reduce(target, "op", e): the statement form [Ext]
    if (auto* red = is<P::ReduceCallContext>(soleprimary(c->expr()))) {
        auto* args = red->callArgs();
        if (args && args->callArg().size() == 3) {
            auto s = std::make_unique<ReduceStmt>();
            s->range = range(c);
            std::vector<CallArg> built = callArgs(args);
            bool ok = true;
            for (CallArg& a : built)
                ok = ok && !a.isSpaceArg();
            if (!ok) {
                error(DiagKind::BadReduceCall, range(red),
                      "`reduce` takes no `Space X:` argument; pass `Space X: v` to the stage "
                      "and reduce into its parameter");
                return s;
            }
            if (auto* target = built[0].value->as<NameRef>()) {
                s->target = {target->name, target->range};
            } else {
                error(DiagKind::BadReduceCall, built[0].range,
                      "the target of `reduce(target, op, e)` must be a plain name (a local or a "
                      "stage parameter)");
            }
            if (!reduceOperator(built[1].value.get(), s->op))
                error(DiagKind::BadReduceCall, built[1].range,
                      "the operator of `reduce` must be a string like \"sum\" or a stage "
                      "parameter bound to one");
            s->operand = std::move(built[2].value);
            return s;
        }
    }
    auto s = std::make_unique<ExprStmt>();
    s->expr = expr(c->expr());
    s->range = range(c);
    return s;
}

// doStmt : 'do' ('in' 'sequence')? block doTail ;
// doTail : 'for' indexGroup (';' indexGroup)* ('step' bitOrExpr ('and' expr)?)? | 'while' expr ;
StmtPtr Builder::doStmt(P::DoStmtContext* c) {
    bool inSequence = c->K_IN() != nullptr;
    Block body = block(c->block());
    if (auto* w = is<P::WhileTailContext>(c->doTail())) {
        auto s = std::make_unique<While>();
        s->body = std::move(body);
        s->condition = expr(w->expr());
        s->inSequence = inSequence;
        s->range = range(c);
        return s;
    }
    auto* f = is<P::ForTailContext>(c->doTail());
    auto groups = f->indexGroup();
    if (inSequence) {
        auto s = std::make_unique<SequentialFor>();
        s->body = std::move(body);
        s->range = range(c);
        auto* g = groups[0];
        auto indices = g->nameList()->anyName();
        if (groups.size() != 1 || indices.size() != 1) {
            error(DiagKind::BadLoopHeader, range(f),
                  "a `do in sequence` loop has exactly one index, like `for i in r`; several "
                  "indices or `;` groups belong to parallel `do {{ }} for` loops");
        }
        s->index = name(indices[0], NameClass::Variable, "loop index");
        s->rangeExpr = expr(g->bitOrExpr());
        if (f->bitOrExpr())
            s->step = expr(f->bitOrExpr());
        if (g->expr() && f->expr()) {
            error(DiagKind::BadLoopHeader, range(f->expr()),
                  "this loop has two `and` restrictions; write one, after `step`");
        }
        if (g->expr())
            s->restriction = expr(g->expr());
        else if (f->expr())
            s->restriction = expr(f->expr());
        return s;
    }
    auto s = std::make_unique<ParallelLoop>();
    s->body = std::move(body);
    s->range = range(c);
    if (f->K_STEP())
        error(DiagKind::BadLoopHeader, range(f->K_STEP()),
              "a parallel `do {{ }} for` loop has no `step`; use `do in sequence {{ }} for ... "
              "step ...` for a stepped loop");
    for (auto* g : groups) {
        IndexGroup ig;
        ig.range = range(g);
        ig.indices = names(g->nameList(), NameClass::Variable, "loop index");
        ExprPtr collection = expr(g->bitOrExpr());
        if (auto* n = collection->as<NameRef>()) {
            ig.collection = {n->name, n->range};
        } else if (auto* p = collection->as<Property>();
                   p && p->property == PropertyKind::Dimension && p->dimensionIndex > 0 && p->base->as<NameRef>()) {
            ig.collection = {p->base->as<NameRef>()->name, p->base->range};
            ig.dimensionIndex = p->dimensionIndex;
        } else {
            error(DiagKind::BadLoopHeader, collection->range,
                  "a parallel loop iterates over an array, written `a` or `a.dimensionK`; to "
                  "loop over a range use `do in sequence {{ }} for i in r`");
        }
        if (g->expr())
            ig.restriction = expr(g->expr());
        s->groups.push_back(std::move(ig));
    }
    return s;
}

// ifStmt : 'if' '(' expr ')' block ( 'else' 'if' '(' expr ')' block )* ( 'else' block )? ;
StmtPtr Builder::ifStmt(P::IfStmtContext* c) {
    auto s = std::make_unique<If>();
    s->range = range(c);
    auto conds = c->expr();
    auto blocks = c->block();
    for (std::size_t i = 0; i < conds.size(); ++i) {
        IfBranch b;
        b.condition = expr(conds[i]);
        b.body = block(blocks[i]);
        b.range = range(conds[i]);
        b.range.end = b.body.range.end;
        s->branches.push_back(std::move(b));
    }
    if (blocks.size() > conds.size())
        s->elseBody = block(blocks.back());
    return s;
}

// externBlock : '@Extern' '{' '@Language' STRING externWords? externWords? NATIVE_CODE '}' ;
StmtPtr Builder::externBlock(P::ExternBlockContext* c) {
    auto s = std::make_unique<Extern>();
    s->range = range(c);
    std::string lang = c->STRING()->getText();
    s->language = lang.substr(1, lang.size() - 2);
    bool haveIncludes = false, haveLibraries = false;
    for (auto* w : c->externWords()) {
        std::size_t t = w->getStart()->getType();
        bool includes = t == L::INCLUDES || t == L::K_INCLUDES;
        if (includes && (haveIncludes || haveLibraries)) {
            error(DiagKind::BadExternBlock, range(w), "{}",
                  haveIncludes ? "`@Includes` appears twice in this `@Extern` block; list every "
                                 "header in one `@Includes { }`"
                               : "`@Includes` must come before `@Libraries`");
        } else if (!includes && haveLibraries) {
            error(DiagKind::BadExternBlock, range(w),
                  "`@Libraries` appears twice in this `@Extern` block; list every library in "
                  "one `@Libraries {{ }}`");
        }
        (includes ? haveIncludes : haveLibraries) = true;
        (includes ? s->includes : s->libraries) = externWords(w);
    }
    const Token* native = c->NATIVE_CODE()->getSymbol();
    std::string code = spelling(native);
    s->code = code.size() >= 4 ? code.substr(2, code.size() - 4) : std::string();
    s->codeRange = range(native);
    return s;
}

// externWords : INCLUDES | LIBRARIES | K_INCLUDES | K_LIBRARIES ;  (INCLUDES = `@Includes { a, b }`)
std::vector<Name> Builder::externWords(P::ExternWordsContext* c) {
    const Token* t = c->getStart();
    std::vector<Name> words;
    if (t->getType() == L::K_INCLUDES || t->getType() == L::K_LIBRARIES) {
        error(DiagKind::BadExternBlock, range(t), "`{}` must be followed by a braced list, like `{} {{ cmath }}`",
              t->getText(), t->getText());
        return words;
    }
    std::string text = spelling(t);
    SourceLocation loc = range(t).begin;
    std::size_t i = 0;
    bool inside = false;
    while (i < text.size()) {
        char ch = text[i];
        if (!inside) {
            inside = ch == '{';
        } else if (ch != ' ' && ch != '\t' && ch != '\r' && ch != '\n' && ch != ',' && ch != '}') {
            std::size_t j = i;
            SourceLocation begin = loc;
            while (j + 1 < text.size() && !std::strchr(" \t\r\n,}", text[j + 1])) {
                ++j;
                ++loc.column;
            }
            words.push_back({text.substr(i, j - i + 1), {begin, loc}});
            i = j;
        }
        if (text[i] == '\n') {
            ++loc.line;
            loc.column = 1;
        } else {
            ++loc.column;
        }
        ++i;
    }
    return words;
}

// =============================================================================================
// Expressions
// =============================================================================================

ExprPtr Builder::expr(ParserRuleContext* c) {
    if (auto* e = is<P::ExprContext>(c))
        return assign(e->assignExpr());
    if (auto* a = is<P::AssignExprContext>(c))
        return assign(a);
    if (auto* u = is<P::UnaryExprContext>(c))
        return unary(u);
    if (auto* p = is<P::PowExprContext>(c))
        return power(p);
    return binaryLevel(c);
}

// assignExpr : orExpr ( '=' assignExpr )? ;
ExprPtr Builder::assign(P::AssignExprContext* c) {
    ExprPtr lhs = binaryLevel(c->orExpr());
    if (!c->assignExpr())
        return lhs;
    auto a = std::make_unique<Assign>();
    a->range = range(c);
    switch (lhs->kind) {
    case ExprKind::NameRef:
    case ExprKind::FieldAccess:
    case ExprKind::Property:
    case ExprKind::Subscript:
    case ExprKind::Epoch: break;
    default:
        error(DiagKind::InvalidAssignmentTarget, lhs->range,
              "the left side of `=` must be a variable, field, array element or sub-range; did "
              "you mean `==`?");
    }
    a->target = std::move(lhs);
    a->value = assign(c->assignExpr());
    return a;
}

// orExpr .. mulExpr : operand ( op operand )* — left-associative binary levels.
ExprPtr Builder::binaryLevel(ParserRuleContext* c) {
    if (auto* u = is<P::UnaryExprContext>(c))
        return unary(u);
    if (auto* p = is<P::PowExprContext>(c))
        return power(p);
    static const std::map<std::size_t, BinaryOp> kOps = {
        {L::K_OR, BinaryOp::Or},         {L::OR_OR, BinaryOp::Or},      {L::K_AND, BinaryOp::And},
        {L::AND_AND, BinaryOp::And},     {L::PIPE, BinaryOp::BitOr},    {L::CARET, BinaryOp::BitXor},
        {L::AMP, BinaryOp::BitAnd},      {L::EQ, BinaryOp::Equal},      {L::NE, BinaryOp::NotEqual},
        {L::LT, BinaryOp::Less},         {L::GT, BinaryOp::Greater},    {L::LE, BinaryOp::LessEqual},
        {L::GE, BinaryOp::GreaterEqual}, {L::SHL, BinaryOp::ShiftLeft}, {L::SHR, BinaryOp::ShiftRight},
        {L::PLUS, BinaryOp::Add},        {L::MINUS, BinaryOp::Sub},     {L::STAR, BinaryOp::Mul},
        {L::SLASH, BinaryOp::Div},       {L::PERCENT, BinaryOp::Mod},
    };
    ExprPtr result;
    TerminalNode* pendingOp = nullptr;
    for (auto* child : c->children) {
        if (auto* t = dynamic_cast<TerminalNode*>(child)) {
            pendingOp = t;
            continue;
        }
        ExprPtr operand = binaryLevel(static_cast<ParserRuleContext*>(child));
        if (!result) {
            result = std::move(operand);
            continue;
        }
        auto b = std::make_unique<Binary>();
        b->op = kOps.at(pendingOp->getSymbol()->getType());
        b->opRange = range(pendingOp);
        b->range = {result->range.begin, operand->range.end};
        b->lhs = std::move(result);
        b->rhs = std::move(operand);
        result = std::move(b);
    }
    return result;
}

// powExpr : unaryExpr ( '**' powExpr )? ;
ExprPtr Builder::power(P::PowExprContext* c) {
    ExprPtr base = unary(c->unaryExpr());
    if (!c->powExpr())
        return base;
    auto b = std::make_unique<Binary>();
    b->op = BinaryOp::Power;
    b->opRange = range(c->POWER());
    b->range = range(c);
    b->lhs = std::move(base);
    b->rhs = power(c->powExpr());
    return b;
}

// unaryExpr : ( '-' | '!' ) unaryExpr | epochExpr ;
ExprPtr Builder::unary(P::UnaryExprContext* c) {
    if (c->epochExpr())
        return epoch(c->epochExpr());
    auto u = std::make_unique<Unary>();
    u->op = c->BANG() ? UnaryOp::Not : UnaryOp::Negate;
    u->range = range(c);
    u->operand = unary(c->unaryExpr());
    return u;
}

// epochExpr : postfixExpr ( 'at' '(' 'current' ( ( '-' | '+' ) unaryExpr )? ')' )? ;
ExprPtr Builder::epoch(P::EpochExprContext* c) {
    ExprPtr operand = postfix(c->postfixExpr());
    if (!c->K_AT())
        return operand;
    auto e = std::make_unique<Epoch>();
    e->range = range(c);
    e->operand = std::move(operand);
    if (c->unaryExpr()) {
        ExprPtr lag = unary(c->unaryExpr());
        auto* lit = lag->as<IntLiteral>();
        if (c->PLUS()) {
            error(DiagKind::BadEpochExpression, range(c->PLUS()),
                  "only earlier epochs can be named: write `at (current - N)`, not `+`");
        } else if (!lit) {
            error(DiagKind::BadEpochExpression, lag->range,
                  "the epoch lag must be an integer literal, like `at (current - 1)`");
        } else if (lit->value > kMaxEpochLag) {
            // Each lag keeps one more copy of the array; a huge one would exhaust memory.
            error(DiagKind::BadEpochExpression, lag->range,
                  "the epoch lag {} is too large: at most {} earlier versions can be named (each keeps a copy of "
                  "the array)",
                  lit->value, kMaxEpochLag);
        } else {
            e->lag = lit->value;
        }
    }
    return e;
}

// postfixExpr : primary postfixOp* ;   postfixOp : '.' anyName | '[' subscript ']' ;
ExprPtr Builder::postfix(P::PostfixExprContext* c) {
    ExprPtr base = primary(c->primary());
    bool lastWasSubscript = false;
    for (auto* op : c->postfixOp()) {
        SourceRange whole{base->range.begin, range(op).end};
        if (auto* s = is<P::SubscriptOpContext>(op)) {
            SubscriptItem item = subscriptItem(s->subscript());
            item.range = range(op);
            if (lastWasSubscript) {
                auto* sub = static_cast<Subscript*>(base.get());
                sub->items.push_back(std::move(item));
                sub->range = whole;
            } else {
                auto sub = std::make_unique<Subscript>();
                sub->range = whole;
                sub->base = std::move(base);
                sub->items.push_back(std::move(item));
                base = std::move(sub);
            }
            lastWasSubscript = true;
            continue;
        }
        lastWasSubscript = false;
        auto* m = is<P::MemberOpContext>(op);
        std::string field = m->memberName()->getText();
        SourceRange fieldRange = range(m->memberName());
        // Contextual property words after `.`: local, range, dimension, dimensionK.
        std::optional<PropertyKind> prop;
        int dim = 0;
        if (field == "local") {
            prop = PropertyKind::Local;
        } else if (field == "range") {
            prop = PropertyKind::Range;
        } else if (field.rfind("dimension", 0) == 0) {
            std::string digits = field.substr(9);
            if (digits.empty()) {
                prop = PropertyKind::Dimension;
            } else if (digits[0] != '0' && digits.find_first_not_of("0123456789") == std::string::npos &&
                       digits.size() < 4) {
                prop = PropertyKind::Dimension;
                dim = std::stoi(digits);
            }
        }
        // In the coordinator, `args.local`, `args.range`, `args.dimension`: command-line keys
        // (any lower-case name may be one), not properties of the arguments.
        auto* baseName = base ? base->as<NameRef>() : nullptr;
        if (prop && baseName && coordinatorArgs_ && baseName->name == *coordinatorArgs_)
            prop.reset();
        if (prop) {
            auto p = std::make_unique<Property>();
            p->range = whole;
            p->property = *prop;
            p->dimensionIndex = dim;
            p->propertyRange = fieldRange;
            p->base = std::move(base);
            base = std::move(p);
        } else {
            auto f = std::make_unique<FieldAccess>();
            f->range = whole;
            auto* word = m->memberName()->anyName();
            f->field = word ? name(word, NameClass::Variable, "field name") : Name{field, fieldRange};
            f->base = std::move(base);
            base = std::move(f);
        }
    }
    return base;
}

// subscript : expr '...' expr | '...' | expr ;
SubscriptItem Builder::subscriptItem(P::SubscriptContext* c) {
    SubscriptItem item;
    if (auto* s = is<P::SectionSubscriptContext>(c)) {
        item.kind = SubscriptItem::Kind::Section;
        item.first = expr(s->expr(0));
        item.last = expr(s->expr(1));
    } else if (is<P::WholeSubscriptContext>(c)) {
        item.kind = SubscriptItem::Kind::Whole;
    } else {
        item.kind = SubscriptItem::Kind::Index;
        item.index = expr(is<P::IndexSubscriptContext>(c)->expr());
    }
    return item;
}

bool Builder::reduceOperator(Expr* e, ReduceOperator& op) {
    if (!e)
        return false;
    op.range = e->range;
    if (auto* s = e->as<StringLiteral>()) {
        op.text = s->value;
        op.isLiteral = true;
        return true;
    }
    if (auto* n = e->as<NameRef>()) {
        op.text = n->name;
        op.isLiteral = false;
        return true;
    }
    return false;
}

// primary : INTEGER | REAL | CHAR_LIT | STRING | bool | 'lpuId' | 'partition' '.' anyName
//         | 'reduce' '(' callArgs? ')' | 'execute' '(' ... ')' | 'new' newTarget
//         | anyName '(' callArgs? ')' | anyName | '(' expr ')' | '[' expr '...' expr ']' ;
ExprPtr Builder::primary(P::PrimaryContext* c) {
    SourceRange r = range(c);
    auto done = [&](auto node) {
        node->range = r;
        return ExprPtr(std::move(node));
    };
    if (is<P::IntLitContext>(c)) {
        auto n = std::make_unique<IntLiteral>();
        n->value = integer(c->getStart());
        return done(std::move(n));
    }
    if (is<P::RealLitContext>(c)) {
        auto n = std::make_unique<RealLiteral>();
        n->spelling = c->getText();
        n->value = std::strtod(n->spelling.c_str(), nullptr);
        return done(std::move(n));
    }
    if (is<P::CharLitContext>(c)) {
        auto n = std::make_unique<CharLiteral>();
        std::string s = spelling(c->getStart());
        n->value = s.size() >= 3 ? s[1] : '\0';
        return done(std::move(n));
    }
    if (is<P::StringLitContext>(c)) {
        auto n = std::make_unique<StringLiteral>();
        std::string s = spelling(c->getStart());
        n->value = s.size() >= 2 ? s.substr(1, s.size() - 2) : std::string();
        return done(std::move(n));
    }
    if (is<P::BoolLitContext>(c)) {
        auto n = std::make_unique<BoolLiteral>();
        std::size_t t = c->getStart()->getType();
        n->value = t == L::K_TRUE_UC || t == L::K_TRUE;
        return done(std::move(n));
    }
    if (is<P::LpuIdExprContext>(c))
        return done(std::make_unique<LpuId>());
    if (auto* p = is<P::PartitionParamExprContext>(c)) {
        auto n = std::make_unique<PartitionParam>();
        n->param = name(p->anyName(), NameClass::Variable, "partition parameter");
        return done(std::move(n));
    }
    if (auto* red = is<P::ReduceCallContext>(c))
        return reduceExpr(red);
    if (auto* ex = is<P::ExecuteCallContext>(c))
        return executeExpr(ex);
    if (auto* ne = is<P::NewExprContext>(c))
        return newExpr(ne);
    if (auto* call = is<P::CallExprContext>(c)) {
        auto n = std::make_unique<Call>();
        n->callee = name(call->anyName(), NameClass::Variable, "function name");
        n->args = callArgs(call->callArgs());
        return done(std::move(n));
    }
    if (auto* ne = is<P::NameExprContext>(c)) {
        auto n = std::make_unique<NameRef>();
        n->name = name(ne->anyName(), NameClass::Variable, "variable").text;
        return done(std::move(n));
    }
    if (auto* pe = is<P::ParenExprContext>(c)) {
        ExprPtr inner = expr(pe->expr());
        inner->range = r; // the parentheses belong to the expression (for `(...) at (current)`)
        return inner;
    }
    auto* rl = is<P::RangeLitContext>(c);
    auto n = std::make_unique<RangeLiteral>();
    n->first = expr(rl->expr(0));
    n->last = expr(rl->expr(1));
    return done(std::move(n));
}

// 'reduce' '(' callArgs? ')' — the expression form takes (operator, operand).
ExprPtr Builder::reduceExpr(P::ReduceCallContext* c) {
    auto n = std::make_unique<ReduceExpr>();
    n->range = range(c);
    std::vector<CallArg> args = callArgs(c->callArgs());
    if (args.size() == 3) {
        error(DiagKind::BadReduceCall, n->range,
              "`reduce(target, op, e)` is a statement of its own; inside an expression write "
              "`reduce(op, e)`");
        return n;
    }
    if (args.size() != 2 || args[0].isSpaceArg() || args[1].isSpaceArg()) {
        error(DiagKind::BadReduceCall, n->range,
              "`reduce` takes an operator and an operand, like `reduce(\"sum\", a[i])`, or a "
              "target first as a statement, like `reduce(total, \"sum\", a[i])`");
        return n;
    }
    if (!reduceOperator(args[0].value.get(), n->op))
        error(DiagKind::BadReduceCall, args[0].range,
              "the operator of `reduce` must be a string like \"sum\" or a stage parameter "
              "bound to one");
    n->operand = std::move(args[1].value);
    return n;
}

// 'execute' '(' executeArg ( ';' executeArg )* ')' ; executeArg : (anyName | 'partition') ':' expr (',' expr)* ;
ExprPtr Builder::executeExpr(P::ExecuteCallContext* c) {
    auto n = std::make_unique<Execute>();
    n->range = range(c);
    for (auto* a : c->executeArg()) {
        ExecuteArg arg;
        arg.range = range(a);
        arg.labelRange = range(a->getStart());
        std::string label = a->getStart()->getText();
        if (label == "task") {
            arg.label = ExecuteArg::Label::Task;
        } else if (label == "environment") {
            arg.label = ExecuteArg::Label::Environment;
        } else if (label == "initialize") {
            arg.label = ExecuteArg::Label::Initialize;
        } else if (label == "partition") {
            arg.label = ExecuteArg::Label::Partition;
        } else {
            std::string hint = didYouMean(label, {"task", "environment", "initialize", "partition"});
            error(DiagKind::UnknownExecuteLabel, arg.labelRange, "unknown `execute` argument `{}`{}", label,
                  hint.empty() ? "; the labels are `task`, `environment`, `initialize` and `partition`" : hint);
            continue;
        }
        for (auto* e : a->expr())
            arg.values.push_back(expr(e));
        n->args.push_back(std::move(arg));
    }
    return n;
}

// 'new' newTarget
ExprPtr Builder::newExpr(P::NewExprContext* c) {
    auto* t = c->newTarget();
    if (auto* d = is<P::NewDynArrayContext>(t)) {
        auto n = std::make_unique<NewCollection>();
        n->range = range(c);
        TypeExpr element = staticType(d->staticType());
        if (d->K_LIST())
            element = wrap(TypeKind::List, range(d->staticType()), std::move(element));
        n->type = wrap(TypeKind::DynamicArray, range(t), std::move(element), dimensionality(d->dimensionality()));
        return n;
    }
    if (auto* l = is<P::NewListContext>(t)) {
        auto n = std::make_unique<NewCollection>();
        n->range = range(c);
        TypeExpr element = staticType(l->staticType());
        if (l->dimensionality())
            element = wrap(TypeKind::DynamicArray, range(l->dimensionality()), std::move(element),
                           dimensionality(l->dimensionality()));
        n->type = wrap(TypeKind::List, range(t), std::move(element));
        return n;
    }
    auto* o = is<P::NewObjectContext>(t);
    auto n = std::make_unique<NewObject>();
    n->range = range(c);
    n->type.range = range(o->getStart());
    switch (o->getStart()->getType()) {
    case L::K_RANGE: n->type.kind = TypeKind::Range; break;
    case L::K_TASK_ENVIRONMENT: n->type.kind = TypeKind::TaskEnvironment; break;
    default: n->type.kind = TypeKind::Class; n->type.className = o->getStart()->getText();
    }
    for (auto* a : o->namedArg())
        n->args.push_back({name(a->anyName(), NameClass::Variable, "field name"), expr(a->expr()), range(a)});
    return n;
}

// callArgs : callArg ( ',' callArg )* ;  callArg : 'Space' ( anyName | 'Root' ) ':' anyName | expr ;
// `Space Root: v` delivers a reduction to the implicit Root (§6.7, "Root included"); its space
// name is the text "Root", which no declared space can have (SPACE_ID is one letter).
std::vector<CallArg> Builder::callArgs(P::CallArgsContext* c) {
    std::vector<CallArg> out;
    if (!c)
        return out;
    for (auto* a : c->callArg()) {
        CallArg arg;
        arg.range = range(a);
        if (auto* s = is<P::SpaceArgContext>(a)) {
            std::vector<P::AnyNameContext*> names = s->anyName();
            if (names.size() == 1) // `Space Root: v`
                arg.space = Name{"Root", range(s->K_ROOT())};
            else
                arg.space = name(names.front(), NameClass::Space, "space");
            arg.variable = name(names.back(), NameClass::Variable, "reduction variable");
        } else {
            arg.value = expr(is<P::ExprArgContext>(a)->expr());
        }
        out.push_back(std::move(arg));
    }
    return out;
}

// =============================================================================================
// The Computation section
// =============================================================================================

FlowList Builder::flowList(const std::vector<P::FlowPartContext*>& parts) {
    FlowList out;
    for (auto* p : parts)
        out.push_back(flowPart(p));
    return out;
}

// flowPart : 'Space' anyName '{' flowPart* '}' | 'Repeat' repeatControl '{' flowPart* '}'
//          | ('Where' | 'If') expr ('in' expr)? '{' flowPart* '}' | 'Epoch' '{' flowPart* '}'
//          | anyName '(' callArgs? ')' ;
FlowPtr Builder::flowPart(P::FlowPartContext* c) {
    SourceRange r = range(c);
    if (auto* s = is<P::SpaceBlockContext>(c)) {
        auto n = std::make_unique<SpaceBlock>();
        n->range = r;
        n->space = name(s->anyName(), NameClass::Space, "space");
        n->body = flowList(s->flowPart());
        return n;
    }
    if (auto* rb = is<P::RepeatBlockContext>(c)) {
        auto* ctl = rb->repeatControl();
        FlowList body = flowList(rb->flowPart());
        if (auto* f = is<P::RepeatForContext>(ctl)) {
            auto n = std::make_unique<RepeatFor>();
            n->range = r;
            n->variable = name(f->anyName(), NameClass::Variable, "loop variable");
            n->rangeExpr = expr(f->expr(0));
            if (f->expr().size() > 1)
                n->step = expr(f->expr(1));
            n->body = std::move(body);
            return n;
        }
        if (is<P::RepeatForeachContext>(ctl)) {
            auto n = std::make_unique<RepeatForeach>();
            n->range = r;
            n->body = std::move(body);
            return n;
        }
        auto n = std::make_unique<RepeatWhile>();
        n->range = r;
        if (auto* w = is<P::RepeatWhileContext>(ctl)) {
            n->condition = expr(w->expr());
        } else {
            n->condition = expr(is<P::RepeatBareContext>(ctl)->expr());
            n->explicitWhile = false;
        }
        n->body = std::move(body);
        return n;
    }
    if (auto* cb = is<P::ConditionBlockContext>(c)) {
        auto n = std::make_unique<Condition>();
        n->range = r;
        n->spelledIf = cb->K_IF_FLOW() != nullptr;
        n->condition = expr(cb->expr(0));
        if (cb->expr().size() > 1)
            n->membershipRange = expr(cb->expr(1));
        n->body = flowList(cb->flowPart());
        return n;
    }
    if (auto* e = is<P::EpochBlockContext>(c)) {
        auto n = std::make_unique<EpochBlock>();
        n->range = r;
        n->body = flowList(e->flowPart());
        return n;
    }
    auto* sc = is<P::StageCallContext>(c);
    auto n = std::make_unique<StageCall>();
    n->range = r;
    n->stage = name(sc->anyName(), NameClass::Variable, "stage name");
    n->args = callArgs(sc->callArgs());
    return n;
}

// =============================================================================================
// The Partition section
// =============================================================================================

// 'Partition' ( '(' nameList? ')' )? ':' spaceConfig*
PartitionSection Builder::partitionSection(P::PartitionSectionContext* c) {
    PartitionSection s;
    s.range = range(c);
    s.params = names(c->nameList(), NameClass::Variable, "partition parameter");
    for (auto* sc : c->spaceConfig())
        s.spaces.push_back(spaceConfig(sc));
    return s;
}

// spaceConfig : 'Space' anyName '<' (dimensionality | 'un-partitioned') '>' spaceAttribute*
//               '{' spaceItem* '}' ;
SpaceConfig Builder::spaceConfig(P::SpaceConfigContext* c) {
    SpaceConfig s;
    s.range = range(c);
    s.space = name(c->anyName(), NameClass::Space, "space");
    s.unpartitioned = c->K_UN_PARTITIONED() != nullptr;
    if (c->dimensionality())
        s.dimensionality = dimensionality(c->dimensionality());
    for (auto* a : c->spaceAttribute()) {
        if (auto* d = is<P::DividesAttrContext>(a)) {
            if (s.parent) {
                error(DiagKind::DuplicateSpaceAttribute, range(a),
                      "Space {} already divides Space {}; a space has one parent", s.space.text, s.parent->text);
                continue;
            }
            s.parent = name(d->anyName(), NameClass::Space, "space");
            s.dividesSubpartitions = d->K_SUB_PARTITIONS() != nullptr;
        } else {
            if (s.isDynamic)
                error(DiagKind::DuplicateSpaceAttribute, range(a), "`dynamic` is written twice for Space {}",
                      s.space.text);
            s.isDynamic = true;
        }
    }
    std::size_t lastBareLine = 0;
    for (auto* item : c->spaceItem()) {
        if (auto* sp = item->subpartitionConfig()) {
            if (s.unpartitioned) {
                error(DiagKind::BadSpaceBody, range(sp->getStart()),
                      "un-partitioned Space {} cannot have a Sub-partition; give the space a "
                      "dimensionality like `<1d>`",
                      s.space.text);
            } else if (s.subpartition) {
                error(DiagKind::BadSpaceBody, range(sp->getStart()),
                      "Space {} has a second Sub-partition; a space has at most one", s.space.text);
            } else {
                s.subpartition = subpartition(sp);
            }
            continue;
        }
        auto* dc = item->dataConfig();
        bool bare = dc->COLON() == nullptr;
        if (s.unpartitioned) {
            if (!bare) {
                error(DiagKind::BadSpaceBody, range(dc->COLON()),
                      "un-partitioned Space {} lists data names only, like `{{ a, b }}`; "
                      "partition instructions need a dimensionality like `<1d>`",
                      s.space.text);
                continue;
            }
            for (auto* v : dc->varSelector()) {
                if (v->LT())
                    error(DiagKind::BadSpaceBody, range(v->LT()),
                          "un-partitioned Space {} takes no dimension selectors", s.space.text);
                s.bareNames.push_back(name(v->anyName(0), NameClass::Variable, "variable"));
            }
            continue;
        }
        if (bare) {
            // One report per line: `this is not code` is one mistake, not four.
            if (dc->getStart()->getLine() == lastBareLine)
                continue;
            lastBareLine = dc->getStart()->getLine();
            error(DiagKind::BadSpaceBody, range(dc),
                  "`{}` in partitioned Space {} needs instructions after a `:`, like `{}: "
                  "block_size(n)`; bare names are only for un-partitioned spaces",
                  dc->getText(), s.space.text, dc->varSelector(0)->anyName(0)->getText());
            continue;
        }
        s.configs.push_back(dataConfig(dc));
    }
    return s;
}

// dataConfig : varSelector ( ',' varSelector )* ( ':' instruction ( ',' instruction )* )? ;
// varSelector : anyName ( '<' anyName ( ',' anyName )* '>' )? ;
DataConfig Builder::dataConfig(P::DataConfigContext* c) {
    DataConfig d;
    d.range = range(c);
    for (auto* v : c->varSelector()) {
        VarSelector sel;
        sel.range = range(v);
        auto ns = v->anyName();
        sel.variable = name(ns[0], NameClass::Variable, "variable");
        for (std::size_t i = 1; i < ns.size(); ++i) {
            std::string s = ns[i]->getText();
            std::string digits = s.size() > 3 && s.rfind("dim", 0) == 0 ? s.substr(3) : "";
            if (digits.empty() || digits[0] == '0' || digits.size() > 3 ||
                digits.find_first_not_of("0123456789") != std::string::npos) {
                error(DiagKind::BadDimensionSelector, range(ns[i]),
                      "expected a dimension selector like `dim1` or `dim2`, found `{}`", s);
                continue;
            }
            sel.dimensions.push_back(std::stoi(digits));
        }
        d.variables.push_back(std::move(sel));
    }
    for (auto* i : c->instruction())
        d.instructions.push_back(instruction(i));
    return d;
}

std::optional<PartitionArg> Builder::partitionArg(P::ExprContext* c) {
    ExprPtr e = expr(c);
    PartitionArg a;
    a.range = e->range;
    if (auto* n = e->as<NameRef>()) {
        a.param = Name{n->name, n->range};
        return a;
    }
    if (auto* i = e->as<IntLiteral>()) {
        a.literal = i->value;
        return a;
    }
    if (auto* u = e->as<Unary>(); u && u->op == UnaryOp::Negate && u->operand->as<IntLiteral>()) {
        error(DiagKind::BadPartitionArgument, e->range,
              "a partition-function argument is a count or a size, so it must be positive (padding may be 0)");
        return std::nullopt;
    }
    error(DiagKind::BadPartitionArgument, e->range,
          "a partition-function argument must be a Partition parameter name or an integer "
          "literal; compute other values in the coordinator and pass them with `partition:`");
    return std::nullopt;
}

// instruction : 'replicated' | anyName '(' exprs? ')' ( 'padding' '(' exprs? ')' )? ;
PartitionInstruction Builder::instruction(P::InstructionContext* c) {
    PartitionInstruction in;
    in.range = range(c);
    if (is<P::ReplicatedInstrContext>(c)) {
        in.replicated = true;
        in.functionRange = in.range;
        return in;
    }
    auto* f = is<P::FunctionInstrContext>(c);
    std::string fn = f->anyName()->getText();
    in.functionRange = range(f->anyName());
    if (fn == "block_size") {
        in.function = PartitionFunction::BlockSize;
    } else if (fn == "block_count") {
        in.function = PartitionFunction::BlockCount;
    } else if (fn == "stride") {
        in.function = PartitionFunction::Stride;
    } else if (fn == "block_stride") {
        in.function = PartitionFunction::BlockStride;
    } else {
        std::string hint = didYouMean(fn, {"block_size", "block_count", "stride", "block_stride", "replicated"});
        error(DiagKind::UnknownPartitionFunction, in.functionRange, "unknown partition function `{}`{}", fn,
              hint.empty() ? "; use `block_size`, `block_count`, `stride`, `block_stride` or `replicated`" : hint);
    }
    bool afterPadding = false;
    std::vector<PartitionArg> padding;
    std::size_t paddingArgs = 0; // as written, also those partitionArg() rejected with an error
    for (auto* child : f->children) {
        if (auto* t = dynamic_cast<TerminalNode*>(child)) {
            if (t->getSymbol()->getType() == L::K_PADDING) {
                afterPadding = true;
                in.paddingRange = range(t);
            }
            continue;
        }
        auto* e = dynamic_cast<P::ExprContext*>(child);
        if (!e)
            continue;
        paddingArgs += afterPadding ? 1 : 0;
        if (auto a = partitionArg(e))
            (afterPadding ? padding : in.args).push_back(std::move(*a));
    }
    if (afterPadding) {
        in.paddingRange.end = range(f).end;
        if (padding.size() != paddingArgs) {
            // an argument was reported already (BadPartitionArgument)
        } else if (padding.empty() || padding.size() > 2) {
            error(DiagKind::BadPadding, in.paddingRange,
                  "`padding` takes one width, `padding(p)`, or a front and a back width, "
                  "`padding(f, b)`; found {} argument{}",
                  padding.size(), padding.size() == 1 ? "" : "s");
        } else {
            in.paddingFront = padding[0];
            in.paddingBack = padding.size() == 2 ? padding[1] : padding[0];
        }
    }
    return in;
}

// subpartitionConfig : 'Sub-partition' '<' dimensionality '>' '<' orderWord '>' '{' dataConfig* '}' ;
SubpartitionConfig Builder::subpartition(P::SubpartitionConfigContext* c) {
    SubpartitionConfig s;
    s.range = range(c);
    s.dimensionality = dimensionality(c->dimensionality());
    auto* o = c->orderWord();
    switch (o->getStart()->getType()) {
    case L::K_INCREASING: s.order = SubpartitionOrder::Increasing; break;
    case L::K_DECREASING: s.order = SubpartitionOrder::Decreasing; break;
    case L::K_UNORDERED: s.order = SubpartitionOrder::Unordered; break;
    case L::K_ORDERED: s.order = SubpartitionOrder::Ordered; break;
    default:
        error(DiagKind::BadSubpartitionOrder, range(o),
              "unknown Sub-partition order `{}`; use `increasing`, `decreasing`, `unordered` or "
              "`ordered`",
              o->getText());
    }
    for (auto* d : c->dataConfig()) {
        if (!d->COLON()) {
            error(DiagKind::BadSpaceBody, range(d),
                  "`{}` in a Sub-partition needs instructions after a `:`, like `{}: "
                  "block_size(n)`",
                  d->getText(), d->varSelector(0)->anyName(0)->getText());
            continue;
        }
        s.configs.push_back(dataConfig(d));
    }
    return s;
}

} // namespace

std::unique_ptr<Program> buildAst(P::ProgramContext* tree, FileId file, const std::string& text,
                                  DiagnosticEngine& diags) {
    return Builder(file, text, diags).build(tree);
}

} // namespace itc::frontend
