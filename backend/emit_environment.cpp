// How the coordinator and functions use task environments (environment_body.h; guide: The
// coordinator). Every rank runs these bodies in the same order, so the collective reads of the
// environment objects (a whole array, an element held by one rank) meet.
#include "backend/environment_body.h"

namespace itc::backend {

using semantic::TypeKind;

bool EnvironmentBody::isEnvironment(const std::string& local) const {
    return localType(local).kind == TypeKind::TaskEnvironment;
}

std::string EnvironmentBody::assign(const ast::Assign& a) {
    if (std::string d = dimensionAssign(a); !d.empty())
        return d;
    const ast::Expr* t = a.target.get();
    if (auto sub = t->as<ast::Subscript>())
        if (auto f = sub->base->as<ast::FieldAccess>())
            if (auto n = f->base->as<ast::NameRef>(); n && isEnvironment(n->name))
                return envElementAssign(a, *sub, *f, n->name);
    if (auto f = t->as<ast::FieldAccess>())
        if (auto n = f->base->as<ast::NameRef>(); n && isEnvironment(n->name)) {
            // `a.x = b.y = c.z`: the inner assignment first, then this one from its target.
            if (auto chain = a.value->as<ast::Assign>())
                return "(" + assign(*chain) + ", " + envAssign(*f, n->name, *chain->target, a.range) + ")";
            return envAssign(*f, n->name, *a.value, a.range);
        }
    return SequentialBody::assign(a);
}

std::string EnvironmentBody::listOperand(const ast::Expr& e, std::string& commit) {
    auto f = e.as<ast::FieldAccess>();
    auto n = f ? f->base->as<ast::NameRef>() : nullptr;
    const semantic::Type t = typeOf(e);
    if (!n || !isEnvironment(n->name) || t.kind != TypeKind::List)
        return emit(e);
    const std::string item = cString(f->field.text), element = cppType(t.elementType());
    commit = "v_" + n->name + "->commit_list<" + element + ">(" + item + ", " + listCodecOf(t) + ")";
    return "v_" + n->name + "->coordinator_list<" + element + ">(" + item + ", " + listCodecOf(t) +
           (listRankArg(t).empty() ? ", -1" : listRankArg(t)) + ")";
}

std::string EnvironmentBody::fieldOfName(const ast::FieldAccess& f, const std::string& base) {
    semantic::Type bt = localType(base);
    if (bt.kind == TypeKind::TaskEnvironment) {
        semantic::Type t = typeOf(f);
        if (t.kind == TypeKind::StaticArray) // a fixed-size item as the std::array it is elsewhere
            return "itrt::task::static_array_of<" + cppType(t) + ">(" + arrayCopy(f, base) + ")";
        if (t.isArray())
            return arrayCopy(f, base);
        if (t.kind == TypeKind::List)
            return "v_" + base + "->list_copy<" + cppType(t.elementType()) + ">(" + cString(f.field.text) + ", " +
                   listCodecOf(t) + (listRankArg(t).empty() ? ", -1" : listRankArg(t)) + ", " + whereOf(f.range) + ")";
        if (t.kind == TypeKind::Class && writingObject_) // a field of it is written
            return "itrt::task::EnvScalarRef<" + cppType(t) + ">(*v_" + base + ", " + cString(f.field.text) +
                   ").value()";
        return "v_" + base + "->get<" + cppType(t) + ">(" + cString(f.field.text) + ", " + whereOf(f.range) + ")";
    }
    return "";
}

// A copy of the whole array item, on every rank (a LocalArray, also of a fixed-size item).
std::string EnvironmentBody::arrayCopy(const ast::FieldAccess& f, const std::string& base) {
    const semantic::Type t = typeOf(f);
    return "v_" + base + "->array_copy<" + cppType(t.elementType()) + ">(" + program_ + ", " + cString(f.field.text) +
           ", " + std::to_string(t.arrayDims()) + ")";
}

// `env.item.dimensionK`: the ranges an environment array has now (guide: The coordinator; every
// earlier task has finished, as tasks run one after the other).
std::string EnvironmentBody::fieldDimensionRange(const ast::Expr& at, const ast::FieldAccess& f, int k, bool local) {
    auto n = f.base->as<ast::NameRef>();
    semantic::Type t = typeOf(f);
    if (!n || localType(n->name).kind != TypeKind::TaskEnvironment || !t.isArray() || local)
        return ExprEmitter::fieldDimensionRange(at, f, k, local);
    return "v_" + n->name + "->range(" + program_ + ", " + cString(f.field.text) + ", " +
           std::to_string(t.arrayDims()) + ", " + std::to_string(k) + ", " + codecOf(t.elementType()) + ")";
}
// `env.item[i][j]` read in the coordinator: the element as the last task left it (every rank
// gets it from the rank that owns it).
std::string EnvironmentBody::fieldElement(const ast::Subscript& s, const ast::FieldAccess& f) {
    auto n = f.base->as<ast::NameRef>();
    semantic::Type t = typeOf(f);
    if (!n || localType(n->name).kind != TypeKind::TaskEnvironment || !t.isArray())
        return ExprEmitter::fieldElement(s, f);
    if (isSection(s) || typeOf(s).isArray()) // a copy of the section (guide: The coordinator)
        return sectionValue(s, arrayCopy(f, n->name), t.arrayDims());
    std::string idx;
    for (const auto& it : s.items)
        idx += (idx.empty() ? "" : ", ") + std::string("static_cast<int64_t>(") + emit(*it.index) + ")";
    const std::string elem = cppType(t.elementType());
    if (t.elementType().kind == TypeKind::Class && writingObject_) // a field of the element is written
        return "itrt::task::EnvElementRef<" + elem + ">(" + program_ + ", *v_" + n->name + ", " +
               cString(f.field.text) + ", {" + idx + "}).value()";
    return "v_" + n->name + "->element<" + elem + ">(" + program_ + ", " + cString(f.field.text) + ", {" + idx + "}, " +
           whereOf(s.range) + ")";
}

std::string EnvironmentBody::target(const ast::Expr& t) {
    writingObject_ = true;
    std::string r = emit(t);
    writingObject_ = false;
    return r;
}
// `env.item = value`: items of another environment are shared (guide: The coordinator), sections
// viewed, other values copied.
std::string EnvironmentBody::envAssign(const ast::FieldAccess& f, const std::string& env, const ast::Expr& value,
                                       SourceRange at) {
    semantic::Type vt = typeOf(value);
    if (vt.kind == TypeKind::Error)
        vt = typeOf(f);
    if (auto vf = value.as<ast::FieldAccess>())
        if (auto vn = vf->base->as<ast::NameRef>(); vn && isEnvironment(vn->name)) {
            semantic::Type st = typeOf(*vf);
            if (st.isArray() || st.kind == TypeKind::List || typeOf(f).isArray() || typeOf(f).kind == TypeKind::List)
                return "v_" + env + "->share(" + cString(f.field.text) + ", *v_" + vn->name + ", " +
                       cString(vf->field.text) + ")";
            // A scalar item of another environment: the same value object, as for arrays.
            return "v_" + env + "->share_scalar(" + cString(f.field.text) + ", *v_" + vn->name + ", " +
                   cString(vf->field.text) + ")";
        }
    if (auto sub = value.as<ast::Subscript>(); sub && vt.isArray()) {
        // A section of a coordinator array: the item gets a copy of it.
        // A section of another environment's item: a view of it.
        if (auto vf = sub->base->as<ast::FieldAccess>())
            if (auto vn = vf->base->as<ast::NameRef>(); vn && isEnvironment(vn->name))
                return sectionView(f, env, *sub);
        // A section of anything else (a coordinator array, a fixed-size field): the item gets a copy.
        return "v_" + env + "->assign(" + program_ + ", " + cString(f.field.text) + ", " + emit(value) + ", " +
               codecOf(vt.elementType()) + ")";
    }
    if (auto vn = value.as<ast::NameRef>(); vn && vt.kind == TypeKind::DynamicArray)
        return "v_" + env + "->assign(" + program_ + ", " + cString(f.field.text) + ", v_" + vn->name + ", " +
               codecOf(vt.elementType()) + ")";
    if (vt.kind == TypeKind::List) // the item gets a copy of the list
        return "v_" + env + "->assign_list(" + cString(f.field.text) + ", " + emit(value) + ", " + listCodecOf(vt) +
               ")";
    if (vt.kind == TypeKind::DynamicArray && value.kind != ast::ExprKind::NewCollection &&
        value.kind != ast::ExprKind::NewObject) // a computed array (a function's result): a copy
        return "v_" + env + "->assign(" + program_ + ", " + cString(f.field.text) + ", " + emit(value) + ", " +
               codecOf(vt.elementType()) + ")";
    if (vt.kind == TypeKind::StaticArray) // a fixed-size array: the item gets a copy, indices from 0
        return "v_" + env + "->assign(" + program_ + ", " + cString(f.field.text) +
               ", itrt::task::static_array_value(" + emit(value) + "), " + codecOf(vt.elementType()) + ")";
    if (vt.kind == TypeKind::DynamicArray && value.kind == ast::ExprKind::NewCollection) // ranges from the task
        return "v_" + env + "->assign_shapeless(" + cString(f.field.text) + ", " + std::to_string(vt.arrayDims()) + ")";
    if (vt.isArray())
        notTranslated(at, "assigning this array to an environment item");
    semantic::Type it = typeOf(f);
    if (it.kind == TypeKind::Error || it.kind == TypeKind::RealLiteral)
        it = vt.kind == TypeKind::RealLiteral ? semantic::Type::simple(TypeKind::RealDouble) : vt;
    return "v_" + env + "->set<" + cppType(it) + ">(" + cString(f.field.text) + ", static_cast<" + cppType(it) + ">(" +
           emit(value) + "))";
}
// `env.item[i][j] = value`: every copy of the element, as the last task left the item.
std::string EnvironmentBody::envElementAssign(const ast::Assign& a, const ast::Subscript& s, const ast::FieldAccess& f,
                                              const std::string& env) {
    semantic::Type t = typeOf(f);
    if (!t.isArray())
        notTranslated(s.range, "writing an element of an environment item that is not an array");
    const std::string elem = cppType(t.elementType());
    // A section of a dynamic or a fixed-size item (`env.g[1...2]` with `g: Integer[3]`).
    const bool section = static_cast<int>(s.items.size()) < t.arrayDims() ||
                         std::any_of(s.items.begin(), s.items.end(), [](const ast::SubscriptItem& it) {
                             return it.kind != ast::SubscriptItem::Kind::Index;
                         });
    if (section) { // `env.x[i...j] = value`, `env.m[k] = row`: element by element
        const std::string items = sectionItems(
            &s, t.arrayDims(), [&](const ast::Expr& e) { return emit(e); }, [](int) { return "{false, 0, 0, true}"; });
        return "itrt::task::assign_env_section<" + elem + ">(" + program_ + ", *v_" + env + ", " +
               cString(f.field.text) + ", " + items + ", " + emit(*a.value) + ", " + codecOf(t.elementType()) + ", " +
               whereOf(a.range) + ")";
    }
    std::string idx;
    for (const auto& it : s.items)
        idx += (idx.empty() ? "" : ", ") + std::string("static_cast<int64_t>(") + emit(*it.index) + ")";
    return "v_" + env + "->set_element<" + elem + ">(" + program_ + ", " + cString(f.field.text) + ", {" + idx +
           "}, static_cast<" + elem + ">(" + emit(*a.value) + "), " + whereOf(a.range) + ")";
}
// `env.item = other.item[s1][s2]...`: a view of the section (guide: The coordinator).
std::string EnvironmentBody::sectionView(const ast::FieldAccess& target, const std::string& env,
                                         const ast::Subscript& s) {
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
            dims += "itrt::task::SectionDim{itrt::task::SectionDim::index, static_cast<int64_t>(" + emit(*it.index) +
                    "), 0}";
            break;
        case ast::SubscriptItem::Kind::Section:
            dims += "itrt::task::SectionDim{itrt::task::SectionDim::range, static_cast<int64_t>(" + emit(*it.first) +
                    "), static_cast<int64_t>(" + emit(*it.last) + ")}";
            break;
        }
    }
    return "v_" + env + "->section(" + cString(target.field.text) + ", *v_" + vn->name + ", " +
           cString(vf->field.text) + ", {" + dims + "}, " + whereOf(s.range) + ")";
}
// `f(env.x)` to a `&` parameter: a copy the function changes, given back to the item when
// the call ends (guide: The coordinator).
std::string EnvironmentBody::referenceArg(const ast::Expr& e) {
    // An element of an environment array (`bump(env.x[0])`): the element of a copy of the item,
    // written back into the item when the call's full expression ends.
    if (auto s = e.as<ast::Subscript>())
        if (auto f = s->base->as<ast::FieldAccess>())
            if (auto n = f->base->as<ast::NameRef>();
                n && isEnvironment(n->name) && !isSection(e) && typeOf(*f).kind == TypeKind::DynamicArray) {
                std::string idx;
                for (const auto& it : s->items)
                    idx += (idx.empty() ? "" : ", ") + std::string("static_cast<int64_t>(") + emit(*it.index) + ")";
                return referenceArg(*f) + ".at({" + idx + "}, " + whereOf(s->range) + ")";
            }
    // An element of a fixed-size item (`bump(env.s[1])`): the element of its EnvStaticRef copy.
    if (auto s = e.as<ast::Subscript>())
        if (auto f = s->base->as<ast::FieldAccess>())
            if (auto n = f->base->as<ast::NameRef>();
                n && isEnvironment(n->name) && !isSection(e) && typeOf(*f).kind == TypeKind::StaticArray) {
                std::string r = "(" + referenceArg(*f) + ")";
                for (const auto& it : s->items)
                    r = "itrt::task::static_at(" + r + ", " + emit(*it.index) + ", " + whereOf(s->range) + ")";
                return r;
            }
    if (auto f = e.as<ast::FieldAccess>())
        if (auto n = f->base->as<ast::NameRef>()) {
            if (isEnvironment(n->name)) {
                const semantic::Type t = typeOf(e);
                const std::string item = cString(f->field.text);
                if (t.kind == TypeKind::DynamicArray)
                    return "itrt::task::EnvArrayRef<" + cppType(t.elementType()) + ">(" + program_ + ", *v_" + n->name +
                           ", " + item + ", " + std::to_string(t.arrayDims()) + ", " + codecOf(t.elementType()) +
                           ").array()";
                if (t.kind == TypeKind::StaticArray)
                    return "itrt::task::EnvStaticRef<" + cppType(t) + ", " + cppType(t.elementType()) + ">(" +
                           program_ + ", *v_" + n->name + ", " + item + ", " + std::to_string(t.arrayDims()) + ", " +
                           codecOf(t.elementType()) + ").value()";
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
    // A part of an object item, or of an element of an array of objects (`inc(env.cfg.k)`,
    // `inc(env.cells[1].k)`): written as an assignment target is, through a copy of the object
    // given back to the item when the call's full expression ends.
    for (const ast::Expr* x = &e; x;) {
        if (auto f = x->as<ast::FieldAccess>()) {
            if (auto n = f->base->as<ast::NameRef>(); n && isEnvironment(n->name))
                return x == &e ? emit(e) : target(e);
            x = f->base.get();
        } else if (auto s = x->as<ast::Subscript>()) {
            x = s->base.get();
        } else {
            break;
        }
    }
    return emit(e);
}

} // namespace itc::backend
