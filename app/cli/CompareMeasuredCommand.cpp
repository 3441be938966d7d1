#include "Commands.h"
#include "gpusizer/plan/Measurement.h"
#include "gpusizer/present/EstimateText.h"
#include "gpusizer/present/Json.h"
#include "gpusizer/present/Table.h"

namespace gpusizer::cli {

int compareMeasuredCommand(const Args& a, std::ostream& out, std::ostream& err) {
    if (a.positional.size() != 2) {
        err << "gpusizer-cli: compare-measured needs a scenario file and a result file\n";
        return kUsage;
    }
    const auto loaded = loadCatalogs(err);
    Args scenarioArgs = a;
    scenarioArgs.positional = {a.positional[0]};
    const auto scenario = loadScenario(scenarioArgs, loaded.catalog, err);
    if (!scenario) {
        return kBadInput;
    }
    const auto bytes = readInput(a.positional[1], err);
    if (!bytes) {
        return kBadInput;
    }
    const auto measurement = core::parseMeasurement(*bytes, a.positional[1], loaded.catalog);
    if (!measurement) {
        printError(err, measurement.error());
        return kBadInput;
    }
    const auto comparison = core::compareMeasured(*scenario, *measurement, loaded.catalog);
    if (!comparison) {
        printError(err, comparison.error());
        return kBadInput;
    }
    if (a.json) {
        out << present::comparisonJson(*measurement, *comparison).dump(2) << "\n";
        return kOk;
    }
    out << "Measured on " << present::english(present::runLabel(*measurement)) << " with "
        << measurement->implementation << ":\n";
    out << present::renderText(
        present::measuredTable({{present::runLabel(*measurement), *comparison}})
            .select({present::MeasFigure, present::MeasEstimated, present::MeasMeasured, present::MeasError}),
        "  ");
    for (const auto& n : comparison->notes) {
        out << "note: " << n.message() << "\n";
    }
    return kOk;
}

} // namespace gpusizer::cli
