#pragma once

#include "gpusizer/memory/Estimate.h"
#include "gpusizer/scenario/Catalog.h"
#include "gpusizer/scenario/Scenario.h"

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

/// What the planner optimises: money (the default: the cheapest plan, or the cheapest that meets a deadline), wall
/// time, or the cheapest plan within 1.5x of the fastest wall time.
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

/// What happens around the training steps of a run, each a default from a cited source (docs/planning.md, "The
/// fixed costs of a run"). Nodes do these in parallel; every card is held (and billed) meanwhile.
struct FixedCostAssumptions {
    /// An 8-GPU instance requested until it accepts a login: "up to 10 minutes" (SF Compute docs, node lifecycle;
    /// Anyscale, Loading Llama-2 70b 20x faster, 2023); CPU VMs take about 0.5 min (Percival 2021).
    double provisionMinutes = 10.0;
    /// A 15-20 GB PyTorch/CUDA image pulled on each node: "4-6 minutes per instance" (AWS ML Blog, SOCI index on DLAMI
    /// and DLC); 0 with a provider's pre-installed stack.
    double environmentMinutes = 6.0;
    /// The base model's checkpoint from its hub to each node: about 0.4 GB/s for one client (Hugging Face's "Xet-backed
    /// Buckets vs plain S3" benchmark: 399 MB/s for 5 GB from S3 on a 100 Gb/s host; hf_transfer's README ~500 MB/s).
    /// 0: the weights are already on the node (no download).
    double downloadGBs = 0.4;
    /// The framework and its communicators on a few nodes: about a minute (NCCL issue #587: 4.5 s for the first
    /// all-reduce of 8 GPUs, plus imports and engine set-up, a judgement) ...
    double startupSeconds = 60.0;
    /// ... growing to 2.5 minutes above about 1,000 GPUs (NCCL issue #1156, PyTorch's distributed maintainer): 13 s for
    /// each doubling of the nodes puts 128 nodes at 151 s.
    double startupSecondsPerDoubling = 13.0;
    /// The result copied off the instance to object storage: about 0.4 GB/s (the same benchmark's S3 uploads of 10-100
    /// GB, 394-440 MB/s).
    double copyOutGBs = 0.4;
};

/// The global batch (sequences per optimizer step): fixed at the scenario's micro-batch x accumulation x data-parallel
/// ranks, or flexible within a range, where the planner trades accumulation for data parallelism as trainers do.
struct GlobalBatch {
    bool flexible = false;
    std::int64_t minSequences = 0; ///< flexible: the smallest global batch accepted
    std::int64_t maxSequences = 0; ///< flexible: the largest
};

/// The MFU assumed for a card with no published training figure (docs/planning.md, "Real speeds per card").
inline constexpr double kUnpublishedMfu = 0.25;

/// What the plan needs beyond the scenario.
struct PlanInputs {
    /// Model FLOPs utilisation of the dense BF16 peak: the user's (or measured) figure for every card; unset, each
    /// card's published achieved figure (GpuSpec::throughput), else kUnpublishedMfu.
    std::optional<double> mfu;
    double datasetTokens = 100e6;     ///< tokens per epoch
    bool datasetTokensStated = false; ///< false: the default above, stated as an assumption next to every answer
    double epochs = 1.0;
    std::optional<double> pricePerGpuHour; ///< overrides the catalog's illustrative price
    bool spot = false;                     ///< rank and report spot prices
    int retainedCheckpoints = 3;
    double storageUsdPerGbMonth = 0.10; ///< block/object storage, illustrative
    bool allowOffload = true;           ///< let the search use CPU offload (fewer cards, much slower steps)
    Objective objective = Objective::Cost;
    std::optional<double> deadlineHours; ///< Cost: the cheapest plan whose wall time meets it
    GlobalBatch globalBatch;
    std::int64_t maxGpus = 1024;             ///< the most cards the user accepts
    std::optional<double> hostRamGiBPerNode; ///< overrides the catalog's node RAM
    std::optional<double> marginShare;       ///< fit margin over the estimate; default: the estimate's band
    ClusterAssumptions cluster;
    BillAssumptions bill;
    FixedCostAssumptions fixed;
    /// Skip what provably or almost surely loses (see docs/planning.md). Off, every layout and variant is evaluated:
    /// the tests check that both searches choose the same plan.
    bool prune = true;
    /// false: only each card's chosen plan is wanted (the sizing table, the comparison), so under the cost objective
    /// the counts whose cost cannot come below the cheapest plan found are not searched; the runners-up are then
    /// incomplete.
    bool runnersUp = true;
};

/// The inputs with the tokens the plan prices: the user's stated count, else the scenario's imported dataset lengths
/// (its tokens after truncation), else the assumed default.
PlanInputs withDatasetTokens(PlanInputs inputs, const Scenario& scenario);

/// The price per GPU-hour in use: the user's override, else the catalog's spot or on-demand price.
double hourlyPrice(const GpuSpec& gpu, const PlanInputs& inputs, bool spot);

