// The whole generated program: prologue template, the machine model as placement data, one
// namespace per task, the coordinator (§4) as a function run by every rank in the same order,
// and the main template. Reads top to bottom like the pipeline it ends.
#include "backend/task_emitter.h"
#include "pcubes/machine_model.h"

#include <algorithm>

namespace itc::backend {

using sema::TypeKind;

namespace {

class Coordinator : public ExprEmitter {
public:
    Coordinator(const BackendInput& in, std::map<std::string, std::string> taskNs)
        : ExprEmitter(&in.checked->exprTypes), in_(in), taskNs_(std::move(taskNs)) {}

    using ExprEmitter::emit;
    void emit(Out& o, const ast::Coordinator& c) {
        args_ = c.argsName.text;
        o << lineComment(in_, c.range);
        o << "void coordinator(itrt::task::Program& prog) {\n";
        for (const auto& [name, type] : in_.checked->coordinatorLocals) {
            if (name == args_)
                continue;
            locals_.insert(name);
            if (type.kind == TypeKind::DynamicArray)
                o << cppType(type) << " v_" << name << "(" << type.arrayDims() << ");\n";
            else
                o << cppType(type) << " v_" << name << "{};\n";
        }
        block(o, c.body);
        o << "// Bound outputs are written once every task has completed (R-23).\nprog.finish();\n}\n\n";
    }

protected:
    std::string nameRef(const ast::NameRef& n) override {
        if (loopVars_.count(n.name))
            return n.name;
        return "v_" + n.name;
    }
    std::string fieldOfName(const ast::FieldAccess& f, const std::string& base) override {
        if (base == args_)
            return "prog.arg(" + cString(f.field.text) + ")";
        sema::Type bt = localType(base);
        if (bt.kind == TypeKind::TaskEnvironment) {
            sema::Type t = typeOf(f);
            if (t.isArray())
                unsupported(f.range, "reading an environment array in the coordinator");
            return "v_" + base + "->get<" + cppType(t) + ">(" + cString(f.field.text) + ")";
        }
        return "";
    }
    std::string dimensionRange(const ast::Expr& at, const std::string& array, int k, bool local) override {
        if (local || localType(array).kind != TypeKind::DynamicArray)
            unsupported(at.range, "this dimension attribute in the coordinator");
        return "Range{static_cast<int32_t>(v_" + array + ".ranges[" + std::to_string(k) +
               "].min), static_cast<int32_t>(v_" + array + ".ranges[" + std::to_string(k) + "].max)}";
    }
    std::string element(const ast::Subscript& s, const std::string& array, const std::vector<std::string>& idx,
                        int) override {
        std::string a;
        for (auto& i : idx)
            a += (a.empty() ? "" : ", ") + std::string("static_cast<int64_t>(") + i + ")";
        return "v_" + array + ".at({" + a + "})";
    }

private:
    sema::Type localType(const std::string& n) const {
        auto it = in_.checked->coordinatorLocals.find(n);
        return it == in_.checked->coordinatorLocals.end() ? sema::Type::error() : it->second;
    }
    // Targets that are not plain C++ lvalues: dimension ranges of local arrays, env items.
    std::string assign(const ast::Assign& a) {
        const ast::Expr* t = a.target.get();
        if (auto f = t->as<ast::FieldAccess>()) {
            if (auto n = f->base->as<ast::NameRef>(); n && localType(n->name).kind == TypeKind::TaskEnvironment) {
                sema::Type vt = typeOf(*a.value);
                if (vt.kind == TypeKind::Error)
                    vt = typeOf(*t);
                if (auto vf = a.value->as<ast::FieldAccess>())
                    if (auto vn = vf->base->as<ast::NameRef>(); vn && localType(vn->name).kind == TypeKind::TaskEnvironment) {
                        if (typeOf(*vf).isArray())
                            return "v_" + n->name + "->array(" + cString(f->field.text) + ") = v_" + vn->name +
                                   "->array(" + cString(vf->field.text) + ")";
                    }
                if (vt.isArray())
                    unsupported(a.range, "assigning arrays or views to environment items");
                sema::Type it = typeOf(*t);
                if (it.kind == TypeKind::Error || it.kind == TypeKind::RealLiteral)
                    it = vt.kind == TypeKind::RealLiteral ? sema::Type::simple(TypeKind::RealDouble) : vt;
                return "v_" + n->name + "->set<" + cppType(it) + ">(" + cString(f->field.text) + ", static_cast<" +
                       cppType(it) + ">(" + emit(*a.value) + "))";
            }
            if (f->field.text == "min" || f->field.text == "max") {
                const ast::Expr* x = f->base.get();
                if (auto r = x->as<ast::Property>(); r && r->property == ast::PropertyKind::Range)
                    x = r->base.get();
                if (auto d = x->as<ast::Property>(); d && d->property == ast::PropertyKind::Dimension)
                    if (auto n = d->base->as<ast::NameRef>())
                        return "v_" + n->name + ".ranges[" + std::to_string(std::max(0, d->dimensionIndex - 1)) + "]." +
                               f->field.text + " = " + emit(*a.value);
            }
        }
        if (auto n = t->as<ast::NameRef>()) {
            if (auto no = a.value->as<ast::NewObject>(); no && no->type.kind == ast::TypeKind::TaskEnvironment) {
                std::string task;
                for (auto& na : no->args)
                    if (na.name.text == "name")
                        if (auto s = na.value->as<ast::StringLiteral>())
                            task = s->value;
                return "v_" + n->name + " = std::make_shared<itrt::task::Env>(" + cString(task) + ")";
            }
            if (a.value->as<ast::NewCollection>()) {
                sema::Type lt = localType(n->name);
                if (lt.kind != TypeKind::DynamicArray)
                    unsupported(a.range, "`new` of lists");
                return "v_" + n->name + " = " + cppType(lt) + "(" + std::to_string(lt.arrayDims()) + ")";
            }
        }
        if (auto chain = a.value->as<ast::Assign>())
            return emit(*t) + " = " + assign(*chain);
        return emit(*t) + " = " + emit(*a.value);
    }

