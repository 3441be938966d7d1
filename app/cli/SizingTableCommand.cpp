#include "Commands.h"
#include "gpusizer/plan/Advisor.h"
#include "gpusizer/present/AdviceText.h"
#include "gpusizer/present/Json.h"
#include "gpusizer/present/PlanText.h"
#include "gpusizer/present/Table.h"

namespace gpusizer::cli {

int sizingTableCommand(const Args& a, std::ostream& out, std::ostream& err) {
    const auto loaded = loadCatalogs(err);
    const auto scenario = loadScenario(a, loaded.catalog, err);
    if (!scenario) {
        return kBadInput;
    }
    const auto inputs = planInputsFrom(a, *scenario, err);
    if (!inputs) {
        return kBadInput;
    }
    const auto rows = core::sizingTable(*scenario, loaded.catalog, *inputs);
    if (a.json) {
        out << present::sizingJson(rows, *scenario).dump(2) << "\n";
        return kOk;
    }
    out << present::english(present::sizingCaption(*scenario, *inputs)) << "\n";
    out << present::renderText(present::sizingTable(rows));
    return kOk;
}

} // namespace gpusizer::cli
