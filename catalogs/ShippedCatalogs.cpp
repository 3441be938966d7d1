#include "gpusizer/catalogs/ShippedCatalogs.h"

#include "gpusizer/catalogs/Files.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>

namespace gpusizer::catalogs {

namespace data {
extern const std::string_view gpus_json;
extern const std::string_view models_json;
extern const std::string_view calibration_json;
} // namespace data

std::string_view shippedGpuJson() {
    return data::gpus_json;
}
std::string_view shippedModelJson() {
    return data::models_json;
}
std::string_view shippedCalibrationJson() {
    return data::calibration_json;
}

namespace {

template <class T, class Loader>
std::vector<T> loadInto(std::vector<T> base, std::string_view bytes, const std::string& name, Loader loader,
                        LoadedCatalog& out) {
    auto loaded = loader(bytes, name);
    if (!loaded) {
        out.fileErrors.push_back(loaded.error());
        return base;
    }
    for (auto& r : loaded->rejected) {
        out.rejected.push_back(std::move(r));
    }
    return core::mergeById(std::move(base), loaded->entries);
}

} // namespace

LoadedCatalog loadCatalogs(const std::vector<UserFile>& userGpuFiles, const std::vector<UserFile>& userModelFiles) {
    LoadedCatalog out;
    out.catalog.gpus = loadInto<core::GpuSpec>({}, shippedGpuJson(), "gpus.json (shipped)", core::loadGpuCatalog, out);
    out.catalog.models =
        loadInto<core::ModelEntry>({}, shippedModelJson(), "models.json (shipped)", core::loadModelCatalog, out);
    for (const auto& file : userGpuFiles) {
        out.catalog.gpus = loadInto(std::move(out.catalog.gpus), file.bytes, file.name, core::loadGpuCatalog, out);
    }
    for (const auto& file : userModelFiles) {
        out.catalog.models =
            loadInto(std::move(out.catalog.models), file.bytes, file.name, core::loadModelCatalog, out);
    }
    return out;
}

LoadedCatalog loadCatalogsWithFolder(const std::filesystem::path& folder) {
    // One byte past the JSON reader's 16 MiB limit is enough for it to reject a huge file without reading it all.
    std::vector<std::filesystem::path> paths;
    std::error_code ec;
    std::vector<core::Error> unreadable;
    // The default folder may well not exist; one the user named (GPUSIZER_CATALOG_DIR) that is a file is a mistake
    // to report, not to ignore.
    const char* named = std::getenv("GPUSIZER_CATALOG_DIR");
    if (named != nullptr && *named != '\0' && folder == std::filesystem::path(named) &&
        std::filesystem::exists(folder, ec) && !std::filesystem::is_directory(folder, ec)) {
        unreadable.push_back({core::ErrorCode::Unreadable,
                              QT_TRANSLATE_NOOP("gpusizer", "GPUSIZER_CATALOG_DIR names a file, not a folder: no user "
                                                            "catalogs were read"),
                              folder.string()});
    }
    if (!folder.empty() && std::filesystem::is_directory(folder, ec)) {
        for (const auto& entry : std::filesystem::directory_iterator(folder, ec)) {
            if (entry.path().extension() == ".json") {
                paths.push_back(entry.path());
            }
        }
    }
    std::sort(paths.begin(), paths.end());
    std::vector<UserFile> gpuFiles;
    std::vector<UserFile> modelFiles;
    for (const auto& path : paths) {
        const std::string name = path.filename().string();
        const bool gpus = name.rfind("gpus", 0) == 0;
        if (!gpus && name.rfind("models", 0) != 0) {
            continue;
        }
        auto bytes = readDocument(path);
        if (!bytes) {
            unreadable.push_back(bytes.error());
            continue;
        }
        (gpus ? gpuFiles : modelFiles).push_back({path.string(), std::move(*bytes)});
    }
    LoadedCatalog out = loadCatalogs(gpuFiles, modelFiles);
    out.fileErrors.insert(out.fileErrors.end(), unreadable.begin(), unreadable.end());
    return out;
}

} // namespace gpusizer::catalogs
