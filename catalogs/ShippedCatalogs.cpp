#include "gpusizer/catalogs/ShippedCatalogs.h"

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

} // namespace gpusizer::catalogs
