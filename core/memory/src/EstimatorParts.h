#pragma once
// Internal to the estimator: what the explanation stage needs from the numeric stages.

#include "gpusizer/memory/Estimate.h"

namespace gpusizer::core::detail {

/// How a communicator's GPUs talk, as NCCL's buffers are sized for it.
struct NcclPath {
    bool overPcie = false;
    double sharpHeads = 0; ///< NVLink SHARP heads (GPUs of the node), 0 without it
};

/// Figures the assumptions quote, computed by the numeric stages.
struct ExplainInputs {
    double paramB = 0;    ///< bytes per stored parameter
    double trainB = 0;    ///< bytes per trainable parameter and gradient
    double masterB = 0;   ///< bytes per master-copy value
    double stateUnit = 0; ///< bytes per optimizer state value
    double logitsAtLoss = 0;
    double cachedPool = 0; ///< allocator: unshard-stream blocks cached beyond the allocated peak
    int stage = 0;         ///< ZeRO stage in effect
    NcclPath nccl;         ///< the widest communicator's path
};

/// Adds the warnings and assumptions (the words) to a numeric estimate.
void explain(Estimate& e, const Scenario& s, const ExplainInputs& why);

} // namespace gpusizer::core::detail
