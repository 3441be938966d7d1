#pragma once
// Internal to the memory room: the estimator's stages (docs/memory-model.md), one file each, and what they pass
// on. Estimator.cpp runs them in order; each stage's helpers stay in its own file.

#include "EstimatorParts.h"
#include "gpusizer/memory/AdapterShapes.h"
#include "gpusizer/memory/AllocatorReplay.h"
#include "gpusizer/memory/Estimate.h"
#include "gpusizer/scenario/Units.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string_view>

namespace gpusizer::core::detail {

// ---- Named constants: each is documented in docs/memory-model.md with its source. ----

/// NF4 stores a weight in 4 bits (Dettmers et al. 2023, QLoRA §2).
inline constexpr double kNf4Bytes = 0.5;
/// One fp32 absmax per 64-weight block (QLoRA §2, block size 64).
inline constexpr double kNf4AbsmaxBytes = 4.0 / 64.0;
/// Double quantization: 8-bit absmax per 64 weights + one fp32 constant per 256 blocks (QLoRA §2: 0.127 bits/param).
inline constexpr double kNf4DqAbsmaxBytes = 1.0 / 64.0 + 4.0 / (64.0 * 256.0);
/// LLM.int8(): one byte per weight plus an fp32 scale per output row (Dettmers et al. 2022).
inline constexpr double kInt8Bytes = 1.0;
/// bitsandbytes 8-bit optimizer state: 1 byte per value + an fp32 absmax per 2048-value block (Dettmers et al. 2021).
inline constexpr double kAdam8bitStateBytes = 1.0 + 4.0 / 2048.0;
/// cuBLAS workspace through PyTorch's allocator: default CUBLAS_WORKSPACE_CONFIG ":4096:8" = 8 x 4 MiB.
inline constexpr std::int64_t kCublasWorkspaceBytes = 32LL << 20;
/// CUDA context + kernel images with lazy module loading (PyTorch 2.x); MEMORY-NOTES: 0.3-1.3 GiB.
inline constexpr std::int64_t kDefaultCudaContextBytes = 512LL << 20;
/// NCCL's device buffers per communicator (NVIDIA/nccl v2.21.5-1; the same buffer sizes in v2.19.3-1). One P2P
/// connection holds its receive side (a 4 KiB header and the LL 512 KiB + LL128 4.6875 MiB + SIMPLE 4 MiB buffers,
/// init.cc / device.h, rounded up to 2 MiB: 10 MiB) and its send side (2 MiB) (transport/p2p.cc); each collective
/// channel connects ring and tree at init, two such pairs per rank (init.cc ncclTransportRingConnect /
/// TreeConnect). 24 channels over NVLink (logged on 8 x H100 and 2-4 x A100), 2 over PCIe.
inline constexpr double kNcclConnectionPairBytes = 12.0 * 1024 * 1024;
inline constexpr double kNcclNvlinkChannels = 24;
inline constexpr double kNcclPcieChannels = 2;
/// NVLink SHARP (transport/nvls.cc v2.21.5-1 L292-314): per channel of the communicator (comm->nChannels, 24) and per
/// head, 2 x (NVLS_CHUNKSIZE 128 KiB x NCCL_STEPS 8 + a 2 MiB aligned head), a head per GPU of the node; only with more
/// than two GPUs in it.
inline constexpr double kNcclNvlsBytesPerChannelAndHead = 2.0 * (128.0 * 1024 * 8 + 2.0 * 1024 * 1024);
/// Caching-allocator slack over the allocated peak (block rounding, split tails): ~5% (MEMORY-NOTES, one GPU).
inline constexpr double kAllocatorSlack = 0.05;
/// FSDP keeps two units gathered: the one computing and the one prefetched (FSDP1 limit_all_gathers allows two in
/// flight, _limiter_utils._FreeEventQueue; FSDP2 prefetches one group ahead).
inline constexpr double kFsdpGatheredUnits = 2.0;
/// DeepSpeedZeroConfig.stage3_param_persistence_threshold default (elements): smaller parameters are never
/// partitioned. transformers' "auto" (10 x hidden) is smaller than any decoder linear too.
inline constexpr double kZeroPersistenceThreshold = 1e5;
/// Activation offload keeps about two layers' saved tensors on the GPU (the one in use and the one in flight).
inline constexpr double kOffloadLayersInFlight = 2.0;

// ---- Bytes per element by recipe ----

inline bool isMasterRecipe(Precision p) {
    return p == Precision::Bf16Fp32Master || p == Precision::Fp16Fp32Master;
}
inline bool isAmp(Precision p) {
    return p == Precision::AmpBf16 || p == Precision::AmpFp16;
}
/// Bytes of the tensors a step computes with: 4 only for fp32, 2 for every 16-bit recipe (AMP included).
inline double computeBytes(Precision p) {
    return p == Precision::Fp32 ? 4.0 : 2.0;
}
/// Bytes of a stored parameter: fp32 for fp32, AMP and FSDP mixed precision (the fp32 shard), 16-bit otherwise.
inline double parameterBytes(Precision p) {
    return (p == Precision::Fp32 || isAmp(p) || p == Precision::FsdpMixedBf16) ? 4.0 : 2.0;
}
/// Bytes of the residual stream: fp32 under AMP (fp32 + bf16 adds to fp32) and fp32 training.
inline double residualBytes(Precision p) {
    return (p == Precision::Fp32 || isAmp(p)) ? 4.0 : 2.0;
}
/// Bytes of a parameter gathered for compute: FSDP mixed precision gathers in bf16, everything else as stored.
inline double gatheredBytes(Precision p) {
    return p == Precision::FsdpMixedBf16 ? 2.0 : parameterBytes(p);
}

inline double adapterBytes(const Scenario& s, const FrameworkProfile& prof) {
    return detail::adapterStorageBytes(s, prof);
}

inline double quantConstantsPerWeight(Quantization q, std::int64_t inFeatures) {
    switch (q) {
    case Quantization::Nf4:
        return kNf4AbsmaxBytes;
    case Quantization::Nf4Dq:
        return kNf4DqAbsmaxBytes;
    case Quantization::Int8:
        return 4.0 / static_cast<double>(std::max<std::int64_t>(1, inFeatures));
    }
    return 0.0;
}
inline double quantDataPerWeight(Quantization q) {
    return q == Quantization::Int8 ? kInt8Bytes : kNf4Bytes;
}

inline bool contains(const std::vector<LinearRole>& roles, LinearRole r) {
    return std::find(roles.begin(), roles.end(), r) != roles.end();
}

inline std::int64_t toBytes(double v) {
    return static_cast<std::int64_t>(std::llround(std::max(0.0, v)));
}

/// Linear layers that share one input tensor: {q,k,v}, {o}, {gate,up}, {down}.
enum class InputGroup { Qkv, O, GateUp, Down };
inline InputGroup inputGroupOf(LinearRole r) {
    switch (r) {
    case LinearRole::Q:
    case LinearRole::K:
    case LinearRole::V:
        return InputGroup::Qkv;
    case LinearRole::O:
        return InputGroup::O;
    case LinearRole::Gate:
    case LinearRole::Up:
        return InputGroup::GateUp;
    case LinearRole::Down:
        return InputGroup::Down;
    }
    return InputGroup::Qkv;
}

/// Everything the stages share: the scenario, the resolved profile and the layout's degrees.
struct Context {
    const Scenario& s;
    const FrameworkProfile& prof;
    const ModelArch& arch;
    LinearGroupList groups;
    ParamCounts params;
    double c = 2.0;       // compute dtype bytes
    double resid = 2.0;   // residual stream bytes
    double paramB = 2.0;  // stored parameter bytes
    double gatherB = 2.0; // gathered-for-compute parameter bytes
    bool full = false;    // full fine-tuning: every weight trains (freeze tuning: every weight of the trained layers)
    bool quantized = false;
    double trainLayerShare = 1.0; // freeze tuning: the share of decoder layers that train
    bool frozenPass = false;      // sizing the frozen layers of a freeze-tuning run: nothing in them trains
    double tp = 1, pp = 1, dp = 1;
    double cp = 1;         // context parallel: each sequence split over this many ranks (they shard states with dp)
    double modelShare = 1; // even split of parameters over tensor x pipeline ranks
    int stage = 0;         // ZeRO stage in effect (offload runs under ZeRO-2 or -3)
    ShardingEngine engine = ShardingEngine::Deepspeed;

