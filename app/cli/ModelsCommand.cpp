#include "Commands.h"
#include "gpusizer/present/Format.h"
#include "gpusizer/present/Json.h"
#include "gpusizer/scenario/ModelArch.h"

#include <algorithm>
#include <iomanip>

namespace gpusizer::cli {

int modelsCommand(const Args& a, std::ostream& out, std::ostream& err) {
    const auto loaded = loadCatalogs(err);
    if (a.json) {
        out << present::modelsJson(loaded.catalog).dump(2) << "\n";
        return kOk;
    }
    // Columns as wide as their longest entry, with two spaces between.
    std::size_t idWidth = 2;
    std::size_t nameWidth = 4;
    for (const auto& m : loaded.catalog.models) {
        idWidth = std::max(idWidth, m.id.size());
        nameWidth = std::max(nameWidth, m.name.size());
    }
    const auto idColumn = static_cast<int>(idWidth + 2);
    const auto nameColumn = static_cast<int>(nameWidth + 2);
    out << std::left << std::setw(idColumn) << "id" << std::setw(nameColumn) << "name" << std::right << std::setw(14)
        << "params"
        << "\n";
    for (const auto& m : loaded.catalog.models) {
        out << std::left << std::setw(idColumn) << m.id << std::setw(nameColumn) << m.name << std::right
            << std::setw(14) << present::params(core::countParams(m.arch).total) << "\n";
    }
    return kOk;
}

} // namespace gpusizer::cli
