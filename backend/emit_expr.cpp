// Expressions: the C++ spelling of IT operators, literals, dimension attributes and types
// (guide: Expressions, Types). Names, elements and attributes are resolved by the hooks of each
// body kind.
#include "backend/emitter.h"
#include "frontend/ast/ast_names.h"

#include <stdexcept>

namespace itc::backend {

using semantic::TypeKind;

void notTranslated(SourceRange r, const std::string& what) {
    throw std::logic_error("the backend met " + what + " (line " + std::to_string(r.begin.line) +
                           "), which its capability check (backend/capability.cpp) should have refused");
}

std::string cppType(const semantic::Type& t) {
    switch (t.kind) {
    case TypeKind::Integer: return "int32_t";
    case TypeKind::RealSingle: return "float";
    case TypeKind::RealDouble:
    case TypeKind::RealLiteral: return "double";
    case TypeKind::Character: return "unsigned char"; // codes 0..255, as in data files
    case TypeKind::Boolean: return "bool";
    case TypeKind::String: return "std::string";
    case TypeKind::ArgValue: return "itrt::task::ArgValue";
    case TypeKind::Range: return "Range";
    case TypeKind::DynamicArray: return "itrt::task::LocalArray<" + cppElement(t) + ">";
    case TypeKind::TaskEnvironment: return "std::shared_ptr<itrt::task::Env>";
    case TypeKind::List: return "itrt::task::List<" + cppType(t.elementType()) + ">";
    case TypeKind::Cursor: return "itrt::task::Cursor<" + cppType(t.elementType()) + ">";
    case TypeKind::Class: return "c_" + t.name;
    case TypeKind::StaticArray: {
        // `Array[2][3] of T`: dimension 1 outermost.
        std::string s = cppType(t.elementType());
        for (auto l = t.lengths.rbegin(); l != t.lengths.rend(); ++l)
            s = "std::array<" + s + ", " + std::to_string(*l) + ">";
        return s;
    }
    default: break;
    }
    notTranslated({}, "a value of type `" + semantic::typeName(t) + "`");
}

std::string cppElement(const semantic::Type& array) { return cppType(array.elementType()); }

std::string staticDimensionRange(const semantic::Type& array, int k) {
    return "Range{0, " + std::to_string(array.lengths.at(static_cast<size_t>(k)) - 1) + "}"; // 0 to length - 1
}

// The cells of a static array, through nested static arrays: `Real` of `Array[2] of Real[3]`.
static semantic::Type staticArrayCell(semantic::Type t) {
    while (t.kind == TypeKind::StaticArray)
        t = t.elementType();
    return t;
}

bool hasElementCodec(const semantic::Type& e, const semantic::CheckedProgram& cp) {
    switch (e.kind) {
    case TypeKind::Integer:
    case TypeKind::RealSingle:
    case TypeKind::RealDouble:
    case TypeKind::Character:
    case TypeKind::Boolean:
    case TypeKind::Range: return true;
    case TypeKind::Class: return !hasString(e, cp);                             // stored field by field, fixed sizes
    case TypeKind::StaticArray: return hasElementCodec(staticArrayCell(e), cp); // its cells row-major
    default: return false;
    }
}

std::string codecOf(const semantic::Type& e) {
    switch (e.kind) {
    case TypeKind::Integer: return "itrt::integer_codec()";
    case TypeKind::RealSingle: return "itrt::float_codec()";
    case TypeKind::RealDouble: return "itrt::double_codec()";
    case TypeKind::Character: return "itrt::char_codec()";
    case TypeKind::Boolean: return "itrt::bool_codec()";
    case TypeKind::Range: return "itrt::range_codec()";
    case TypeKind::String: return "itrt::string_codec()"; // coordinator values only (hasStoreCodec)
    case TypeKind::Class: return classCodecOf(e);
    case TypeKind::StaticArray: {
        int64_t count = 1;
        for (semantic::Type t = e; t.kind == TypeKind::StaticArray; t = t.elementType())
            for (auto l : t.lengths)
                count *= l;
        return "itrt::static_array_codec<" + cppType(e) + ">(" + cString(semantic::typeName(e)) + ", " +
               codecOf(staticArrayCell(e)) + ", " + std::to_string(count) + ")";
    }
    default: break;
    }
    notTranslated({}, "an element codec for `" + semantic::typeName(e) + "`");
}

// The elements a collection's files hold: a List of Arrays keeps its arrays' element codec (its
// files are List of Arrays files), an Array of Lists its lists'.
static const semantic::Type& fileElementOf(const semantic::Type& collection) {
    const semantic::Type& e = collection.elementType();
    if (collection.kind == TypeKind::List)
        return e.kind == TypeKind::DynamicArray ? e.elementType() : e;
    return e.kind == TypeKind::List ? e.elementType() : e;
}

std::string listCodecOf(const semantic::Type& list) { return codecOf(fileElementOf(list)); }

std::string listRankArg(const semantic::Type& list) {
    const semantic::Type& e = list.elementType();
    return e.kind == TypeKind::DynamicArray ? ", " + std::to_string(e.arrayDims()) : std::string();
}

std::string fileCodecOf(const semantic::Type& collection) { return codecOf(fileElementOf(collection)); }

bool hasFileCodec(const semantic::Type& collection, const semantic::CheckedProgram& cp) {
    return hasElementCodec(fileElementOf(collection), cp);
}

bool hasStoreCodec(const semantic::Type& collection, const semantic::CheckedProgram& cp) {
    const semantic::Type& e = fileElementOf(collection);
    return hasFileCodec(collection, cp) || e.kind == TypeKind::String ||
           (e.kind == TypeKind::Class && hasFileForm(e, cp));
}

std::string cString(const std::string& s) {
    // Quotes and backslashes escaped, `?` too (no `??x` trigraph), every other byte outside
    // printable ASCII as a three-digit octal escape (which cannot run into following digits).
    std::string r = "\"";
    for (char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\' || c == '?') {
            r += '\\';
            r += c;
        } else if (u < 0x20 || u >= 0x7f) {
            const char oct[] = {'\\', static_cast<char>('0' + (u >> 6)), static_cast<char>('0' + ((u >> 3) & 7)),
                                static_cast<char>('0' + (u & 7)), 0};
            r += oct;
        } else {
            r += c;
        }
    }
    return r + "\"";
}

