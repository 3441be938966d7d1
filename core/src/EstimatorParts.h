#pragma once
// Internal to the estimator: what the explanation stage needs from the numeric stages.

#include "gpusizer/core/Estimate.h"

namespace gpusizer::core::detail {

/// Figures the assumptions quote, computed by the numeric stages.
struct ExplainInputs {
    double paramB = 0;    ///< bytes per stored parameter
    double trainB = 0;    ///< bytes per trainable parameter and gradient
    double masterB = 0;   ///< bytes per master-copy value
    double stateUnit = 0; ///< bytes per optimizer state value
    double logitsAtLoss = 0;
    double cachedPool = 0; ///< allocator: unshard-stream blocks cached beyond the allocated peak
    int stage = 0;         ///< ZeRO stage in effect
};

/// Adds the warnings and assumptions (the words) to a numeric estimate.
void explain(Estimate& e, const Scenario& s, const ExplainInputs& why);

} // namespace gpusizer::core::detail
