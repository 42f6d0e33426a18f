// Checks a mapping file against the machine model and the program (it-language.md §11.2):
// PPS numbers exist, no duplicates, task and space names exist, every space of a mapped task is
// mapped, every executed task is mapped, ancestors map at or above their descendants
// (partial order, sub-partition parents and Root included) and Root confinement.
#include "pcubes/mapping.h"

#include "frontend/diagnostics/did_you_mean.h"

#include <algorithm>
#include <set>

namespace itc::pcubes {
namespace {

std::string quotedList(const std::vector<std::string>& names) {
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i)
        out += fmt::format("{}`{}`", i == 0 ? "" : (i + 1 == names.size() ? " and " : ", "), names[i]);
    return out;
}

// Duplicates and PPS numbers; returns the tasks to check further (first mapping of each).
std::vector<const MappingFile::Task*> checkAgainstMachine(const MappingFile& mapping, const MachineModel& machine,
                                                          DiagnosticEngine& diags) {
    std::vector<const MappingFile::Task*> unique;
    std::map<std::string, const MappingFile::Task*> seenTasks;
    for (const MappingFile::Task& task : mapping.tasks) {
        if (auto it = seenTasks.find(task.name); it != seenTasks.end()) {
            auto& d = diags.error(DiagKind::MappingDuplicateTask, task.nameRange,
                                  "task `{}` is mapped twice; merge the two mappings into one", task.name);
            DiagnosticEngine::addNote(d, it->second->nameRange, "first mapped here");
            continue;
        }
        seenTasks[task.name] = &task;
        unique.push_back(&task);
        std::map<std::string, const MappingFile::Entry*> seenSpaces;
        for (const MappingFile::Entry& e : task.entries) {
            if (auto it = seenSpaces.find(e.space); it != seenSpaces.end()) {
                auto& d = diags.error(DiagKind::MappingDuplicateSpace, e.spaceRange,
                                      "space `{}` of task `{}` is mapped twice; keep one mapping", e.space, task.name);
                DiagnosticEngine::addNote(d, it->second->range, "first mapped here");
                continue;
            }
            seenSpaces[e.space] = &e;
            if (e.pps < 1 || e.pps > machine.levelCount()) {
                const Level* top = machine.level(machine.levelCount());
                diags.error(DiagKind::MappingUnknownPPS, e.ppsRange,
                            "the machine has no PPS {}; its levels are numbered 1 ({}) to {} "
                            "({})",
                            e.ppsText.empty() ? std::to_string(e.pps) : e.ppsText, machine.level(1)->name,
                            machine.levelCount(), top->name);
            }
        }
    }
    return unique;
}

} // namespace

bool validateMappingAgainstMachine(const MappingFile& mapping, const MachineModel& machine, DiagnosticEngine& diags) {
    std::size_t before = diags.errorCount();
    if (mapping.tasks.empty()) { // checked without a program, an empty file maps nothing
        SourceRange whole;
        whole.begin.file = mapping.file;
        diags.error(DiagKind::MappingSyntax, whole,
                    "the mapping file maps no task; add one such as `\"Task Name\" {{ Space A: 1 }}`");
        return false;
    }
    checkAgainstMachine(mapping, machine, diags);
    return diags.errorCount() == before;
}