std::string commentText(const std::string& s) {
    // A `//` comment ends at the line's end unless the line ends in a backslash (blanks may
    // follow it): those, control characters and bytes outside ASCII become harmless, and very
    // long lines are cut.
    constexpr size_t kLongest = 160;
    std::string r;
    for (char c : s) {
        const auto u = static_cast<unsigned char>(c);
        r += (u < 0x20 && c != '\t') || u >= 0x7f ? '?' : c;
    }
    if (r.size() > kLongest)
        r = r.substr(0, kLongest) + " ...";
    while (!r.empty() && (r.back() == ' ' || r.back() == '\t' || r.back() == '\\'))
        r.pop_back();
    return r;
}

std::string ident(const std::string& s) {
    std::string r;
    for (char c : s)
        r += (std::isalnum(static_cast<unsigned char>(c))
                  ? static_cast<char>(std::tolower(static_cast<unsigned char>(c)))
                  : '_');
    if (r.empty() || std::isdigit(static_cast<unsigned char>(r[0])))
        r = "_" + r;
    return r;
}

std::string lineComment(const BackendInput& in, SourceRange r) {
    if (!r.valid())
        return "";
    // One comment per source line in a row: a one-line loop or Space block is not repeated
    // for the statement inside it.
    static thread_local std::pair<FileId, std::uint32_t> last{};
    if (last == std::make_pair(r.begin.file, r.begin.line))
        return "";
    last = {r.begin.file, r.begin.line};
    std::string text(in.sources->lineText(r.begin.file, r.begin.line));
    size_t b = text.find_first_not_of(" \t");
    text = b == std::string::npos ? "" : text.substr(b);
    return commentText("// " + programBaseName(in) + ":" + std::to_string(r.begin.line) + ": " + text) + "\n";
}

std::string programBaseName(const BackendInput& in) {
    std::string file = in.programFile;
    if (auto slash = file.rfind('/'); slash != std::string::npos)
        file = file.substr(slash + 1);
    return file;
}

semantic::Type ExprEmitter::typeOf(const ast::Expr& e) const {
    if (!types_)
        return semantic::Type::error();
    auto it = types_->find(&e);
    return it == types_->end() ? semantic::Type::error() : it->second;
}

