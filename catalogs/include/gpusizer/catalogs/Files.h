#pragma once
// Reading and writing the user's files, once for the window and the CLI: a size limit and a refusal of anything
// that is not a regular file on reading (a FIFO would block, a directory is no document), an atomic replacement on
// writing, and the user's data folder where both look for catalogs.

#include "gpusizer/import/TrainingConfig.h"
#include "gpusizer/scenario/Result.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace gpusizer::catalogs {

/// The largest document any loader accepts (scenarios, measurements, configs, catalogs).
inline constexpr std::int64_t kMaxDocumentBytes = 16LL * 1024 * 1024;

/// The bytes of a regular file of at most `maxBytes`; an error naming the file and why otherwise (missing, a
/// directory or another special file, too large, unreadable).
core::Result<std::string> readDocument(const std::filesystem::path& path, std::int64_t maxBytes = kMaxDocumentBytes);

/// A training config run read from disk for core::importTrainingConfigs: each file through readDocument, the
/// model's config.json when given, and the reader of the files a config names (nothing there: the importer tries
/// its next place). The window and the CLI share it; the first problem names its file.
core::Result<core::ImportRequest> trainingConfigRequest(const std::vector<std::string>& paths,
                                                        const std::string& modelConfig = {});

/// Where writing `path` must go: through any symbolic links to the file they name; an error if that is a folder,
/// a FIFO or a device (outputs are regular files only, written whole and renamed into place).
core::Result<std::filesystem::path> outputTarget(const std::filesystem::path& path);

/// Writes `bytes` to a temporary file beside outputTarget(path) and renames it over it: the old file stays whole
/// until the new one is complete. Refuses to replace anything but a regular file (a FIFO, a device, a directory).
core::Result<void> writeDocument(const std::filesystem::path& path, const std::string& bytes);

/// The user's catalog folder: $GPUSIZER_CATALOG_DIR if set, else the application's data folder (what Qt calls
/// AppDataLocation): $XDG_DATA_HOME or ~/.local/share on Linux, ~/Library/Application Support on macOS, %APPDATA%
/// on Windows, each followed by gpusizer/GPU Sizer/catalogs. Empty when no home is known.
std::filesystem::path userCatalogDir();

} // namespace gpusizer::catalogs
