// Functions, classes and native code (guide: Functions, Types, Native code: @Extern): one C++
// function per function instance (guide: Types; arguments by value, `&` parameters by reference),
// class structs with their element codecs, @Extern blocks with the IT variables they see (guide:
// Native code: @Extern), and the sequential body emitter that functions share with the coordinator.
// No task or flow code here.
#include "backend/capability.h"
#include "backend/emitter.h"
#include "backend/held_part_uses.h"
#include "backend/environment_body.h"
#include "frontend/ast/ast_visitor.h"
#include "semantic/builtins/builtins.h"

#include <algorithm>
#include <functional>
#include <set>

namespace itc::backend {

using semantic::TypeKind;

// ---------------------------------------------------------------------------------------------
// The function table
// ---------------------------------------------------------------------------------------------

namespace {
thread_local const FunctionTable* current = nullptr;
}

const FunctionTable* currentFunctions() { return current; }
FunctionScope::FunctionScope(const FunctionTable* t) : saved(current) { current = t; }
FunctionScope::~FunctionScope() { current = saved; }

FunctionTable::FunctionTable(const BackendInput& in) : in_(in) {
    std::map<std::string, int> count;
    for (const semantic::FunctionInstance& f : in.checked->functions)
        entries_.push_back({&f, "fn_" + f.function->name.text + "_" + std::to_string(count[f.function->name.text]++)});
    held_ = stridedPartHolders(in);
}

const FunctionTable::Entry* FunctionTable::find(const ast::Call& c, const semantic::ExprTypes* callerTypes) const {
    std::vector<semantic::Type> args;
    for (const auto& a : c.args) {
        semantic::Type t = semantic::Type::error();
        if (a.value && callerTypes)
            if (auto it = callerTypes->find(a.value.get()); it != callerTypes->end())
                t = semantic::inferredLocalType(it->second);
        args.push_back(t);
    }
    for (const Entry& e : entries_) {
        const ast::FunctionDef& fn = *e.instance->function;
        if (fn.name.text != c.callee.text)
            continue;
        if (fn.form == ast::FunctionDef::Form::Paper || e.instance->argTypes == args)
            return &e;
    }
    return nullptr;
}

// The type of parameter i of an instance: declared (paper form) or the call's (brace form).
static semantic::Type paramType(const semantic::FunctionInstance& inst, size_t i) {
    const ast::FunctionDef& fn = *inst.function;
    if (fn.form == ast::FunctionDef::Form::Brace)
        return inst.argTypes.at(i);
    size_t k = 0;
    for (const auto& d : fn.arguments)
        for (const auto& n : d.names)
            if (k++ == i)
                return inst.locals.at(n.text);
    throw std::logic_error("paper-form function parameter out of range");
}

static std::vector<std::pair<std::string, bool>> paramNames(const ast::FunctionDef& fn) {
    std::vector<std::pair<std::string, bool>> r; // (name, by reference)
    if (fn.form == ast::FunctionDef::Form::Brace) {
        for (const auto& p : fn.params)
            r.push_back({p.name.text, p.byReference});
    } else {
        for (const auto& d : fn.arguments)
            for (const auto& n : d.names)
                r.push_back({n.text, false});
    }
    return r;
}

std::string ExprEmitter::listCall(const ast::Call& c) {
    const std::string& f = c.callee.text;
    if (!semantic::isBuiltinOf(f, semantic::BuiltinFamily::List))
        return "";
    std::string where = whereOf(c.range); // run-time misuse names the IT line
    // The list itself (not for `value` and `advance`, which take a cursor).
    const bool onList = f == "get_cursor" || f == "insert_at" || f == "remove_at" || f == "set_capacity";
    std::string commit;
    std::string args;
    for (const auto& a : c.args) {
        // An array inserted into a List of Arrays from a stage: the LPU's part, as it sees it.
        const bool part = f == "insert_at" && &a == &c.args.back() && !wholeArrays() && typeOf(*a.value).isArray();
        const bool list = onList && &a == &c.args.front();
        args += (args.empty() ? "" : ", ") + (part   ? partArgument(*a.value, false)
                                              : list ? listOperand(*a.value, commit)
                                                     : emit(*a.value));
    }
    std::string call;
    if (f == "get_cursor" || f == "advance")
        call = "itrt::task::it_" + f + "(" + args + ")";
    else if (f == "set_capacity")
        call = "itrt::task::it_set_capacity(" + listOperand(*c.args.at(0).value, commit) + ", static_cast<int64_t>(" +
               emit(*c.args.at(1).value) + "), " + where + ")";
    else
        call = "itrt::task::it_" + f + "(" + args + ", " + where + ")";
    // A changed list goes back where it lives before the statement ends (get_cursor changes nothing).
    return commit.empty() || f == "get_cursor" ? call : "(" + call + ", " + commit + ")";
}

std::string ExprEmitter::whereOf(SourceRange r) const {
    const FunctionTable* table = currentFunctions();
    return cString((table ? table->in().programFile : std::string("program")) + ":" + std::to_string(r.begin.line));
}

const ast::Epoch* innermostEpoch(const ast::Expr& e) {
    const ast::Epoch* ep = e.as<ast::Epoch>();
    while (ep && ep->operand->as<ast::Epoch>())
        ep = ep->operand->as<ast::Epoch>();
    return ep;
}

const ast::Expr& withoutEpochs(const ast::Expr& e) {
    const ast::Epoch* ep = innermostEpoch(e);
    return ep ? *ep->operand : e;
}

std::optional<SectionElement> sectionElementShape(const ast::Subscript& s) {
    SectionElement se;
    se.sectionEpoch = innermostEpoch(*s.base);
    se.section = withoutEpochs(*s.base).as<ast::Subscript>();
    if (!se.section)
        return std::nullopt;
    se.arrayEpoch = innermostEpoch(*se.section->base);
    se.array = withoutEpochs(*se.section->base).as<ast::NameRef>();
    if (!se.array)
        return std::nullopt;
    return se;
}

bool keepsDimension(const ast::Subscript& s, const semantic::Type& base) {
    if (static_cast<int>(s.items.size()) < base.arrayDims())
        return true;
    return std::any_of(s.items.begin(), s.items.end(),
                       [](const ast::SubscriptItem& it) { return it.kind != ast::SubscriptItem::Kind::Index; });
}

bool isArraySection(const ast::Expr& e, const std::function<semantic::Type(const ast::Expr&)>& typeOf) {
    auto* s = e.as<ast::Subscript>();
    return s && typeOf(*s->base).kind == TypeKind::DynamicArray && keepsDimension(*s, typeOf(*s->base));
}

bool ExprEmitter::isSection(const ast::Expr& e) const {
    return isArraySection(e, [&](const ast::Expr& x) { return typeOf(x); });
}

std::string ExprEmitter::sectionValue(const ast::Subscript& s, const std::string& array, int dims) {
    const std::string items = sectionItems(
        &s, dims, [&](const ast::Expr& e) { return emit(e); }, [](int) { return "{false, 0, 0, true}"; });
    return "itrt::task::section_of(" + array + ", " + items + ", " + whereOf(s.range) + ")";
}

std::string ExprEmitter::staticSectionAssign(const ast::Assign& a) {
    auto s = a.target->as<ast::Subscript>();
    if (!s)
        return "";
    const semantic::Type bt = typeOf(*s->base);
    if (bt.kind != TypeKind::StaticArray || heldAsTaskArray(*s->base) || !typeOf(*a.target).isArray())
        return "";
    const std::string items = sectionItems(
        s, bt.arrayDims(), [&](const ast::Expr& e) { return emit(e); }, [](int) { return "{false, 0, 0, true}"; });
    // In a stage, a value that is (a section of) a task array is the LPU's part of it.
    const ast::Expr* root = a.value.get();
    if (auto vs = root->as<ast::Subscript>())
        root = vs->base.get();
    const semantic::Type rt = typeOf(*root);
    const bool part = !wholeArrays() && (rt.kind == TypeKind::DynamicArray ||
                                         (rt.kind == TypeKind::StaticArray && heldAsTaskArray(*root)));
    return "itrt::task::assign_static_section(" + emit(*s->base) + ", " + items + ", " +
           (part ? partArgument(*a.value, false) : emit(*a.value)) + ", " + whereOf(a.range) + ")";
}

// A section of a fixed-size array that is a class field or a local to a `&` parameter: a copy
// written back into it when the call ends.
std::string ExprEmitter::staticSectionArgument(const ast::Subscript& s) {
    const semantic::Type t = typeOf(*s.base);
    const std::string items = sectionItems(
        &s, t.arrayDims(), [&](const ast::Expr& e) { return emit(e); }, [](int) { return "{false, 0, 0, true}"; });
    return "itrt::task::StaticSectionArgument<" + cppType(t) + ", " + std::to_string(t.arrayDims()) + ">(" +
           referenceArg(*s.base) + ", " + items + ", " + whereOf(s.range) + ").array()";
}

// A section to a `&` parameter: a copy written back into the array when the call ends.
std::string ExprEmitter::sectionArgument(const ast::Subscript& s) {
    const semantic::Type t = typeOf(*s.base);
    const std::string items = sectionItems(
        &s, t.arrayDims(), [&](const ast::Expr& e) { return emit(e); }, [](int) { return "{false, 0, 0, true}"; });
    return "itrt::task::SectionArgument<" + cppType(t.elementType()) + ", " + std::to_string(t.arrayDims()) + ">(" +
           referenceArg(*s.base) + ", " + items + ", " + whereOf(s.range) + ").array()";
}

std::string sectionItems(const ast::Subscript* s, int dims, const std::function<std::string(const ast::Expr&)>& expr,
                         const std::function<std::string(int)>& whole) {
    std::vector<const ast::SubscriptItem*> of;
    for (int d = 0; s && d < static_cast<int>(s->items.size()); ++d)
        of.push_back(&s->items[static_cast<size_t>(d)]);
    return sectionItems(of, dims, expr, whole);
}

std::vector<const ast::SubscriptItem*> composedItems(const ast::Subscript* inner, const ast::Subscript& outer,
                                                     int dims) {
    std::vector<const ast::SubscriptItem*> items;
    if (!inner) {
        for (const auto& it : outer.items)
            items.push_back(&it);
        return items;
    }
    size_t next = 0;
    for (int d = 0; d < dims; ++d) {
        const ast::SubscriptItem* in =
            d < static_cast<int>(inner->items.size()) ? &inner->items[static_cast<size_t>(d)] : nullptr;
        const bool kept = !in || in->kind != ast::SubscriptItem::Kind::Index;
        const ast::SubscriptItem* out = kept && next < outer.items.size() ? &outer.items[next++] : nullptr;
        items.push_back(out && out->kind != ast::SubscriptItem::Kind::Whole ? out : in);
    }
    return items;
}

std::string sectionItems(const std::vector<const ast::SubscriptItem*>& of, int dims,
                         const std::function<std::string(const ast::Expr&)>& expr,
                         const std::function<std::string(int)>& whole) {
    std::string items;
    for (int d = 0; d < dims; ++d) {
        const ast::SubscriptItem* it = d < static_cast<int>(of.size()) ? of[static_cast<size_t>(d)] : nullptr;
        std::string item = whole(d);
        if (it && it->kind == ast::SubscriptItem::Kind::Index) {
            std::string i = "static_cast<int64_t>(" + expr(*it->index) + ")";
            item = "{true, " + i + ", " + i + "}";
        } else if (it && it->kind == ast::SubscriptItem::Kind::Section) {
            item = "{false, static_cast<int64_t>(" + expr(*it->first) + "), static_cast<int64_t>(" + expr(*it->last) +
                   ")}";
        }
        items += (items.empty() ? "" : ", ") + item;
    }
    return "std::array<itrt::task::SectionItem, " + std::to_string(dims) + ">{{" + items + "}}";
}

std::string ExprEmitter::partArgument(const ast::Expr& a, bool) {
    notTranslated(a.range, "passing a whole array or list to a function in the Computation section");
}

std::string ExprEmitter::call(const ast::Call& c) {
    if (std::string l = listCall(c); !l.empty())
        return l;
    const FunctionTable* table = currentFunctions();
    const FunctionTable::Entry* e = table ? table->find(c, types_) : nullptr;
    if (!e)
        notTranslated(c.range, "calling `" + c.callee.text + "` here");
    const semantic::FunctionInstance& inst = *e->instance;
    auto params = paramNames(*inst.function);
    std::string s = e->name + "(";
    for (size_t i = 0; i < c.args.size(); ++i) {
        const ast::Expr& a = *c.args[i].value;
        semantic::Type at = typeOf(a);
        if (i)
            s += ", ";
        if (params.at(i).second && isSection(a) && wholeArrays()) {
            s += sectionArgument(*a.as<ast::Subscript>());
            continue;
        }
        if (auto sub = a.as<ast::Subscript>(); sub && params.at(i).second && at.isArray() &&
                                               typeOf(*sub->base).kind == TypeKind::StaticArray &&
                                               !heldAsTaskArray(*sub->base)) {
            s += staticSectionArgument(*sub);
            continue;
        }
        if ((at.kind == TypeKind::DynamicArray || at.kind == TypeKind::List ||
             (at.kind == TypeKind::StaticArray && heldAsTaskArray(a))) &&
            !wholeArrays()) {
            s += partArgument(a, params.at(i).second);
            continue;
        }
        if (params.at(i).second) {
            s += referenceArg(a);
            continue;
        }
        semantic::Type pt = paramType(inst, i);
        std::string v = emit(a);
        s += semantic::inferredLocalType(at) == pt ? v : "static_cast<" + cppType(pt) + ">(" + v + ")";
    }
    return s + ")";
}

// ---------------------------------------------------------------------------------------------
// Native code
// ---------------------------------------------------------------------------------------------

namespace {

struct ExternCollector : ast::Visitor {
    std::map<std::string, SourceLocation> includes; // header -> where it is first included
    void visitExtern(const ast::Extern& x) override {
        for (const auto& i : x.includes)
            includes.emplace(i.text, i.range.valid() ? i.range.begin : x.range.begin);
    }
};

} // namespace

bool isCppKeyword(const std::string& n) {
    static const std::set<std::string> k = {
        "alignas",     "alignof",   "and",        "and_eq",    "asm",      "auto",         "bitand",
        "bitor",       "bool",      "break",      "case",      "catch",    "char",         "char8_t",
        "char16_t",    "char32_t",  "class",      "compl",     "concept",  "const",        "consteval",
        "constexpr",   "constinit", "const_cast", "continue",  "co_await", "co_return",    "co_yield",
        "decltype",    "default",   "delete",     "do",        "double",   "dynamic_cast", "else",
        "enum",        "explicit",  "export",     "extern",    "false",    "float",        "for",
        "friend",      "goto",      "if",         "inline",    "int",      "long",         "mutable",
        "namespace",   "new",       "noexcept",   "not",       "not_eq",   "nullptr",      "operator",
        "or",          "or_eq",     "private",    "protected", "public",   "register",     "reinterpret_cast",
        "requires",    "return",    "short",      "signed",    "sizeof",   "static",       "static_assert",
        "static_cast", "struct",    "switch",     "template",  "this",     "thread_local", "throw",
        "true",        "try",       "typedef",    "typeid",    "typename", "union",        "unsigned",
        "using",       "virtual",   "void",       "volatile",  "wchar_t",  "while",        "xor",
        "xor_eq"};
    return k.count(n) != 0;
}

// Names the generated code itself uses where IT names live: macros, namespaces and types it
// spells unqualified. An IT name equal to one cannot stand for itself in C++.
bool isReservedInCpp(const std::string& n) {
    static const std::set<std::string> k = {
        "errno",   "assert",  "offsetof", "setjmp",   "va_arg",     "va_start", "va_end",    "va_copy",  "stdin",
        "stdout",  "stderr",  "std",      "itrt",     "it_program", "main",     "int8_t",    "int16_t",  "int32_t",
        "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t",   "size_t",   "ptrdiff_t", "intptr_t", "uintptr_t"};
    return isCppKeyword(n) || k.count(n) != 0;
}

// The shapes of the names the generated stage and flow code makes from IT names (`i_lo`, `i_hi`
// of a loop index (`i_p` over a strided part), `r_i` of a sequential loop's range, `x_v` and `x_1` of a parameter's
// views, `d_x` of an array used directly, `v_x` of a flow's views) and its own helpers (`acc_`, `it_...`, `itc_...`):
// an IT name of such a shape is renamed too, so that neither hides the other.
static bool shapedLikeGenerated(const std::string& n) {
    auto starts = [&](std::string_view p) { return n.size() > p.size() && n.compare(0, p.size(), p) == 0; };
    auto ends = [&](std::string_view p) {
        return n.size() > p.size() && n.compare(n.size() - p.size(), p.size(), p) == 0;
    };
    if (n.empty() || n.back() == '_')
        return !n.empty();
    const std::size_t u = n.rfind('_');
    const bool numbered =
        u != std::string::npos && u + 1 < n.size() && n.find_first_not_of("0123456789", u + 1) == std::string::npos;
    return numbered || ends("_lo") || ends("_hi") || ends("_p") || ends("_v") || ends("_step") || ends("_dir") ||
           starts("r_") || starts("d_") || starts("v_") || starts("sv_") || starts("it_") || starts("itc_");
}

std::string cppName(const std::string& n) { return isReservedInCpp(n) || shapedLikeGenerated(n) ? n + "_" : n; }

// A class field lives in its struct's scope, where only keywords and macros can clash: native
// code sees it by its IT name (`p.x_1`).
std::string cppMember(const std::string& n) { return isReservedInCpp(n) ? n + "_" : n; }

std::string externIncludes(const ast::Program& p) {
    ExternCollector c;
    c.visitProgram(p);
    std::string s;
    for (const auto& [header, at] : c.includes)
        s += "// itc-native-code " + std::to_string(at.line) + ":" + std::to_string(at.column) + " begin\n#include <" +
             header + ">\n// itc-native-code end\n";
    return s;
}

std::string externBlock(const ast::Extern& x, const std::map<std::string, std::string>& aliases,
                        const std::set<std::string>& indices) {
    std::string s = "{\n";
    if (!aliases.empty() || !indices.empty())
        s += "// The IT variables this native code sees (see the guide: Native code: @Extern).\n";
    for (const auto& [name, lvalue] : aliases)
        if (!isReservedInCpp(name) && name != lvalue)
            s += "[[maybe_unused]] auto& " + name + " = " + lvalue + ";\n";
    // Loop indices are 64-bit in stage loops; native code sees an Integer (`int`, guide: Native
    // code: @Extern).
    for (const auto& i : indices)
        s += "const int32_t it_index_" + i + " = static_cast<int32_t>(" + cppName(i) + ");\n";
    if (!indices.empty()) {
        s += "{\n";
        for (const auto& i : indices)
            if (!isReservedInCpp(i))
                s += "[[maybe_unused]] const int32_t " + i + " = it_index_" + i + ";\n";
    }
    // The native code in a block of its own: its declarations may reuse IT names. The markers
    // let `itc compile` tell the user's C++ errors from its own (nativeCodeError in tools/itc/cmd_compile.cpp).
    // itrt::fail() called by the native code names this block's line.
    s += "{\nconst itrt::NativeCodeScope itc_native_scope_(kProgramName, " + std::to_string(x.range.begin.line) +
         ");\n// itc-native-code " + std::to_string(x.range.begin.line) + ":" + std::to_string(x.range.begin.column) +
         " begin\n" + x.code + "\n// itc-native-code end\n}\n}\n";
    if (!indices.empty())
        s += "}\n";
    return s;
}

// ---------------------------------------------------------------------------------------------
// Classes
// ---------------------------------------------------------------------------------------------

bool hasString(const semantic::Type& t, const semantic::CheckedProgram& cp) {
    if (t.kind == TypeKind::String)
        return true;
    if (t.kind == TypeKind::StaticArray)
        return hasString(t.elementType(), cp);
    if (t.kind == TypeKind::Class) {
        auto it = cp.classes.find(t.name);
        if (it == cp.classes.end())
            return false;
        for (const auto& f : it->second.fields)
            if (hasString(f.type, cp))
                return true;
    }
    return false;
}

bool hasFileForm(const semantic::Type& t, const semantic::CheckedProgram& cp) {
    switch (t.kind) {
    case TypeKind::Integer:
    case TypeKind::RealSingle:
    case TypeKind::RealDouble:
    case TypeKind::Character:
    case TypeKind::Boolean:
    case TypeKind::Range:
    case TypeKind::String: return true;
    case TypeKind::StaticArray: return hasFileForm(t.elementType(), cp);
    case TypeKind::Class: {
        auto it = cp.classes.find(t.name);
        if (it == cp.classes.end())
            return false;
        for (const auto& f : it->second.fields)
            if (!hasFileForm(f.type, cp))
                return false;
        return true;
    }
    default: return false;
    }
}

std::string classCodecOf(const semantic::Type& cls) {
    const FunctionTable* t = currentFunctions();
    if (t && hasString(cls, *t->in().checked) && !hasFileForm(cls, *t->in().checked))
        notTranslated(t->in().checked->classes.at(cls.name).def->name.range,
                      "an element codec for `" + cls.name + "` (a class with a String field)");
    return "c_" + cls.name + "_codec()";
}

namespace {
// The C++ type of a field in a class's file form: Strings as itrt::FixedString, classes holding
// Strings as their own file forms.
std::string fileFormType(const semantic::Type& t, const semantic::CheckedProgram& cp) {
    if (t.kind == TypeKind::String)
        return "itrt::FixedString";
    if (t.kind == TypeKind::Class && hasString(t, cp))
        return "f_" + t.name;
    if (t.kind == TypeKind::StaticArray) {
        std::string s = fileFormType(t.elementType(), cp);
        for (auto l = t.lengths.rbegin(); l != t.lengths.rend(); ++l)
            s = "std::array<" + s + ", " + std::to_string(*l) + ">";
        return s;
    }
    return cppType(t);
}

// The StructCodec of `layout` (c_<name> or its file form f_<name>): fields at their offsets,
// elements of fixed-size arrays row-major.
void emitStructCodec(Out& o, const semantic::ClassInfo& c, const std::string& layout) {
    const std::string name = c.def->name.text;
    o << "inline const itrt::ElementCodec& c_" << name << "_codec() {\n";
    o << "static const itrt::StructCodec codec(" << cString(name) << ", sizeof(" << layout << "), {";
    bool first = true;
    for (const auto& f : c.fields) {
        semantic::Type e = f.type;
        int64_t count = 1;
        while (e.kind == TypeKind::StaticArray) {
            for (auto l : e.lengths)
                count *= l;
            semantic::Type inner = e.elementType();
            e = inner;
        }
        o << (first ? "" : ", ") << "{offsetof(" << layout << ", " << cppMember(f.name) << "), &" << codecOf(e) << ", "
          << count << "}";
        first = false;
    }
    o << "});\nreturn codec;\n}\n\n";
}
} // namespace

void emitClasses(Out& o, const BackendInput& in) {
    const semantic::CheckedProgram& cp = *in.checked;
    // Dependency order: a class after the classes of its fields (no cycles, guide: Types).
    std::vector<const semantic::ClassInfo*> order;
    std::set<std::string> done;
    std::function<void(const std::string&)> visit = [&](const std::string& name) {
        auto it = cp.classes.find(name);
        if (it == cp.classes.end() || done.count(name))
            return;
        done.insert(name);
        std::function<void(const semantic::Type&)> dep = [&](const semantic::Type& t) {
            if (t.kind == TypeKind::Class)
                visit(t.name);
            else if (t.kind == TypeKind::StaticArray)
                dep(t.elementType());
        };
        for (const auto& f : it->second.fields)
            dep(f.type);
        order.push_back(&it->second);
    };
    for (const ast::ClassDef& c : in.program->classes)
        visit(c.name.text);
    for (const semantic::ClassInfo* c : order) {
        const std::string name = c->def->name.text;
        o << lineComment(in, c->def->range);
        o << "struct c_" << name << " {\n";
        for (const auto& f : c->fields) {
            o << lineComment(in, f.declared);
            o << cppType(f.type) << " " << cppMember(f.name) << "{};\n";
        }
        o << "};\n";
        if (hasString(semantic::Type::classType(name), cp)) {
            // Objects with Strings move between LPUs and into environments field by field
            // (runtime/task/list.h: value_bytes); they are not written to data files.
            o << "inline void value_append(std::vector<std::byte>& out, const c_" << name << "& v) {\n"
              << "using itrt::task::value_append;\n";
            for (const auto& f : c->fields)
                o << "value_append(out, v." << cppMember(f.name) << ");\n";
            o << "}\n";
            o << "inline const std::byte* value_read(c_" << name
              << "& v, const std::byte* p, const std::byte* end) {\nusing itrt::task::value_read;\n";
            for (const auto& f : c->fields)
                o << "p = value_read(v." << cppMember(f.name) << ", p, end);\n";
            o << "return p;\n}\n";
            o << "inline std::vector<std::byte> value_bytes(const c_" << name
              << "& v) {\nstd::vector<std::byte> out;\nvalue_append(out, v);\nreturn out;\n}\n";
            o << "inline void value_from_bytes(c_" << name
              << "& v, const std::byte* p, size_t n) {\nvalue_read(v, p, p + n);\n}\n\n";
            if (!hasFileForm(semantic::Type::classType(name), cp))
                continue;
            // In data files (coordinator arrays and lists): the file form, each String in the
            // 256 bytes a data file gives it (file_form checks that it fits).
            o << "struct f_" << name << " {\n";
            for (const auto& f : c->fields)
                o << fileFormType(f.type, cp) << " " << cppMember(f.name) << "{};\n";
            o << "};\n";
            o << "inline f_" << name << " file_form(const c_" << name << "& v) {\nf_" << name << " f;\n";
            for (const auto& f : c->fields)
                o << "itrt::task::to_file_field(f." << cppMember(f.name) << ", v." << cppMember(f.name) << ");\n";
            o << "return f;\n}\n";
            o << "inline void from_file_form(const f_" << name << "& f, c_" << name << "& v) {\n";
            for (const auto& f : c->fields)
                o << "itrt::task::from_file_field(v." << cppMember(f.name) << ", f." << cppMember(f.name) << ");\n";
            o << "}\n";
            emitStructCodec(o, *c, "f_" + name);
            continue;
        }
        // Arrays of objects are stored and read field by field (guide: Data files).
        emitStructCodec(o, *c, "c_" + name);
    }
}

// ---------------------------------------------------------------------------------------------
// Sequential bodies (coordinator and functions)
// ---------------------------------------------------------------------------------------------

semantic::Type SequentialBody::localType(const std::string& n) const {
    auto it = locals_->find(n);
    return it == locals_->end() ? semantic::Type::error() : it->second;
}

std::string SequentialBody::element(const ast::Subscript& s, const std::string& array,
                                    const std::vector<std::string>& idx, int) {
    std::string a;
    for (auto& i : idx)
        a += (a.empty() ? "" : ", ") + std::string("static_cast<int64_t>(") + i + ")";
    return nameRefText(array) + ".at({" + a + "}, " + whereOf(s.range) + ")";
}

std::string SequentialBody::nameRefText(const std::string& name) {
    ast::NameRef n;
    n.name = name;
    return nameRef(n);
}

std::string SequentialBody::dimensionRange(const ast::Expr& at, const std::string& array, int k, bool local) {
    if (local || localType(array).kind != TypeKind::DynamicArray)
        notTranslated(at.range, "this dimension attribute here");
    std::string v = nameRefText(array), ks = std::to_string(k);
    return "Range{static_cast<int32_t>(" + v + ".ranges[" + ks + "].min), static_cast<int32_t>(" + v + ".ranges[" + ks +
           "].max)}";
}

std::string SequentialBody::dimensionLvalue(const ast::Expr& array, int d) {
    auto n = array.as<ast::NameRef>();
    if (!n)
        notTranslated(array.range, "a dimension assignment to this array");
    return nameRefText(n->name) + ".ranges[" + std::to_string(d) + "]";
}

std::string SequentialBody::dimensionSource(const ast::Property& dim, int d) {
    const ast::Expr& array = *dim.base;
    if (auto n = array.as<ast::NameRef>())
        return dimensionRange(dim, n->name, d, false);
    if (auto f = array.as<ast::FieldAccess>())
        return fieldDimensionRange(dim, *f, d, false);
    const semantic::Type t = typeOf(array);
    if (t.kind == TypeKind::StaticArray && d < static_cast<int>(t.lengths.size()))
        return staticDimensionRange(t, d);
    notTranslated(dim.range, "the dimensions of this array");
}

std::string SequentialBody::dimensionAssign(const ast::Assign& a) {
    auto dimensionOf = [](const ast::Expr& e) -> const ast::Property* {
        auto p = e.as<ast::Property>();
        return p && p->property == ast::PropertyKind::Dimension ? p : nullptr;
    };
    std::vector<const ast::Property*> targets;
    const ast::Expr* v = &a;
    while (auto chain = v->as<ast::Assign>()) {
        auto t = dimensionOf(*chain->target);
        if (!t)
            return "";
        targets.push_back(t);
        v = chain->value.get();
    }
    const ast::Property* src = dimensionOf(*v);
    if (!src)
        return "";
    std::string out;
    for (const ast::Property* t : targets) {
        const bool whole = t->dimensionIndex == 0 && src->dimensionIndex == 0;
        const int dims = whole ? typeOf(*t->base).arrayDims() : 1;
        for (int d = 0; d < dims; ++d) {
            const int td = t->dimensionIndex == 0 ? d : t->dimensionIndex - 1;
            const int sd = src->dimensionIndex == 0 ? d : src->dimensionIndex - 1;
            out += (out.empty() ? "" : ", ") + std::string("itrt::task::set_dim_range(") +
                   dimensionLvalue(*t->base, td) + ", " + dimensionSource(*src, sd) + ")";
        }
    }
    return out;
}

std::string SequentialBody::assignedValue(const ast::Assign& a) {
    if (auto chain = a.value->as<ast::Assign>())
        return "(" + assign(*chain) + ", " + emit(*chain->target) + ")";
    return emit(*a.value);
}

std::string SequentialBody::assign(const ast::Assign& a) {
    if (std::string d = dimensionAssign(a); !d.empty())
        return d;
    const ast::Expr* t = a.target.get();
    if (auto f = t->as<ast::FieldAccess>()) {
        if (f->field.text == "min" || f->field.text == "max") {
            const ast::Expr* x = f->base.get();
            if (auto r = x->as<ast::Property>(); r && r->property == ast::PropertyKind::Range)
                x = r->base.get();
            if (auto d = x->as<ast::Property>(); d && d->property == ast::PropertyKind::Dimension)
                if (auto n = d->base->as<ast::NameRef>())
                    return nameRefText(n->name) + ".ranges[" + std::to_string(std::max(0, d->dimensionIndex - 1)) +
                           "]." + f->field.text + " = " + assignedValue(a);
        }
    }
    if (std::string st = staticSectionAssign(a); !st.empty())
        return st;
    if (isSection(*t)) { // `a[i...j] = value`, `m[k] = row`: into a copy of the section, written back
        const auto& s = *t->as<ast::Subscript>();
        if (typeOf(*s.base).kind != TypeKind::DynamicArray)
            notTranslated(t->range, "assigning to a section of a fixed-size array");
        return "itrt::task::assign_section(" + sectionArgument(s) + ", " + assignedValue(a) + ", " + whereOf(a.range) +
               ")";
    }
    if (auto chain = a.value->as<ast::Assign>())
        return target(*t) + " = " + assign(*chain);
    if (isSection(*a.value)) // by position into a target of matching lengths (guide: Arrays)
        return "itrt::task::assign_section(" + target(*t) + ", " + emit(*a.value) + ", " + whereOf(a.range) + ")";
    std::string value = converted(*a.value, typeOf(*t));
    // `args.key` converts to numbers implicitly; into a Boolean, Character or String it says how.
    if (typeOf(*a.value).kind == TypeKind::ArgValue) {
        switch (typeOf(*t).kind) {
        case TypeKind::Boolean: value = "(" + value + ").as_bool()"; break;
        case TypeKind::Character: value = "(" + value + ").as_char()"; break;
        case TypeKind::String: value = "(" + value + ").text()"; break;
        default: break;
        }
    }
    return target(*t) + " = " + value;
}

std::map<std::string, std::string> SequentialBody::externAliases() const {
    std::map<std::string, std::string> r;
    for (const auto& [name, type] : *locals_)
        if (type.kind != TypeKind::TaskEnvironment && type.kind != TypeKind::Args && !type.isError())
            r[name] = "v_" + name;
    for (const auto& l : loopVars_)
        r[l] = "v_" + l;
    return r;
}

void SequentialBody::block(Out& o, const ast::Block& b) {
    for (const auto& s : b.stmts)
        stmt(o, *s);
}

void SequentialBody::stmt(Out& o, const ast::Stmt& s) {
    o << lineComment(in_, s.range);
    using K = ast::StmtKind;
    switch (s.kind) {
    case K::ExprStmt: {
        const ast::Expr& e = *s.as<ast::ExprStmt>()->expr;
        if (auto a = e.as<ast::Assign>())
            o << assign(*a) << ";\n";
        else
            o << emit(e) << ";\n";
        return;
    }
    case K::SequentialFor: {
        auto* f = s.as<ast::SequentialFor>();
        const std::string& ix = f->index.text;
        std::string r = "r_" + ix;
        const std::string step = f->step ? "itrt::task::loop_step(itrt::task::to_int(" + emit(*f->step) + "), " +
                                               whereOf(f->step->range) + ")"
                                         : "1";
        // Over a dimension of an array that may hold a part cut by stride(): its held indices.
        int dim = 0;
        const ast::NameRef* held = dimensionRangeOf(*f->rangeExpr, &dim);
        if (held && heldPart(held->name))
            openSequentialFor(o, r, ix + "_i", "", step, nameRefText(held->name), dim - 1);
        else
            openSequentialFor(o, r, ix + "_i", emit(*f->rangeExpr), step);
        // The index is a local when the body checker recorded it as a number, else a variable of
        // the loop (which hides an array or list local of the same name inside the loop).
        bool local = !localType(ix).isError() && localType(ix).isNumeric();
        o << (local ? "" : "const int32_t ") << nameRefText(ix) << " = static_cast<int32_t>(" << ix << "_i);\n";
        if (!local)
            loopVars_.insert(ix);
        if (f->restriction)
            o << "if (!(" << emit(*f->restriction) << ")) continue;\n";
        block(o, f->body);
        o << "}\n}\n";
        loopVars_.erase(ix);
        return;
    }
    case K::While:
        emitDoWhile(
            o, *s.as<ast::While>(), [&](const ast::Expr& c) { return emit(c); },
            [&](const ast::Block& b) { block(o, b); });
        return;
    case K::If:
        emitIf(
            o, *s.as<ast::If>(), [&](const ast::Expr& c) { return emit(c); },
            [&](const ast::Block& b) { block(o, b); });
        return;
    case K::Extern: o << externBlock(*s.as<ast::Extern>(), externAliases()); return;
    case K::Return: returnStmt(o, *s.as<ast::Return>()); return;
    default: notTranslated(s.range, "this statement here");
    }
}

// ---------------------------------------------------------------------------------------------
// Functions
// ---------------------------------------------------------------------------------------------

namespace {

// A function body: environments it is given (only the coordinator has any to give) are read and
// written through the running program.
class FunctionBody : public EnvironmentBody {
public:
    FunctionBody(const BackendInput& in, const semantic::FunctionInstance& inst, const FunctionTable& table)
        : EnvironmentBody(in, &inst.exprTypes, &inst.locals, "itrt::task::Program::current()"), inst_(inst),
          table_(table) {}

protected:
    bool heldPart(const std::string& name) const override { return table_.heldPart(*inst_.function, name); }
    void returnStmt(Out& o, const ast::Return& r) override {
        if (!r.value || inst_.result.kind == TypeKind::Void) {
            o << "return;\n";
            return;
        }
        semantic::Type vt = semantic::inferredLocalType(typeOf(*r.value));
        std::string v = emit(*r.value);
        o << "return " << (vt == inst_.result ? v : "static_cast<" + cppType(inst_.result) + ">(" + v + ")") << ";\n";
    }

private:
    const semantic::FunctionInstance& inst_;
    const FunctionTable& table_;
};

std::string resultType(const semantic::FunctionInstance& inst) {
    return inst.result.kind == TypeKind::Void ? "void" : cppType(inst.result);
}

std::string signature(const FunctionTable::Entry& e) {
    const semantic::FunctionInstance& inst = *e.instance;
    auto params = paramNames(*inst.function);
    std::string s = "inline " + resultType(inst) + " " + e.name + "(";
    for (size_t i = 0; i < params.size(); ++i)
        s += (i ? ", " : "") + cppType(paramType(inst, i)) + (params[i].second ? "& v_" : " v_") + params[i].first;
    return s + ")";
}

} // namespace

void emitFunctions(Out& o, const FunctionTable& table) {
    const BackendInput& in = table.in();
    if (table.entries().empty())
        return;
    o << "// A temporary as a `&` argument (a loop index, a constant): it lives until the call returns.\n";
    o << "template <class T>\nT& it_lvalue(T&& v) {\nreturn v;\n}\n\n";
    o << "// The program's functions, one C++ function per instance (argument types of the calls).\n";
    for (const auto& e : table.entries())
        o << signature(e) << ";\n";
    o << "\n";
    for (const auto& e : table.entries()) {
        const semantic::FunctionInstance& inst = *e.instance;
        const ast::FunctionDef& fn = *inst.function;
        o << lineComment(in, fn.range);
        o << signature(e) << " {\n";
        std::set<std::string> params;
        for (const auto& p : paramNames(fn))
            params.insert(p.first);
        std::string result;
        if (fn.form == ast::FunctionDef::Form::Paper)
            for (const auto& d : fn.results)
                for (const auto& n : d.names)
                    if (result.empty())
                        result = n.text;
        // Locals (and the paper form's result variable) start at zero (guide: Types).
        for (const auto& [name, type] : inst.locals)
            if (!params.count(name) && !type.isError() && type.kind != TypeKind::Void)
                o << cppType(type) << " v_" << name << "{};\n";
        FunctionBody body(in, inst, table);
        body.block(o, fn.body);
        if (!result.empty()) {
            o << "return v_" << result << ";\n";
        } else if (inst.result.kind != TypeKind::Void &&
                   (fn.body.stmts.empty() || fn.body.stmts.back()->kind != ast::StmtKind::Return)) {
            // A path that ends without `return`: the zero of the result type.
            o << "return " << cppType(inst.result) << "{};\n";
        }
        o << "}\n\n";
    }
}

} // namespace itc::backend
