// The `args` keys the coordinator reads, as static data of the generated program (kArgs): the
// runtime prints them for `--help` and rejects other keys, suggesting the nearest. The type is
// what the program converts the text to where the context fixes it (an assigned variable or
// environment item, an Initialize parameter, a partition argument, a file name); elsewhere the
// conversion depends on the expression around the read, which is "as used".
#include "backend/emitter.h"
#include "frontend/ast/ast_visitor.h"

#include <algorithm>

namespace itc::backend {

using semantic::TypeKind;

namespace {

class ArgReads : public ast::Visitor {
public:
    struct Key {
        std::string key;
        std::vector<std::string> types; // distinct, in source order
        std::vector<std::uint32_t> lines;
    };

    ArgReads(const BackendInput& in, const std::string& argsName) : in_(in), args_(argsName) {}
    const std::vector<Key>& keys() const { return keys_; }

    void visitFieldAccess(const ast::FieldAccess& f) override {
        if (argRead(f)) {
            auto hint = hints_.find(&f);
            note(f.field.text, hint == hints_.end() ? "as used" : hint->second, f.range.begin.line);
            return;
        }
        Visitor::visitFieldAccess(f);
    }
    void visitAssign(const ast::Assign& a) override {
        if (a.value) {
            auto local = a.target->as<ast::NameRef>();
            std::string type = typeText(typeOf(*a.target, local));
            // `p = args.p` keeps the text: p's uses that fix a type give args.p that type.
            if (auto f = argRead(*a.value); f && local && type == "as used")
                keyOfLocal_[local->name] = f->field.text;
            else if (local)
                keyOfLocal_.erase(local->name);
            hint(*a.value, type);
        }
        Visitor::visitAssign(a);
    }
    void visitExecute(const ast::Execute& e) override {
        const semantic::TaskInfo* ti = nullptr;
        for (const auto& a : e.args)
            if (a.label == ast::ExecuteArg::Label::Task)
                if (auto s = a.values.at(0)->as<ast::StringLiteral>())
                    ti = in_.checked->findTask(s->value);
        for (const auto& a : e.args) {
            if (a.label == ast::ExecuteArg::Label::Partition)
                for (const auto& v : a.values)
                    hint(*v, "Integer");
            if (a.label == ast::ExecuteArg::Label::Initialize && ti && ti->task->initialize)
                for (size_t i = 0; i < a.values.size() && i < ti->task->initialize->params.size(); ++i)
                    hint(*a.values[i], typeText(initializeParam(*ti, ti->task->initialize->params[i].text)));
        }
        Visitor::visitExecute(e);
    }
    void visitCall(const ast::Call& c) override {
        // The file name of bind_input(env, "item", file), bind_output, load(item, file), store(a, file).
        const std::string& f = c.callee.text;
        size_t file = f == "bind_input" || f == "bind_output" ? 2 : f == "load" || f == "store" ? 1 : 0;
        if (file && file < c.args.size() && c.args[file].value)
            hint(*c.args[file].value, "file name");
        Visitor::visitCall(c);
    }

private:
    const ast::FieldAccess* argRead(const ast::Expr& e) const {
        auto f = e.as<ast::FieldAccess>();
        auto n = f ? f->base->as<ast::NameRef>() : nullptr;
        return n && n->name == args_ ? f : nullptr;
    }
    // Only a read that is the whole value gets the context's type (`args.n * 2` is "as used").
    void hint(const ast::Expr& value, std::string type) {
        if (auto f = argRead(value))
            hints_[f] = std::move(type);
        else if (auto n = value.as<ast::NameRef>())
            if (auto it = keyOfLocal_.find(n->name); it != keyOfLocal_.end() && type != "as used")
                note(it->second, type, 0);
    }
    semantic::Type typeOf(const ast::Expr& e, const ast::NameRef* name) const {
        const auto& types = in_.checked->exprTypes;
        if (auto it = types.find(&e); it != types.end())
            return it->second;
        if (name)
            if (auto it = in_.checked->coordinatorLocals.find(name->name); it != in_.checked->coordinatorLocals.end())
                return it->second;
        return semantic::Type::error();
    }
    // As Coordinator::execute converts Initialize arguments: a task-global or an Initialize local.
    static semantic::Type initializeParam(const semantic::TaskInfo& ti, const std::string& param) {
        for (const auto& g : ti.globals)
            if (g.name == param)
                return g.type;
        auto it = ti.initializeLocals.find(param);
        return it == ti.initializeLocals.end() ? semantic::Type::error() : it->second;
    }
    static std::string typeText(const semantic::Type& t) {
        switch (t.kind) {
        case TypeKind::Error:
        case TypeKind::ArgValue: // a variable that keeps the text converts it where it is used
            return "as used";
        case TypeKind::String: return "text";
        case TypeKind::RealLiteral: return "Real";
        default: return semantic::typeName(t);
        }
    }
    void note(const std::string& key, const std::string& type, std::uint32_t line) {
        auto it = std::find_if(keys_.begin(), keys_.end(), [&](const Key& k) { return k.key == key; });
        if (it == keys_.end())
            it = keys_.insert(keys_.end(), Key{key, {}, {}});
        if (std::find(it->types.begin(), it->types.end(), type) == it->types.end())
            it->types.push_back(type);
        if (line && std::find(it->lines.begin(), it->lines.end(), line) == it->lines.end())
            it->lines.push_back(line);
    }

    const BackendInput& in_;
    std::string args_;
    std::map<const ast::FieldAccess*, std::string> hints_;
    std::map<std::string, std::string> keyOfLocal_; // local -> the key whose text it holds
    std::vector<Key> keys_;
};

} // namespace

std::string argsTable(const BackendInput& in, const ast::Coordinator& c) {
    ArgReads reads(in, c.argsName.text);
    reads.visitCoordinator(c);
    const std::string file = programBaseName(in);
    std::string s = "// The `args` keys the coordinator reads (`--help`; other keys are errors): key, the type\n"
                    "// the program converts it to, the IT lines reading it.\n"
                    "inline const std::vector<itrt::task::ArgSpec> kArgs = {\n";
    for (const auto& k : reads.keys()) {
        // A key also read where the context fixes no type still has that type where it does.
        std::vector<std::string> types = k.types;
        if (types.size() > 1)
            std::erase(types, "as used");
        std::string type, lines = file + ":";
        for (size_t i = 0; i < types.size(); ++i)
            type += (i ? " / " : "") + types[i];
        for (size_t i = 0; i < k.lines.size(); ++i)
            lines += (i ? ", " : "") + std::to_string(k.lines[i]);
        s += "{" + cString(k.key) + ", " + cString(type) + ", " + cString(lines) + "},\n";
    }
    return s + "};\n\n";
}

} // namespace itc::backend
