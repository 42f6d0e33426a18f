// The whole generated program: prologue template, the machine model as placement data, one
// namespace per task, the coordinator (guide: The coordinator) as a function run by every rank in
// the same order, and the main template. Reads top to bottom like the pipeline it ends.
#include "backend/environment_body.h"
#include "backend/task_emitter.h"
#include "pcubes/machine_model.h"

#include <algorithm>

namespace itc::backend {

using semantic::TypeKind;

namespace {

class Coordinator : public EnvironmentBody {
public:
    Coordinator(const BackendInput& in, std::map<std::string, std::string> taskNs)
        : EnvironmentBody(in, &in.checked->exprTypes, &in.checked->coordinatorLocals, "prog"),
          taskNs_(std::move(taskNs)) {}

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
        return EnvironmentBody::fieldOfName(f, base);
    }
    // `f(args.x)` to a `&` parameter: not a variable, the function changes a copy dropped after
    // the call; environment items as EnvironmentBody::referenceArg.
    std::string referenceArg(const ast::Expr& e) override {
        if (auto f = e.as<ast::FieldAccess>())
            if (auto n = f->base->as<ast::NameRef>(); n && n->name == args_)
                return "it_lvalue(" + emit(e) + ")";
        return EnvironmentBody::referenceArg(e);
    }
    std::map<std::string, std::string> externAliases() const override {
        auto r = SequentialBody::externAliases();
        r.erase(args_);
        return r;
    }

    // `env = new TaskEnvironment(...)`; environment items as EnvironmentBody::assign.
    std::string assign(const ast::Assign& a) override {
        const ast::Expr* t = a.target.get();
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
        return EnvironmentBody::assign(a);
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
        return "prog.launch(" + cString(task) + ", *" + env + ", [" + captures + "]() mutable { e_->executing_at(" +
               whereOf(e.range) + "); " + taskNs_.at(task) + "::run(prog, *e_" + args + "); })";
    }

    std::string call(const ast::Call& c) override {
        if (std::string l = listCall(c); !l.empty())
            return l;
        const std::string& f = c.callee.text;
        auto arg = [&](size_t i) { return emit(*c.args.at(i).value); };
        if (f == "bind_input" || f == "bind_output") {
            auto item = c.args.at(1).value->as<ast::StringLiteral>();
            // An array item's input also gets its element type: the coordinator, or the write of
            // a bound output, may read the file before any task links the item.
            std::string typed;
            if (const semantic::TaskInfo* ti = in_.checked->findTask(typeOf(*c.args.at(0).value).name);
                ti && f == "bind_input")
                for (const auto& g : ti->globals)
                    if (g.name == item->value && g.type.kind == TypeKind::DynamicArray)
                        typed = ", " + fileCodecOf(g.type) + ", " + std::to_string(g.type.arrayDims());
            return arg(0) + "->" + f + "(prog, " + cString(item->value) + ", std::string(" + arg(2) + ")" + typed +
                   ", " + whereOf(c.range) + ")";
        }
        if (f == "load" || f == "store") // errors deep in the runtime name the statement's line
            return "(itrt::StatementScope(" + whereOf(c.range) + ", " + cString(f) + "), " + loadOrStore(c) + ")";
        if (currentFunctions() && currentFunctions()->find(c, types_))
            return SequentialBody::call(c);
        notTranslated(c.range, "calling `" + f + "` in the coordinator");
    }

