#include "gpusizer/plan/ProbeScript.h"

#include "gpusizer/scenario/FrameworkProfile.h"
#include "gpusizer/scenario/HfConfig.h"
#include "gpusizer/scenario/ScenarioJson.h"
#include "gpusizer/scenario/Version.h"

#include <nlohmann/json.hpp>

namespace gpusizer::core {

namespace detail {
extern const std::string_view kProbeTemplate;
extern const std::string_view kDatasetTemplate;
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

/// The name the scripts carry in their header: the scenario's, else its model's.
std::string scenarioLabel(const Scenario& scenario) {
    std::string name =
        scenario.name.empty() ? (scenario.modelId.empty() ? scenario.model.name : scenario.modelId) : scenario.name;
    replaceAll(name, "\"", "'");
    return name;
}

} // namespace

std::optional<bool> checkpointingIsReentrant(Framework framework) {
    switch (framework) {
    case Framework::Torchtune:  // training/activations.py @v0.6.1: CheckpointImpl.NO_REENTRANT
    case Framework::Torchtitan: // distributed/activation_checkpoint.py @v0.2.2: ptd_checkpoint_wrapper, non-reentrant
    case Framework::Lightning:  // fabric/strategies/fsdp.py @2.6.5 _setup_activation_checkpointing: NO_REENTRANT
    case Framework::Colossalai: // ColossalChat train_sft.py L141-143 @4f9953be: {"use_reentrant": False}
        return false;
    case Framework::Axolotl:   // utils/config/__init__.py @v0.18.0 normalize_config: {"use_reentrant": True}
    case Framework::Unsloth:   // unsloth-zoo gradient_checkpointing.py @ce232d6c: unsloth_checkpoint, reentrant
    case Framework::Deepspeed: // deepspeed.checkpointing.CheckpointFunction, an autograd.Function
    case Framework::Megatron:  // tensor_parallel/random.py CheckpointFunction, an autograd.Function
        return true;
    case Framework::Generic:
    case Framework::HfTrainer:
        break;
    }
    // The Trainer passes gradient_checkpointing_kwargs=None (training_args.py): transformers decides, reentrant in
    // 4.x (modeling_utils.py gradient_checkpointing_enable), non-reentrant since PR #43203 (5.x).
    return std::nullopt;
}

std::string probeScript(const Scenario& scenario) {
    std::string script(detail::kProbeTemplate);
    nlohmann::json config = archToHfConfig(scenario.model);
    if (config.value("model_type", "") == "custom" && scenario.model.mlp == MlpKind::Gated &&
        scenario.model.norm == NormKind::RmsNorm) {
        config["model_type"] = "llama"; // what transformers builds for a gated RMSNorm decoder
    }
    const std::string name = scenarioLabel(scenario);
    Scenario measured = scenario;
    measured.notes.clear(); // the run's settings; an import report is not one
    replaceAll(script, "__GPUSIZER_SCENARIO_JSON__", pythonSafe(scenarioToJson(measured)));
    replaceAll(script, "__GPUSIZER_MODEL_CONFIG__", pythonSafe(config.dump(1)));
    const FrameworkProfile profile = profileFor(scenario);
    const std::optional<bool> reentrant = checkpointingIsReentrant(scenario.framework);
    const nlohmann::json stack = {{"framework", toString(scenario.framework)},
                                  {"optimizer_step", toString(profile.optimizerStep)},
                                  {"checkpoint_reentrant", reentrant ? nlohmann::json(*reentrant) : nlohmann::json()},
                                  {"sharding_engine", toString(profile.engine)}};
    replaceAll(script, "__GPUSIZER_STACK__", pythonSafe(stack.dump(1)));
    replaceAll(script, "__GPUSIZER_VERSION__", std::string(versionString()));
    replaceAll(script, "__GPUSIZER_NAME__", name);
    return script;
}

std::string datasetScript(const Scenario& scenario) {
    std::string script(detail::kDatasetTemplate);
    replaceAll(script, "__GPUSIZER_MICRO_BATCH__", std::to_string(scenario.microBatch));
    replaceAll(script, "__GPUSIZER_VERSION__", std::string(versionString()));
    replaceAll(script, "__GPUSIZER_NAME__", scenarioLabel(scenario));
    return script;
}

} // namespace gpusizer::core
