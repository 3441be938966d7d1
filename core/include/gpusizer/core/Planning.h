#pragma once

#include "gpusizer/core/Catalog.h"
#include "gpusizer/core/Estimate.h"
#include "gpusizer/core/Scenario.h"

#include <optional>
#include <string>
#include <vector>

namespace gpusizer::core {

/// The network between nodes. Per GPU: InfiniBand NDR 400 Gb/s and RoCE 200 Gb/s with one NIC per GPU (DGX H100:
/// 8 x 400 Gb/s); 100 GbE and 25 GbE with one NIC per node, shared by its GPUs.
/// Auto: the typical network of the card's nodes (SXM/OAM servers InfiniBand 400 Gb/s per GPU as in DGX H100;
/// datacenter PCIe servers 100 GbE; consumer-card machines 25 GbE).
enum class Network { Auto, Ib400, Roce200, Eth100, Eth25 };
const char* toString(Network n);
/// The network in effect for a card: the chosen one, or the card's typical one for Auto.
Network networkFor(const GpuSpec& gpu, Network chosen);
/// Usable bytes per second per GPU between nodes, before efficiency (GB/s).
double networkGBsPerGpu(Network network, int gpusPerNode);

/// The time model's assumptions about the cluster (all visible and changeable).
struct ClusterAssumptions {
    Network network = Network::Auto;
    double nvlinkEfficiency = 0.80; ///< achieved share of link bandwidth in NCCL collectives (bus bandwidth)
    double pcieEfficiency = 0.70;
    double networkEfficiency = 0.80;
    double overlap = 0.50; ///< share of compute time that can hide communication (prefetch, bucketed all-reduce)
};

/// What the planner optimises: money, wall time, or the cheapest plan within 1.5x of the fastest wall time.
enum class Objective { Cost, Time, Balanced };
const char* toString(Objective o);
/// Balanced: plans up to this many times the fastest wall time are in the running; the cheapest of them wins.
inline constexpr double kBalancedTimeFactor = 1.5;

/// The bill beyond the GPU-hour (core/Bill.h): every default and its source in docs/planning.md.
struct BillAssumptions {
    double storageWriteGBs = 1.0;     ///< per writing node, GB/s: a cloud block volume (AWS EBS gp3 maximum)
    double storageReadGBs = 1.0;      ///< reading a checkpoint back after a restart
    double restartMinutes = 10.0;     ///< a replacement instance up and the job relaunched, before the reload
    double interruptionsPerDay = 1.0; ///< per node on spot
    std::optional<double> checkpointIntervalHours; ///< nullopt: the recommended (Young's) interval
    double egressUsdPerGb = 0.09;                  ///< traffic out to the internet
    double keepDays = 7.0; ///< days after the run the checkpoints stay stored before they are copied out and deleted
};

/// What the plan needs beyond the scenario.
struct PlanInputs {
    double mfu = 0.40;            ///< model FLOPs utilisation of dense BF16 peak (fine-tuning runs see 0.3-0.5)
    double datasetTokens = 100e6; ///< tokens per epoch
    double epochs = 1.0;
    std::optional<double> pricePerGpuHour; ///< overrides the catalog's illustrative price
    bool spot = false;                     ///< rank and report spot prices
    int retainedCheckpoints = 3;
    double storageUsdPerGbMonth = 0.10; ///< block/object storage, illustrative
    bool allowOffload = true;           ///< let the search use CPU offload (fewer cards, much slower steps)
    Objective objective = Objective::Balanced;
    std::int64_t maxGpus = 1024;             ///< the most cards the user accepts
    std::optional<double> hostRamGiBPerNode; ///< overrides the catalog's node RAM
    std::optional<double> marginShare;       ///< fit margin over the estimate; default: the estimate's band
    ClusterAssumptions cluster;
    BillAssumptions bill;
    /// Skip what provably or almost surely loses (see docs/planning.md). Off, every layout and variant is evaluated:
    /// the tests check that both searches choose the same plan.
    bool prune = true;
};

/// The price per GPU-hour in use: the user's override, else the catalog's spot or on-demand price.
double hourlyPrice(const GpuSpec& gpu, const PlanInputs& inputs, bool spot);

/// Training FLOPs per token for the scenario: 6N full, about 4N + 6N_adapters for LoRA/QLoRA (no weight gradients
/// for frozen weights), + 2N for full recomputation, + the attention term over the full s x s matrix (the convention
/// of published MFU figures); MoE counts active parameters only.
double trainingFlopsPerToken(const Scenario& scenario);
/// The float8 part of trainingFlopsPerToken: the dense decoder linears' matmuls (torchtitan converts every nn.Linear
/// but the output projection; routed experts use a separate grouped converter), 0 when float8 is off.
double float8FlopsPerToken(const Scenario& scenario);
/// Parameters FSDP2 all-gathers in float8 with float8_all_gather: the dense decoder linears' weights (else 0).
double float8GatheredParams(const Scenario& scenario);

/// The link a collective of `gpus` GPUs runs over, and its usable bandwidth per GPU per direction (GB/s).
enum class LinkKind { NvLink, InfinityFabric, OnChipRoce, Pcie, Network };
struct LinkChoice {
    LinkKind kind = LinkKind::Pcie;
    Network network = Network::Auto; ///< for LinkKind::Network, the network in effect
    double gbs = 0;                  ///< after efficiency
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
    double offloadSeconds = 0;     ///< CPU offload: PCIe traffic of this GPU's shards and the host's CPU Adam,
                                   ///< and activation offload's copies not hidden behind compute
    double stepSeconds = 0;
    double tokensPerSecond = 0; ///< whole run
    LinkChoice link;
};

/// Step time for the scenario on `gpu` (the scenario's GPU count and layout).
StepTime stepTime(const Scenario& scenario, const GpuSpec& gpu, const PlanInputs& inputs);
/// The same with the scenario's estimate already computed (searches estimate once per candidate).
StepTime stepTime(const Scenario& scenario, const GpuSpec& gpu, const PlanInputs& inputs, const Estimate& estimate);

/// What the time model needs from an estimate. With zero weights and states the memory-bandwidth floor drops out and
/// the step time becomes a lower bound for the layout (searches skip layouts whose bound loses already).
struct StepFacts {
    double flopsPerToken = 0;
    double trainableParams = 0;
    double totalParams = 0;
    double routedTrainableParams = 0; ///< MoE: the routed experts' share (reduced over the expert-data-parallel group)
    double routedTotalParams = 0;
    double weightsBytesPerGpu = 0;
    double optimizerStateBytesPerGpu = 0;
    double float8FlopsPerToken = 0;    ///< the part of flopsPerToken that runs as float8 matmuls (0: none)
    double float8GatheredParams = 0;   ///< parameters FSDP2 all-gathers in float8 (the decoder linears)
    double activationOffloadBytes = 0; ///< activation offload: what one micro-batch sends to host memory and back
    static StepFacts of(const Scenario& scenario, const Estimate& estimate);
};
StepTime stepTime(const Scenario& scenario, const GpuSpec& gpu, const PlanInputs& inputs, const StepFacts& facts);

/// Time, GPU-hours and money for the whole run.
struct CostPlan {
    StepTime step;
    double steps = 0;
    double wallHours = 0;
    double gpuHours = 0;
    double costOnDemandUsd = 0;
    double costSpotUsd = 0;
    double checkpointBytes = 0; ///< one resumable checkpoint (full: weights + optimizer states; adapters: adapters)
    double storageUsd = 0;      ///< retained checkpoints for the run's duration and the days kept after (pro rata)
};
CostPlan costPlan(const Scenario& scenario, const GpuSpec& gpu, const PlanInputs& inputs);
/// The same with the time model's facts and the checkpoint size (layout-independent) already known.
CostPlan costPlan(const Scenario& scenario, const GpuSpec& gpu, const PlanInputs& inputs, const StepFacts& facts,
                  double checkpointBytes);
/// Bytes per parameter of the trained weights as the run keeps them: 4 for fp32 and the recipes with fp32 master
/// weights (AMP, FSDP mixed precision), else 2.
double weightBytesPerParam(Precision precision);
/// One resumable checkpoint of the run (full: weights and optimizer states; adapters: adapters and their states).
double checkpointBytes(const Scenario& scenario);

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