    std::string loadOrStore(const ast::Call& c) {
        const std::string& f = c.callee.text;
        auto arg = [&](size_t i) { return emit(*c.args.at(i).value); };
        if (f == "load") {
            // `load(env.item, file)`: the next task using the item reads the file part-wise.
            auto fa = c.args.at(0).value->as<ast::FieldAccess>();
            auto en = fa ? fa->base->as<ast::NameRef>() : nullptr;
            if (auto n = c.args.at(0).value->as<ast::NameRef>();
                n && (localType(n->name).kind == TypeKind::DynamicArray || localType(n->name).kind == TypeKind::List))
                return "itrt::task::load(prog, v_" + n->name + ", " + fileCodecOf(localType(n->name)) +
                       ", std::string(" + arg(1) + ")" +
                       (localType(n->name).kind == TypeKind::List ? listRankArg(localType(n->name)) : std::string()) +
                       ")";
            if (en && localType(en->name).kind == TypeKind::TaskEnvironment) {
                // An array item also gets its element type: the coordinator may read it first.
                const semantic::Type item = typeOf(*c.args.at(0).value);
                return "v_" + en->name + "->load(prog, " + cString(fa->field.text) + ", std::string(" + arg(1) + ")" +
                       (item.kind == TypeKind::DynamicArray
                            ? ", " + fileCodecOf(item) + ", " + std::to_string(item.arrayDims())
                            : std::string()) +
                       ", " + whereOf(c.range) + ")";
            }
            const ast::Expr& target = *c.args.at(0).value;
            const semantic::Type t = typeOf(target);
            if (t.kind == TypeKind::StaticArray) // a fixed-size array: the file's lengths must be its own
                return "itrt::task::load_static(prog, " + emit(target) + ", " +
                       fileCodecOf(semantic::Type::dynamicArray(t.arrayDims(), t.elementType())) + ", std::string(" +
                       arg(1) + "), " + whereOf(c.range) + ")";
            if (auto s = target.as<ast::Subscript>();
                s && typeOf(*s->base).kind == TypeKind::StaticArray && t.isArray()) // a fixed-size array's section
                return "itrt::task::assign_static_section(" + emit(*s->base) + ", " +
                       sectionItems(
                           s, typeOf(*s->base).arrayDims(), [&](const ast::Expr& e) { return emit(e); },
                           [](int) { return "{false, 0, 0, true}"; }) +
                       ", itrt::task::loaded_array<" + cppType(t.elementType()) + ">(prog, " +
                       std::to_string(t.arrayDims()) + ", " + fileCodecOf(t) + ", std::string(" + arg(1) + ")), " +
                       whereOf(c.range) + ")";
            if (auto s = target.as<ast::Subscript>(); s && isSection(target)) // by position into the section
                return "itrt::task::assign_section(" + sectionArgument(*s) + ", itrt::task::loaded_array<" +
                       cppType(t.elementType()) + ">(prog, " + std::to_string(t.arrayDims()) + ", " + fileCodecOf(t) +
                       ", std::string(" + arg(1) + ")), " + whereOf(c.range) + ")";
            if ((t.kind == TypeKind::DynamicArray || t.kind == TypeKind::List) && target.as<ast::Subscript>())
                // an element of an array of arrays or lists: the element, as a variable
                return "itrt::task::load(prog, " + emit(target) + ", " + fileCodecOf(t) + ", std::string(" + arg(1) +
                       ")" + (t.kind == TypeKind::List ? listRankArg(t) : std::string()) + ")";
            notTranslated(c.range, "`load` into something other than an environment item or a coordinator array");
        }
        if (f == "store") {
            // `store(env.item, file)`: the item as the last task left it, written now.
            if (auto fa = c.args.at(0).value->as<ast::FieldAccess>())
                if (auto en = fa->base->as<ast::NameRef>(); en && localType(en->name).kind == TypeKind::TaskEnvironment)
                    return "v_" + en->name + "->write_item(prog, " + cString(fa->field.text) + ", std::string(" +
                           arg(1) + "))";
            // Any other array or list value (a coordinator array, a section, a function's result).
            const semantic::Type t = typeOf(*c.args.at(0).value);
            if (t.kind == TypeKind::StaticArray) // a fixed-size array: indices from 0
                return "itrt::task::store(prog, itrt::task::static_array_value(" + arg(0) + "), " +
                       fileCodecOf(semantic::Type::dynamicArray(t.arrayDims(), t.elementType())) + ", std::string(" +
                       arg(1) + "))";
            if (t.kind != TypeKind::DynamicArray && t.kind != TypeKind::List)
                notTranslated(c.range, "`store` of this value");
            return "itrt::task::store(prog, " + arg(0) + ", " + fileCodecOf(t) + ", std::string(" + arg(1) + "))";
        }
        notTranslated(c.range, "`" + f + "`");
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
