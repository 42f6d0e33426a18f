// The AST printer (see ast_printer.h). Children are indented by two spaces under their parent;
// labels such as `lhs:` name the role of a child where the order alone would not tell it.
#include "frontend/ast/ast_printer.h"

#include "frontend/ast/ast_names.h"

#include <fmt/format.h>

namespace itc::ast {
namespace {

std::string at(const SourceRange& r) { return fmt::format("@{}:{}", r.begin.line, r.begin.column); }

std::string quoted(const std::string& s) { return "\"" + s + "\""; }

std::string joinNames(const std::vector<Name>& names) {
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i)
        out += (i ? ", " : "") + names[i].text;
    return out;
}

class Printer {
public:
    std::string run(const Program& p) {
        line(0, "Program");
        for (const ClassDef& c : p.classes)
            classDef(1, c);
        for (const FunctionDef& f : p.functions)
            functionDef(1, f);
        for (const TaskDef& t : p.tasks)
            taskDef(1, t);
        for (const Coordinator& c : p.coordinators) {
            line(1, fmt::format("Coordinator ({}) {}", c.argsName.text, at(c.range)));
            block(2, c.body);
        }
        return out_;
    }

private:
    void line(int depth, const std::string& text) {
        out_.append(static_cast<std::size_t>(depth) * 2, ' ');
        out_ += text;
        out_ += '\n';
    }

    void varDecl(int d, const char* what, const VarDecl& v) {
        line(d, fmt::format("{} {}: {}{} {}", what, joinNames(v.names), typeToString(v.type),
                            v.isReduction ? " Reduction" : "", at(v.range)));
    }

    void classDef(int d, const ClassDef& c) {
        line(d, fmt::format("Class {} ({} form) {}", c.name.text, c.braceForm ? "brace" : "colon", at(c.range)));
        for (const VarDecl& v : c.fields)
            varDecl(d + 1, "Field", v);
    }

    void functionDef(int d, const FunctionDef& f) {
        if (f.form == FunctionDef::Form::Brace) {
            std::string params;
            for (std::size_t i = 0; i < f.params.size(); ++i)
                params += (i ? ", " : "") + std::string(f.params[i].byReference ? "&" : "") + f.params[i].name.text;
            line(d, fmt::format("Function {}({}) {}", f.name.text, params, at(f.range)));
        } else {
            line(d, fmt::format("Function {} (paper form) {}", f.name.text, at(f.range)));
            for (const VarDecl& v : f.arguments)
                varDecl(d + 1, "Argument", v);
            for (const VarDecl& v : f.results)
                varDecl(d + 1, "Result", v);
        }
        block(d + 1, f.body);
    }

    void taskDef(int d, const TaskDef& t) {
        line(d, fmt::format("Task {} {}", quoted(t.name.text), at(t.range)));
        line(d + 1, "Define");
        for (const VarDecl& v : t.define)
            varDecl(d + 2, "Var", v);
        line(d + 1, "Environment");
        for (const Linkage& l : t.environment)
            line(d + 2, fmt::format("Link {}: {} {}", joinNames(l.names), linkModeSpelling(l.mode), at(l.range)));
        if (t.initialize) {
            line(d + 1, fmt::format("Initialize ({}) {}", joinNames(t.initialize->params), at(t.initialize->range)));
            block(d + 2, t.initialize->body);
        }
        line(d + 1, "Stages");
        for (const StageDef& s : t.stages) {
            line(d + 2, fmt::format("Stage {}({}) {}", s.name.text, joinNames(s.params), at(s.range)));
            block(d + 3, s.body);
        }
        line(d + 1, "Computation");
        flowList(d + 2, t.computation);
        line(d + 1, fmt::format("Partition ({})", joinNames(t.partition.params)));
        for (const SpaceConfig& s : t.partition.spaces)
            spaceConfig(d + 2, s);
    }

    // ---- code -------------------------------------------------------------------------------

    void block(int d, const Block& b) {
        line(d, fmt::format("Block {}", at(b.range)));
        for (const StmtPtr& s : b.stmts)
            stmt(d + 1, *s);
    }

