#pragma once

#include "gpusizer/memory/Estimate.h"
#include "gpusizer/scenario/Scenario.h"

#include <vector>

namespace gpusizer::core {

/// One point of a sweep: the swept value and the per-GPU result there.
struct SweepPoint {
    std::int64_t value = 0;
    ComponentBytes perGpu;
    std::int64_t deviceBytes = 0;
    std::int64_t bandLowBytes = 0;
    std::int64_t bandHighBytes = 0;
};

/// Powers of two from `from` to `to` inclusive (128 ... 131072 for the sequence-length chart).
std::vector<std::int64_t> powersOfTwo(std::int64_t from, std::int64_t to);

/// Memory per GPU as the sequence length varies, everything else as in the scenario.
std::vector<SweepPoint> sweepSeqLen(const Scenario& scenario, const std::vector<std::int64_t>& lengths);

} // namespace gpusizer::core
