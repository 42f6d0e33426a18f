// The rules of a machine model (R-69 numbering and counts, R-70 attributes, the `Processors`
// extension), checked once the model is built. One mistake gives one message: numbering
// errors stop the checks that depend on the numbering.
#include "pcubes/machine_parser.h"

namespace itc::pcubes {
namespace {

std::string attributeOwner(const Level& l) { return fmt::format("`Space {}` ({})", l.number, l.name); }

} // namespace

bool validateMachine(MachineModel& model, FileId file, DiagnosticEngine& diags) {
    std::size_t before = diags.errorCount();
    auto& levels = model.levels;
    if (levels.empty()) {
        SourceRange whole;
        whole.begin.file = file;
        diags.error(DiagKind::MachineEmpty, whole,
                    "the machine file describes no level; add lines such as "
                    "`Space 2: Node (1)` and `Space 1<core>: Core (4)`");
        return false;
    }
    // top-down, each number one less than the line above, down to `Space 1`.
    for (std::size_t i = 1; i < levels.size(); ++i) {
        const Level& l = levels[i];
        const Level& above = levels[i - 1];
        if (l.number == above.number - 1)
            continue;
        if (l.number >= above.number)
            diags.error(DiagKind::MachineLevelOrder, l.declared,
                        "`Space {}` follows `Space {}`: levels go top-down, from the root with the "
                        "highest number down to `Space 1`",
                        l.number, above.number);
        else
            diags.error(DiagKind::MachineLevelOrder, l.declared,
                        "`Space {}` follows `Space {}`: each level's number is one less than the "
                        "line above, so this line must be `Space {}`",
                        l.number, above.number, above.number - 1);
        return false;
    }
    if (levels.back().number != 1) {
        if (levels.size() == 1)
            diags.error(DiagKind::MachineLevelOrder, levels.back().declared,
                        "the only level is `Space {}` but must be `Space 1`", levels.back().number);
        else
            diags.error(DiagKind::MachineLevelOrder, levels.back().declared,
                        "the lowest level is `Space {}` but must be `Space 1`: number the {} levels "
                        "from `Space {}` at the root down to `Space 1`",
                        levels.back().number, levels.size(), levels.size());
        return false;
    }
    // Counts: the root has one PPU; every level at least one per parent.
    if (levels.front().fanOut != 1) {
        diags.error(DiagKind::MachineBadCount, levels.front().declared,
                    "the root level `{}` must have the count `(1)`, not `({})`; add a level above "
                    "it to describe several of them",
                    levels.front().name, levels.front().fanOut);
    }
    std::uint64_t total = 1;
    for (Level& l : levels) {
        if (l.fanOut == 0) {
            diags.error(DiagKind::MachineBadCount, l.declared,
                        "level `{}` has a PPU count of 0; each PPU of the level above holds at "
                        "least one PPU of this level",
                        l.name);
            return false;
        }
        if (total > (std::uint64_t(1) << 40) / l.fanOut) {
            diags.error(DiagKind::MachineBadCount, l.declared,
                        "the machine has more than 2^40 `{}` PPUs; check the counts, which are "
                        "per parent PPU",
                        l.name);
            return false;
        }
        total *= l.fanOut;
        l.totalPPUs = total;
    }
    // at most one segment and unit, exactly one core, unit >= segment >= core.
    const Level* segment = nullptr;
    const Level* unit = nullptr;
    const Level* core = nullptr;
    auto once = [&](const Level& l, bool flag, const Level*& first, std::string_view name) {
        if (!flag)
            return;
        if (first) {
            auto& d = diags.error(DiagKind::MachineAttributeTwice, l.declared,
                                  "`<{}>` is given again on {}; only one level may carry it", name, attributeOwner(l));
            DiagnosticEngine::addNote(d, first->declared, fmt::format("`<{}>` first given here", name));
            return;
        }
        first = &l;
    };
    for (const Level& l : levels) {
        once(l, l.segment, segment, "segment");
        once(l, l.unit, unit, "unit");
        once(l, l.core, core, "core");
    }
    if (diags.errorCount() != before)
        return false;
    if (!core) {
        diags.error(DiagKind::MachineNoCore, levels.back().declared,
                    "no level carries `<core>`; mark the level whose PPUs are the hardware threads "
                    "that run code, usually `Space 1<core>`");
        return false;
    }
    if (unit && segment && unit->number < segment->number) {
        auto& d = diags.error(DiagKind::MachineAttributeOrder, unit->declared,
                              "`<unit>` on {} is below `<segment>` on {}; a unit (a separate "
                              "machine) holds whole segments, so put `<unit>` at or above it",
                              attributeOwner(*unit), attributeOwner(*segment));
        DiagnosticEngine::addNote(d, segment->declared, "`<segment>` given here");
        return false;
    }
    if (segment && segment->number < core->number) {
        auto& d = diags.error(DiagKind::MachineAttributeOrder, segment->declared,
                              "`<segment>` on {} is below `<core>` on {}; every thread must run "
                              "inside one segment, so put `<segment>` at or above `<core>`",
                              attributeOwner(*segment), attributeOwner(*core));
        DiagnosticEngine::addNote(d, core->declared, "`<core>` given here");
        return false;
    }
    if (unit && unit->number < core->number) {
        auto& d = diags.error(DiagKind::MachineAttributeOrder, unit->declared,
                              "`<unit>` on {} is below `<core>` on {}; put `<unit>` at or above "
                              "`<core>`",
                              attributeOwner(*unit), attributeOwner(*core));
        DiagnosticEngine::addNote(d, core->declared, "`<core>` given here");
        return false;
    }
    // Processors: one OS id per core PPU inside one unit (or the whole machine).
    if (model.processorsDeclared.valid() || !model.processors.empty()) {
        const Level& anchor = unit ? *unit : levels.front();
        std::uint64_t expected = core->totalPPUs / anchor.totalPPUs;
        if (model.processors.size() != expected) {
            diags.error(DiagKind::MachineBadProcessors, model.processorsDeclared,
                        "`Processors` lists {} OS processor ids, but one `{}` PPU holds {} `{}` "
                        "PPUs; list one id per `<core>` PPU, depth-first",
                        model.processors.size(), anchor.name, expected, core->name);
            return false;
        }
    }
    return diags.errorCount() == before;
}

} // namespace itc::pcubes
