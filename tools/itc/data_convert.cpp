// `itc data convert`: rewrites a data file in the other encoding (text <-> binary).
#include "runtime/data/data_error.h"
#include "tools/itc/data_access.h"
#include "tools/itc/data_commands.h"

#include <iostream>

namespace itc::data {

int runConvert(const std::vector<std::string>& args) {
    driver::CommandLine cl(args, kTypeOptions, {});
    if (!cl.ok())
        return driver::usageError("data convert", cl.error());
    if (cl.positionals().size() != 2)
        return driver::usageError("data convert", "expected an input and an output file");
    int exitCode = driver::kExitOk;
    std::optional<ElementType> type = elementTypeFromOptions(cl, "convert", true, exitCode);
    if (!type)
        return exitCode;
    const std::string& in = cl.positionals()[0];
    const std::string& out = cl.positionals()[1];
    try {
        itrt::encoding_of(out); // a wrong output extension is reported before reading
        itrt::write_data_file(out, type->codec(), readAnyDataFile(in, *type));
    } catch (const itrt::DataFileError& e) {
        std::cerr << e.what() << "\n";
        return driver::kExitUserError;
    }
    return driver::kExitOk;
}

} // namespace itc::data
