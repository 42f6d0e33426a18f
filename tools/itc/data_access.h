// What the `itc data` subcommands share: choosing the element type from the command line,
// reading a file whose collection type comes from its own header, and naming an element's
// position in messages.
#pragma once

#include "runtime/data/io/data_file.h"
#include "tools/itc/command.h"
#include "tools/itc/data_element_type.h"

#include <cstdint>
#include <optional>
#include <string>

namespace itc::data {

// The options every subcommand uses to name the element type.
inline const std::set<std::string> kTypeOptions = {"--type", "--program", "--class"};

// `--type T` or `--program P --class C` (exactly one of the two). On a command-line mistake
// prints a usage error for `itc data <sub>` and sets `exitCode`; on a bad program prints its
// diagnostics and sets kExitUserError. `required` = false lets a subcommand go without a type.
std::optional<ElementType> elementTypeFromOptions(const driver::CommandLine& cl, const std::string& sub, bool required,
                                                  int& exitCode);

// The collection type a data file declares in its header line. Throws itrt::DataFileError (the
// runtime's own message) for a missing file, an unknown extension or an unknown header.
itrt::Collection collectionOf(const std::string& path);

// Reads any data file with the given element type: the collection type comes from its header.
itrt::DataCollection readAnyDataFile(const std::string& path, const ElementType& type);

// The position of element `index` of item `item` as a user reads it:
//   Array `[1,2]`, List `[3]`, List of Arrays `array 2 [1,0]`, Array of Lists `list [1,0] [3]`.
std::string elementPosition(const itrt::DataCollection& data, std::size_t item, int64_t index);

// "Array of Lists" etc., and "text"/"binary" for the file's extension.
std::string encodingName(const std::string& path);

} // namespace itc::data
