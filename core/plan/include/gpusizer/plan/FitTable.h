#pragma once

#include "gpusizer/memory/Estimate.h"
#include "gpusizer/plan/Planner.h"
#include "gpusizer/scenario/Catalog.h"
#include "gpusizer/scenario/Scenario.h"

#include <optional>
#include <vector>

namespace gpusizer::core {

/// Largest card count the planner tries by default.
inline constexpr std::int64_t kMaxCards = 1024;

/// One GPU of the catalog against the scenario: the scenario's own layout on it, the best plan on it, and how far
/// one card stretches.
struct FitRow {
    const GpuSpec* gpu = nullptr;
    Candidate asIs;                        ///< the scenario's GPU count, sharding and parallelism on this card
    CardPlan best;                         ///< the planner's choice on this card (count and layout)
    std::int64_t maxMicroBatchOneCard = 0; ///< 0: not even one sequence fits one card (with the margin)
    std::int64_t maxSeqLenOneCard = 0;     ///< 0: not even one token fits
};

/// Upper ends of the searches below.
inline constexpr std::int64_t kMaxSearchedSeqLen = 1 << 20;
inline constexpr std::int64_t kMaxSearchedMicroBatch = 4096;

/// Longest sequence (up to kMaxSearchedSeqLen) whose device memory per GPU fits `usableBytes`; 0 if none.
std::int64_t longestSequenceThatFits(const Scenario& scenario, std::int64_t usableBytes);
/// Largest micro-batch (up to kMaxSearchedMicroBatch) that fits `usableBytes`; 0 if none.
std::int64_t largestMicroBatchThatFits(const Scenario& scenario, std::int64_t usableBytes);

/// The scenario on one card of its own (gpus = 1, no parallelism).
Scenario onOneCard(Scenario scenario);

/// Every GPU against the scenario (the planner's answers, so the fit table agrees with every other view).
std::vector<FitRow> fitTable(const Scenario& scenario, const std::vector<GpuSpec>& gpus, const PlanInputs& inputs);

} // namespace gpusizer::core
