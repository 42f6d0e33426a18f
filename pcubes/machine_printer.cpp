// Canonical printing of machine models (see machine_printer.h).
#include "pcubes/machine_printer.h"

#include <fmt/format.h>

namespace itc::pcubes {

std::string formatProcessorList(const std::vector<std::uint32_t>& ids) {
    std::string out;
    for (std::size_t i = 0; i < ids.size();) {
        std::size_t j = i;
        while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1)
            ++j;
        if (!out.empty())
            out += ", ";
        out += j > i ? fmt::format("{}-{}", ids[i], ids[j]) : fmt::format("{}", ids[i]);
        i = j + 1;
    }
    return out;
}

std::string printMachine(const MachineModel& model, const PrintOptions& options) {
    std::string out;
    for (const std::string& line : options.header)
        out += line.empty() ? "//\n" : "// " + line + "\n";
    std::vector<std::string> lines;
    std::size_t width = 0;
    for (const Level& l : model.levels) {
        std::string line = fmt::format("Space {}", l.number);
        if (l.unit)
            line += "<unit>";
        if (l.segment)
            line += "<segment>";
        if (l.core)
            line += "<core>";
        line += fmt::format(": {} ({})", l.name, l.fanOut);
        std::string props;
        for (std::size_t i = 0; i < kPropertyCount; ++i)
            if (l.properties[i])
                props += fmt::format("{}{}: {}", props.empty() ? "" : ", ", propertyKey(PropertyId(i)),
                                     formatPropertyValue(PropertyId(i), *l.properties[i]));
        if (!props.empty())
            line += " { " + props + " }";
        width = std::max(width, line.size());
        lines.push_back(std::move(line));
    }
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string* comment =
            i < options.levelComments.size() && !options.levelComments[i].empty() ? &options.levelComments[i] : nullptr;
        out += lines[i];
        if (comment)
            out += std::string(width - lines[i].size() + 2, ' ') + "// " + *comment;
        out += "\n";
    }
    if (!model.processors.empty())
        out += "Processors: " + formatProcessorList(model.processors) + "\n";
    return out;
}

} // namespace itc::pcubes
