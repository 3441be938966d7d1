#include "Commands.h"
#include "gpusizer/present/Json.h"

#include <iomanip>

namespace gpusizer::cli {

int gpusCommand(const Args& a, std::ostream& out, std::ostream& err) {
    const auto loaded = loadCatalogs(err);
    if (a.json) {
        out << present::gpusJson(loaded.catalog).dump(2) << "\n";
        return kOk;
    }
    out << std::left << std::setw(18) << "id" << std::setw(30) << "name" << std::right << std::setw(10) << "GiB"
        << std::setw(10) << "usable" << std::setw(10) << "BF16 TF" << std::setw(10) << "$/h"
        << "\n";
    for (const auto& g : loaded.catalog.gpus) {
        out << std::left << std::setw(18) << g.id << std::setw(30) << g.name << std::right << std::fixed
            << std::setprecision(0) << std::setw(10) << g.memoryGiBStated << std::setprecision(1) << std::setw(10)
            << g.memoryGiBUsable << std::setprecision(0) << std::setw(10) << g.bf16Tflops << std::setprecision(2)
            << std::setw(10) << g.priceOnDemandUsdHour << "\n";
    }
    out << "(GiB = 2^30 bytes; prices illustrative, per GPU-hour on demand)\n";
    return kOk;
}

} // namespace gpusizer::cli
