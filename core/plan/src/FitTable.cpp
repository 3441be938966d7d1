#include "gpusizer/plan/FitTable.h"

#include "gpusizer/scenario/Vision.h"

#include <algorithm>

namespace gpusizer::core {

Scenario onOneCard(Scenario s) {
    s.gpus = 1;
    s.tensorParallel = 1;
    s.pipelineParallel = 1;
    s.expertParallel = 1;
    s.contextParallel = 1; // one card splits no sequence
    return s;
}

namespace {

bool fits(const Scenario& s, std::int64_t usableBytes) {
    return estimate(s, Detail::NumbersOnly).deviceBytes <= usableBytes;
}

/// Largest value in [lowest, hi] for which `setter` produces a fitting scenario (memory grows with the value), 0 if
/// none: a value below `lowest` is not a run of this kind.
template <class Setter>
std::int64_t largestFitting(Scenario s, std::int64_t usableBytes, std::int64_t lowest, std::int64_t hi, Setter setter) {
    setter(s, lowest);
    if (lowest > hi || !fits(s, usableBytes)) {
        return 0;
    }
    std::int64_t lo = lowest;
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
    return largestFitting(scenario, usableBytes, shortestSequence(scenario), kMaxSearchedSeqLen,
                          [](Scenario& s, std::int64_t v) { s.seqLen = v; });
}

std::int64_t largestMicroBatchThatFits(const Scenario& scenario, std::int64_t usableBytes) {
    return largestFitting(scenario, usableBytes, smallestMicroBatch(scenario), kMaxSearchedMicroBatch,
                          [](Scenario& s, std::int64_t v) { s.microBatch = v; });
}

std::vector<FitRow> fitTable(const Scenario& scenario, const std::vector<GpuSpec>& gpus, const PlanInputs& inputs) {
    std::vector<FitRow> rows;
    rows.reserve(gpus.size());
    const Scenario single = onOneCard(scenario);
    const double margin = fitMargin(scenario, inputs);
    for (const auto& gpu : gpus) {
        FitRow row;
        row.gpu = &gpu;
        row.asIs = fitAsIs(scenario, gpu, inputs);
        row.best = planOnCard(scenario, gpu, inputs);
        // One card, with the same margin the verdicts use.
        const auto usable = static_cast<std::int64_t>(static_cast<double>(gpu.usableBytes()) / (1.0 + margin));
        row.maxMicroBatchOneCard = largestMicroBatchThatFits(single, usable);
        row.maxSeqLenOneCard = longestSequenceThatFits(single, usable);
        rows.push_back(std::move(row));
    }
    return rows;
}

} // namespace gpusizer::core
