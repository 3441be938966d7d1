#include "gpusizer/core/ProbeScript.h"

#include "gpusizer/core/HfConfig.h"
#include "gpusizer/core/ScenarioJson.h"
#include "gpusizer/core/Version.h"

#include <nlohmann/json.hpp>

namespace gpusizer::core {

namespace detail {
extern const std::string_view kProbeTemplate;
} // namespace detail

namespace {

void replaceAll(std::string& text, std::string_view what, const std::string& with) {
    for (std::size_t pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + with.size())) {
        text.replace(pos, what.size(), with);
    }
}

/// JSON that can sit inside a Python raw triple-quoted string: no ''' and no trailing backslash issues.
std::string pythonSafe(std::string json) {
    replaceAll(json, "'''", "\\u0027\\u0027\\u0027");
    return json;
}

} // namespace

std::string probeScript(const Scenario& scenario) {
    std::string script(detail::kProbeTemplate);
    nlohmann::json config = archToHfConfig(scenario.model);
    if (config.value("model_type", "") == "custom" && scenario.model.mlp == MlpKind::Gated &&
        scenario.model.norm == NormKind::RmsNorm) {
        config["model_type"] = "llama"; // what transformers builds for a gated RMSNorm decoder
    }
    std::string name =
        scenario.name.empty() ? (scenario.modelId.empty() ? scenario.model.name : scenario.modelId) : scenario.name;
    replaceAll(name, "\"", "'");
    Scenario measured = scenario;
    measured.notes.clear(); // the run's settings; an import report is not one
    replaceAll(script, "__GPUSIZER_SCENARIO_JSON__", pythonSafe(scenarioToJson(measured)));
    replaceAll(script, "__GPUSIZER_MODEL_CONFIG__", pythonSafe(config.dump(1)));
    replaceAll(script, "__GPUSIZER_VERSION__", std::string(versionString()));
    replaceAll(script, "__GPUSIZER_NAME__", name);
    return script;
}

} // namespace gpusizer::core
