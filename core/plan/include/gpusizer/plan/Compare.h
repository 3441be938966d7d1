#pragma once

#include "gpusizer/memory/Estimate.h"
#include "gpusizer/plan/Advisor.h"
#include "gpusizer/scenario/Catalog.h"
#include "gpusizer/scenario/Scenario.h"

#include <string>
#include <vector>

namespace gpusizer::core {

/// One column of a side-by-side comparison.
struct Variant {
    std::string label; ///< the varied value's code ("full", "adamw", "bf16-fp32-master"); words: present
    Scenario scenario;
    Estimate estimate;
    SizingCell cheapest; ///< the planner's recommended plan across the catalog (gpu nullptr: none)
};

/// Full vs LoRA vs QLoRA for the same model and run shape (the scenario's LoRA settings are kept).
std::vector<Variant> compareMethods(const Scenario& scenario, const std::vector<GpuSpec>& gpus,
                                    const PlanInputs& inputs = {});

/// The scenario under each optimizer given.
std::vector<Variant> compareOptimizers(const Scenario& scenario, const std::vector<Optimizer>& optimizers,
                                       const std::vector<GpuSpec>& gpus, const PlanInputs& inputs = {});

/// The scenario under each precision recipe given.
std::vector<Variant> comparePrecisions(const Scenario& scenario, const std::vector<Precision>& precisions,
                                       const std::vector<GpuSpec>& gpus, const PlanInputs& inputs = {});

} // namespace gpusizer::core