// C++ spells IT's `and`/`or` as `&&`/`||`; every other operator is written as in IT (`**` never
// reaches here: binary() emits it_pow).
static std::string_view binaryOp(ast::BinaryOp op) {
    switch (op) {
    case ast::BinaryOp::And: return "&&";
    case ast::BinaryOp::Or: return "||";
    default: return ast::binaryOpSpelling(op);
    }
}

// A real literal takes the precision of the other operand (guide: Lexical rules): `0.25 * x` stays
// float when x is single-precision.
static bool isRealLiteral(const ast::Expr& e) { return e.kind == ast::ExprKind::RealLiteral; }

std::string ExprEmitter::binary(const ast::Binary& b) {
    std::string l = emit(*b.lhs), r = emit(*b.rhs);
    // `args.key` next to a typed operand takes that operand's type (guide: The coordinator);
    // ArgValue converts to several C++ types, so the conversion is spelled out.
    semantic::Type lt = typeOf(*b.lhs), rt = typeOf(*b.rhs);
    if (lt.kind == TypeKind::ArgValue && rt.kind != TypeKind::ArgValue && rt.isScalar())
        l = "static_cast<" + cppType(rt) + ">(" + l + ")";
    if (rt.kind == TypeKind::ArgValue && lt.kind != TypeKind::ArgValue && lt.isScalar())
        r = "static_cast<" + cppType(lt) + ">(" + r + ")";
    if (lt.kind == TypeKind::ArgValue && rt.kind == TypeKind::ArgValue) {
        // Two command-line values (arithmetic between them is an error of the checker): `==` and
        // `!=` compare their text, `<`... their numbers, bit operations their Integers.
        using B = ast::BinaryOp;
        const char* as = b.op == B::Equal || b.op == B::NotEqual ? "std::string"
                         : b.op == B::And || b.op == B::Or       ? "bool"
                         : b.op == B::Less || b.op == B::Greater || b.op == B::LessEqual || b.op == B::GreaterEqual
                             ? "double"
                             : "int32_t";
        l = std::string("static_cast<") + as + ">(" + l + ")";
        r = std::string("static_cast<") + as + ">(" + r + ")";
    }
    if (isRealLiteral(*b.lhs) && typeOf(*b.rhs).kind == TypeKind::RealSingle && l.back() != 'f')
        l += "f";
    if (isRealLiteral(*b.rhs) && typeOf(*b.lhs).kind == TypeKind::RealSingle && r.back() != 'f')
        r += "f";
    if (b.op == ast::BinaryOp::Power) {
        bool ints = typeOf(b).kind == TypeKind::Integer; // the checker's result type decides
        if (ints)
            return "it_pow(static_cast<int32_t>(" + l + "), static_cast<int32_t>(" + r + "), " + whereOf(b.range) + ")";
        return "it_pow(static_cast<double>(" + l + "), static_cast<double>(" + r + "), " + whereOf(b.range) + ")";
    }
    auto integral = [](const semantic::Type& t) {
        return t.kind == TypeKind::Integer || t.kind == TypeKind::Character;
    };
    if (b.op == ast::BinaryOp::Mod && (lt.isReal() || rt.isReal())) // the sign of the dividend, as for Integers
        return "static_cast<" + cppType(typeOf(b)) + ">(std::fmod(static_cast<double>(" + l +
               "), static_cast<double>(" + r + ")))";
    if (b.op == ast::BinaryOp::ShiftLeft || b.op == ast::BinaryOp::ShiftRight)
        return std::string(b.op == ast::BinaryOp::ShiftLeft ? "itrt::task::int_shl(" : "itrt::task::int_shr(") + l +
               ", " + r + ")";
    if ((b.op == ast::BinaryOp::Div || b.op == ast::BinaryOp::Mod) && integral(lt) && integral(rt))
        return std::string(b.op == ast::BinaryOp::Div ? "itrt::task::int_div(" : "itrt::task::int_mod(") + l + ", " +
               r + ", " + whereOf(b.range) + ")";
    return "(" + l + " " + std::string(binaryOp(b.op)) + " " + r + ")";
}

// A static array that is a task-global is held like any task array: in parts in stages, as an
// environment item in the coordinator. Other static arrays (class fields, locals) are std::arrays.
bool ExprEmitter::heldAsTaskArray(const ast::Expr& e) const {
    const ast::Expr& a = withoutEpochs(e); // every version of it is
    auto* named = a.as<ast::NameRef>();
    auto* field = a.as<ast::FieldAccess>();
    return (named && partArray(named->name)) || (field && typeOf(*field->base).kind == TypeKind::TaskEnvironment);
}

