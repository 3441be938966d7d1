#pragma once

#include "gpusizer/memory/Estimate.h"
#include "gpusizer/plan/Planner.h"
#include "gpusizer/scenario/Catalog.h"
#include "gpusizer/scenario/Scenario.h"

#include <optional>
#include <string>
#include <vector>

namespace gpusizer::core {

/// The fixes of the OOM ladder, in the order of their cost (guides' order).
enum class FixKind {
    SmallerMicroBatch,      ///< micro-batch 1, gradient accumulation keeps the global batch
    ShorterSequence,        ///< halve the sequence length (truncation or packing shorter)
    SelectiveCheckpointing, ///< recompute the cheap tensors
    FullCheckpointing,      ///< keep one tensor per layer, recompute the rest
    EfficientAttention,     ///< SDPA / FlashAttention instead of eager
    ChunkedLoss,            ///< chunked cross-entropy (torchtune CEWithChunkedOutputLoss)
    FusedLoss,              ///< a loss that never holds the logits: Liger's fused linear CE or Cut Cross-Entropy
    LigerKernels,           ///< Liger's fused RMSNorm and SwiGLU / GeGLU
    Float8AllGather,        ///< torchao float8 linears with FSDP2 gathering their weights in float8
    EightBitAdam,           ///< bitsandbytes 8-bit AdamW
    Adafactor,              ///< factored second moment, no first moment
    OptimizerInBackward,    ///< step each parameter as its gradient arrives
    PrecomputedReference,   ///< DPO/IPO/KTO: reference log-probs computed before training, no reference copy
    VllmSleepMode,          ///< GRPO colocate: vLLM frees its share while the trainer steps
    FreezeVisionTower,      ///< a vision-language model's encoder (and projector) frozen, or without adapters
    Lora,                   ///< freeze the base, train adapters
    Qlora,                  ///< LoRA on a 4-bit base
    MoreCardsZero3,         ///< shard model states over more cards (ZeRO-3 / FSDP)
    ContextParallel,        ///< split each sequence over cards (ring attention), the planner's layout for it
    CpuOffload,             ///< optimizer states (then parameters) in host RAM
};
const char* toString(FixKind kind);

/// Why a rung does not apply to a scenario (None: it applies). Words for each: present::fixBlocker.
enum class FixBlocker {
    None,
    MicroBatchIsOne,      ///< micro-batch is already 1
    SequencesShort,       ///< sequences are already short (256 tokens or fewer)
    CheckpointingOn,      ///< some checkpointing is already on
    AlreadyFull,          ///< already full checkpointing
    AlreadyEfficient,     ///< already SDPA / FlashAttention
    NoVocabularyLogits,   ///< the model has no vocabulary-sized logits
    AlreadyChunked,       ///< the loss is already chunked or fused
    AlreadyFused,         ///< the loss already never holds the logits
    NothingForLiger,      ///< no RMSNorm and no gated MLP for Liger's kernels to replace
    AlreadyLiger,         ///< Liger's kernels are already on
    NoFp8OnCard,          ///< the card has no FP8 tensor cores
    Float8OnlyGathers,    ///< float8 saves memory only through FSDP2's float8 all-gather of full fine-tuning
    AlreadyFloat8,        ///< the weights are already gathered in float8
    Already8Bit,          ///< the optimizer is already 8-bit
    OnlyReplacesAdamW,    ///< 8-bit Adam only replaces AdamW
    AlreadyAdafactor,     ///< already Adafactor
    AlreadyInBackward,    ///< the optimizer step already runs in backward
    AdapterGradientsTiny, ///< with adapters the gradients are already tiny
    AlreadyAdapters,      ///< already LoRA or QLoRA
    AlreadyQlora,         ///< already QLoRA
    AlreadyOffloading,    ///< optimizer and parameters are already offloaded
    AlreadySplit,         ///< each sequence is already split over cards (context parallel)
    NoReferenceCopy, ///< no frozen reference copy to drop (no reference, adapters, already precomputed, or a framework
                     ///< without the option)
    NoAwakeVllm,     ///< no colocated vLLM holding its share through training
    NoTrainedVisionTower, ///< no vision encoder that trains or carries adapters (a text model, or already frozen)
};

/// One rung of the ladder for a scenario: what it changes is `scenarioAlone` against the scenario.
struct FixStep {
    FixKind kind = FixKind::SmallerMicroBatch;
    bool applicable = true;                ///< false: already on, or not meaningful for this scenario
    FixBlocker blocker = FixBlocker::None; ///< why not, when not applicable
    bool noLayoutFits = false;             ///< MoreCardsZero3: no count of this card fits without offload
    std::int64_t deviceAfterAlone = 0;     ///< device bytes per GPU with this fix alone
    std::int64_t savingAlone = 0;          ///< device bytes saved by this fix alone (can be negative)
    bool fitsAlone = false;
    Scenario scenarioAlone;
};

/// The ladder for a scenario on a GPU, and the first combination (taking fixes in order) that fits.
struct OomAdvice {
    std::int64_t deviceBytes = 0;
    std::int64_t usableBytes = 0;
    bool fitsAlready = false;
    Candidate asIs;                   ///< the planner's verdict on the scenario as set (fitAsIs)
    std::vector<FixStep> steps;       ///< empty when the scenario already fits
    std::vector<FixKind> combination; ///< fixes applied cumulatively, in ladder order, until it fits
    std::optional<Scenario> fittingScenario;
    std::int64_t deviceAfterCombination = 0;
};

/// Fixes an OOM in the cheapest order: each step's saving is the difference of two estimates; "fits" means what the
/// planner means (the estimate plus the fit margin within usable memory).
OomAdvice adviseOom(const Scenario& scenario, const GpuSpec& gpu, const PlanInputs& inputs = {});

/// Answers to the method questionnaire (from the fine-tuning guides).
struct MethodQuestions {
    enum class Distance { Close, Moderate, Far } distance = Distance::Moderate; ///< task vs what the model already does
    enum class Data { Small, Medium, Large } data = Data::Medium;               ///< < 10k examples, up to ~1M, more
    bool acceptsSmallQualityLoss = false; ///< a small quality trade-off for a large cost cut
    enum class Serving { Merged, Adapters } serving = Serving::Merged;
};

/// The reasons and caveats a recommendation can give (words: present::methodReason / methodCaveat).
enum class MethodReason {
    FarAndPlentyOfData,      ///< full fine-tuning can move every weight and uses the data best
    FarButLittleData,        ///< LoRA with a higher rank: full fine-tuning would overfit
    CloseToTheModel,         ///< LoRA nearly reaches full fine-tuning at a fraction of the memory
    SomewhatDifferent,       ///< LoRA on all linear layers
    LittleDataRegularises,   ///< fewer trainable parameters also regularise
    QualityTradeOffAccepted, ///< QLoRA: 4-bit base, often a single smaller card
    FullDespiteTradeOff,     ///< the data and distance still favour full fine-tuning
    ServingAdapters,         ///< adapters are megabytes and swap on one base
};
enum class MethodCaveat {
    FullCheckpointPerTask, ///< full fine-tuning produces a full checkpoint per task
    MergeIntoSixteenBit,   ///< merge a QLoRA adapter into the 16-bit base, not the 4-bit one
    CheckHeldOutSet,       ///< adapters can underfit tasks far from pre-training
};

/// A method recommendation with its reasons and caveats.
struct MethodAdvice {
    Method method = Method::Lora;
    std::vector<MethodReason> reasons;
    std::vector<MethodCaveat> caveats;
};
MethodAdvice adviseMethod(const MethodQuestions& answers);

/// One cell of the sizing table: what the planner recommends renting across the catalog (planCatalog and rank, as
/// `fit` and the Plan tab answer), with its layout.
struct SizingCell {
    const GpuSpec* gpu = nullptr; ///< nullptr: nothing in the catalog fits within the card limit
    std::int64_t cards = 0;
    std::int64_t devicePerGpu = 0;
    double usdPerHour = 0; ///< cards x the price in effect
    double costUsd = 0;    ///< the plan's cost by the objective's price (on demand or spot)
    double wallHours = 0;
    Scenario layout; ///< the plan: count, parallelism, sharding, micro-batch split, checkpointing
};
/// One row of the sizing table.
struct SizingRow {
    std::string sizeClass; ///< "7-8B"; empty for the scenario's own model
    std::string modelName; ///< the class's model ("Llama-3.1-8B"), or the scenario's model id or name
    std::string modelId;   ///< catalog id, empty for the user's own model
    std::int64_t params = 0;
    SizingCell qlora, lora, full;
};

/// The guides' sizing table computed for the scenario's run shape: rows are model sizes (1–3B, 7–8B, 13B, 30–34B,
/// 70B, plus the scenario's model), columns QLoRA / LoRA / full, cells the planner's recommended plan.
std::vector<SizingRow> sizingTable(const Scenario& scenario, const Catalog& catalog, const PlanInputs& inputs = {});

/// The plan the planner recommends for the scenario across `gpus` (the same search and ranking as `fit` and the Plan
/// tab); an empty cell when nothing fits.
SizingCell recommendedPlan(const Scenario& scenario, const std::vector<GpuSpec>& gpus, const PlanInputs& inputs = {});

} // namespace gpusizer::core
