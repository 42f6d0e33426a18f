// The whole generated program: prologue template, the machine model as placement data, one
// namespace per task, the coordinator (guide: The coordinator) as a function run by every rank in
// the same order, and the main template. Reads top to bottom like the pipeline it ends.
#include "backend/task_emitter.h"
#include "pcubes/machine_model.h"

#include <algorithm>

namespace itc::backend {

using semantic::TypeKind;

namespace {

class Coordinator : public SequentialBody {
public:
    Coordinator(const BackendInput& in, std::map<std::string, std::string> taskNs)
        : SequentialBody(in, &in.checked->exprTypes, &in.checked->coordinatorLocals), taskNs_(std::move(taskNs)) {}

    using ExprEmitter::emit;
    void emit(Out& o, const ast::Coordinator& c) {
        args_ = c.argsName.text;
        o << lineComment(in_, c.range);
        o << "void coordinator(itrt::task::Program& prog) {\n";
        for (const auto& [name, type] : in_.checked->coordinatorLocals) {
            if (name == args_)
                continue;
            if (type.kind == TypeKind::DynamicArray)
                o << cppType(type) << " v_" << name << "(" << type.arrayDims() << ");\n";
            else
                o << cppType(type) << " v_" << name << "{};\n";
        }
        block(o, c.body);
        o << "// Bound outputs are written once every task has completed (see the guide: The "
             "coordinator).\nprog.finish();\n}\n\n";
    }

protected:
    std::string fieldOfName(const ast::FieldAccess& f, const std::string& base) override {
        if (base == args_)
            return "prog.arg(" + cString(f.field.text) + ")";
        semantic::Type bt = localType(base);
        if (bt.kind == TypeKind::TaskEnvironment) {
            semantic::Type t = typeOf(f);
            if (t.isArray()) // a copy of the whole array, on every rank
                return "v_" + base + "->array_copy<" + cppType(t.elementType()) + ">(prog, " + cString(f.field.text) +
                       ", " + std::to_string(t.arrayDims()) + ")";
            if (t.kind == TypeKind::List)
                return "v_" + base + "->list_copy<" + cppType(t.elementType()) + ">(" + cString(f.field.text) + ", " +
                       listCodecOf(t) + ")";
            return "v_" + base + "->get<" + cppType(t) + ">(" + cString(f.field.text) + ")";
        }
        return "";
    }
    // `env.item.dimensionK`: the ranges an environment array has now (guide: The coordinator; every
    // earlier task has finished, as tasks run one after the other).
    std::string fieldDimensionRange(const ast::Expr& at, const ast::FieldAccess& f, int k, bool local) override {
        auto n = f.base->as<ast::NameRef>();
        semantic::Type t = typeOf(f);
        if (!n || localType(n->name).kind != TypeKind::TaskEnvironment || !t.isArray() || local)
            return ExprEmitter::fieldDimensionRange(at, f, k, local);
        return "v_" + n->name + "->range(prog, " + cString(f.field.text) + ", " + std::to_string(t.arrayDims()) + ", " +
               std::to_string(k) + ", " + codecOf(t.elementType()) + ")";
    }
    // `env.item[i][j]` read in the coordinator: the element as the last task left it (every rank
    // gets it from the rank that owns it).
    std::string fieldElement(const ast::Subscript& s, const ast::FieldAccess& f) override {
        auto n = f.base->as<ast::NameRef>();
        semantic::Type t = typeOf(f);
        if (!n || localType(n->name).kind != TypeKind::TaskEnvironment || !t.isArray())
            return ExprEmitter::fieldElement(s, f);
        if (isSection(s)) // a copy of the section (guide: The coordinator)
            return sectionValue(s, fieldOfName(f, n->name), t.arrayDims());
        std::string idx;
        for (const auto& it : s.items)
            idx += (idx.empty() ? "" : ", ") + std::string("static_cast<int64_t>(") + emit(*it.index) + ")";
        return "v_" + n->name + "->element<" + cppType(t.elementType()) + ">(prog, " + cString(f.field.text) + ", {" +
               idx + "})";
    }
    // `env.item = value`: arrays and lists of another environment are shared (guide: The
    // coordinator), sections viewed, scalars copied.
    std::string envAssign(const ast::FieldAccess& f, const std::string& env, const ast::Expr& value, SourceRange at) {
        semantic::Type vt = typeOf(value);
        if (vt.kind == TypeKind::Error)
            vt = typeOf(f);
        if (auto vf = value.as<ast::FieldAccess>())
            if (auto vn = vf->base->as<ast::NameRef>(); vn && localType(vn->name).kind == TypeKind::TaskEnvironment) {
                semantic::Type st = typeOf(*vf);
                if (st.isArray() || st.kind == TypeKind::List || typeOf(f).isArray() ||
                    typeOf(f).kind == TypeKind::List)
                    return "v_" + env + "->share(" + cString(f.field.text) + ", *v_" + vn->name + ", " +
                           cString(vf->field.text) + ")";
            }
        if (auto sub = value.as<ast::Subscript>(); sub && vt.isArray()) {
            // A section of a coordinator array: the item gets a copy of it.
            if (auto vn = sub->base->as<ast::NameRef>(); vn && localType(vn->name).kind == TypeKind::DynamicArray)
                return "v_" + env + "->assign(prog, " + cString(f.field.text) + ", " + emit(value) + ", " +
                       codecOf(vt.elementType()) + ")";
            return sectionView(f, env, *sub);
        }
        if (auto vn = value.as<ast::NameRef>(); vn && vt.kind == TypeKind::DynamicArray)
            return "v_" + env + "->assign(prog, " + cString(f.field.text) + ", v_" + vn->name + ", " +
                   codecOf(vt.elementType()) + ")";
        if (vt.kind == TypeKind::List) // the item gets a copy of the list
            return "v_" + env + "->set_list(" + cString(f.field.text) + ", " + emit(value) + ", " + listCodecOf(vt) +
                   ")";
        if (vt.kind == TypeKind::DynamicArray && value.kind != ast::ExprKind::NewCollection &&
            value.kind != ast::ExprKind::NewObject) // a computed array (a function's result): a copy
            return "v_" + env + "->assign(prog, " + cString(f.field.text) + ", " + emit(value) + ", " +
                   codecOf(vt.elementType()) + ")";
        if (vt.isArray())
            notTranslated(at, "assigning a new array or a fixed-size array to an environment item (give the item a "
                              "coordinator array, or let the task create it)");
        semantic::Type it = typeOf(f);
        if (it.kind == TypeKind::Error || it.kind == TypeKind::RealLiteral)
            it = vt.kind == TypeKind::RealLiteral ? semantic::Type::simple(TypeKind::RealDouble) : vt;
        return "v_" + env + "->set<" + cppType(it) + ">(" + cString(f.field.text) + ", static_cast<" + cppType(it) +
               ">(" + emit(value) + "))";
    }
    // `env.item[i][j] = value`: every copy of the element, as the last task left the item.
    std::string envElementAssign(const ast::Assign& a, const ast::Subscript& s, const ast::FieldAccess& f,
                                 const std::string& env) {
        semantic::Type t = typeOf(f);
        if (!t.isArray() || static_cast<int>(s.items.size()) != t.arrayDims())
            notTranslated(s.range, "writing an element of an environment array with fewer subscripts than dimensions");
        std::string idx;
        for (const auto& it : s.items) {
            if (it.kind != ast::SubscriptItem::Kind::Index)
                notTranslated(it.range, "assigning to a section of an environment array in the coordinator");
            idx += (idx.empty() ? "" : ", ") + std::string("static_cast<int64_t>(") + emit(*it.index) + ")";
        }
        const std::string elem = cppType(t.elementType());
        return "v_" + env + "->set_element<" + elem + ">(prog, " + cString(f.field.text) + ", {" + idx +
               "}, static_cast<" + elem + ">(" + emit(*a.value) + "))";
    }
    // `env.item = other.item[s1][s2]...`: a view of the section (guide: The coordinator).
    std::string sectionView(const ast::FieldAccess& target, const std::string& env, const ast::Subscript& s) {
        auto vf = s.base->as<ast::FieldAccess>();
        auto vn = vf ? vf->base->as<ast::NameRef>() : nullptr;
        if (!vn || localType(vn->name).kind != TypeKind::TaskEnvironment)
            notTranslated(s.range,
                          "assigning a section of something other than an environment array to an environment item");
        std::string dims;
        for (const auto& it : s.items) {
            if (!dims.empty())
                dims += ", ";
            switch (it.kind) {
            case ast::SubscriptItem::Kind::Whole: dims += "itrt::task::SectionDim{}"; break;
            case ast::SubscriptItem::Kind::Index:
                dims += "itrt::task::SectionDim{itrt::task::SectionDim::index, static_cast<int64_t>(" +
                        emit(*it.index) + "), 0}";
                break;
            case ast::SubscriptItem::Kind::Section:
                dims += "itrt::task::SectionDim{itrt::task::SectionDim::range, static_cast<int64_t>(" +
                        emit(*it.first) + "), static_cast<int64_t>(" + emit(*it.last) + ")}";
                break;
            }
        }
        return "v_" + env + "->section(" + cString(target.field.text) + ", *v_" + vn->name + ", " +
               cString(vf->field.text) + ", {" + dims + "})";
    }
    // `f(env.x)` to a `&` parameter: a copy the function changes, given back to the item when
    // the call ends (guide: The coordinator).
    std::string referenceArg(const ast::Expr& e) override {
        if (auto f = e.as<ast::FieldAccess>())
            if (auto n = f->base->as<ast::NameRef>()) {
                if (n->name == args_) // not a variable: the function changes a copy, dropped after the call
                    return "it_lvalue(" + emit(e) + ")";
                if (localType(n->name).kind == TypeKind::TaskEnvironment) {
                    const semantic::Type t = typeOf(e);
                    const std::string item = cString(f->field.text);
                    if (t.kind == TypeKind::DynamicArray)
                        return "itrt::task::EnvArrayRef<" + cppType(t.elementType()) + ">(prog, *v_" + n->name + ", " +
                               item + ", " + std::to_string(t.arrayDims()) + ", " + codecOf(t.elementType()) +
                               ").array()";
                    if (t.kind == TypeKind::List)
                        return "itrt::task::EnvListRef<" + cppType(t.elementType()) + ">(*v_" + n->name + ", " + item +
                               ", " + listCodecOf(t) + ").list()";
                    if (t.isNumeric() || t.kind == TypeKind::Boolean || t.kind == TypeKind::Character ||
                        t.kind == TypeKind::String || t.kind == TypeKind::Range || t.kind == TypeKind::Class)
                        return "itrt::task::EnvScalarRef<" + cppType(t) + ">(*v_" + n->name + ", " + item + ").value()";
                    notTranslated(e.range, "passing this environment item to a `&` parameter (assign it to a local "
                                           "first)");
                }
            }
        return emit(e);
    }
    std::map<std::string, std::string> externAliases() const override {
        auto r = SequentialBody::externAliases();
        r.erase(args_);
        return r;
    }