// `a.dimensionK.range`, `a.local.dimensionK.range`, and `a.dimensionK` used as a range.
std::string ExprEmitter::property(const ast::Property& p) {
    const ast::Expr* base = p.base.get();
    if (p.property == ast::PropertyKind::Range) {
        base = &withoutEpochs(*base); // every version of an array has the same ranges
        if (auto dim = base->as<ast::Property>(); dim && dim->property == ast::PropertyKind::Dimension)
            return property(*dim);
    }
    if (p.property == ast::PropertyKind::Dimension) {
        bool local = false;
        const ast::Expr* arr = base;
        if (auto l = base->as<ast::Property>(); l && l->property == ast::PropertyKind::Local) {
            local = true;
            arr = l->base.get();
        }
        arr = &withoutEpochs(*arr); // every version of an array has the same ranges
        int k = p.dimensionIndex == 0 ? 0 : p.dimensionIndex - 1;
        if (const semantic::Type at = typeOf(*arr);
            at.kind == TypeKind::StaticArray && !heldAsTaskArray(*arr) && k < static_cast<int>(at.lengths.size()))
            return staticDimensionRange(at, k);
        if (auto field = arr->as<ast::FieldAccess>())
            return fieldDimensionRange(p, *field, k, local);
        if (auto s = arr->as<ast::Subscript>();
            s && isSection(*arr) && (partArray(rootName(*s)) || (!local && rangesKnown(rootName(*s)))))
            return sectionDimensionRange(p, *s, k, local);
        if (auto s = arr->as<ast::Subscript>(); s && staticSection(*s))
            return sectionDimensionRange(p, *s, k, local);
        auto name = arr->as<ast::NameRef>();
        // A computed array (a function's result): a value that holds all of itself, `local` or not.
        if (!name && typeOf(*arr).kind == TypeKind::DynamicArray)
            return "itrt::task::range_of(" + emit(*arr) + ", " + std::to_string(k) + ")";
        if (!name)
            notTranslated(p.range, "this dimension attribute");
        return dimensionRange(p, name->name, k, local);
    }
    notTranslated(p.range, "this property");
}

// A section of a fixed-size array (`w[1...2]`, `y[...][0]`) that keeps a dimension: of a class
// field or a local (a std::array), or of a task-global held as a part.
bool ExprEmitter::staticSection(const ast::Subscript& s) {
    const semantic::Type bt = typeOf(*s.base);
    if (bt.kind != TypeKind::StaticArray || !typeOf(s).isArray())
        return false;
    return !heldAsTaskArray(*s.base) || partArray(rootName(s));
}

// The name an array section is taken of (`v` in `v[1...2]`), or "".
std::string ExprEmitter::rootName(const ast::Subscript& s) {
    auto n = withoutEpochs(*s.base).as<ast::NameRef>(); // `(v at (current - 1))[1...2]` is of `v`
    return n ? n->name : "";
}

// Dimension k of a section of a part or a fixed-size array (`v[1...2].dimension1`,
// `m[r][...].dimension1`): the k-th dimension the section keeps, `from...to` as written, `...` and
// dimensions after the last subscript the array's own; with `local` (`v[1...2].local.dimension1`),
// what the LPU's part holds of it (a std::array holds all of itself).
std::string ExprEmitter::sectionDimensionRange(const ast::Property& p, const ast::Subscript& s, int k, bool local) {
    const ast::Expr& base = withoutEpochs(*s.base); // every version of an array has the same ranges
    const semantic::Type bt = typeOf(base);
    const int dims = bt.arrayDims();
    const bool whole = bt.kind == TypeKind::StaticArray && !heldAsTaskArray(base);
    auto own = [&](int d, bool held) {
        return whole ? staticDimensionRange(bt, d) : dimensionRange(p, rootName(s), d, held);
    };
    int kept = 0;
    for (int d = 0; d < dims; ++d) {
        const ast::SubscriptItem* it =
            d < static_cast<int>(s.items.size()) ? &s.items[static_cast<size_t>(d)] : nullptr;
        if (it && it->kind == ast::SubscriptItem::Kind::Index)
            continue;
        if (kept++ < k)
            continue;
        if (it && it->kind == ast::SubscriptItem::Kind::Section) {
            std::string written =
                "Range{static_cast<int32_t>(" + emit(*it->first) + "), static_cast<int32_t>(" + emit(*it->last) + ")}";
            if (!local || whole)
                return written;
            return "itrt::task::held_range(" + written + ", " + own(d, true) + ")";
        }
        return own(d, local);
    }
    notTranslated(p.range, "a dimension the section does not have");
}