    std::string execute(const ast::Execute& e) {
        std::string task, env;
        std::vector<std::string> init, part;
        for (const auto& a : e.args) {
            switch (a.label) {
            case ast::ExecuteArg::Label::Task: task = a.values[0]->as<ast::StringLiteral>()->value; break;
            case ast::ExecuteArg::Label::Environment: env = emit(*a.values[0]); break;
            case ast::ExecuteArg::Label::Initialize:
                for (auto& v : a.values)
                    init.push_back(emit(*v));
                break;
            case ast::ExecuteArg::Label::Partition:
                for (auto& v : a.values)
                    part.push_back("itrt::task::to_int(" + emit(*v) + ")");
                break;
            }
        }
        const sema::TaskInfo* ti = in_.checked->findTask(task);
        std::string call = taskNs_.at(task) + "::run(prog, *" + env;
        if (ti && ti->task->initialize) {
            const auto& params = ti->task->initialize->params;
            for (size_t i = 0; i < params.size() && i < init.size(); ++i) {
                sema::Type t = sema::Type::error();
                for (auto& g : ti->globals)
                    if (g.name == params[i].text)
                        t = g.type;
                if (t.isError())
                    t = ti->initializeLocals.at(params[i].text);
                call += ", static_cast<" + cppType(t) + ">(" + init[i] + ")";
            }
        }
        for (auto& p : part)
            call += ", " + p;
        return call + ")";
    }

    std::string call(const ast::Call& c) override {
        const std::string& f = c.callee.text;
        auto arg = [&](size_t i) { return emit(*c.args.at(i).value); };
        if (f == "bind_input" || f == "bind_output") {
            auto item = c.args.at(1).value->as<ast::StringLiteral>();
            return arg(0) + "->" + f + "(prog, " + cString(item->value) + ", std::string(" + arg(2) + "))";
        }
        if (f == "store") {
            auto n = c.args.at(0).value->as<ast::NameRef>();
            sema::Type t = n ? localType(n->name) : sema::Type::error();
            if (t.kind != TypeKind::DynamicArray)
                unsupported(c.range, "`store` of this value");
            return "itrt::task::store(prog, " + arg(0) + ", " + codecOf(t.elementType()) + ", std::string(" + arg(1) + "))";
        }
        unsupported(c.range, "calling `" + f + "` in the coordinator");
    }

