// MachineModel -> PCubeS text in canonical form: one `Space` line per level top-down, attributes
// in the order <unit><segment><core>, properties in properties.def order, then `Processors:`.
// parse(print(m)) == m for every valid model, and printing a canonical file reproduces it.
#pragma once

#include "pcubes/machine_model.h"

#include <string>
#include <vector>

namespace itc::pcubes {

struct PrintOptions {
    std::vector<std::string> header;        // comment lines written first (without `// `)
    std::vector<std::string> levelComments; // per level, top-down; empty strings for none
};

std::string printMachine(const MachineModel& model, const PrintOptions& options = {});

// `0-3, 8, 10-11`: ascending runs of two or more become ranges.
std::string formatProcessorList(const std::vector<std::uint32_t>& ids);

} // namespace itc::pcubes
