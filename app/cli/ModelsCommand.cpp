#include "Commands.h"
#include "gpusizer/present/Format.h"
#include "gpusizer/present/Json.h"
#include "gpusizer/scenario/ModelArch.h"

#include <iomanip>

namespace gpusizer::cli {

int modelsCommand(const Args& a, std::ostream& out, std::ostream& err) {
    const auto loaded = loadCatalogs(err);
    if (a.json) {
        out << present::modelsJson(loaded.catalog).dump(2) << "\n";
        return kOk;
    }
    out << std::left << std::setw(20) << "id" << std::setw(28) << "name" << std::right << std::setw(14) << "params"
        << "\n";
    for (const auto& m : loaded.catalog.models) {
        out << std::left << std::setw(20) << m.id << std::setw(28) << m.name << std::right << std::setw(14)
            << present::params(core::countParams(m.arch).total) << "\n";
    }
    return kOk;
}

} // namespace gpusizer::cli