// `(v[2...5])[i]` (sectionElementShape): the element of `v` with the section's fixed indices and
// these in the dimensions it keeps, each checked against the section's range there. The
// section's subscripts are read at the epoch around the section, the array at its own.
std::string ExprEmitter::sectionElement(const ast::Subscript& s, const SectionElement& se) {
    const int outer = lag_;
    const int sectionLag = se.sectionEpoch ? static_cast<int>(se.sectionEpoch->lag) : outer;
    const int arrayLag = se.arrayEpoch ? static_cast<int>(se.arrayEpoch->lag) : sectionLag;
    auto atLag = [&](const ast::Expr& x, int lag) {
        lag_ = lag;
        std::string r = emit(x);
        lag_ = outer;
        return r;
    };
    const std::vector<ast::SubscriptItem>& fixed = se.section->items;
    const int dims = typeOf(*se.array).arrayDims();
    const std::vector<const ast::SubscriptItem*> items = composedItems(se.section, s, dims);
    std::vector<std::string> idx;
    for (int d = 0; d < dims; ++d) {
        const ast::SubscriptItem* in = d < static_cast<int>(fixed.size()) ? &fixed[static_cast<size_t>(d)] : nullptr;
        if (!items[static_cast<size_t>(d)] || !items[static_cast<size_t>(d)]->index)
            notTranslated(s.range, "an element of a section with too few subscripts");
        if (in && in->kind == ast::SubscriptItem::Kind::Index) { // fixed by the section
            idx.push_back(atLag(*in->index, sectionLag));
            continue;
        }
        std::string i = emit(*items[static_cast<size_t>(d)]->index);
        if (in && in->kind == ast::SubscriptItem::Kind::Section)
            i = "itrt::task::section_index(" + i + ", " + atLag(*in->first, sectionLag) + ", " +
                atLag(*in->last, sectionLag) + ", " + whereOf(s.range) + ")";
        idx.push_back(i);
    }
    return element(*se.section, se.array->name, idx, arrayLag);
}

// `new Sensor(id: 3, label: s)`: the fields in declaration order (designated initializers),
// each converted to its field's type; fields not named start at zero (guide: Types).
std::string ExprEmitter::newObject(const ast::NewObject& o) {
    const FunctionTable* table = currentFunctions();
    const std::string& name = o.type.className;
    const semantic::ClassInfo* cls = nullptr;
    if (table)
        if (auto it = table->in().checked->classes.find(name); it != table->in().checked->classes.end())
            cls = &it->second;
    if (!cls)
        notTranslated(o.range, "`new` of this class here");
    std::string s = "c_" + name + "{";
    bool first = true;
    for (const auto& f : cls->fields)
        for (const auto& a : o.args)
            if (a.name.text == f.name) {
                s += (first ? "." : ", .") + cppMember(f.name) + " = static_cast<" + cppType(f.type) + ">(" +
                     converted(*a.value, f.type) + ")";
                first = false;
            }
    return s + "}";
}

std::string ExprEmitter::converted(const ast::Expr& value, const semantic::Type& target) {
    if ((target.kind == TypeKind::Integer || target.kind == TypeKind::Character) && typeOf(value).isReal())
        return "itrt::task::real_to<" + cppType(target) + ">(" + emit(value) + ")";
    return emit(value);
}