    // Targets that are not plain C++ lvalues: env items, `new TaskEnvironment`; the rest is
    // shared with functions (dimension ranges of local arrays, `new` arrays).
    std::string assign(const ast::Assign& a) override {
        if (std::string d = dimensionAssign(a); !d.empty())
            return d;
        const ast::Expr* t = a.target.get();
        if (auto sub = t->as<ast::Subscript>())
            if (auto f = sub->base->as<ast::FieldAccess>())
                if (auto n = f->base->as<ast::NameRef>(); n && localType(n->name).kind == TypeKind::TaskEnvironment)
                    return envElementAssign(a, *sub, *f, n->name);
        if (auto f = t->as<ast::FieldAccess>()) {
            if (auto n = f->base->as<ast::NameRef>(); n && localType(n->name).kind == TypeKind::TaskEnvironment) {
                // `a.x = b.y = c.z`: the inner assignment first, then this one from its target.
                if (auto chain = a.value->as<ast::Assign>())
                    return "(" + assign(*chain) + ", " + envAssign(*f, n->name, *chain->target, a.range) + ")";
                return envAssign(*f, n->name, *a.value, a.range);
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
        }
        if (auto chain = a.value->as<ast::Assign>())
            return emit(*t) + " = " + assign(*chain);
        return SequentialBody::assign(a);
    }

private:
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
        // `execute` does not wait (itrt::task::TaskScheduler): the arguments are evaluated now,
        // in the coordinator, and the task runs with copies of them.
        const semantic::TaskInfo* ti = in_.checked->findTask(task);
        std::string captures = "&prog, e_ = " + env, args;
        int count = 0;
        auto pass = [&](const std::string& value) {
            std::string name = "a" + std::to_string(count++) + "_";
            captures += ", " + name + " = " + value;
            args += ", " + name;
        };
        if (ti && ti->task->initialize) {
            const auto& params = ti->task->initialize->params;
            for (size_t i = 0; i < params.size() && i < init.size(); ++i) {
                semantic::Type t = semantic::Type::error();
                for (auto& g : ti->globals)
                    if (g.name == params[i].text)
                        t = g.type;
                if (t.isError())
                    t = ti->initializeLocals.at(params[i].text);
                pass("static_cast<" + cppType(t) + ">(" + init[i] + ")");
            }
        }
        for (auto& p : part)
            pass(p);
        return "prog.launch(" + cString(task) + ", *" + env + ", [" + captures + "]() mutable { " + taskNs_.at(task) +
               "::run(prog, *e_" + args + "); })";
    }

