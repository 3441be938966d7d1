#pragma once

#include "gpusizer/scenario/Catalog.h"

#include <filesystem>
#include <string_view>
#include <vector>

namespace gpusizer::catalogs {

/// The bytes of catalogs/gpus.json as shipped inside the binary.
std::string_view shippedGpuJson();
/// The bytes of catalogs/models.json as shipped inside the binary.
std::string_view shippedModelJson();

/// The bytes of catalogs/calibration.json: published measured runs as scenarios (see docs/accuracy.md).
std::string_view shippedCalibrationJson();

/// What loading a catalog set produced: the merged catalog and every entry or file left out.
struct LoadedCatalog {
    core::Catalog catalog;
    std::vector<core::RejectedEntry> rejected;
    std::vector<core::Error> fileErrors;
};

/// The shipped catalogs, then the user's files (bytes + name) overriding or extending them by id.
/// A broken user file is reported and skipped; the shipped data always loads.
struct UserFile {
    std::string name;
    std::string bytes;
};
/// Price files (prices*.json) come last and replace the prices of the GPUs they name (an unknown id is left out).
LoadedCatalog loadCatalogs(const std::vector<UserFile>& userGpuFiles = {},
                           const std::vector<UserFile>& userModelFiles = {},
                           const std::vector<UserFile>& userPriceFiles = {});

/// The shipped catalogs and a user catalog folder: its gpus*.json, models*.json and prices*.json files, in name order.
/// A file that cannot be read is reported in fileErrors and skipped; a folder that does not exist adds nothing.
LoadedCatalog loadCatalogsWithFolder(const std::filesystem::path& folder);

} // namespace gpusizer::catalogs
