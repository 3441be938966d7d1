#pragma once
// DeepSpeed ZeRO-3's parameter coordinator, replayed over one training step's module trace: which partitioned
// parameters are gathered at once (deepspeed/runtime/zero/partitioned_param_coordinator.py, v0.13.2).

#include <span>

namespace gpusizer::core {

/// The coordinator's limits, in parameter elements (DeepSpeedZeroConfig stage3_*; defaults as DeepSpeed's).
struct ZeroFetchLimits {
    double prefetchBucket = 5e7;    ///< stage3_prefetch_bucket_size: how far ahead it gathers
    double maxReuseDistance = 1e9;  ///< stage3_max_reuse_distance: keep a parameter reused within this many elements
    double maxLiveParameters = 1e9; ///< stage3_max_live_parameters: prefetching stops at this many gathered
};

/// One step's layout: the decoder layers' partitioned modules in forward order (elements each, as gathered; modules
/// under the persistence threshold left out), the layer count, the output projection, and whether backward
/// recomputes each layer's forward first (activation checkpointing).
struct ZeroStepTrace {
    std::span<const double> layerModules;
    int layers = 1;
    double head = 0;
    bool recompute = false;
    /// Replays every layer. Otherwise only the last layers that decide the peaks (the coordinator looks about
    /// max(reuse distance, max live) elements back or ahead, so layers further from the loss repeat the same pattern),
    /// checked against two more layers and replayed whole where the answer moves.
    bool everyLayer = false;
};

/// Elements gathered at once: the most over backward, at the loss (the output projection's forward) and anywhere.
struct ZeroGathered {
    double inBackward = 0;
    double atLoss = 0;
    double most = 0;
};

/// Replays fetch_sub_module / release_sub_module over the trace the coordinator records (each module's forward, the
/// output projection's forward and backward, then per layer from the last: its recomputed forward and its
/// backward in reverse order), with its prefetch and reuse-distance rules. A pure function, memoized per thread: the
/// planner asks it the same question for every data-parallel count of a layout.
ZeroGathered zeroGatheredElements(const ZeroStepTrace& trace, const ZeroFetchLimits& limits);

} // namespace gpusizer::core