std::string ExprEmitter::emit(const ast::Expr& e) {
    using K = ast::ExprKind;
    switch (e.kind) {
    case K::IntLiteral: return std::to_string(e.as<ast::IntLiteral>()->value);
    case K::RealLiteral: {
        auto* r = e.as<ast::RealLiteral>();
        std::string s = r->spelling.empty() ? std::to_string(r->value) : r->spelling;
        if (s.find('.') == std::string::npos && s.find('e') == std::string::npos)
            s += ".0";
        return typeOf(e).kind == TypeKind::RealSingle ? s + "f" : s;
    }
    case K::CharLiteral:
        return "static_cast<unsigned char>(" +
               std::to_string(static_cast<unsigned char>(e.as<ast::CharLiteral>()->value)) + ")";
    case K::StringLiteral: return "std::string(" + cString(e.as<ast::StringLiteral>()->value) + ")";
    case K::BoolLiteral: return e.as<ast::BoolLiteral>()->value ? "true" : "false";
    case K::NameRef: return nameRef(*e.as<ast::NameRef>());
    case K::Unary: {
        auto* u = e.as<ast::Unary>();
        // An `args` value converts to several types: cast it to the result's (ArgValue), if
        // that is known; `-args.x` stays a command-line value (its text negated) otherwise.
        const semantic::Type t = typeOf(e);
        const bool known = t.kind == TypeKind::Integer || t.kind == TypeKind::RealSingle ||
                           t.kind == TypeKind::RealDouble || t.kind == TypeKind::Boolean;
        std::string operand = emit(*u->operand);
        if (known && typeOf(*u->operand).kind == TypeKind::ArgValue)
            operand = "static_cast<" + cppType(t) + ">(" + operand + ")";
        return "(" + std::string(ast::unaryOpSpelling(u->op)) + operand + ")";
    }
    case K::Binary: return binary(*e.as<ast::Binary>());
    case K::Assign: {
        auto* a = e.as<ast::Assign>();
        return emit(*a->target) + " = " + converted(*a->value, typeOf(*a->target));
    }
    case K::FieldAccess: {
        auto* f = e.as<ast::FieldAccess>();
        if (auto n = f->base->as<ast::NameRef>()) {
            std::string s = fieldOfName(*f, n->name);
            if (!s.empty())
                return s;
        }
        return "(" + emit(*f->base) + ")." + cppMember(f->field.text);
    }
    case K::Property: return property(*e.as<ast::Property>());
    case K::Subscript: {
        auto* s = e.as<ast::Subscript>();
        if (auto se = sectionElementShape(*s);
            se && !typeOf(e).isArray() && keepsDimension(*se->section, typeOf(*se->section->base)) &&
            (typeOf(*se->array).kind == TypeKind::DynamicArray || heldAsTaskArray(*se->array)) &&
            partArray(se->array->name))
            return sectionElement(*s, *se);
        // `(v at (current - k))[i]`: `v[i] at (current - k)`. (A computed array at an older
        // version, `(f(v) at (current - 1))[i]`, is a value: below.)
        if (auto ep = innermostEpoch(*s->base);
            ep && ep->operand->as<ast::NameRef>() &&
            (typeOf(*ep->operand).kind == TypeKind::DynamicArray || heldAsTaskArray(*ep->operand))) {
            auto n = ep->operand->as<ast::NameRef>();
            if (isSection(e)) // `((v at (current - 1))[1...4])[2]`: the LPU's part of it, a value
                return partArgument(e, false);
            std::vector<std::string> idx;
            for (auto& it : s->items)
                idx.push_back(emit(*it.index));
            return element(*s, n->name, idx, static_cast<int>(ep->lag));
        }
        if (s->base->kind == K::LpuId) {
            if (s->items.size() != 1 || s->items[0].kind != ast::SubscriptItem::Kind::Index) // a section
                return "itrt::task::section_of(" + emit(*s->base) + ", " +
                       sectionItems(
                           s, 1, [&](const ast::Expr& x) { return emit(x); },
                           [](int) { return "{false, 0, 0, true}"; }) +
                       ", " + whereOf(s->range) + ")";
            return "static_cast<int32_t>(" + lpuId(*s->base) + "[" + emit(*s->items[0].index) + "])";
        }
        // A static array that is a task-global is held like any task array: in parts in stages,
        // as an environment item in the coordinator.
        const semantic::Type baseType = typeOf(*s->base);
        if (baseType.kind == TypeKind::StaticArray && !heldAsTaskArray(*s->base)) {
            // A static array (a class field or a local): std::array, indices from 0 (guide: Types).
            // A section of it is a new array of the section's indices, as for any array value.
            if (typeOf(e).isArray()) {
                const std::string items = sectionItems(
                    s, baseType.arrayDims(), [&](const ast::Expr& x) { return emit(x); },
                    [](int) { return "{false, 0, 0, true}"; });
                return "itrt::task::section_of(itrt::task::static_array_value(" + emit(*s->base) + "), " + items +
                       ", " + whereOf(s->range) + ")";
            }
            std::string r = "(" + emit(*s->base) + ")";
            for (auto& it : s->items)
                r = "itrt::task::static_at(" + r + ", " + emit(*it.index) + ", " + whereOf(s->range) + ")";
            return r;
        }
        if (auto f = s->base->as<ast::FieldAccess>())
            return fieldElement(*s, *f);
        auto* n = s->base->as<ast::NameRef>();
        if (!n && typeOf(*s->base).kind == TypeKind::DynamicArray) {
            // A computed array (a function's result, `value(c)` of a list of arrays): a value.
            if (isSection(e))
                return sectionValue(*s, emit(*s->base), typeOf(*s->base).arrayDims());
            std::string idx;
            for (auto& it : s->items)
                idx += (idx.empty() ? "" : ", ") + std::string("static_cast<int64_t>(") + emit(*it.index) + ")";
            return "(" + emit(*s->base) + ").at({" + idx + "}, " + whereOf(s->range) + ")";
        }
        if (!n)
            notTranslated(s->range, "subscripts of computed values");
        // A section of a part used as a value (`(v[2...5])[3...4]`, also of a fixed-size
        // task-global; semantic/check types every other use as an error): the LPU's part of it,
        // as a function sees it.
        if (keepsDimension(*s, typeOf(*s->base)) && !arrayValue(n->name))
            return partArgument(e, false);
        if (isSection(e))
            return sectionValue(*s, emit(*s->base), typeOf(*s->base).arrayDims());
        std::vector<std::string> idx;
        for (auto& it : s->items)
            idx.push_back(emit(*it.index));
        return element(*s, n->name, idx, lag_);
    }
    case K::Call: return call(*e.as<ast::Call>());
    case K::NewObject: {
        auto* o = e.as<ast::NewObject>();
        if (o->type.kind == ast::TypeKind::Range) {
            std::string mn = "0", mx = "0";
            for (auto& a : o->args) {
                if (a.name.text == "min")
                    mn = emit(*a.value);
                else if (a.name.text == "max")
                    mx = emit(*a.value);
            }
            return "Range{static_cast<int32_t>(" + mn + "), static_cast<int32_t>(" + mx + ")}";
        }
        if (o->type.kind == ast::TypeKind::Class)
            return newObject(*o);
        if (o->type.kind == ast::TypeKind::TaskEnvironment) // one not assigned to a variable first
            for (const auto& a : o->args)
                if (auto name = a.value->as<ast::StringLiteral>(); name && a.name.text == "name")
                    return "std::make_shared<itrt::task::Env>(" + cString(name->value) + ")";
        notTranslated(e.range, "`new` of this type here");
    }
    case K::PartitionParam: return partitionParam(e.as<ast::PartitionParam>()->param.text);
    case K::RangeLiteral: {
        auto* r = e.as<ast::RangeLiteral>();
        return "Range{static_cast<int32_t>(" + emit(*r->first) + "), static_cast<int32_t>(" + emit(*r->last) + ")}";
    }
    case K::Epoch: {
        auto* ep = e.as<ast::Epoch>();
        int saved = lag_;
        lag_ = static_cast<int>(ep->lag);
        std::string s = "(" + emit(*ep->operand) + ")";
        lag_ = saved;
        return s;
    }
    case K::LpuId: return "itrt::task::lpu_id_value(" + lpuId(e) + ")"; // a 1d Integer array from 0
    case K::NewCollection: {
        // `new List of T` (empty, capacity to be set) or `new 1d Array of T` (no ranges yet).
        const semantic::Type t = typeOf(e);
        if (t.kind == TypeKind::List)
            return cppType(t) + "{}";
        if (t.kind == TypeKind::DynamicArray)
            return cppType(t) + "(" + std::to_string(t.arrayDims()) + ")";
        notTranslated(e.range, "`new` of this collection");
    }
    case K::ReduceExpr: notTranslated(e.range, "`reduce` outside the body of a parallel loop");
    case K::Execute: notTranslated(e.range, "`execute` here");
    }
    notTranslated(e.range, "this expression");
}

} // namespace itc::backend
