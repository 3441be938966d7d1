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

namespace {

/// A user's prices replace the catalog's for the GPUs they name.
void applyPrices(const UserFile& file, LoadedCatalog& out) {
    auto loaded = core::loadPriceFile(file.bytes, file.name);
    if (!loaded) {
        out.fileErrors.push_back(loaded.error());
        return;
    }
    for (auto& r : loaded->rejected) {
        out.rejected.push_back(std::move(r));
    }
    for (const auto& price : loaded->entries) {
        auto gpu = std::find_if(out.catalog.gpus.begin(), out.catalog.gpus.end(),
                                [&](const core::GpuSpec& g) { return g.id == price.id; });
        if (gpu == out.catalog.gpus.end()) {
            out.rejected.push_back(
                {price.id,
                 core::Error{core::ErrorCode::UnknownId,
                             core::words(QT_TRANSLATE_NOOP("gpusizer", "no GPU '%1' in the catalog"), price.id),
                             file.name + ": prices[" + price.id + "]: id"}});
            continue;
        }
        gpu->priceOnDemandUsdHour = price.onDemandUsdHour;
        gpu->priceSpotUsdHour = price.spotUsdHour;
        gpu->priceDate = price.asOf;
        gpu->priceKind = price.kind;
        gpu->billing = price.billing;
        gpu->priceNote = price.note.empty() ? "from " + file.name : price.note;
    }
}

} // namespace

LoadedCatalog loadCatalogs(const std::vector<UserFile>& userGpuFiles, const std::vector<UserFile>& userModelFiles,
                           const std::vector<UserFile>& userPriceFiles) {
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
    for (const auto& file : userPriceFiles) {
        applyPrices(file, out);
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
    std::vector<UserFile> priceFiles;
    for (const auto& path : paths) {
        const std::string name = path.filename().string();
        const bool gpus = name.rfind("gpus", 0) == 0;
        const bool prices = name.rfind("prices", 0) == 0;
        if (!gpus && !prices && name.rfind("models", 0) != 0) {
            continue;
        }
        auto bytes = readDocument(path);
        if (!bytes) {
            unreadable.push_back(bytes.error());
            continue;
        }
        (gpus ? gpuFiles : prices ? priceFiles : modelFiles).push_back({path.string(), std::move(*bytes)});
    }
    LoadedCatalog out = loadCatalogs(gpuFiles, modelFiles, priceFiles);
    out.fileErrors.insert(out.fileErrors.end(), unreadable.begin(), unreadable.end());
    return out;
}

} // namespace gpusizer::catalogs