/// The price plans are ranked by: spot when the inputs ask for it and the card offers it (a spot price of 0 means no
/// spot offer: such a card is rented, and ranked, on demand), else on demand.
double rankedHourlyPrice(const GpuSpec& gpu, const PlanInputs& inputs);

/// Where the MFU of a plan on a card comes from.
enum class MfuSource { User, Published, Unpublished };
/// The MFU the time model uses on `gpu`, and where it comes from.
struct MfuChoice {
    double mfu = kUnpublishedMfu;
    MfuSource source = MfuSource::Unpublished;
};
MfuChoice mfuFor(const GpuSpec& gpu, const PlanInputs& inputs);

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
    double tokensPerStep = 0;             ///< global: micro-batch x sequence x accumulation x data parallel
    double computeSeconds = 0;            ///< matmulSeconds plus the element-wise kernels' seconds below
    double adapterElementwiseSeconds = 0; ///< LoRA's memory-bound element-wise kernels at the card's HBM bandwidth
    double eagerAttentionSeconds = 0;     ///< eager attention's element-wise passes over the s x s scores, likewise
    double baseElementwiseSeconds = 0;    ///< the base model's norms, activation, RoPE, residuals and loss, likewise
    double matmulSeconds = 0;             ///< the FLOPs at peak x utilisation (with the bubble and QLoRA's dequant)
    double optimizerStepSeconds = 0;      ///< the optimizer step's passes over weights, gradients and states
    double memoryFloorSeconds = 0;        ///< weights streamed through HBM at least once per pass
    double commBytesPerGpu = 0;           ///< data-parallel + tensor-parallel traffic per GPU per step
    double commSeconds = 0;
    double exposedCommSeconds = 0; ///< what overlap with compute cannot hide (offload included)
    /// GRPO: generating each optimizer step's completions before it trains on them (prefill at the matmul rate, then
    /// one decode step per completion token reading the weights and the KV cache at HBM bandwidth).
    double generationSeconds = 0;
    double offloadSeconds = 0; ///< CPU offload: PCIe traffic of this GPU's shards and the host's CPU Adam,
                               ///< and activation offload's copies not hidden behind compute
    double stepSeconds = 0;
    double tokensPerSecond = 0; ///< whole run
    LinkChoice link;
};

/// Step time for the scenario on `gpu` (the scenario's GPU count and layout).
StepTime stepTime(const Scenario& scenario, const GpuSpec& gpu, const PlanInputs& inputs);
/// The same with the scenario's estimate already computed (searches estimate once per candidate).
StepTime stepTime(const Scenario& scenario, const GpuSpec& gpu, const PlanInputs& inputs, const Estimate& estimate);

/// The memory-bound kernels of the base model, bytes read and written per token (docs/planning.md, "Step time"):
/// `layers`, one forward pass over every decoder layer and the final norm (the norms, the MLP activation, RoPE, the
/// residual adds and the attention output's layout copy, as transformers' modeling_llama.py runs them unfused, or
/// fused by torch.compile or Liger); backward reads and writes about twice that. `loss`, the passes over the logits
/// in forward and backward together (the fp32 upcast, log-softmax, its gradient and the cast back; Gemma-2's soft-cap).
struct BaseElementwiseBytes {
    double layers = 0;
    double loss = 0;
};
BaseElementwiseBytes baseElementwiseBytesPerToken(const Scenario& scenario, const FrameworkProfile& profile);
/// What those kernels move per token over a whole training step: every forward (recomputation included), the
/// backward and the loss.
double baseElementwiseBytesPerTrainedToken(const Scenario& scenario, const FrameworkProfile& profile);

/// Bytes one GPU's optimizer step reads and writes (PyTorch torch/optim/adam.py @dc80ccde: foreach AdamW runs eight
/// passes, the fused kernel one), with the master copy's conversions where the recipe keeps one. The arguments are
/// this GPU's, as the estimate gives them (Estimate::optimizerWeightBytes, optimizerMasterBytes, the optimizer states'
/// component): all 0 when the step runs on the host.
double optimizerStepBytesPerGpu(const Scenario& scenario, const FrameworkProfile& profile, double weightBytes,
                                double masterBytes, double stateBytes);

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
    /// PEFT LoRA's element-wise work around its adapters (casts, dropout, scaling, the add), bytes read and written
    /// per token in one forward pass over every layer (adapterElementwiseBytesPerToken).
    double adapterElementwiseBytes = 0;
    double baseElementwiseBytes = 0; ///< the base model's memory-bound kernels per token over a step
                                     ///< (baseElementwiseBytesPerTrainedToken)
    double optimizerStepBytes = 0;   ///< this GPU's optimizer step (optimizerStepBytesPerGpu)
    static StepFacts of(const Scenario& scenario, const Estimate& estimate);
    /// The same with the FLOPs per token already known (a search caches them per checkpointing).
    static StepFacts of(const Scenario& scenario, const Estimate& estimate, double flopsPerToken);
};
StepTime stepTime(const Scenario& scenario, const GpuSpec& gpu, const PlanInputs& inputs, const StepFacts& facts);

