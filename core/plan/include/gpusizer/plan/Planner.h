#pragma once
// What to rent: for a scenario and a GPU model, the layout and card count that fit with a margin, chosen by the
// user's objective. Every view asks these functions, so they cannot disagree (docs/planning.md).

#include "gpusizer/memory/Estimate.h"
#include "gpusizer/plan/Planning.h"
#include "gpusizer/scenario/Catalog.h"
#include "gpusizer/scenario/Scenario.h"

#include <optional>
#include <vector>

namespace gpusizer::core {

/// Whether `deviceBytes` fits `usableBytes` with a safety margin: Fits with the margin, Tight when only the point
/// estimate fits (the run may OOM), DoesNotFit otherwise.
enum class FitVerdict { Fits, Tight, DoesNotFit };
FitVerdict fitVerdict(std::int64_t deviceBytes, std::int64_t usableBytes, double marginShare);

/// The margin a plan keeps above the estimate: the user's, else the upper side of the estimate's measured band.
double fitMargin(const Scenario& scenario, const PlanInputs& inputs);

/// Host RAM of one node of this GPU: the user's figure, else the catalog's, else kDefaultHostRamGiBPerGpu per GPU.
double hostRamBytesPerNode(const GpuSpec& gpu, const PlanInputs& inputs);
/// Per-GPU host RAM assumed when neither the catalog nor the user gives one (documented in docs/planning.md).
inline constexpr double kDefaultHostRamGiBPerGpu = 128.0;

/// Why a candidate layout cannot run.
enum class Infeasible {
    None,
    GpuMemory,   ///< device usage plus the margin exceeds the card's usable memory
    HostRam,     ///< offloaded states exceed the node's host RAM
    Layout,      ///< the layout is not valid for this model (tensor parallel vs heads, pipeline vs layers, ...)
    CardLimit,   ///< more cards than the user accepts
    GlobalBatch, ///< no layout at this count splits the global batch (sequences per step) evenly over its ranks
    Software,    ///< the card does not run software the run needs (softwareGaps)
    VllmServer,  ///< GRPO's vLLM server: its GPUs of this card cannot load the model's 16-bit weights
};

/// The share of each of its GPUs `trl vllm-serve` gives vLLM unless told otherwise (--gpu_memory_utilization 0.9,
/// trl/scripts/vllm_serve.py ScriptArguments).
inline constexpr double kVllmServeMemoryShare = 0.9;

/// GRPO in server mode: what vLLM may use of each server GPU of this card (kVllmServeMemoryShare of the usable memory).
std::int64_t vllmServerBudgetBytes(const GpuSpec& gpu);
/// The fewest server GPUs (a power of two: vLLM's tensor parallelism splits the heads) whose budget on this card
/// holds the 16-bit weights; 0 when no count up to 1,024 does.
std::int64_t vllmServerGpusNeeded(const Estimate& e, const GpuSpec& gpu);

/// The software the scenario needs that not every card runs: bitsandbytes for QLoRA and 8-bit or paged optimizers,
/// the flash-attn package, Triton kernels (Liger, Cut Cross-Entropy), and the sharding engine its layout uses
/// (DeepSpeed, FSDP) when it shards or offloads.
std::vector<SoftwareFeature> requiredSoftware(const Scenario& scenario);
/// What of it `gpu` lacks, with the catalog's reasons (empty: the card runs the scenario).
std::vector<SoftwareGap> missingSoftware(const Scenario& scenario, const GpuSpec& gpu);

/// One layout at one card count, with its memory, verdict and (when it fits) its time and cost.
struct Candidate {
    Scenario scenario;            ///< the layout applied: gpus, tp, pp, ep, sharding, offload, batch split
    std::int64_t deviceBytes = 0; ///< per GPU
    std::int64_t usableBytes = 0; ///< the card's
    double marginShare = 0;       ///< the margin applied
    FitVerdict verdict = FitVerdict::DoesNotFit; ///< Fits exactly when fits(); Tight only on GPU memory
    Infeasible why = Infeasible::None;           ///< None when it fits
    std::int64_t hostRamPerNodeBytes = 0;        ///< offloaded states of one node's GPUs
    std::int64_t hostRamLimitBytes = 0;
    bool fp16Instead = false;              ///< the card has no bf16: planned with the fp16 recipe (loss scaling needed)
    bool bf16InsteadOfFloat8 = false;      ///< float8 asked for, the card has no FP8 tensor cores: bf16 matmuls
    std::int64_t globalBatchSequences = 1; ///< the plan's global batch: sequences per optimizer step
    std::vector<SoftwareGap> softwareGaps; ///< Infeasible::Software: what the card lacks
    std::int64_t vllmServerBudgetBytes = 0; ///< Infeasible::VllmServer: what vLLM may use of each server GPU
    std::int64_t vllmServerGpusNeeded = 0;  ///< Infeasible::VllmServer: the fewest server GPUs that load the model
    Component largestComponent = Component::Weights; ///< the part that dominates the device usage
    std::int64_t largestComponentBytes = 0;
    Estimate estimate; ///< numbers only (no explanation)
    CostPlan plan;     ///< filled when the candidate fits
    bool fits() const { return why == Infeasible::None; }
};

/// What to rent on one GPU model: the chosen candidate, the runners-up, and why fewer cards fail.
struct CardPlan {
    const GpuSpec* gpu = nullptr;
    bool found = false;
    Candidate best;                   ///< by the objective
    std::vector<Candidate> runnersUp; ///< the next two by the objective, then the cheapest, the fastest and the other
                                      ///< offload choice if not listed
    std::optional<Candidate>
        fewerCards; ///< below the smallest count that fits: the largest miss (memory or host RAM first)
    std::vector<SoftwareGap> unsupported; ///< the card cannot run the scenario at all (nothing was searched)
    std::int64_t candidatesTried = 0;
};

/// The scenario's own layout (its GPU count, sharding and parallelism) on this card: the verdict with the margin.
Candidate fitAsIs(const Scenario& scenario, const GpuSpec& gpu, const PlanInputs& inputs);

/// Does the scenario fit `gpu` at `count` cards, and with which layout? The best layout at that count (the fastest
/// that fits; at one count the fastest is also the cheapest), or the closest miss.
Candidate fitAtCount(const Scenario& scenario, const GpuSpec& gpu, std::int64_t count, const PlanInputs& inputs);

/// The chosen count and layout on one GPU model, by the objective, with runners-up and the closest miss below.
CardPlan planOnCard(const Scenario& scenario, const GpuSpec& gpu, const PlanInputs& inputs);

/// Long sequences: the plan on this card with each sequence split by ring attention (torchtitan's context parallel;
/// any head count) over the smallest of 2, 4, ... 32 cards that fits; not found when none does.
CardPlan planSplittingSequences(const Scenario& scenario, const GpuSpec& gpu, const PlanInputs& inputs);

/// The scenario with each sequence split over `cp` ranks by ring attention, keeping its global batch (cp ranks share
/// a sequence, so accumulation makes up the data-parallel groups it loses).
Scenario withContextParallel(const Scenario& scenario, std::int64_t cp);

/// planOnCard for every GPU.
std::vector<CardPlan> planCatalog(const Scenario& scenario, const std::vector<GpuSpec>& gpus, const PlanInputs& inputs);

/// Indices into planCatalog results (-1 when nothing fits): the cheapest, the fastest, and the one the objective
/// picks across the catalog.
struct Ranking {
    int cheapest = -1;
    int fastest = -1;
    int chosen = -1;
};
Ranking rank(const std::vector<CardPlan>& plans, const PlanInputs& inputs);

/// The card and plan the objective picks across `gpus` (rank(planCatalog(...)).chosen), without runners-up and
/// without the plans of the other cards: under the cost objective, a card whose least possible cost (the run's FLOPs
/// at its throughput plus the fixed costs of its smallest count) cannot beat the cheapest plan found is not searched.
struct CatalogChoice {
    std::size_t index = 0; ///< into `gpus`
    CardPlan plan;
    std::size_t cardsSearched = 0; ///< the others' least possible cost could not beat the choice
};
std::optional<CatalogChoice> chooseOverCatalog(const Scenario& scenario, const std::vector<GpuSpec>& gpus,
                                               const PlanInputs& inputs);

/// The cost a candidate is ranked by (on-demand or spot as the inputs say).
double costOf(const Candidate& c, const PlanInputs& inputs);

/// Costs or wall times within this share of each other are a tie: the other figure decides.
inline constexpr double kPlanTieShare = 0.005;

/// Card counts the planner tries for a GPU: powers of two inside a node, then 1, 2, 3, 4, 6, 8, 12, ... nodes (powers
/// of two and 1.5 times them), up to maxGpus.
std::vector<std::int64_t> cardCounts(const GpuSpec& gpu, std::int64_t maxGpus);
/// The counts a user can rent: as above up to the user's limit, and one node at most for a card that providers do
/// not rent as multi-node clusters (GpuSpec::multiNode) unless the user names a network.
std::vector<std::int64_t> cardCounts(const GpuSpec& gpu, const PlanInputs& inputs);

/// Whether a plan meets the user's deadline (always, without one).
bool meetsDeadline(const Candidate& c, const PlanInputs& inputs);

} // namespace gpusizer::core
