#include "gpusizer/core/FitTable.h"

#include <algorithm>

namespace gpusizer::core {

FitVerdict fitVerdict(std::int64_t deviceBytes, std::int64_t usableBytes) {
    if (deviceBytes > usableBytes) {
        return FitVerdict::DoesNotFit;
    }
    const double free = static_cast<double>(usableBytes - deviceBytes) / static_cast<double>(usableBytes);
    return free < kTightHeadroomShare ? FitVerdict::Tight : FitVerdict::Fits;
}

Scenario onOneCard(Scenario s) {
    s.gpus = 1;
    s.tensorParallel = 1;
    s.pipelineParallel = 1;
    return s;
}

namespace {

bool fits(const Scenario& s, std::int64_t usableBytes) {
    return estimate(s, Detail::NumbersOnly).deviceBytes <= usableBytes;
}

bool fits(const Scenario& s, const GpuSpec& gpu) {
    return fits(s, gpu.usableBytes());
}

/// Largest value in [1, hi] for which `setter` produces a fitting scenario (memory grows with the value), 0 if none.
template <class Setter>
std::int64_t largestFitting(Scenario s, std::int64_t usableBytes, std::int64_t hi, Setter setter) {
    setter(s, 1);
    if (!fits(s, usableBytes)) {
        return 0;
    }
    std::int64_t lo = 1;
    while (lo < hi) {
        const std::int64_t mid = lo + (hi - lo + 1) / 2;
        setter(s, mid);
        if (fits(s, usableBytes)) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    return lo;
}

} // namespace

std::int64_t longestSequenceThatFits(const Scenario& scenario, std::int64_t usableBytes) {
    return largestFitting(scenario, usableBytes, kMaxSearchedSeqLen, [](Scenario& s, std::int64_t v) { s.seqLen = v; });
}

std::int64_t largestMicroBatchThatFits(const Scenario& scenario, std::int64_t usableBytes) {
    return largestFitting(scenario, usableBytes, kMaxSearchedMicroBatch,
                          [](Scenario& s, std::int64_t v) { s.microBatch = v; });
}

std::optional<std::int64_t> minCardsThatFit(Scenario s, const GpuSpec& gpu) {
    const std::int64_t group = s.tensorParallel * s.pipelineParallel;
    const std::int64_t maxReplicas = std::max<std::int64_t>(1, kMaxCards / group);
    auto fitsWith = [&](std::int64_t replicas) {
        s.gpus = replicas * group;
        return fits(s, gpu);
    };
    if (fitsWith(1)) {
        return group;
    }
    // From two replicas on, per-GPU memory does not grow with more replicas: binary search is safe.
    if (maxReplicas < 2 || !fitsWith(maxReplicas)) {
        return std::nullopt;
    }
    std::int64_t lo = 2;
    std::int64_t hi = maxReplicas;
    while (lo < hi) {
        const std::int64_t mid = lo + (hi - lo) / 2;
        if (fitsWith(mid)) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    return lo * group;
}

std::vector<FitRow> fitTable(const Scenario& scenario, const std::vector<GpuSpec>& gpus) {
    std::vector<FitRow> rows;
    rows.reserve(gpus.size());
    const Scenario single = onOneCard(scenario);
    const Estimate singleEstimate = estimate(single, Detail::NumbersOnly);
    Scenario zero3 = scenario;
    zero3.sharding = Sharding::Zero3;
    for (const auto& gpu : gpus) {
        FitRow row;
        row.gpu = &gpu;
        const std::int64_t usable = gpu.usableBytes();
        row.oneCardDeviceBytes = singleEstimate.deviceBytes;
        row.oneCard = fitVerdict(row.oneCardDeviceBytes, usable);
        row.oneCardHeadroomShare = static_cast<double>(usable - row.oneCardDeviceBytes) /
                                   static_cast<double>(std::max<std::int64_t>(1, usable));
        row.minCardsCurrentSharding = minCardsThatFit(scenario, gpu);
        row.minCardsZero3 = minCardsThatFit(zero3, gpu);
        row.maxMicroBatchOneCard = largestMicroBatchThatFits(single, usable);
        row.maxSeqLenOneCard = longestSequenceThatFits(single, usable);
        rows.push_back(row);
    }
    return rows;
}

const GpuSpec* smallestFittingGpu(std::int64_t deviceBytes, const std::vector<GpuSpec>& gpus) {
    const GpuSpec* best = nullptr;
    for (const auto& gpu : gpus) {
        if (deviceBytes <= gpu.usableBytes() &&
            (best == nullptr || gpu.memoryGiBUsable < best->memoryGiBUsable ||
             (gpu.memoryGiBUsable == best->memoryGiBUsable && gpu.priceOnDemandUsdHour < best->priceOnDemandUsdHour))) {
            best = &gpu;
        }
    }
    return best;
}

} // namespace gpusizer::core