    bool adapted(LinearRole r) const {
        return !full && !frozenPass && detail::adaptsLinears(s.lora.kind) && contains(s.lora.targets, r);
    }
    /// Freeze tuning: only the last trainable_layers decoder layers train; embeddings, lm_head and the rest are frozen.
    bool freezes() const { return full && trainLayerShare < 1.0; }
    AdapterKind kind() const { return s.lora.kind; }
    bool quantizedRole(LinearRole r) const { return quantized && (!prof.quantizesOnlyAdaptedLinears || adapted(r)); }
    bool fsdp() const { return engine == ShardingEngine::Fsdp1 || engine == ShardingEngine::Fsdp2; }
    bool multiGpu() const { return dp > 1; }
};

/// The run's shapes, byte widths and layout, read once (Trainables.cpp).
Context makeContext(const Scenario& s, const FrameworkProfile& prof);

// ---- Stage 1: what trains, what is quantized (Trainables.cpp) ----

struct Trainables {
    double adapters = 0;       // trainable adapter parameters (decoder linears, lm_head, embedding, norm copies)
    double frozenAdapters = 0; // adapter tensors without gradients: LoRA-FA's lora_A, VeRA's shared vera_A / vera_B
    double largestAdapter = 0;
    double savedCopies = 0;    // modules_to_save: full trainable copies (lm_head, embed_tokens), in the model dtype
    double quantizedData = 0;  // bytes of 4/8-bit weight data
    double quantConstants = 0; // bytes of quantization constants (absmax, scales)
    double quantizedCount = 0;
    double largestQuantized = 0;
    double adafactorAdapterElems = 0;
    double adafactorFullElems = 0;
    double adapterB = 2.0;         // bytes of an adapter parameter (and its gradient)
    double routedWeights = 0;      // parameters of routed experts (expert parallelism splits them)
    double routedAdapters = 0;     // adapters on routed experts
    double largestLayerTensor = 0; // the largest linear weight of a decoder layer (freeze tuning's largest trainable)
};

Trainables trainables(const Context& ctx);

// ---- Stage 2: weights, gradients and optimizer states per GPU, after sharding and offload (ModelStates.cpp) ----

struct ModelStates {
    double weights = 0;               // per GPU, persistent
    double gradients = 0;             // per GPU when every gradient exists (end of backward)
    double optimizerStates = 0;       // per GPU (master copy + states)
    double optimizerMaster = 0;       // per GPU: the master copy's part of optimizerStates
    double optimizerWeights = 0;      // per GPU: the trainable weights as stored, in the optimizer's shard
    double paged = 0;                 // part of optimizerStates in CUDA managed memory
    double cpuPerGpu = 0;             // host RAM per GPU process
    double trainable = 0;             // trainable parameters
    double trainB = 2.0;              // bytes per trainable parameter (largest group)
    double largestTrainable = 0;      // largest trainable tensor (elements)
    double stateUnit = 2.0;           // bytes per optimizer state value
    double masterB = 0;               // bytes per master-copy value
    double headGradientUnsharded = 0; // the lm_head gradient as it appears at the loss, before sharding
    double quantConstantsUnsharded = 0;
    double offloadGradientBuffers = 0; // GPU gradient buffers that stream gradients to host memory
    double referenceWeights = 0;       // per GPU: DPO/IPO/KTO's frozen reference copy (part of `weights`)
};

ModelStates modelStates(const Context& ctx, const Trainables& t);

/// ColossalAI Gemini's chunks, in elements (GeminiChunks.cpp): the searched size, the chunk holding lm_head (or the
/// tied embedding), and every chunk's size summed, padding included.
struct GeminiChunks {
    double chunk = 0;
    double headChunk = 0;
    double padded = 0;
    bool keptGathered = false; // the whole model is one chunk under 32 Mi elements, gathered on every rank
};
GeminiChunks geminiChunks(const Context& ctx);

// ---- Stage 3: activations saved for backward (Activations.cpp) ----

/// One decoder layer's widths per token, as the activation items read them.
struct LayerWidths {
    double h = 0;  // hidden size
    double a = 0;  // attention heads
    double kv = 0; // key/value heads
    /// Key/value heads the attention core sees, per local token: Ulysses replicates a tensor-parallel rank's
    /// key/value heads when they are fewer than its degree, one per rank over the whole sequence (ulysses_sp.py
    /// @edaa7221 L131-135, L181-184): max(kv, cp x tp) in these units.
    double kvAttention = 0;
    double d = 0; // head dimension
    bool mla = false;
    double qDim = 0;              // query width over all heads
    double vDim = 0;              // value (and attention output) width over all heads
    double moeShare = 0;          // share of the layers that are MoE layers
    double routedPerToken = 0;    // routed experts a token passes through in an MoE layer
    double tokenWidth = 0;        // MLP width a token passes through, averaged over layers
    double gateUpInputCopies = 1; // copies of the hidden state the gate/up projections read