    void labeled(int d, const char* label, const ExprPtr& e) {
        if (!e)
            return;
        line(d, label);
        expr(d + 1, *e);
    }

    void stmt(int d, const Stmt& s) {
        std::string loc = at(s.range);
        if (auto* n = s.as<ExprStmt>()) {
            line(d, "ExprStmt " + loc);
            expr(d + 1, *n->expr);
        } else if (auto* n = s.as<ParallelLoop>()) {
            line(d, "ParallelLoop " + loc);
            for (const IndexGroup& g : n->groups) {
                std::string coll = g.collection.text;
                if (g.dimensionIndex)
                    coll += fmt::format(".dimension{}", g.dimensionIndex);
                line(d + 1, fmt::format("Indices {} in {} {}", joinNames(g.indices), coll, at(g.range)));
                labeled(d + 2, "and:", g.restriction);
            }
            block(d + 1, n->body);
        } else if (auto* n = s.as<SequentialFor>()) {
            line(d, fmt::format("SequentialFor {} {}", n->index.text, loc));
            labeled(d + 1, "in:", n->rangeExpr);
            labeled(d + 1, "step:", n->step);
            labeled(d + 1, "and:", n->restriction);
            block(d + 1, n->body);
        } else if (auto* n = s.as<While>()) {
            line(d, fmt::format("While{} {}", n->inSequence ? " (in sequence)" : "", loc));
            block(d + 1, n->body);
            labeled(d + 1, "while:", n->condition);
        } else if (auto* n = s.as<If>()) {
            line(d, "If " + loc);
            for (const IfBranch& b : n->branches) {
                line(d + 1, "Branch " + at(b.range));
                labeled(d + 2, "cond:", b.condition);
                block(d + 2, b.body);
            }
            if (n->elseBody) {
                line(d + 1, "Else");
                block(d + 2, *n->elseBody);
            }
        } else if (auto* n = s.as<ReduceStmt>()) {
            line(d, fmt::format("ReduceStmt {} {} {}", n->target.text,
                                n->op.isLiteral ? quoted(n->op.text) : n->op.text, loc));
            if (n->operand)
                expr(d + 1, *n->operand);
        } else if (auto* n = s.as<Return>()) {
            line(d, "Return " + loc);
            if (n->value)
                expr(d + 1, *n->value);
        } else if (auto* n = s.as<Extern>()) {
            line(d, fmt::format("Extern {} {}", quoted(n->language), loc));
            if (!n->includes.empty())
                line(d + 1, "Includes " + joinNames(n->includes));
            if (!n->libraries.empty())
                line(d + 1, "Libraries " + joinNames(n->libraries));
            line(d + 1, fmt::format("Code {} ({} bytes)", at(n->codeRange), n->code.size()));
            std::size_t start = 0;
            while (start <= n->code.size()) {
                std::size_t nl = n->code.find('\n', start);
                std::string piece = n->code.substr(start, nl == std::string::npos ? nl : nl - start);
                line(d + 2, "| " + piece);
                if (nl == std::string::npos)
                    break;
                start = nl + 1;
            }
        }
    }

    void args(int d, const std::vector<CallArg>& as) {
        for (const CallArg& a : as) {
            if (a.isSpaceArg())
                line(d, fmt::format("SpaceArg Space {}: {} {}", a.space->text, a.variable->text, at(a.range)));
            else if (a.value)
                expr(d, *a.value);
        }
    }

