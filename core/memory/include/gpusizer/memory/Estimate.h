#pragma once

#include "gpusizer/memory/Band.h"
#include "gpusizer/scenario/FrameworkProfile.h"
#include "gpusizer/scenario/ModelArch.h"
#include "gpusizer/scenario/Result.h"
#include "gpusizer/scenario/Scenario.h"
#include "gpusizer/scenario/Validate.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace gpusizer::core {

/// The memory components of DESIGN.md §2, in display order.
/// Generation: GRPO's inference memory on the training GPUs (vLLM's share in colocate mode, or transformers' KV cache).
enum class Component { Weights, Gradients, OptimizerStates, Activations, LogitsLoss, Transient, Generation, Overhead };
inline constexpr std::size_t kComponentCount = 8;

/// Every component in display order.
inline constexpr std::array<Component, kComponentCount> kAllComponents{
    Component::Weights,    Component::Gradients, Component::OptimizerStates, Component::Activations,
    Component::LogitsLoss, Component::Transient, Component::Generation,      Component::Overhead};

struct Estimate;
/// Whether a view lists the component for this estimate: Generation only for a run that generates.
bool componentShown(const Estimate& e, Component c);

/// snake_case key used in JSON ("optimizer_states").
const char* componentKey(Component c);

/// Bytes per component, per GPU, at the peak moment.
struct ComponentBytes {
    std::array<std::int64_t, kComponentCount> bytes{};

    std::int64_t& operator[](Component c) { return bytes[static_cast<std::size_t>(c)]; }
    std::int64_t operator[](Component c) const { return bytes[static_cast<std::size_t>(c)]; }
    std::int64_t total() const;
};

/// The moment of a training step at which memory peaks.
enum class PeakMoment {
    ForwardEnd,         ///< all saved activations and the logits alive (start of backward)
    LastLayerRecompute, ///< full checkpointing: every stored layer input plus the last layer recomputed
    BackwardEnd,        ///< all gradients alive, activations freed but for the last layer
    OptimizerStep,      ///< gradients plus optimizer-step temporaries
    Generation,         ///< GRPO: the completions generated on the training GPUs (KV cache or vLLM's share)
};
const char* toString(PeakMoment m);
/// The moment in words ("the end of the forward pass").
Words label(PeakMoment m);

/// Activation bytes saved per token per layer, itemised (one GPU's share).
struct ActivationItems {
    double norms = 0;
    double linearInputs = 0;
    double attention = 0;       ///< q, k, v, output, logsumexp
    double attentionScores = 0; ///< eager attention: s² softmax and its copies (0 with flash/SDPA)
    double mlp = 0;
    double lora = 0;    ///< LoRA dropout outputs, masks, A outputs
    double dropout = 0; ///< hidden-state dropout masks
    double total() const { return norms + linearInputs + attention + attentionScores + mlp + lora + dropout; }
};

/// The result of sizing one scenario, per GPU (the most loaded one).
struct Estimate {
    ParamCounts params;
    std::int64_t trainableParams = 0;
    std::int64_t referenceModelBytes = 0;   ///< per GPU, in Weights: DPO/IPO/KTO's frozen reference copy
    std::int64_t routedExpertParams = 0;    ///< weights of routed MoE experts (expert parallelism splits them)
    std::int64_t routedTrainableParams = 0; ///< the trainable share of those (their adapters under LoRA)
    std::int64_t dataParallel = 1;          ///< data-parallel degree: gpus / (tensor x pipeline parallel)

    ComponentBytes perGpu; ///< at the peak moment; sums to deviceBytes
    PeakMoment peakMoment = PeakMoment::ForwardEnd;
    std::int64_t allocatedPeakBytes = 0; ///< torch.cuda.max_memory_allocated()
    /// The reserved memory the run needs, which the fit uses: the allocated peak plus block slack and the cached
    /// pools. On a card without more, the allocator frees its cached segments and retries before it fails.
    std::int64_t reservedPeakBytes = 0;
    /// torch.cuda.max_memory_reserved() on a card with room to spare: PyTorch's caching allocator replayed over two
    /// steps' allocations, where the step trace follows the run (Detail::Full only); 0 otherwise.
    std::int64_t reservedWithRoomBytes = 0;
    /// ColossalAI Gemini's auto placement: the 16-bit chunks it leaves gathered on the GPU while there is room (up to
    /// 90% of the card), a cache it moves to the host when memory is needed, so not in the figures the fit uses.
    std::int64_t geminiCachedChunkBytes = 0;
    /// What torch.cuda.max_memory_allocated() reports on a card with room: the allocated peak and Gemini's cache.
    std::int64_t measuredAllocatedBytes() const { return allocatedPeakBytes + geminiCachedChunkBytes; }
    /// What torch.cuda.max_memory_reserved() reports on a card with room: the replay where there is one.
    std::int64_t measuredReservedBytes() const {
        return (reservedWithRoomBytes > 0 ? reservedWithRoomBytes : reservedPeakBytes) + geminiCachedChunkBytes;
    }
    std::int64_t deviceBytes = 0;     ///< nvidia-smi: reserved + CUDA context + paged/managed memory
    std::int64_t ncclBufferBytes = 0; ///< NCCL's communicator buffers, part of the overhead
    std::int64_t bandLowBytes = 0;    ///< low end of the expected device usage
    std::int64_t bandHighBytes = 0;   ///< high end of the expected device usage
    double bandDownShare = 0;         ///< the band as shares of any figure (allocated, reserved, device)
    double bandUpShare = 0;
    /// The measured spread of this kind of run when it is wider than the band shown (kBandMaxShare); 0 otherwise.
    double bandEvidenceDownShare = 0;
    double bandEvidenceUpShare = 0;
    std::int64_t pagedOptimizerBytes = 0;    ///< optimizer states in CUDA managed memory (outside the allocator)
    std::int64_t cpuOffloadBytesPerGpu = 0;  ///< host RAM per GPU process for offloaded states/activations
    std::int64_t cpuOffloadBytesTotal = 0;   ///< host RAM across all GPUs of the run
    std::int64_t activationOffloadBytes = 0; ///< activation offload: one micro-batch's saved tensors in host RAM
    /// What this GPU's optimizer step updates (0 when it runs on the host): the master copy's part of the optimizer
    /// states, and the trainable weights of its shard as stored (the 16-bit ones beside a master copy).
    std::int64_t optimizerMasterBytes = 0;
    std::int64_t optimizerWeightBytes = 0;