    std::string call(const ast::Call& c) override {
        if (std::string l = listCall(c); !l.empty())
            return l;
        const std::string& f = c.callee.text;
        auto arg = [&](size_t i) { return emit(*c.args.at(i).value); };
        if (f == "bind_input" || f == "bind_output") {
            auto item = c.args.at(1).value->as<ast::StringLiteral>();
            return arg(0) + "->" + f + "(prog, " + cString(item->value) + ", std::string(" + arg(2) + "))";
        }
        if (f == "load") {
            // `load(env.item, file)`: the next task using the item reads the file part-wise.
            auto fa = c.args.at(0).value->as<ast::FieldAccess>();
            auto en = fa ? fa->base->as<ast::NameRef>() : nullptr;
            if (auto n = c.args.at(0).value->as<ast::NameRef>();
                n && (localType(n->name).kind == TypeKind::DynamicArray || localType(n->name).kind == TypeKind::List))
                return "itrt::task::load(prog, v_" + n->name + ", " + fileCodecOf(localType(n->name)) +
                       ", std::string(" + arg(1) + "))";
            if (!en || localType(en->name).kind != TypeKind::TaskEnvironment)
                notTranslated(c.range, "`load` into something other than an environment item or a coordinator array");
            return "v_" + en->name + "->load(prog, " + cString(fa->field.text) + ", std::string(" + arg(1) + "))";
        }
        if (f == "store") {
            // `store(env.item, file)`: the item as the last task left it, written now.
            if (auto fa = c.args.at(0).value->as<ast::FieldAccess>())
                if (auto en = fa->base->as<ast::NameRef>(); en && localType(en->name).kind == TypeKind::TaskEnvironment)
                    return "v_" + en->name + "->write_item(prog, " + cString(fa->field.text) + ", std::string(" +
                           arg(1) + "))";
            // Any other array or list value (a coordinator array, a section, a function's result).
            const semantic::Type t = typeOf(*c.args.at(0).value);
            if (t.kind != TypeKind::DynamicArray && t.kind != TypeKind::List)
                notTranslated(c.range, "`store` of this value");
            return "itrt::task::store(prog, " + arg(0) + ", " + fileCodecOf(t) + ", std::string(" + arg(1) + "))";
        }
        if (currentFunctions() && currentFunctions()->find(c, types_))
            return SequentialBody::call(c);
        notTranslated(c.range, "calling `" + f + "` in the coordinator");
    }

