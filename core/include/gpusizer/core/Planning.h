#pragma once

#include "gpusizer/core/Catalog.h"
#include "gpusizer/core/Estimate.h"
#include "gpusizer/core/Scenario.h"

#include <optional>
#include <string>
#include <vector>

namespace gpusizer::core {

/// The time model's assumptions about the cluster (all visible and changeable).
struct ClusterAssumptions {
    double interNodeGBsPerGpu = 50.0; ///< network per GPU between nodes: 400 Gb/s InfiniBand NDR, one NIC per GPU
    double nvlinkEfficiency = 0.80;   ///< achieved share of link bandwidth in NCCL collectives (bus bandwidth)
    double pcieEfficiency = 0.70;
    double networkEfficiency = 0.80;
    double overlap = 0.50; ///< share of compute time that can hide communication (prefetch, bucketed all-reduce)
};

/// What the plan needs beyond the scenario.
struct PlanInputs {
    double mfu = 0.40;            ///< model FLOPs utilisation of dense BF16 peak (fine-tuning runs see 0.3-0.5)
    double datasetTokens = 100e6; ///< tokens per epoch
    double epochs = 1.0;
    std::optional<double> pricePerGpuHour; ///< overrides the catalog's illustrative price
    int retainedCheckpoints = 3;
    double storageUsdPerGbMonth = 0.10; ///< block/object storage, illustrative
    bool allowOffload = true;           ///< let the fit search use ZeRO-Offload (fewer cards, much slower steps)
    ClusterAssumptions cluster;
};

/// Training FLOPs per token for the scenario: 6N full, about 4N + 6N_adapters for LoRA/QLoRA (no weight gradients
/// for frozen weights), + 2N for full recomputation, + the attention term over the full s x s matrix (the convention
/// of published MFU figures); MoE counts active parameters only.
double trainingFlopsPerToken(const Scenario& scenario);

/// The link a collective of `gpus` GPUs runs over, and its usable bandwidth per GPU per direction (GB/s).
struct LinkChoice {
    std::string name; ///< "NVLink", "PCIe 4.0 x16", "InfiniBand", ...
    double gbs = 0;   ///< after efficiency
};
LinkChoice collectiveLink(const GpuSpec& gpu, std::int64_t gpus, const ClusterAssumptions& cluster);

/// One training step on a GPU model, per GPU.
struct StepTime {
    double flopsPerToken = 0;
    double tokensPerStep = 0;      ///< global: micro-batch x sequence x accumulation x data parallel
    double computeSeconds = 0;     ///< at peak x MFU, including the pipeline bubble and QLoRA dequantization
    double memoryFloorSeconds = 0; ///< weights and optimizer states streamed through HBM at least once per pass
    double commBytesPerGpu = 0;    ///< data-parallel + tensor-parallel traffic per GPU per step
    double commSeconds = 0;
    double exposedCommSeconds = 0; ///< what overlap with compute cannot hide (offload included)
    double offloadSeconds = 0;     ///< CPU offload: PCIe traffic of this GPU's shards and the host's CPU Adam
    double stepSeconds = 0;
    double tokensPerSecond = 0; ///< whole run
    LinkChoice link;
};

/// Step time for the scenario on `gpu` (the scenario's GPU count and layout).
StepTime stepTime(const Scenario& scenario, const GpuSpec& gpu, const PlanInputs& inputs);

/// Time, GPU-hours and money for the whole run.
struct CostPlan {
    StepTime step;
    double steps = 0;
    double wallHours = 0;
    double gpuHours = 0;
    double costOnDemandUsd = 0;
    double costSpotUsd = 0;
    double checkpointBytes = 0; ///< one resumable checkpoint (full: weights + optimizer states; adapters: adapters)
    double storageUsd = 0;      ///< retained checkpoints for the run's duration (at least one month)
};
CostPlan costPlan(const Scenario& scenario, const GpuSpec& gpu, const PlanInputs& inputs);

/// The smallest card count and layout of one GPU model that fits, with its plan.
struct FitSearchResult {
    const GpuSpec* gpu = nullptr;
    bool found = false;
    Scenario scenario;            ///< the scenario with the layout applied
    std::int64_t deviceBytes = 0; ///< per GPU
    std::string layout;           ///< "8 GPUs, ZeRO-3", "16 GPUs, TP 8 x PP 2, ZeRO-1", ...
    std::string whyFewerFail;     ///< at the next smaller count: the largest component against the limit
    std::int64_t cpuRamPerNodeBytes = 0;
    bool cpuRamWarning = false; ///< more host RAM than a typical node has
    CostPlan plan;
};

/// For each GPU, the smallest count (up to kMaxCards) and layout that fits: data parallel with ZeRO-1/2/3, tensor
/// parallel within a node, pipeline parallel across nodes, then CPU offload.
std::vector<FitSearchResult> fitSearch(const Scenario& scenario, const std::vector<GpuSpec>& gpus,
                                       const PlanInputs& inputs);

/// Indices into fitSearch results: cheapest, fastest, and best cost x time (-1 when nothing fits).
struct Ranking {
    int cheapest = -1;
    int fastest = -1;
    int bestCostTime = -1;
};
Ranking rank(const std::vector<FitSearchResult>& results, bool spot);

/// Throughput scaling of a GPU model from 1 to maxGpus cards (powers of two), the per-GPU batch fixed.
struct ScalingPoint {
    std::int64_t gpus = 1;
    double speedup = 1;    ///< throughput relative to one card
    double efficiency = 1; ///< speedup / gpus
    double stepSeconds = 0;
};
/// `link` "nvlink" or "pcie" forces that intra-node link (for the comparison), empty keeps the catalog's.
std::vector<ScalingPoint> scalingCurve(const Scenario& scenario, const GpuSpec& gpu, const PlanInputs& inputs,
                                       std::int64_t maxGpus, const std::string& link = {});

} // namespace gpusizer::core