    void expr(int d, const Expr& e) {
        std::string loc = at(e.range);
        if (auto* n = e.as<IntLiteral>()) {
            line(d, fmt::format("IntLiteral {} {}", n->value, loc));
        } else if (auto* n = e.as<RealLiteral>()) {
            line(d, fmt::format("RealLiteral {} {}", n->spelling, loc));
        } else if (auto* n = e.as<CharLiteral>()) {
            line(d, fmt::format("CharLiteral '{}' {}", std::string(1, n->value), loc));
        } else if (auto* n = e.as<StringLiteral>()) {
            line(d, fmt::format("StringLiteral {} {}", quoted(n->value), loc));
        } else if (auto* n = e.as<BoolLiteral>()) {
            line(d, fmt::format("BoolLiteral {} {}", n->value ? "TRUE" : "FALSE", loc));
        } else if (auto* n = e.as<NameRef>()) {
            line(d, fmt::format("NameRef {} {}", n->name, loc));
        } else if (auto* n = e.as<Unary>()) {
            line(d, fmt::format("Unary {} {}", unaryOpSpelling(n->op), loc));
            expr(d + 1, *n->operand);
        } else if (auto* n = e.as<Binary>()) {
            line(d, fmt::format("Binary {} {}", binaryOpSpelling(n->op), loc));
            expr(d + 1, *n->lhs);
            expr(d + 1, *n->rhs);
        } else if (auto* n = e.as<Assign>()) {
            line(d, "Assign " + loc);
            expr(d + 1, *n->target);
            expr(d + 1, *n->value);
        } else if (auto* n = e.as<FieldAccess>()) {
            line(d, fmt::format("FieldAccess .{} {}", n->field.text, loc));
            expr(d + 1, *n->base);
        } else if (auto* n = e.as<Property>()) {
            std::string what =
                n->property == PropertyKind::Local ? "local"
                : n->property == PropertyKind::Range
                    ? "range"
                    : (n->dimensionIndex ? fmt::format("dimension{}", n->dimensionIndex) : std::string("dimension"));
            line(d, fmt::format("Property .{} {}", what, loc));
            expr(d + 1, *n->base);
        } else if (auto* n = e.as<Subscript>()) {
            line(d, "Subscript " + loc);
            expr(d + 1, *n->base);
            for (const SubscriptItem& i : n->items) {
                if (i.kind == SubscriptItem::Kind::Index) {
                    labeled(d + 1, "[index]", i.index);
                } else if (i.kind == SubscriptItem::Kind::Whole) {
                    line(d + 1, "[...]");
                } else {
                    line(d + 1, "[section]");
                    expr(d + 2, *i.first);
                    expr(d + 2, *i.last);
                }
            }
        } else if (auto* n = e.as<Call>()) {
            line(d, fmt::format("Call {} {}", n->callee.text, loc));
            args(d + 1, n->args);
        } else if (auto* n = e.as<NewObject>()) {
            line(d, fmt::format("NewObject {} {}", typeToString(n->type), loc));
            for (const NamedArg& a : n->args) {
                line(d + 1, a.name.text + ":");
                expr(d + 2, *a.value);
            }
        } else if (auto* n = e.as<NewCollection>()) {
            line(d, fmt::format("NewCollection {} {}", typeToString(n->type), loc));
        } else if (auto* n = e.as<ReduceExpr>()) {
            line(d, fmt::format("ReduceExpr {} {}", n->op.isLiteral ? quoted(n->op.text) : n->op.text, loc));
            if (n->operand)
                expr(d + 1, *n->operand);
        } else if (e.as<LpuId>()) {
            line(d, "LpuId " + loc);
        } else if (auto* n = e.as<PartitionParam>()) {
            line(d, fmt::format("PartitionParam {} {}", n->param.text, loc));
        } else if (auto* n = e.as<RangeLiteral>()) {
            line(d, "RangeLiteral " + loc);
            expr(d + 1, *n->first);
            expr(d + 1, *n->last);
        } else if (auto* n = e.as<Epoch>()) {
            line(d, fmt::format("Epoch current{} {}", n->lag ? fmt::format(" - {}", n->lag) : "", loc));
            expr(d + 1, *n->operand);
        } else if (auto* n = e.as<Execute>()) {
            line(d, "Execute " + loc);
            for (const ExecuteArg& a : n->args) {
                line(d + 1, fmt::format("{}:", executeLabelName(a.label)));
                for (const ExprPtr& v : a.values)
                    expr(d + 2, *v);
            }
        }
    }

    // ---- flow -------------------------------------------------------------------------------

    void flowList(int d, const FlowList& list) {
        for (const FlowPtr& f : list)
            flow(d, *f);
    }

