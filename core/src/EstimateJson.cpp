#include "gpusizer/core/EstimateJson.h"

namespace gpusizer::core {

nlohmann::json estimateToJson(const Estimate& e) {
    using nlohmann::json;
    json components = json::object();
    for (Component c : kAllComponents) {
        components[componentKey(c)] = e.perGpu[c];
    }
    json warnings = json::array();
    for (const auto& w : e.warnings) {
        warnings.push_back({{"code", w.code}, {"message", w.message}});
    }
    const auto& a = e.activationPerTokenLayer;
    return json{
        {"format", "gpusizer-estimate"},
        {"version", 1},
        {"params",
         {{"total", e.params.total}, {"trainable", e.trainableParams}, {"active_per_token", e.params.activePerToken}}},
        {"per_gpu",
         {{"components", components},
          {"peak_moment", toString(e.peakMoment)},
          {"allocated_peak_bytes", e.allocatedPeakBytes},
          {"reserved_peak_bytes", e.reservedPeakBytes},
          {"device_bytes", e.deviceBytes},
          {"paged_optimizer_bytes", e.pagedOptimizerBytes},
          {"band", {{"low_bytes", e.bandLowBytes}, {"high_bytes", e.bandHighBytes}}}}},
        {"data_parallel", e.dataParallel},
        {"activation_bytes_per_token_per_layer",
         {{"norms", a.norms},
          {"linear_inputs", a.linearInputs},
          {"attention", a.attention},
          {"attention_scores", a.attentionScores},
          {"mlp", a.mlp},
          {"lora", a.lora},
          {"dropout", a.dropout}}},
        {"logits_bytes_per_element", e.logitsBytesPerElement},
        {"cpu_offload_bytes", e.cpuOffloadBytesTotal},
        {"cpu_offload_bytes_per_gpu", e.cpuOffloadBytesPerGpu},
        {"warnings", warnings},
        {"assumptions", e.assumptions},
    };
}

} // namespace gpusizer::core