    void stmt(Out& o, const ast::Stmt& s) override {
        if (auto es = s.as<ast::ExprStmt>())
            if (auto x = es->expr->as<ast::Execute>()) {
                o << lineComment(in_, s.range);
                o << execute(*x) << ";\n";
                return;
            }
        SequentialBody::stmt(o, s);
    }

    std::map<std::string, std::string> taskNs_;
    std::string args_;
};

// Classes and static arrays need <array> and offsetof (<cstddef>).
bool usesStaticArrays(const BackendInput& in) { return !in.checked->classes.empty(); }

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
    s += "m.core = " + std::to_string(m.coreLevel().value_or(1)) + ";\n";
    if (!m.processors.empty()) {
        s += "m.processors = {";
        for (size_t i = 0; i < m.processors.size(); ++i)
            s += (i ? ", " : "") + std::to_string(m.processors[i]);
        s += "};\n";
    }
    s += "return m;\n}\n\n";
    return s;
}

// The `execute`s of a coordinator body; one inside a loop counts as two (it runs many times).
int executeCount(const ast::Block& b, bool inLoop) {
    int n = 0;
    for (const auto& s : b.stmts) {
        if (auto es = s->as<ast::ExprStmt>(); es && es->expr->as<ast::Execute>())
            n += inLoop ? 2 : 1;
        else if (auto f = s->as<ast::SequentialFor>())
            n += executeCount(f->body, true);
        else if (auto w = s->as<ast::While>())
            n += executeCount(w->body, true);
        else if (auto i = s->as<ast::If>()) {
            for (const auto& br : i->branches)
                n += executeCount(br.body, inLoop);
            if (i->elseBody)
                n += executeCount(*i->elseBody, inLoop);
        }
    }
    return n;
}

} // namespace

