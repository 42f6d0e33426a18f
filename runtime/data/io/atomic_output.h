// Output files are written under a temporary name in the same directory and renamed at the end,
// so a failed run never leaves a truncated file under the final name.
#pragma once

#include <string>
#include <string_view>

namespace itrt {

// "<dir>/.<name>.<unique>.tmp" next to `path`.
std::string temporary_path_for(const std::string& path, std::string_view unique);

// Writes `bytes` to a temporary file beside `path`, then renames it to `path`.
// On failure removes the temporary file and throws DataFileError naming `path`.
void write_file_atomically(const std::string& path, std::string_view bytes);

// Renames `tmp` to `path`; throws DataFileError naming `path` on failure (and removes `tmp`).
void commit_temporary(const std::string& tmp, const std::string& path);

} // namespace itrt
