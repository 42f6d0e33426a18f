// Mapping files (it-language.md §11): the parsed file as plain data, the program facts the
// validator needs (ProgramSpaces, filled from the AST by an adapter or by hand in tests), and
// the validated result the backend uses.
#pragma once

#include "frontend/diagnostics/diagnostics.h"
#include "pcubes/machine_model.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace itc::pcubes {

// What the mapping file says, as written.
struct MappingFile {
    struct Entry {
        std::string space; // a capital letter, or "Root"
        int pps = 0;
        std::string ppsText; // as written: a number too large for `pps` is reported as it is
        SourceRange spaceRange, ppsRange, range;
        bool isRoot() const { return space == "Root"; }
    };
    struct Task {
        std::string name; // without the quotes
        SourceRange nameRange, range;
        std::vector<Entry> entries;
    };
    FileId file = kNoFile;
    std::string path; // as given to the loader, for messages
    std::vector<Task> tasks;
};

// What the program declares: per task its spaces with their parents, and the executed tasks.
struct ProgramSpaces {
    struct Space {
        std::string name;                  // one capital letter
        std::optional<std::string> parent; // nullopt: divides Root
        bool viaSubpartitions = false;     // `divides Space Y sub-partitions`
        SourceRange declared;
    };
    struct Task {
        std::string name;
        SourceRange declared;
        std::vector<Space> spaces;
        const Space* space(const std::string& n) const {
            for (const Space& s : spaces)
                if (s.name == n)
                    return &s;
            return nullptr;
        }
    };
    struct Execution {
        std::string task;
        SourceRange at; // the `execute(...)` in the coordinator
    };
    std::vector<Task> tasks;
    std::vector<Execution> executed;
    const Task* task(const std::string& n) const {
        for (const Task& t : tasks)
            if (t.name == n)
                return &t;
        return nullptr;
    }
};

// The checked mapping of one task: every space to a PPS number; Root defaults to the top PPS.
struct TaskMapping {
    std::string task;
    int root = 0;
    std::map<std::string, int> spaces;
};

// Parses a mapping file (syntax and space-name spelling). nullopt after any error.
std::optional<MappingFile> parseMapping(FileId file, const SourceManager& sources, DiagnosticEngine& diags);
std::optional<MappingFile> loadMapping(const std::string& path, SourceManager& sources, DiagnosticEngine& diags);

// Checks what can be checked without the program: PPS numbers exist in the model and no task
// or space is mapped twice. (Names, completeness and the partial order need validateMapping.)
bool validateMappingAgainstMachine(const MappingFile& mapping, const MachineModel& machine, DiagnosticEngine& diags);

// Full check (R-66, R-67, partial order, names, duplicates, PPS numbers). Returns one
// TaskMapping per mapped task, or nullopt after any error.
std::optional<std::vector<TaskMapping>> validateMapping(const MappingFile& mapping, const ProgramSpaces& program,
                                                        const MachineModel& machine, DiagnosticEngine& diags);

} // namespace itc::pcubes