    /// Width of the one input tensor a group of linears reads.
    double inputWidth(InputGroup g) const {
        switch (g) {
        case InputGroup::Qkv:
            return h;
        case InputGroup::O:
            return vDim;
        case InputGroup::GateUp:
            return h * gateUpInputCopies;
        case InputGroup::Down:
            return tokenWidth;
        }
        return 0.0;
    }
};

/// Saved activations per token for one decoder layer (Korthikanti et al. 2022 §4, itemised per tensor as
/// PyTorch autograd saves it for a Hugging Face Llama-style layer; see docs/memory-model.md).
/// One layer's saved tensors per token, and what its MLP half would save untiled (TiledMLP's tile; what the MLP frees
/// before the attention runs backward).
struct LayerActivations {
    ActivationItems items;
    LayerWidths widths;
    double untiledMlp = 0;
    double downInput = 0; ///< of it, the down projection's saved input (freed before the MLP's other gradients)
};

struct StoredActivations {
    double layers = 0;         // the decoder layers' stored tensors (one micro-batch's, or L layers' worth under 1F1B)
    double final = 0;          // after the last layer: final norm input, lm_head input
    double atLoss = 0;         // every stored layer's tensors and the final norm's input, at the loss
    double lastLayer = 0;      // one layer's full set (its backward, or its recomputation)
    double recompute = 0;      // checkpointed: stored inputs plus the last layer recomputed
    double cpu = 0;            // activation offload: what went to host memory
    double vision = 0;         // a vision-language model's encoder and projector, held until their backward (the last)
    double crossAttention = 0; // of `vision`, Llama-3.2-Vision's cross-attention layers' tensors over the image tokens
    double tokens = 0;         // tokens per micro-batch
    LayerActivations layer;    // one layer's items per token, its widths, its MLP half
};

double localTokens(const Context& ctx);

/// DeepSpeed's TiledMLP (deepspeed/runtime/sequence_parallel/ulysses_sp.py TiledMLP @edaa7221, ArcticTraining's
/// tiled_mlp_compute): backward preallocates the input's gradient whole (x_grad = zeros_like(x)) and recomputes the
/// MLP one tile at a time with autograd, so one tile's saved tensors live beside it. num_shards="auto" makes
/// ceil(seqlen / hidden) tiles: a tile holds about `hidden` tokens of each sequence whatever its length.
double tiledMlpWorkingSet(const Context& ctx, double untiledMlp);

/// What a decoder layer's backward adds to its saved tensors (autograd frees a node's saved tensors once its backward
/// has run, and the MLP runs backward before the attention): the gradient of the layer's output in the residual
/// stream throughout; in the MLP's backward TiledMLP's tile and x_grad; in the attention's, once the MLP's saved
/// tensors are freed, the output's gradient and what FlashAttention-2's mha_bwd allocates — dq, dk, dv, with
/// grouped key/value heads dk and dv expanded to every head, an fp32 dq accumulator and an fp32 softmax_d per head
/// (Dao-AILab/flash-attention csrc/flash_attn/flash_api.cpp @00979f57; PyTorch's flash SDPA backend is its port).
/// The MLP's own gradient temporaries and eager attention's score gradients are not itemised.
double layerBackwardWorkingSet(const Context& ctx, const LayerActivations& layer, double tiledMlp);

StoredActivations storedActivations(const Context& ctx, const Trainables& t);

// ---- Stage 4: logits and loss (LogitsLoss.cpp) ----

struct LossBytes {
    double perElement = 0; // per (token x vocabulary) element
    double total = 0;      // at the loss's peak, per GPU
    // When lm_head's backward runs, after the loss's backward has freed its fp32 tensors: the logits' 16-bit gradient
    // (and the logits where the loop holds them) and the gradient of lm_head's input. Equal to `total` where the
    // loss is not itemised that finely.
    double atHeadBackward = 0;
    // The logits a loop that keeps the model's output holds at every other moment of the step, the next forward
    // included (FrameworkProfile::logitsHeldThroughStep).
    double heldThroughStep = 0;
    // What the loss holds in its forward, before its backward begins (at most `total`): the moment the previous
    // step's held logits meet it.
    double forwardPeak = 0;
};

LossBytes lossBytes(const Context& ctx, double tokens);

// ---- Stage 5: transients and the allocator (Transients.cpp) ----

struct Transients {
    double gatheredAtLoss = 0;   // FSDP/ZeRO-3 working set at the loss
    double gatheredInLayers = 0; // the working set while the layers compute
    double gatheredPool = 0;     // the unshard stream's own peak (its blocks are not reused by the compute stream)
    double pendingUnit = 0;      // one more unit held by record_stream until its event completes (FSDP1, DeepSpeed)
    double dequant = 0;
    double doraWeight = 0;             // DoRA: the largest adapted layer's B·A and W + s·B·A while its forward runs
    double float8Casts = 0;            // float8: one linear's float8 copies while its backward runs
    double contextParallelBuffers = 0; // ring: the k/v chunks in flight; Ulysses: q, k, v after the all-to-all
    double tiledMlp = 0;               // TiledMLP: one tile's tensors and the whole input's gradient in backward
    double layerBackward = 0;          // a layer's backward: the residual gradient and its largest kernel's buffers
    double autocastCache = 0;
    double commBuckets = 0;
    // Where the buckets live: from optimizer construction on (DeepSpeed ZeRO-3's IPG buffer), from the start of
    // backward (DeepSpeed ZeRO-1/2 allocate theirs in backward()), or only while a unit's gradients reduce (the rest).
    enum class BucketLife { Reduce, Backward, Always } bucketLife = BucketLife::Reduce;
    double stepTemporaries = 0;
    // ZeRO-1/2 with an fp32 master (zeroStepGradientCasts): what the step's cast adds beside the 16-bit gradients, the
    // fp32 gradient the optimizer then steps with, and whether the 16-bit ones are gone by then.
    double stepCast = 0;
    double stepFp32Gradients = 0;
    bool stepDropsSixteenBitGradients = false;
    double headGradientPerChunk = 0;
    double workspace = static_cast<double>(kCublasWorkspaceBytes);
};

/// Context parallelism's per-layer buffers while a layer's attention runs. Ring attention (torch
/// distributed/tensor/experimental/_attention.py) receives the next rank's k and v while it computes on the current
/// ones: two chunks of k and v in flight. Ulysses (DeepSpeed runtime/sequence_parallel/ulysses_sp.py) re-lays q, k and
/// v into a head split with all-to-alls into new buffers of the local size.
double contextParallelBuffers(const Context& ctx);

Transients transients(const Context& ctx, const Trainables& t, const ModelStates& m, const StoredActivations& acts);

// ---- Stage 6: the peak moment (PeakMoment.cpp) ----

struct Moment {
    PeakMoment which;
    double grads, acts, logits, transient;
    double sum(double base) const { return base + grads + acts + logits + transient; }
};

/// PPO's other models (trl/experimental/ppo/ppo_trainer.py @f2cd5771), each the policy's backbone with a one-output
/// score head: the value model, trained in full beside the policy even under PEFT (PolicyAndValueWrapper L275-294; the
/// optimizer over both, L492-543), and the frozen 16-bit reward model, whole on every GPU unless DeepSpeed's ZeRO-3
/// shards it (prepare_deepspeed; without DeepSpeed .to(device), L555-568). What each moment of the step holds of them.
struct SideModels {
    double weights = 0;         // value model + reward model, persistent
    double states = 0;          // the value model's optimizer states
    double gradients = 0;       // the value model's, once its backward has run
    double activations = 0;     // the value model's saved tensors: its forward runs first, its backward last
    double stepTemporaries = 0; // its optimizer step's
    double gathered = 0;        // ZeRO-3: the value backbone gathered with the policy for generation
    double resident() const { return weights + states; }
};

/// Pipeline stages: the first holds pp micro-batches of L/pp layers (L layers' worth) and the embedding; the last
/// one micro-batch of L/pp layers, the final norm, lm_head and the loss (Megatron schedules.py: warm-up
/// pp - rank - 1). The most loaded stage is the larger of the two, not their sum.
void mostLoadedPipelineStage(const Context& ctx, StoredActivations& acts, LossBytes& loss);

SideModels ppoSideModels(Estimate& e, const Context& ctx);

/// The moment of the step at which memory peaks, with what is alive then beside the weights and states.
Moment peakMoment(const Context& ctx, const ModelStates& m, const StoredActivations& acts, const LossBytes& loss,
                  const Transients& tr, const SideModels& side);

/// The per-GPU components at the peak moment, and the figures reported at the loss.
void recordComponents(Estimate& e, const ModelStates& m, const StoredActivations& acts, const LossBytes& loss,
                      const Transients& tr, const Moment& peak, const SideModels& side);

// ---- GRPO's and PPO's generation (docs/memory-model.md §9) (Generation.cpp) ----

/// The generation moment against the training step's peak: whichever holds more is the peak. Returns the trainer's
/// own allocations at its training peak (without vLLM), for the shares vLLM can take.
double generationPhase(Estimate& e, const Context& ctx, const ModelStates& m, const Transients& tr,
                       const SideModels& side);

/// Colocate: the smallest share of the card that holds vLLM's weights and this GPU's KV cache (its activation profile
/// and CUDA graphs come on top: gpu_worker.py leaves CUDA graphs out of the budget), and the largest one the trainer
/// leaves — beside its training peak when vLLM stays awake, beside its weights and optimizer states with sleep mode —
/// after the allocator's slack, the CUDA context and NCCL's buffers.
void vllmShares(Estimate& e, const Scenario& s, const ModelStates& m, double trainer);

// ---- Beyond the allocator: the cached pool, NCCL's buffers, the CUDA context, the replayed reserve (DeviceTotals.cpp)
// ----

/// Blocks the allocator caches beyond the allocated peak: what the unshard stream's pool holds over the parameters
/// gathered at the peak moment, and the unit record_stream keeps.
double cachedPoolBytes(const Transients& tr, const Moment& peak);

/// How one communicator's GPUs talk: over PCIe or NVLink, with NVLink SHARP or without. A card not named is sized as
/// NVLink.
detail::NcclPath ncclPath(const Scenario& s, double ranks);

/// NCCL's buffers per GPU: a communicator per process group that runs collectives — the data-parallel (sharding)
/// group, and the tensor- and context-parallel groups when in use. DeepSpeed runs two over the data-parallel ranks:
/// the world group for parameter all-gathers and its clone for gradients (utils/groups.py _clone_world_group,
/// runtime/engine.py, partition_parameters.py get_world_group, v0.13.1). Pipeline send/recv buffers (allocated on the
/// first send, enqueue.cc) are not counted.
double ncclBufferBytes(const Context& ctx);

/// The step to replay through the caching allocator, where the trace follows this run.
std::optional<ReplayStep> replayStepFor(const Context& ctx);

/// The allocated and reserved peaks, the device total and the overhead that closes the components to it.
void deviceTotals(Estimate& e, const Scenario& s, const ModelStates& m, double cachedPool, double ncclBytes);

} // namespace gpusizer::core::detail
