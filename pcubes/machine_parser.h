// Machine description files (.pcubes / .ml) -> MachineModel. Reports every syntax and model
// error (R-69, R-70, itc's property and `Processors` extensions) to the diagnostics engine with
// line:col; returns nullopt if anything was wrong. Never throws on bad input.
#pragma once

#include "frontend/diagnostics/diagnostics.h"
#include "pcubes/machine_model.h"

#include <optional>
#include <string>

namespace itc::pcubes {

// Parses and validates the file `file`, already registered in `sources`.
std::optional<MachineModel> parseMachine(FileId file, const SourceManager& sources, DiagnosticEngine& diags);

// Loads `path` into `sources` (FileNotReadable if it cannot be read), then parseMachine.
std::optional<MachineModel> loadMachine(const std::string& path, SourceManager& sources, DiagnosticEngine& diags);

// Checks a built model: numbering, counts, attributes, processors; fills in totalPPUs.
// Used by parseMachine, and by tests on hand-built or discovered models.
bool validateMachine(MachineModel& model, FileId file, DiagnosticEngine& diags);

// Parses `64GiB`, `16 KiB`, `8`, `100ns` for a property of the given unit. On failure returns
// nullopt and sets `error` to a message for the user.
std::optional<std::uint64_t> parsePropertyValue(PropertyId id, const std::string& text, std::string& error);

} // namespace itc::pcubes