    ActivationItems activationPerTokenLayer;      ///< bytes per token per layer, without checkpointing
    double logitsBytesPerElement = 0;             ///< bytes per (token x vocabulary) element at the loss peak
    std::int64_t logitsBytesAtLoss = 0;           ///< logits and loss tensors at the loss, whichever moment is the peak
    std::int64_t optimizerStepTemporaryBytes = 0; ///< what optimizer.step() allocates beyond the states
    std::int64_t doraWeightTemporaryBytes = 0;   ///< DoRA: B·A and W + s·B·A of the largest adapted layer in forward
    std::int64_t float8CastTemporaryBytes = 0;   ///< float8: the largest linear's float8 copies in its backward
    std::int64_t contextParallelBufferBytes = 0; ///< context parallel: ring k/v chunks in flight or Ulysses buffers
    std::int64_t tiledMlpWorkingSetBytes = 0;    ///< TiledMLP: one tile's tensors and the input's gradient in backward
    // GRPO's generation (docs/memory-model.md §9), per GPU where not said otherwise.
    bool generates = false;                  ///< a GRPO run: the Generation component is shown
    std::int64_t generationKvCacheBytes = 0; ///< the KV cache of this GPU's generation batch (prompt + completion)
    std::int64_t vllmWeightsBytes = 0;       ///< vLLM's own 16-bit copy of the weights (per vLLM tensor-parallel rank)
    std::int64_t vllmShareBytes = 0;         ///< colocate: gpu_memory_utilization x the card's memory
    double vllmSmallestShare = 0;            ///< colocate: the share that holds vLLM's weights and the batch's KV cache
    double vllmLargestShare = 0;             ///< colocate: the largest share that leaves the trainer its peak
    std::int64_t vllmServerGpuBytes = 0;     ///< server mode: what each of the vLLM server's GPUs needs
    std::int64_t generationScoresBytes = 0;  ///< PPO: generate()'s fp32 scores of the rollout, held through training
    std::int64_t valueModelBytes = 0;        ///< PPO: the value model's weights, gradients, states and activations
    std::int64_t valueModelParams = 0;       ///< PPO: the value model's parameters (all of them train)
    std::int64_t rewardModelBytes = 0;       ///< PPO: the frozen reward model's weights (in Weights)
    // A vision-language model's images (docs/memory-model.md §10).
    std::int64_t imageEncoderTokens = 0;  ///< patches (and class token) the encoder attends over, per image
    std::int64_t imageLanguageTokens = 0; ///< tokens one image takes in the language model's sequence
    std::int64_t imageWidth = 0;          ///< an image as the processor resizes it
    std::int64_t imageHeight = 0;
    std::int64_t visionActivationBytes = 0;    ///< per GPU, in Activations: what the encoder and projector save
    std::int64_t crossAttentionBytes = 0;      ///< of those, Llama-3.2-Vision's cross-attention layers' over the image
    std::int64_t layerBackwardBytes = 0;       ///< a layer's backward: residual gradient, attention kernel buffers
    std::int64_t activationBytesAtLoss = 0;    ///< saved activations at the loss (every stored layer and the last)
    std::int64_t gatheredParamBytesAtLoss = 0; ///< ZeRO-3/FSDP parameters gathered for compute at the loss
    FrameworkProfile profile;
    /// The precision recipe sized: the scenario's, or DeepSpeed ZeRO's fp32 master for a pure 16-bit one.
    Precision precision = Precision::Bf16;
    std::vector<Warning> warnings;
    std::vector<Words> assumptions;
    /// A search step beyond kMaxEstimateBytes (a validated scenario never is): the bytes read kMaxEstimateBytes, so
    /// every fit check fails, and nothing was computed in 64 bits.
    bool beyondRange = false;
};

/// How much of an estimate to produce: searches over many scenarios need only the numbers.
enum class Detail { Full, NumbersOnly };

/// Sizes one scenario. Pure: the same scenario gives the same estimate. NumbersOnly skips the warnings and
/// assumptions (their text is most of the cost) for searches that read only bytes.
Estimate estimate(const Scenario& scenario, Detail detail = Detail::Full);

} // namespace gpusizer::core
