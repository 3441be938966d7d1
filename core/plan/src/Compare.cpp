#include "gpusizer/plan/Compare.h"

#include "gpusizer/plan/FitTable.h"

namespace gpusizer::core {

namespace {

template <class Value, class Setter, class Labeler>
std::vector<Variant> compareOver(const Scenario& scenario, const std::vector<Value>& values,
                                 const std::vector<GpuSpec>& gpus, const PlanInputs& inputs, Setter setter,
                                 Labeler label) {
    std::vector<Variant> out;
    for (const Value& v : values) {
        Variant variant;
        variant.label = label(v);
        variant.scenario = scenario;
        setter(variant.scenario, v);
        variant.estimate = estimate(variant.scenario);
        variant.cheapest = recommendedPlan(variant.scenario, gpus, inputs);
        out.push_back(std::move(variant));
    }
    return out;
}

} // namespace

std::vector<Variant> compareMethods(const Scenario& scenario, const std::vector<GpuSpec>& gpus,
                                    const PlanInputs& inputs) {
    static const std::vector<Method> kMethods{Method::Full, Method::Lora, Method::Qlora};
    return compareOver(
        scenario, kMethods, gpus, inputs, [](Scenario& s, Method m) { s.method = m; },
        [](Method m) { return std::string(toString(m)); });
}

std::vector<Variant> compareOptimizers(const Scenario& scenario, const std::vector<Optimizer>& optimizers,
                                       const std::vector<GpuSpec>& gpus, const PlanInputs& inputs) {
    return compareOver(
        scenario, optimizers, gpus, inputs, [](Scenario& s, Optimizer o) { s.optimizer = o; },
        [](Optimizer o) { return std::string(toString(o)); });
}

std::vector<Variant> comparePrecisions(const Scenario& scenario, const std::vector<Precision>& precisions,
                                       const std::vector<GpuSpec>& gpus, const PlanInputs& inputs) {
    return compareOver(
        scenario, precisions, gpus, inputs, [](Scenario& s, Precision p) { s.precision = p; },
        [](Precision p) { return std::string(toString(p)); });
}

} // namespace gpusizer::core