    void block(Out& o, const ast::Block& b) {
        for (const auto& s : b.stmts)
            stmt(o, *s);
    }
    void stmt(Out& o, const ast::Stmt& s) {
        o << lineComment(in_, s.range);
        using K = ast::StmtKind;
        switch (s.kind) {
        case K::ExprStmt: {
            const ast::Expr& e = *s.as<ast::ExprStmt>()->expr;
            if (auto a = e.as<ast::Assign>())
                o << assign(*a) << ";\n";
            else if (auto x = e.as<ast::Execute>())
                o << execute(*x) << ";\n";
            else
                o << emit(e) << ";\n";
            return;
        }
        case K::SequentialFor: {
            auto* f = s.as<ast::SequentialFor>();
            std::string r = "r_" + f->index.text;
            o << "{\nconst Range " << r << " = " << emit(*f->rangeExpr) << ";\n";
            o << "const int64_t " << r << "_step = " << (f->step ? "static_cast<int64_t>(" + emit(*f->step) + ")" : "1") << ";\n";
            o << "const int64_t " << r << "_dir = " << r << ".min <= " << r << ".max ? 1 : -1;\n";
            o << "for (int64_t " << f->index.text << "_i = " << r << ".min; " << r << "_dir > 0 ? " << f->index.text
              << "_i <= " << r << ".max : " << f->index.text << "_i >= " << r << ".max; " << f->index.text << "_i += "
              << r << "_dir * " << r << "_step) {\n";
            o << "v_" << f->index.text << " = static_cast<int32_t>(" << f->index.text << "_i);\n";
            if (f->restriction)
                o << "if (!(" << emit(*f->restriction) << ")) continue;\n";
            block(o, f->body);
            o << "}\n}\n";
            return;
        }
        case K::While: {
            auto* w = s.as<ast::While>();
            o << "do {\n";
            block(o, w->body);
            o << "} while (" << emit(*w->condition) << ");\n";
            return;
        }
        case K::If: {
            auto* i = s.as<ast::If>();
            for (size_t k = 0; k < i->branches.size(); ++k) {
                o << (k ? "} else if (" : "if (") << emit(*i->branches[k].condition) << ") {\n";
                block(o, i->branches[k].body);
            }
            if (i->elseBody) {
                o << "} else {\n";
                block(o, *i->elseBody);
            }
            o << "}\n";
            return;
        }
        case K::Extern: o << "{\n" << s.as<ast::Extern>()->code << "\n}\n"; return;
        default: unsupported(s.range, "this statement in the coordinator");
        }
    }

    const BackendInput& in_;
    std::map<std::string, std::string> taskNs_;
    std::string args_;
    std::set<std::string> locals_, loopVars_;
};

std::string machineDesc(const BackendInput& in) {
    const pcubes::MachineModel& m = *in.machine;
    std::string s = "// The machine model (" + in.machineFile + ") as placement data.\n";
    s += "inline itrt::task::MachineDesc machine() {\nitrt::task::MachineDesc m;\n";
    s += "m.file = " + cString(in.machineFile) + ";\n";
    s += "m.top = " + std::to_string(m.levelCount()) + ";\nm.fanout = {0";
    for (int l = 1; l <= m.levelCount(); ++l)
        s += ", " + std::to_string(m.level(l)->fanOut);
    s += "};\n";
    s += "m.segment = " + std::to_string(m.segmentLevel().value_or(0)) + ";\n";
    s += "m.core = " + std::to_string(m.coreLevel().value_or(1)) + ";\nreturn m;\n}\n\n";
    return s;
}

} // namespace

std::string emitProgram(const BackendInput& in) {
    Out o;
    o << "namespace it_program {\n\n";
    o << "inline const char* kProgramName = " << cString(in.programFile) << ";\n\n";
    o << machineDesc(in);
    // Extern includes.
    std::map<std::string, std::string> taskNs;
    for (size_t i = 0; i < in.program->tasks.size(); ++i) {
        const ast::TaskDef& def = in.program->tasks[i];
        const sema::TaskInfo* info = in.checked->findTask(def.name.text);
        const semantic::TaskPlan* plan = nullptr;
        for (const auto& p : in.plan->tasks)
            if (p.task == def.name.text)
                plan = &p;
        if (!info || !plan)
            throw std::logic_error("no checked form or plan for task " + def.name.text);
        TaskEmitter te(in, def, *info, *plan, static_cast<int>(i));
        te.emit(o);
        taskNs[def.name.text] = te.ns();
    }
    Coordinator c(in, taskNs);
    c.emit(o, in.program->coordinators.at(0));
    o << "} // namespace it_program\n\n";
    std::string code = std::string(prologueTemplate()) + "\n" + o.str() + mainTemplate();
    return formatCpp(code, "program.cpp");
}

} // namespace itc::backend