/// Bytes PEFT's LoRA (and DoRA, LoRA-FA) modules read and write per token in one forward pass beyond their matmuls,
/// over every adapted linear the token passes (tuners/lora/layer.py Linear.forward: the input cast to the adapter
/// dtype, dropout, `lora_B(...) * scaling`, the add to the base result and the cast back). 0 for other methods.
double adapterElementwiseBytesPerToken(const Scenario& scenario);
/// The same with the scenario's profile already resolved (StepFacts::of, once per candidate of a search).
double adapterElementwiseBytesPerToken(const Scenario& scenario, const FrameworkProfile& profile);

/// E[ceil(X / tile)] for a group's row count X ~ Poisson(meanRows): the tiles a grouped GEMM runs for one group when
/// the router spreads the tokens evenly on average (each token's expert choice independent), the last one padded.
double expectedTilesPerGroup(double meanRows, double tile);

/// The output tile PyTorch's CUTLASS grouped GEMM runs (aten/src/ATen/native/cuda/GroupMM.cu @06c0cf01,
/// dispatch_bf16_grouped_kernel_on_tile_size): 128 x 256 on compute capability 9.x, 64 x 128 there when the mean
/// group has at most 128 rows or the output at most 128 columns, 64 x 128 on 10.x; K in steps of 64 (128 for the
/// small tile). `available` is false where `_grouped_mm` loops over cuBLAS matmuls instead (GroupedBlas.cpp
/// _grouped_mm_cuda: the fast path needs bf16 operands on a 9.x or 10.x card).
struct GroupedMmTile {
    bool available = false;
    double m = 0;
    double n = 0;
    double k = 0;
};
GroupedMmTile groupedMmTile(const GpuSpec& gpu, double meanRowsPerGroup, double columns);

/// The matmul FLOPs per trained token the experts' grouped GEMMs run beyond the useful ones (docs/planning.md,
/// "Grouped experts"): each group's last tile of rows padded, the waves of tiles over the card's SMs rounded up, in
/// each forward and backward pass. 0 unless transformers 5 runs the experts through `grouped_mm` in bf16 on a card
/// with the CUTLASS path.
double groupedExpertsPaddedFlopsPerToken(const Scenario& scenario, const GpuSpec& gpu);

/// Bytes eager attention's element-wise kernels read and write per token over every layer, in one forward pass and in
/// one backward pass (transformers' eager_attention_forward: the scaling, the causal mask's add, softmax in fp32 and
/// the cast back, each over every head's whole s x s score matrix; dropout where set). 0 unless attention is eager.
struct EagerAttentionBytes {
    double forward = 0;
    double backward = 0;
};
EagerAttentionBytes eagerAttentionBytesPerToken(const Scenario& scenario);

/// The time a run spends around its steps, each part in seconds (all nodes in parallel).
struct FixedCosts {
    double provisionSeconds = 0;   ///< instances up
    double environmentSeconds = 0; ///< the image or environment on each node
    double downloadSeconds = 0;    ///< the base model to each node (16-bit checkpoint)
    double loadSeconds = 0;        ///< the model read from the node's disk into the GPUs
    double startupSeconds = 0;     ///< framework and communicators, growing with the nodes
    double finalSaveSeconds = 0;   ///< the result written (every node its share when sharded)
    double copyOutSeconds = 0;     ///< the result copied off the instance
    double downloadBytes = 0;      ///< the base model's 16-bit checkpoint
    double resultBytes = 0;        ///< the trained weights (full) or the adapters
    double totalSeconds() const {
        return provisionSeconds + environmentSeconds + downloadSeconds + loadSeconds + startupSeconds +
               finalSaveSeconds + copyOutSeconds;
    }
};
/// The fixed costs of the scenario's layout on `gpu` (docs/planning.md, "The fixed costs of a run").
FixedCosts fixedCosts(const Scenario& scenario, const GpuSpec& gpu, const PlanInputs& inputs);
/// What the run produces: the trained weights as the run keeps them (full) or the adapters in fp32.
double resultBytes(const Scenario& scenario);

/// Time, GPU-hours and money for the whole run.
struct CostPlan {
    StepTime step;
    double steps = 0;
    double stepHours = 0; ///< the training steps alone
    FixedCosts fixed;     ///< around the steps
    double wallHours = 0; ///< steps and fixed costs
    double gpuHours = 0;  ///< billed: wall time x cards, rounded up as the price is billed
    MfuChoice mfu;        ///< the MFU the step time used
    double costOnDemandUsd = 0;
    double costSpotUsd = 0;
    double checkpointBytes = 0; ///< one resumable checkpoint (full: weights + optimizer states; adapters: adapters)
    double storageUsd = 0;      ///< retained checkpoints for the run's duration and the days kept after (pro rata)
};
CostPlan costPlan(const Scenario& scenario, const GpuSpec& gpu, const PlanInputs& inputs);
/// The same with the time model's facts and the checkpoint size (layout-independent) already known.
CostPlan costPlan(const Scenario& scenario, const GpuSpec& gpu, const PlanInputs& inputs, const StepFacts& facts,
                  double checkpointBytes, double resultBytes);
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