BackendOutput emitProgram(const BackendInput& in) {
    BackendOutput out;
    FunctionTable functions(in);
    FunctionScope scope(&functions);
    Out o;
    o << "namespace it_program {\n\n";
    o << "inline const char* kProgramName = " << cString(in.programFile) << ";\n\n";
    o << machineDesc(in);
    // Tasks can only overlap when the coordinator may launch more than one; otherwise the runtime
    // keeps MPI_THREAD_SERIALIZED, whose messages are cheaper (TaskScheduler).
    o << "inline constexpr bool kConcurrentTasks = "
      << (executeCount(in.program->coordinators.at(0).body, false) > 1 ? "true" : "false") << ";\n\n";
    o << argsTable(in, in.program->coordinators.at(0));
    emitClasses(o, in);
    emitFunctions(o, functions);
    std::map<std::string, std::string> taskNs;
    for (size_t i = 0; i < in.program->tasks.size(); ++i) {
        const ast::TaskDef& def = in.program->tasks[i];
        const semantic::TaskInfo* info = in.checked->findTask(def.name.text);
        const semantic::TaskPlan* plan = nullptr;
        for (const auto& p : in.plan->tasks)
            if (p.task == def.name.text)
                plan = &p;
        if (!info || !plan)
            throw std::logic_error("no checked form or plan for task " + def.name.text);
        TaskEmitter te(in, def, *info, *plan, static_cast<int>(i));
        te.emit(o);
        taskNs[def.name.text] = te.ns();
        out.callsBlas = out.callsBlas || te.callsBlas();
    }
    Coordinator c(in, taskNs);
    c.emit(o, in.program->coordinators.at(0));
    o << "} // namespace it_program\n\n";
    // Headers of native code (@Includes) and of static arrays, outside the program's namespace.
    std::string includes = externIncludes(*in.program);
    if (usesStaticArrays(in))
        includes = "#include <array>\n#include <cstddef>\n" + includes;
    if (!includes.empty())
        includes = "// Headers of the program's native code and classes.\n" + includes + "\n";
    if (out.callsBlas)
        includes = "// Stages recognised as dense linear algebra call BLAS through these.\n"
                   "#include \"runtime/task/dense_views.h\"\n\n" +
                   includes;
    std::string code = std::string(prologueTemplate()) + "\n" + includes + o.str() + mainTemplate();
    out.cpp = formatCpp(code, "program.cpp");
    return out;
}

} // namespace itc::backend
