#pragma once

#include "gpusizer/core/Catalog.h"
#include "gpusizer/core/Estimate.h"
#include "gpusizer/core/Scenario.h"

#include <optional>
#include <vector>

namespace gpusizer::core {

/// Below this share of usable memory left free, a fit is "tight": allocator spikes and longer batches can OOM.
inline constexpr double kTightHeadroomShare = 0.10;
/// Largest card count the fit search tries.
inline constexpr std::int64_t kMaxCards = 1024;

enum class FitVerdict { Fits, Tight, DoesNotFit };

/// Whether `deviceBytes` fits a card with `usableBytes`, with the tight margin.
FitVerdict fitVerdict(std::int64_t deviceBytes, std::int64_t usableBytes);

/// One GPU of the catalog against the scenario.
struct FitRow {
    const GpuSpec* gpu = nullptr;
    FitVerdict oneCard = FitVerdict::DoesNotFit;
    std::int64_t oneCardDeviceBytes = 0;                 ///< per-GPU device usage on one card
    double oneCardHeadroomShare = 0;                     ///< (usable - usage) / usable, negative when it does not fit
    std::optional<std::int64_t> minCardsCurrentSharding; ///< with the scenario's sharding and parallelism
    std::optional<std::int64_t> minCardsZero3;           ///< with ZeRO-3 / FSDP full shard
    std::int64_t maxMicroBatchOneCard = 0;               ///< 0: not even one sequence fits
    std::int64_t maxSeqLenOneCard = 0;                   ///< 0: not even one token fits
};

/// Upper ends of the searches below.
inline constexpr std::int64_t kMaxSearchedSeqLen = 1 << 20;
inline constexpr std::int64_t kMaxSearchedMicroBatch = 4096;

/// Longest sequence (up to kMaxSearchedSeqLen) whose device memory per GPU fits `usableBytes`; 0 if none.
std::int64_t longestSequenceThatFits(const Scenario& scenario, std::int64_t usableBytes);
/// Largest micro-batch (up to kMaxSearchedMicroBatch) that fits `usableBytes`; 0 if none.
std::int64_t largestMicroBatchThatFits(const Scenario& scenario, std::int64_t usableBytes);

/// The scenario on one card of its own (gpus = 1, no parallelism, no sharding).
Scenario onOneCard(Scenario scenario);

/// Smallest count of this GPU (a multiple of tensor x pipeline parallel) that fits, up to kMaxCards.
std::optional<std::int64_t> minCardsThatFit(Scenario scenario, const GpuSpec& gpu);

/// Every GPU against the scenario.
std::vector<FitRow> fitTable(const Scenario& scenario, const std::vector<GpuSpec>& gpus);

/// The catalog GPU with the least usable memory that holds the estimate on one card, or nullptr.
const GpuSpec* smallestFittingGpu(std::int64_t deviceBytes, const std::vector<GpuSpec>& gpus);

} // namespace gpusizer::core
