#include "Commands.h"
#include "gpusizer/scenario/ScenarioJson.h"

#include <nlohmann/json.hpp>

namespace gpusizer::cli {

namespace {

const char* kindName(core::ImportLine::Kind k) {
    switch (k) {
    case core::ImportLine::Kind::Used:
        return "used";
    case core::ImportLine::Kind::Defaulted:
        return "default";
    case core::ImportLine::Kind::Ignored:
        return "ignored";
    case core::ImportLine::Kind::Note:
        return "note";
    }
    return "";
}

} // namespace

int importConfigCommand(const Args& a, std::ostream& out, std::ostream& err) {
    if (a.positional.empty()) {
        err << "gpusizer-cli: import-config needs at least one training config\n" << usageText();
        return kUsage;
    }
    const auto loaded = loadCatalogs(err);
    const auto run = importRun(a, loaded.catalog, err);
    if (!run) {
        return kBadInput;
    }
    const std::string scenario = core::scenarioToJson(run->scenario);
    if (a.output && !writeOutput(*a.output, scenario, err)) {
        return kOutputFailed;
    }
    if (a.json) {
        nlohmann::json doc{{"format", "gpusizer-import-config"},
                           {"version", 1},
                           {"scenario", nlohmann::json::parse(scenario)},
                           {"model_name", run->modelName}};
        for (const auto& [path, format] : run->files) {
            doc["files"].push_back({{"path", path}, {"format", core::toString(format)}});
        }
        doc["report"] = nlohmann::json::array();
        for (const core::ImportLine& l : run->lines) {
            doc["report"].push_back({{"kind", kindName(l.kind)},
                                     {"file", l.file},
                                     {"key", l.key},
                                     {"value", l.value},
                                     {"field", l.field},
                                     {"why", l.why.english()}});
        }
        out << doc.dump(2) << "\n";
        return kOk;
    }
    out << core::importReportText(*run);
    if (a.output) {
        out << "scenario written to " << *a.output << "\n";
    } else {
        out << "\n" << scenario << "\n";
    }
    return kOk;
}

} // namespace gpusizer::cli