    void flow(int d, const FlowPart& f) {
        std::string loc = at(f.range);
        if (auto* n = f.as<SpaceBlock>()) {
            line(d, fmt::format("Space {} {}", n->space.text, loc));
            flowList(d + 1, n->body);
        } else if (auto* n = f.as<RepeatFor>()) {
            line(d, fmt::format("RepeatFor {} {}", n->variable.text, loc));
            labeled(d + 1, "in:", n->rangeExpr);
            labeled(d + 1, "step:", n->step);
            flowList(d + 1, n->body);
        } else if (auto* n = f.as<RepeatForeach>()) {
            line(d, "RepeatForeach sub-partition " + loc);
            flowList(d + 1, n->body);
        } else if (auto* n = f.as<RepeatWhile>()) {
            line(d, fmt::format("RepeatWhile{} {}", n->explicitWhile ? "" : " (bare)", loc));
            labeled(d + 1, "while:", n->condition);
            flowList(d + 1, n->body);
        } else if (auto* n = f.as<Condition>()) {
            line(d, fmt::format("{} {}", n->spelledIf ? "If" : "Where", loc));
            labeled(d + 1, "cond:", n->condition);
            labeled(d + 1, "in:", n->membershipRange);
            flowList(d + 1, n->body);
        } else if (auto* n = f.as<EpochBlock>()) {
            line(d, "Epoch " + loc);
            flowList(d + 1, n->body);
        } else if (auto* n = f.as<StageCall>()) {
            line(d, fmt::format("StageCall {} {}", n->stage.text, loc));
            args(d + 1, n->args);
        }
    }

    // ---- partition --------------------------------------------------------------------------

    static std::string partitionArg(const PartitionArg& a) {
        return a.param ? a.param->text : std::to_string(a.literal);
    }

    void dataConfig(int d, const DataConfig& c) {
        std::string vars;
        for (std::size_t i = 0; i < c.variables.size(); ++i) {
            vars += (i ? ", " : "") + c.variables[i].variable.text;
            if (!c.variables[i].dimensions.empty()) {
                vars += "<";
                for (std::size_t k = 0; k < c.variables[i].dimensions.size(); ++k)
                    vars += fmt::format("{}dim{}", k ? ", " : "", c.variables[i].dimensions[k]);
                vars += ">";
            }
        }
        std::string instrs;
        for (std::size_t i = 0; i < c.instructions.size(); ++i) {
            const PartitionInstruction& in = c.instructions[i];
            instrs += i ? ", " : "";
            if (in.replicated) {
                instrs += "replicated";
                continue;
            }
            instrs += std::string(partitionFunctionName(in.function)) + "(";
            for (std::size_t k = 0; k < in.args.size(); ++k)
                instrs += (k ? ", " : "") + partitionArg(in.args[k]);
            instrs += ")";
            if (in.paddingFront)
                instrs +=
                    fmt::format(" padding({}, {})", partitionArg(*in.paddingFront), partitionArg(*in.paddingBack));
        }
        line(d, fmt::format("Data {}: {} {}", vars, instrs, at(c.range)));
    }

    void spaceConfig(int d, const SpaceConfig& s) {
        std::string shape = s.unpartitioned ? "un-partitioned" : fmt::format("{}d", s.dimensionality);
        std::string head = fmt::format("SpaceConfig {} <{}>", s.space.text, shape);
        if (s.isDynamic)
            head += " dynamic";
        if (s.parent)
            head +=
                fmt::format(" divides {} {}", s.parent->text, s.dividesSubpartitions ? "sub-partitions" : "partitions");
        line(d, head + " " + at(s.range));
        if (!s.bareNames.empty())
            line(d + 1, "Names " + joinNames(s.bareNames));
        for (const DataConfig& c : s.configs)
            dataConfig(d + 1, c);
        if (s.subpartition) {
            line(d + 1, fmt::format("Sub-partition <{}d> <{}> {}", s.subpartition->dimensionality,
                                    subpartitionOrderName(s.subpartition->order), at(s.subpartition->range)));
            for (const DataConfig& c : s.subpartition->configs)
                dataConfig(d + 2, c);
        }
    }

    std::string out_;
};

} // namespace

std::string printAst(const Program& program) { return Printer().run(program); }

} // namespace itc::ast