std::optional<std::vector<TaskMapping>> validateMapping(const MappingFile& mapping, const ProgramSpaces& program,
                                                        const MachineModel& machine, DiagnosticEngine& diags) {
    std::size_t before = diags.errorCount();
    // The names are checked even after a wrong PPS number, so that one run reports every
    // mistake; the order of a task's levels only once they all exist.
    std::vector<const MappingFile::Task*> tasks = checkAgainstMachine(mapping, machine, diags);
    const auto levelsExist = [&](const MappingFile::Task& task) {
        return std::all_of(task.entries.begin(), task.entries.end(),
                           [&](const MappingFile::Entry& e) { return e.pps >= 1 && e.pps <= machine.levelCount(); });
    };
    std::vector<TaskMapping> result;
    std::set<std::string> mapped;
    for (const MappingFile::Task* task : tasks) {
        mapped.insert(task->name);
        const ProgramSpaces::Task* decl = program.task(task->name);
        if (!decl) {
            std::vector<std::string> names;
            for (const auto& t : program.tasks)
                names.push_back(t.name);
            std::string near = nearestName(task->name, names);
            diags.error(DiagKind::MappingUnknownTask, task->nameRange, "the program has no task named `{}`; {}",
                        task->name,
                        names.empty()  ? std::string("it defines no task")
                        : near.empty() ? "its tasks are " + quotedList(names)
                                       : "did you mean `" + near + "`?");
            continue;
        }
        std::size_t taskErrors = diags.errorCount();
        TaskMapping out;
        out.task = task->name;
        out.root = machine.levelCount();
        const MappingFile::Entry* rootEntry = nullptr;
        std::map<std::string, const MappingFile::Entry*> entries;
        for (const MappingFile::Entry& e : task->entries) {
            if (e.isRoot()) {
                rootEntry = &e;
                out.root = e.pps;
                continue;
            }
            if (!decl->space(e.space)) {
                std::vector<std::string> names;
                for (const auto& s : decl->spaces)
                    names.push_back(s.name);
                auto& d = diags.error(
                    DiagKind::MappingUnknownSpace, e.spaceRange, "task `{}` has no space `{}`; {}", task->name, e.space,
                    names.empty() ? std::string("it declares no space") : "it declares " + quotedList(names));
                DiagnosticEngine::addNote(d, decl->declared, fmt::format("task `{}` declared here", task->name));
                continue;
            }
            entries[e.space] = &e;
            out.spaces[e.space] = e.pps;
        }
        for (const ProgramSpaces::Space& s : decl->spaces) {
            if (entries.count(s.name))
                continue;
            auto& d = diags.error(DiagKind::MappingSpaceUnmapped, task->nameRange,
                                  "space `{}` of task `{}` is not mapped; add `Space {}: N` "
                                  "(every space of a task must be mapped)",
                                  s.name, task->name, s.name);
            DiagnosticEngine::addNote(d, s.declared, fmt::format("space `{}` declared here", s.name));
        }
        if (diags.errorCount() != taskErrors || !levelsExist(*task))
            continue;
        // Partial order: each space at or below its parent (Root included), checked against the
        // parent only: all spaces are mapped, so the order holds transitively.
        for (const ProgramSpaces::Space& s : decl->spaces) {
            const MappingFile::Entry* e = entries.at(s.name);
            if (s.parent) {
                const MappingFile::Entry* p = entries.count(*s.parent) ? entries.at(*s.parent) : nullptr;
                if (p && e->pps > p->pps) {
                    auto& d = diags.error(DiagKind::MappingOrderViolation, e->ppsRange,
                                          "space `{}` is mapped to PPS {}, above PPS {} of its ancestor space `{}`; "
                                          "a space must map at or below its ancestors, so use {} or lower",
                                          s.name, e->pps, p->pps, *s.parent, p->pps);
                    DiagnosticEngine::addNote(d, p->range, fmt::format("`{}` mapped here", *s.parent));
                    DiagnosticEngine::addNote(d, s.declared,
                                              fmt::format("`{}` divides {}`{}` here", s.name,
                                                          s.viaSubpartitions ? "the sub-partitions of " : "",
                                                          *s.parent));
                }
            } else if (rootEntry && e->pps > rootEntry->pps) {
                auto& d = diags.error(DiagKind::MappingRootConfinement, e->ppsRange,
                                      "space `{}` is mapped to PPS {}, above PPS {} that `Space Root` confines task "
                                      "`{}` to; map it to {} or lower",
                                      s.name, e->pps, rootEntry->pps, task->name, rootEntry->pps);
                DiagnosticEngine::addNote(d, rootEntry->range, "`Space Root` mapped here");
            }
        }
        if (diags.errorCount() == taskErrors)
            result.push_back(std::move(out));
    }
    // Every executed task needs a mapping; report each task once, at its first execute.
    std::set<std::string> reported;
    for (const ProgramSpaces::Execution& x : program.executed) {
        if (mapped.count(x.task) || !program.task(x.task) || !reported.insert(x.task).second)
            continue;
        SourceRange at = x.at;
        if (!at.valid())
            at.begin.file = mapping.file;
        // The line to add, with the task's own spaces (`Space A: N` with N a PPS number).
        std::string lines;
        if (const auto* t = program.task(x.task))
            for (const auto& s : t->spaces)
                lines += " Space " + s.name + ": N";
        auto& d = diags.error(DiagKind::MappingTaskUnmapped, at,
                              "task `{}` is executed but `{}` does not map it; add `\"{}\" {{{} }}` with a PPS "
                              "number for each space",
                              x.task, mapping.path, x.task, lines.empty() ? " Space A: N" : lines);
        if (const auto* t = program.task(x.task); t && t->declared.valid())
            DiagnosticEngine::addNote(d, t->declared, fmt::format("task `{}` declared here", x.task));
    }
    if (diags.errorCount() != before)
        return std::nullopt;
    return result;
}

} // namespace itc::pcubes
