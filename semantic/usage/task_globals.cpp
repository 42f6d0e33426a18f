// Builds the task-global table of one task from its Define and Environment sections.
#include "semantic/usage/task_globals.h"

namespace itc::semantic {

TaskGlobals collectTaskGlobals(const ast::TaskDef& task) {
    TaskGlobals g;
    for (const ast::VarDecl& decl : task.define) {
        TaskGlobal info;
        switch (decl.type.kind) {
        case ast::TypeKind::DynamicArray:
            info.kind = TaskGlobal::Kind::Array;
            info.dims = decl.type.dimensionality;
            break;
        case ast::TypeKind::StaticArray:
            info.kind = TaskGlobal::Kind::Array;
            info.dims = static_cast<int>(decl.type.lengths.size());
            break;
        case ast::TypeKind::List: info.kind = TaskGlobal::Kind::List; break;
        case ast::TypeKind::Class:
        case ast::TypeKind::Range: info.kind = TaskGlobal::Kind::Object; break;
        default: info.kind = TaskGlobal::Kind::Scalar; break;
        }
        info.isReduction = decl.isReduction;
        for (const ast::Name& n : decl.names) {
            info.name = n.text;
            info.declared = n.range;
            g.byName.emplace(n.text, info);
        }
    }
    for (const ast::Linkage& link : task.environment)
        for (const ast::Name& n : link.names) {
            auto it = g.byName.find(n.text);
            if (it != g.byName.end())
                it->second.environment = link.mode;
        }
    if (task.initialize)
        for (const ast::Name& n : task.initialize->params)
            if (auto it = g.byName.find(n.text); it != g.byName.end())
                it->second.initializeParameter = true;
    return g;
}

} // namespace itc::semantic
