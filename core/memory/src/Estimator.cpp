#include "EstimatorParts.h"
#include "gpusizer/memory/AdapterShapes.h"
#include "gpusizer/memory/AllocatorReplay.h"
#include "gpusizer/memory/Estimate.h"
#include "gpusizer/memory/ZeroFetch.h"
#include "gpusizer/scenario/Labels.h"
#include "gpusizer/scenario/Units.h"
#include "gpusizer/scenario/Vision.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <optional>
#include <sstream>

namespace gpusizer::core {

using namespace detail;

namespace {

// ---- Named constants: each is documented in docs/memory-model.md with its source. ----

/// NF4 stores a weight in 4 bits (Dettmers et al. 2023, QLoRA §2).
constexpr double kNf4Bytes = 0.5;
/// One fp32 absmax per 64-weight block (QLoRA §2, block size 64).
constexpr double kNf4AbsmaxBytes = 4.0 / 64.0;
/// Double quantization: 8-bit absmax per 64 weights + one fp32 constant per 256 blocks (QLoRA §2: 0.127 bits/param).
constexpr double kNf4DqAbsmaxBytes = 1.0 / 64.0 + 4.0 / (64.0 * 256.0);
/// LLM.int8(): one byte per weight plus an fp32 scale per output row (Dettmers et al. 2022).
constexpr double kInt8Bytes = 1.0;
/// bitsandbytes 8-bit optimizer state: 1 byte per value + an fp32 absmax per 2048-value block (Dettmers et al. 2021).
constexpr double kAdam8bitStateBytes = 1.0 + 4.0 / 2048.0;
/// cuBLAS workspace through PyTorch's allocator: default CUBLAS_WORKSPACE_CONFIG ":4096:8" = 8 x 4 MiB.
constexpr std::int64_t kCublasWorkspaceBytes = 32LL << 20;
/// CUDA context + kernel images with lazy module loading (PyTorch 2.x); MEMORY-NOTES: 0.3-1.3 GiB.
constexpr std::int64_t kDefaultCudaContextBytes = 512LL << 20;
/// NCCL's device buffers per communicator (NVIDIA/nccl v2.21.5-1; the same buffer sizes in v2.19.3-1). One P2P
/// connection holds its receive side (a 4 KiB header and the LL 512 KiB + LL128 4.6875 MiB + SIMPLE 4 MiB buffers,
/// init.cc / device.h, rounded up to 2 MiB: 10 MiB) and its send side (2 MiB) (transport/p2p.cc); each collective
/// channel connects ring and tree at init, two such pairs per rank (init.cc ncclTransportRingConnect /
/// TreeConnect). 24 channels over NVLink (logged on 8 x H100 and 2-4 x A100), 2 over PCIe.
constexpr double kNcclConnectionPairBytes = 12.0 * 1024 * 1024;
constexpr double kNcclNvlinkChannels = 24;
constexpr double kNcclPcieChannels = 2;
/// NVLink SHARP (transport/nvls.cc v2.21.5-1 L292-314): per channel of the communicator (comm->nChannels, 24) and per
/// head, 2 x (NVLS_CHUNKSIZE 128 KiB x NCCL_STEPS 8 + a 2 MiB aligned head), a head per GPU of the node; only with more
/// than two GPUs in it.
constexpr double kNcclNvlsBytesPerChannelAndHead = 2.0 * (128.0 * 1024 * 8 + 2.0 * 1024 * 1024);
/// Caching-allocator slack over the allocated peak (block rounding, split tails): ~5% (MEMORY-NOTES, one GPU).
constexpr double kAllocatorSlack = 0.05;
/// FSDP keeps two units gathered: the one computing and the one prefetched (FSDP1 limit_all_gathers allows two in
/// flight, _limiter_utils._FreeEventQueue; FSDP2 prefetches one group ahead).
constexpr double kFsdpGatheredUnits = 2.0;
/// DeepSpeedZeroConfig.stage3_param_persistence_threshold default (elements): smaller parameters are never
/// partitioned. transformers' "auto" (10 x hidden) is smaller than any decoder linear too.
constexpr double kZeroPersistenceThreshold = 1e5;
/// Activation offload keeps about two layers' saved tensors on the GPU (the one in use and the one in flight).
constexpr double kOffloadLayersInFlight = 2.0;

// ---- Bytes per element by recipe ----

bool isMasterRecipe(Precision p) {
    return p == Precision::Bf16Fp32Master || p == Precision::Fp16Fp32Master;
}
bool isAmp(Precision p) {
    return p == Precision::AmpBf16 || p == Precision::AmpFp16;
}
/// Bytes of the tensors a step computes with: 4 only for fp32, 2 for every 16-bit recipe (AMP included).
double computeBytes(Precision p) {
    return p == Precision::Fp32 ? 4.0 : 2.0;
}
/// Bytes of a stored parameter: fp32 for fp32, AMP and FSDP mixed precision (the fp32 shard), 16-bit otherwise.
double parameterBytes(Precision p) {
    return (p == Precision::Fp32 || isAmp(p) || p == Precision::FsdpMixedBf16) ? 4.0 : 2.0;
}
/// Bytes of the residual stream: fp32 under AMP (fp32 + bf16 adds to fp32) and fp32 training.
double residualBytes(Precision p) {
    return (p == Precision::Fp32 || isAmp(p)) ? 4.0 : 2.0;
}
/// Bytes of a parameter gathered for compute: FSDP mixed precision gathers in bf16, everything else as stored.
double gatheredBytes(Precision p) {
    return p == Precision::FsdpMixedBf16 ? 2.0 : parameterBytes(p);
}

double adapterBytes(const Scenario& s, const FrameworkProfile& prof) {
    return detail::adapterStorageBytes(s, prof);
}

double quantConstantsPerWeight(Quantization q, std::int64_t inFeatures) {
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
double quantDataPerWeight(Quantization q) {
    return q == Quantization::Int8 ? kInt8Bytes : kNf4Bytes;
}

bool contains(const std::vector<LinearRole>& roles, LinearRole r) {
    return std::find(roles.begin(), roles.end(), r) != roles.end();
}

std::int64_t toBytes(double v) {
    return static_cast<std::int64_t>(std::llround(std::max(0.0, v)));
}

/// Linear layers that share one input tensor: {q,k,v}, {o}, {gate,up}, {down}.
enum class InputGroup { Qkv, O, GateUp, Down };
InputGroup inputGroupOf(LinearRole r) {
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

Context makeContext(const Scenario& s, const FrameworkProfile& prof) {
    Context ctx{s, prof, s.model, linearGroups(s.model), {}};
    ctx.params = countParams(s.model, ctx.groups);
    ctx.c = computeBytes(s.precision);
    ctx.resid = residualBytes(s.precision);
    ctx.paramB = parameterBytes(s.precision);
    ctx.gatherB = gatheredBytes(s.precision);
    ctx.full = s.method == Method::Full;
    ctx.quantized = s.method == Method::Qlora;
    if (freezesLayers(s)) {
        ctx.trainLayerShare = static_cast<double>(s.trainableLayers) / static_cast<double>(s.model.numLayers);
    }
    ctx.tp = static_cast<double>(s.tensorParallel);
    ctx.pp = static_cast<double>(s.pipelineParallel);
    ctx.dp = static_cast<double>(std::max<std::int64_t>(1, s.gpus / (s.tensorParallel * s.pipelineParallel)));
    ctx.modelShare = 1.0 / (ctx.tp * ctx.pp);
    ctx.cp = static_cast<double>(std::max<std::int64_t>(1, s.contextParallel));
    ctx.engine = prof.engine;
    ctx.stage = static_cast<int>(s.sharding);
    // DeepSpeed runs optimizer offload under ZeRO-1/2/3 and parameter offload under ZeRO-3 only; offload named without
    // a stage runs under ZeRO-2, as DeepSpeed's ZeRO-Offload tutorial configures it.
    if (s.offload == Offload::Optimizer && ctx.engine == ShardingEngine::Deepspeed && ctx.stage == 0) {
        ctx.stage = 2;
    } else if (s.offload == Offload::OptimizerAndParams) {
        ctx.stage = 3;
    }
    return ctx;
}

// ---- Stage 1: what trains, what is quantized ----

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

Trainables trainables(const Context& ctx) {
    const Scenario& s = ctx.s;
    Trainables t;
    t.adapterB = adapterBytes(s, ctx.prof);
    const double r = static_cast<double>(s.lora.rank);
    double maxIn = 0;
    double maxOut = 0;
    for (const auto& g : ctx.groups) {
        const double in = static_cast<double>(g.inFeatures);
        const double out = static_cast<double>(g.outFeatures);
        const double count = static_cast<double>(g.count);
        t.adafactorFullElems += count * (in + out);
        t.largestLayerTensor = std::max(t.largestLayerTensor, in * out);
        if (g.routedExpert) {
            t.routedWeights += count * in * out;
        }
        if (ctx.adapted(g.role)) {
            const detail::AdapterOnLinear a =
                detail::adapterOnLinear(ctx.kind(), g.role, r, in, out, false); // parameters only
            t.adapters += count * a.trainable;
            t.frozenAdapters += count * a.frozen;
            t.routedAdapters += g.routedExpert ? count * a.trainable : 0.0;
            t.largestAdapter = std::max(t.largestAdapter, a.largest);
            t.adafactorAdapterElems += count * a.adafactorElems;
            maxIn = std::max(maxIn, in);
            maxOut = std::max(maxOut, out);
        }
        if (ctx.quantizedRole(g.role)) {
            t.quantizedData += count * in * out * quantDataPerWeight(s.quantization);
            t.quantConstants += count * in * out * quantConstantsPerWeight(s.quantization, g.inFeatures);
            t.quantizedCount += count * in * out;
            t.largestQuantized = std::max(t.largestQuantized, in * out);
        }
    }
    if (ctx.quantized && !ctx.prof.quantizesOnlyAdaptedLinears && ctx.arch.vision.present()) {
        // bitsandbytes converts every nn.Linear but lm_head, the vision encoder's and projector's too (transformers
        // quantizers/base.py get_modules_to_not_convert, integrations/bitsandbytes.py _replace_with_bnb_linear
        // @3553f0bc); patch embeddings are convolutions and Gemma 3's projection a bare Parameter, so they stay 16-bit.
        const VisionParams vp = visionParams(ctx.arch.vision, ctx.arch.hiddenSize);
        const double linear =
            static_cast<double>(vp.towerLinear) +
            (ctx.arch.vision.family == VisionFamily::Gemma3 ? 0.0 : static_cast<double>(vp.projectorLinear));
        t.quantizedData += linear * quantDataPerWeight(s.quantization);
        t.quantConstants += linear * quantConstantsPerWeight(s.quantization, ctx.arch.vision.hiddenSize);
        t.quantizedCount += linear;
    }
    if (!ctx.full) {
        const double h = static_cast<double>(ctx.arch.hiddenSize);
        const double v = static_cast<double>(ctx.arch.vocabSize);
        // PEFT LoRA on lm_head (a Linear h -> V) and on embed_tokens (lora_embedding_A r x V, B h x r).
        const int adaptedEnds = (s.lora.lmHead && ctx.arch.causalLmHead ? 1 : 0) + (s.lora.embedding ? 1 : 0);
        t.adapters += adaptedEnds * r * (h + v);
        if (adaptedEnds > 0) {
            t.largestAdapter = std::max(t.largestAdapter, r * v);
        }
        if (s.lora.kind == AdapterKind::Vera) {
            // One shared pair for the model, sized by the largest adapted input and output (vera/model.py _find_dim,
            // _init_vera_A_vera_B), made in the default dtype (fp32) and kept as buffers.
            t.frozenAdapters += r * (maxIn + maxOut) * 4.0 / t.adapterB;
        }
        if (s.lora.kind == AdapterKind::LnTuning) {
            // A trainable deep copy of every targeted norm beside the frozen original (ln_tuning/layer.py
            // update_layer; PEFT's Llama targets: input_layernorm, post_attention_layernorm and the final norm).
            const double perNorm = ctx.arch.norm == NormKind::RmsNorm ? h : 2.0 * h; // LayerNorm: weight and bias
            const double norms =
                static_cast<double>(std::max<std::int64_t>(1, ctx.arch.normsPerLayer) * ctx.arch.numLayers) * perNorm +
                static_cast<double>(ctx.params.finalNorm);
            t.adapters += norms;
            t.largestAdapter = std::max(t.largestAdapter, h);
            t.adafactorAdapterElems += norms;
        }
        // modules_to_save copies (a tied lm_head shares the embedding's weight: no second copy).
        const bool headCopy = s.lora.saveLmHead && ctx.arch.causalLmHead && !ctx.arch.tiedEmbeddings;
        t.savedCopies = ((headCopy ? 1 : 0) + (s.lora.saveEmbedding ? 1 : 0)) * v * h;
    }
    return t;
}

// ---- Stage 2: weights, gradients and optimizer states per GPU, after sharding and offload ----

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

/// Optimizer state bytes per trainable parameter for the states themselves (no master copy).
double optimizerStateBytes(const Scenario& s, double stateUnit) {
    switch (s.optimizer) {
    case Optimizer::AdamW:
    case Optimizer::PagedAdamW:
        return 2.0 * stateUnit;
    case Optimizer::AdamW8bit:
    case Optimizer::PagedAdamW8bit:
        return 2.0 * kAdam8bitStateBytes;
    case Optimizer::SgdMomentum:
    case Optimizer::Lion:
        return stateUnit;
    case Optimizer::Sgd:
    case Optimizer::Adafactor:
        return 0.0;
    }
    return 0.0;
}

bool isPaged(Optimizer o) {
    return o == Optimizer::PagedAdamW || o == Optimizer::PagedAdamW8bit;
}

/// The model's states before any sharding or offload (before the tensor x pipeline split too).
struct WholeStates {
    double weights = 0;
    double gradientBytes = 0; // every trainable parameter's gradient, in its parameter dtype
    double gradients = 0;     // the gradients as held at the end of backward
    double states = 0;        // the optimizer's own states
    double master = 0;        // the master copy
    double optimizer = 0;     // the states plus the master copy
};

/// Parameters that train under full fine-tuning: the whole model, or the trained layers of a freeze-tuning run
/// (LLaMA-Factory model/adapter.py _setup_freeze_tuning: requires_grad only for the chosen layers' parameters).
double fullyTrained(const Context& ctx) {
    if (!ctx.freezes()) {
        // A vision-language model's frozen encoder or projector keeps requires_grad off.
        return static_cast<double>(ctx.params.total) -
               (visionTowerTrains(ctx.s) ? 0.0 : static_cast<double>(ctx.params.visionTower)) -
               (projectorTrains(ctx.s) ? 0.0 : static_cast<double>(ctx.params.visionProjector));
    }
    return static_cast<double>(ctx.params.layerLinear + ctx.params.layerOther) * ctx.trainLayerShare;
}

/// Bytes of a trained parameter under full fine-tuning: the precision's, or fp32 for freeze tuning's upcast layers.
double fullTrainB(const Context& ctx) {
    return (ctx.freezes() && ctx.s.trainableLayersFp32) ? 4.0 : ctx.paramB;
}

/// Trainable groups: the whole model (full), or adapters plus modules_to_save copies.
void trainableGroups(const Context& ctx, const Trainables& t, ModelStates& m) {
    const ModelArch& arch = ctx.arch;
    const double h = static_cast<double>(arch.hiddenSize);
    m.trainable = ctx.full ? fullyTrained(ctx) : t.adapters + t.savedCopies;
    m.trainB = ctx.full ? fullTrainB(ctx) : (t.adapters > 0 ? t.adapterB : ctx.paramB);
    m.largestTrainable =
        ctx.full ? (ctx.freezes() ? t.largestLayerTensor : static_cast<double>(ctx.params.largestTensor))
                 : std::max(t.largestAdapter, t.savedCopies > 0 ? static_cast<double>(arch.vocabSize) * h : 0.0);
}

/// Every trainable parameter's gradient in its parameter dtype, whole model.
double gradientBytes(const Context& ctx, const Trainables& t) {
    const double fullB = fullTrainB(ctx);
    return ctx.full ? fullyTrained(ctx) * fullB : t.adapters * t.adapterB + t.savedCopies * ctx.paramB;
}

/// The gradients as held at the end of backward, whole model (one tensor's worth when the optimizer steps in
/// backward).
double heldGradientBytes(const Context& ctx, const ModelStates& m, double gradBytesWhole) {
    // Megatron's DDP accumulates and reduces fp32 main gradients for 16-bit parameters (param_and_grad_buffer.py).
    const double gradB = (ctx.prof.fp32MainGradients && ctx.full) ? 4.0 : -1.0;
    return (ctx.s.optimizerInBackward ? m.largestTrainable * m.trainB
                                      : (gradB > 0 ? m.trainable * gradB : gradBytesWhole));
}

/// Weights: the whole model before sharding.
double wholeWeights(const Context& ctx, const Trainables& t) {
    const Scenario& s = ctx.s;
    const double total = static_cast<double>(ctx.params.total);
    double weights = 0;
    if (s.method == Method::Full) {
        weights = total * ctx.paramB + fullyTrained(ctx) * (fullTrainB(ctx) - ctx.paramB);
    } else if (s.method == Method::Lora) {
        weights = total * ctx.paramB + (t.adapters + t.frozenAdapters) * t.adapterB + t.savedCopies * ctx.paramB;
    } else {
        const double restB = ctx.prof.kbitUpcastsNonQuantized ? 4.0 : ctx.c;
        weights = t.quantizedData + t.quantConstants + (total - t.quantizedCount) * restB +
                  (t.adapters + t.frozenAdapters) * t.adapterB + t.savedCopies * restB;
    }
    return weights;
}

/// Bytes per master-copy value for parameters stored in `bytes`: fp32 where the recipe keeps a master copy; bf16 for
/// DeepSpeed's bf16 master, a copy of the partition under ZeRO-1/2 (stage_1_and_2.py:492-493 .clone().to(master
/// dtype)), the 16-bit partition itself under ZeRO-3 where it lives on the optimizer's device (stage3.py:1112-1117;
/// with offload the optimizer runs on the CPU and takes a copy, :1120) @edaa7221.
double masterBytesFor(const Scenario& s, double bytes) {
    if (s.precision == Precision::Bf16Bf16Master) {
        const bool aliased = s.sharding == Sharding::Zero3 && s.offload == Offload::None;
        return bytes < 4.0 && !aliased ? 2.0 : 0.0;
    }
    return (isMasterRecipe(s.precision) && bytes < 4.0) ? 4.0 : 0.0;
}
/// Bytes per optimizer state value for parameters stored in `bytes`: fp32 beside an fp32 master copy, else their
/// dtype (FusedAdam's zeros_like(p.data) on a bf16 master: bf16 states, fused_adam.py:155-157).
double stateUnitFor(const Scenario& s, double bytes) {
    if (s.precision == Precision::Bf16Bf16Master) {
        return bytes;
    }
    return (masterBytesFor(s, bytes) > 0 || bytes >= 4.0) ? 4.0 : bytes;
}

/// The optimizer's own states for the whole model (no master copy).
double wholeOptimizerStates(const Context& ctx, const Trainables& t, const ModelStates& m) {
    const Scenario& s = ctx.s;
    const double h = static_cast<double>(ctx.arch.hiddenSize);
    double states = 0;
    if (s.optimizer == Optimizer::Adafactor) {
        // Factored second moment: a row and a column vector per matrix; vectors keep a full state (no momentum).
        // transformers' Adafactor makes its states from the fp32 gradient, so they are fp32 whatever the weights.
        const double embeddings = static_cast<double>(ctx.params.embedding + ctx.params.lmHead) / std::max(1.0, h);
        const double elems =
            ctx.freezes() ? (t.adafactorFullElems + static_cast<double>(ctx.params.layerOther)) * ctx.trainLayerShare
            : ctx.full    ? t.adafactorFullElems + embeddings + h +
                             static_cast<double>(ctx.params.layerOther + ctx.params.finalNorm)
                       : t.adafactorAdapterElems + t.savedCopies / std::max(1.0, h) * 2.0;
        states = elems * 4.0;
    } else if (ctx.full) {
        states = fullyTrained(ctx) * optimizerStateBytes(s, m.stateUnit);
    } else {
        states = t.adapters * optimizerStateBytes(s, stateUnitFor(s, t.adapterB)) +
                 t.savedCopies * optimizerStateBytes(s, stateUnitFor(s, ctx.paramB));
    }
    return states;
}

/// The master copy of the trainable parameters, whole model (0 where the recipe keeps none).
double wholeMasterCopy(const Context& ctx, const Trainables& t) {
    const Scenario& s = ctx.s;
    const double fullB = fullTrainB(ctx);
    return ctx.full ? fullyTrained(ctx) * masterBytesFor(s, fullB)
                    : t.adapters * masterBytesFor(s, t.adapterB) + t.savedCopies * masterBytesFor(s, ctx.paramB);
}

/// How many ways ZeRO / FSDP divides each component over the data-parallel ranks.
struct ShardDegrees {
    double weights = 1.0;
    double gradients = 1.0;
    double states = 1.0;
};

// Sharding (Rajbhandari et al. 2020): ZeRO-1 states, ZeRO-2 + gradients, ZeRO-3 / FSDP full shard + weights.
ShardDegrees shardDegrees(const Context& ctx) {
    const double dp = ctx.dp;
    const int stage = ctx.stage;
    const bool megatron = ctx.engine == ShardingEngine::Megatron;
    ShardDegrees shard;
    shard.weights = stage >= 3 ? dp : 1.0;
    shard.gradients = (stage >= 2 && !megatron) ? dp : 1.0; // Megatron's distributed optimizer keeps grads
    shard.states = stage >= 1 ? dp : 1.0;
    return shard;
}

/// Quantization constants that every rank keeps whole (not divided by weight sharding).
double constantsOnEveryRank(const Context& ctx, const Trainables& t) {
    // bitsandbytes keeps QuantState on every rank; torchao NF4 shards it with the data.
    return ctx.prof.quantStateSharded ? 0.0 : t.quantConstants;
}

/// Each component's per-GPU share: sharded over the data-parallel ranks, split over tensor x pipeline ranks.
void shardStates(const Context& ctx, const Trainables& t, const WholeStates& whole, const ShardDegrees& shard,
                 ModelStates& m) {
    const Scenario& s = ctx.s;
    const double dp = ctx.dp;
    const double share = ctx.modelShare;
    const int stage = ctx.stage;
    m.quantConstantsUnsharded = t.quantConstants * share;
    const double unshardedConstants = constantsOnEveryRank(ctx, t);
    m.weights = ((whole.weights - unshardedConstants) / shard.weights + unshardedConstants) * share;
    m.gradients = whole.gradients * share / shard.gradients;
    const bool fsdp1Mixed =
        ctx.engine == ShardingEngine::Fsdp1 && !ctx.full && stage >= 3 && dp > 1 && !ctx.prof.adaptersWrappedSeparately;
    if (fsdp1Mixed) {
        // FSDP1 flat parameters mixing frozen and trainable weights: the flat parameter requires grad, so autograd
        // computes gradients for its frozen members too (_flat_param.py _validate_tensors_to_flatten; the
        // _validate_frozen_params warning); no-sync accumulation keeps them unsharded until the last micro-batch.
        // Only the block units hold adapters: the root unit (embeddings, lm_head) stays frozen and gets none.
        const double blocks = static_cast<double>(ctx.params.layerLinear + ctx.params.layerOther);
        const double flat = (blocks * ctx.paramB + (t.adapters + t.frozenAdapters) * t.adapterB) * share;
        m.gradients = s.gradientAccumulation > 1 ? flat : flat / dp;
    }
    m.optimizerStates = whole.optimizer * share / shard.states;
    m.optimizerMaster = whole.master * share / shard.states;
    m.optimizerWeights = whole.gradientBytes * share / shard.states;
    m.paged = (isPaged(s.optimizer) && s.offload == Offload::None) ? whole.states * share / shard.states : 0.0;
}

/// Expert parallelism: each GPU of an expert-parallel group holds numExperts / ep routed experts. Where ZeRO
/// already divides a component by the data-parallel degree (which ep divides), nothing changes; where it does not,
/// the routed share divides by ep.
void splitRoutedExperts(const Context& ctx, const Trainables& t, const ShardDegrees& shard, ModelStates& m) {
    const double total = static_cast<double>(ctx.params.total);
    const double ep = static_cast<double>(ctx.s.expertParallel);
    auto split = [ep](double fraction) { return (1.0 - fraction) + fraction / ep; };
    const double weightFraction = t.routedWeights / std::max(1.0, total);
    const double trainFraction = ctx.full ? t.routedWeights * ctx.trainLayerShare / std::max(1.0, m.trainable)
                                          : t.routedAdapters / std::max(1.0, m.trainable);
    m.weights *= shard.weights > 1.0 ? 1.0 : split(weightFraction);
    m.gradients *= shard.gradients > 1.0 ? 1.0 : split(trainFraction);
    m.optimizerStates *= shard.states > 1.0 ? 1.0 : split(trainFraction);
    m.optimizerMaster *= shard.states > 1.0 ? 1.0 : split(trainFraction);
    m.optimizerWeights *= shard.states > 1.0 ? 1.0 : split(trainFraction);
    m.paged *= shard.states > 1.0 ? 1.0 : split(trainFraction);
}

/// Offload: where the states (and parameters) go follows the engine.
void offloadStates(const Context& ctx, const Trainables& t, const WholeStates& whole, ModelStates& m) {
    const Scenario& s = ctx.s;
    const double dp = ctx.dp;
    const double share = ctx.modelShare;
    const int stage = ctx.stage;
    const double unshardedConstants = constantsOnEveryRank(ctx, t);
    m.cpuPerGpu += m.optimizerStates;
    m.optimizerStates = 0;
    m.optimizerMaster = 0; // the step runs on the host
    m.optimizerWeights = 0;
    if (ctx.fsdp()) {
        // FSDP CPUOffload(offload_params=True) / FSDP2 CPUOffloadPolicy: sharded parameters and gradients (in the
        // parameter dtype: _flat_param.py _cpu_grad = zeros_like(_local_shard)) live in pinned host memory and
        // the optimizer steps there.
        m.cpuPerGpu += m.weights + whole.gradientBytes * share / dp;
        m.weights = ctx.prof.quantStateSharded ? 0.0 : unshardedConstants * share;
        // FSDP1 keeps each unit's sharded gradient on the GPU (_saved_grad_shard) until the end of backward,
        // when _finalize_params points .grad at the CPU copy (pytorch#106029); FSDP2 copies each to the host.
        m.gradients = ctx.engine == ShardingEngine::Fsdp1 ? whole.gradients * share / dp : 0.0;
    } else {
        // DeepSpeed ZeRO-Offload: fp32 master, fp32 gradients and Adam states on the host (stage_1_and_2.py,
        // stage3.py with offload_optimizer). ZeRO-1 keeps every 16-bit gradient until after backward; ZeRO-2/3
        // stream them through the reduce bucket (the bucket counts in the transients).
        m.cpuPerGpu += m.trainable * 4.0 * share / dp;
        m.gradients = stage <= 1 ? whole.gradients * share : 0.0;
        // temp_grad_buffer_for_gpu_offload: the largest parameter in 16 bits, made when ZeRO-1/2 offload is set up
        // (stage_1_and_2.py:591-593 @edaa7221).
        m.offloadGradientBuffers = stage <= 2 ? m.largestTrainable * m.trainB : 0.0;
        if (s.offload == Offload::OptimizerAndParams) {
            // ZeRO-Infinity parameter offload: only persistent small parameters stay (counted with the
            // working set).
            m.cpuPerGpu += m.weights;
            m.weights = 0;
        }
    }
}

ModelStates modelStates(const Context& ctx, const Trainables& t) {
    const Scenario& s = ctx.s;
    const ModelArch& arch = ctx.arch;
    const double h = static_cast<double>(arch.hiddenSize);
    const double share = ctx.modelShare;
    ModelStates m;
    trainableGroups(ctx, t, m);
    WholeStates whole;
    whole.gradientBytes = gradientBytes(ctx, t);
    whole.gradients = heldGradientBytes(ctx, m, whole.gradientBytes);
    whole.weights = wholeWeights(ctx, t);
    // The reference model is prepared as the policy is (accelerate, DeepSpeed ZeRO-3 or FSDP: dpo_trainer.py
    // L930-936 @f2cd5771), so it shards as the weights do.
    // TRL's PPOTrainer prepares its reference with DeepSpeed only; otherwise it is moved whole to each GPU
    // (ppo_trainer.py L555-568 @f2cd5771): under FSDP it is not sharded.
    const double reference = keepsReferenceCopy(s) ? static_cast<double>(ctx.params.total) * ctx.paramB : 0.0;
    const bool wholeReference = s.runKind == RunKind::Ppo && ctx.fsdp();
    if (!wholeReference) {
        whole.weights += reference;
    }

    // Optimizer states: a master copy where the recipe keeps one, and the optimizer's own states.
    m.masterB = masterBytesFor(s, m.trainB);
    m.stateUnit = stateUnitFor(s, m.trainB); // torch keeps states in the parameter dtype
    whole.states = wholeOptimizerStates(ctx, t, m);
    whole.master = wholeMasterCopy(ctx, t);
    whole.optimizer = whole.states + whole.master;

    const ShardDegrees shard = shardDegrees(ctx);
    shardStates(ctx, t, whole, shard, m);
    if (s.expertParallel > 1) {
        splitRoutedExperts(ctx, t, shard, m);
    }
    m.headGradientUnsharded = (ctx.full && !ctx.freezes() && arch.causalLmHead)
                                  ? static_cast<double>(arch.vocabSize) * h * m.trainB * share
                                  : (s.lora.saveLmHead && arch.causalLmHead && !ctx.full
                                         ? static_cast<double>(arch.vocabSize) * h * ctx.paramB * share
                                         : 0.0);
    if (s.offload != Offload::None) {
        offloadStates(ctx, t, whole, m);
    }
    m.referenceWeights = wholeReference      ? reference * ctx.modelShare
                         : whole.weights > 0 ? m.weights * reference / whole.weights
                                             : 0.0;
    if (wholeReference) {
        m.weights += m.referenceWeights;
    }
    return m;
}

// ---- Stage 3: activations saved for backward ----

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

LayerWidths layerWidths(const Context& ctx) {
    const auto& arch = ctx.arch;
    const double h = static_cast<double>(arch.hiddenSize);
    const double a = static_cast<double>(arch.numHeads);
    const double kv = static_cast<double>(arch.numKvHeads > 0 ? arch.numKvHeads : arch.numHeads);
    const double d = static_cast<double>(arch.effectiveHeadDim());
    const double L = static_cast<double>(arch.numLayers);
    const bool mla = arch.isMla();
    const double qDim = mla ? a * static_cast<double>(arch.mla.qkNopeHeadDim + arch.mla.qkRopeHeadDim) : a * d;
    const double vDim = mla ? a * static_cast<double>(arch.mla.vHeadDim) : a * d;
    const double moeLayers =
        arch.isMoe() ? L - static_cast<double>(std::clamp<std::int64_t>(arch.moe.firstDenseLayers, 0, arch.numLayers))
                     : 0.0;
    const double moeShare = L > 0 ? moeLayers / L : 0.0;
    const double expertWidth =
        static_cast<double>(arch.moe.expertIntermediate > 0 ? arch.moe.expertIntermediate : arch.intermediateSize);
    const double sharedWidth =
        arch.moe.sharedIntermediate > 0 ? static_cast<double>(arch.moe.sharedIntermediate) : expertWidth;
    // MLP width a token passes through, averaged over layers (routed experts: only the active ones).
    const double denseWidth = static_cast<double>(arch.intermediateSize);
    const double routedPerToken = static_cast<double>(arch.moe.expertsPerToken);
    const double tokenWidth =
        (1.0 - moeShare) * denseWidth +
        moeShare * (routedPerToken * expertWidth + static_cast<double>(arch.moe.sharedExperts) * sharedWidth);
    // Routed experts receive gathered copies of the token's hidden state.
    const double gateUpInputCopies = 1.0 + moeShare * routedPerToken;
    const bool ulysses = ctx.cp > 1.0 && ctx.s.contextParallelKind == ContextParallel::Ulysses;
    return {.h = h,
            .a = a,
            .kv = kv,
            .kvAttention =
                ulysses ? ulyssesKvHeadsPerTpRank(arch, ctx.s.tensorParallel, ctx.s.contextParallel) * ctx.tp : kv,
            .d = d,
            .mla = mla,
            .qDim = qDim,
            .vDim = vDim,
            .moeShare = moeShare,
            .routedPerToken = routedPerToken,
            .tokenWidth = tokenWidth,
            .gateUpInputCopies = gateUpInputCopies};
}

/// What one RMSNorm saves per token: Liger's kernel its input as it comes and an fp32 rstd
/// (LigerRMSNormFunction.forward save_for_backward(X, W, RSTD), ops/rms_norm.py @ead96b61); compile recomputes the
/// upcast from the input; eager the input upcast to fp32.
double rmsNormInputBytes(const Context& ctx, double h) {
    if (ctx.s.ligerRmsNorm) {
        return ctx.resid * h + 4.0;
    }
    return ctx.s.compile ? ctx.resid * h : 4.0 * h;
}

/// What one norm saves of its input per token: RMSNorm as rmsNormInputBytes, LayerNorm its input (fp32 under autocast).
double normInputBytes(const Context& ctx, double h) {
    if (ctx.arch.norm == NormKind::RmsNorm) {
        return rmsNormInputBytes(ctx, h);
    }
    return (isAmp(ctx.s.precision) ? 4.0 : ctx.resid) * h;
}

/// Norm weights train under full fine-tuning and LayerNorm tuning (its trainable copies run in place of the norms).
bool normWeightsTrain(const Context& ctx) {
    return ctx.full || (!ctx.frozenPass && ctx.kind() == AdapterKind::LnTuning);
}

/// Norms: RMSNorm saves its input upcast to fp32; LayerNorm saves its input (fp32 under autocast). The 16-bit
/// normalised output is saved only when the norm weight trains (full fine-tuning), except by Liger's kernel, whose
/// backward computes the weight's gradient from the saved input and rstd. Parallel blocks read one input.
double normActivations(const Context& ctx, double h) {
    const auto& s = ctx.s;
    const auto& arch = ctx.arch;
    const bool rms = arch.norm == NormKind::RmsNorm;
    const double normInput = normInputBytes(ctx, h);
    const double norms = static_cast<double>(std::max<std::int64_t>(1, arch.normsPerLayer));
    const double savedNormInputs = arch.parallelResidual ? 1.0 : norms;
    const bool savesOutput = normWeightsTrain(ctx) && rms && !s.ligerRmsNorm;
    return savedNormInputs * normInput + (savesOutput ? norms * ctx.resid * h : 0.0);
}

/// Whether transformers' SDPA path copies grouped key/value heads out to one per query head (repeat_kv) rather than
/// passing enable_gqa: it does with an attention mask, for head dimensions above 256 (no fused kernel broadcasts
/// them), and before 4.54 (the older TransformersVersion values; Current is read as 4.54 or later) (integrations/
/// sdpa_attention.py use_gqa_in_sdpa @00c238bd; PRs #39412, #46960). A
/// micro-batch of one sample has no padding, and the model drops an all-ones mask unless a sliding window shorter
/// than the sequence needs one (masking_utils.py _ignore_causal_mask_sdpa).
bool sdpaRepeatsKv(const Scenario& s, double headDim) {
    const std::int64_t window = s.model.slidingWindow;
    const bool maskPassed = (s.paddedBatches && sequencesPerMicroBatch(s) > 1.0) || (window > 0 && s.seqLen >= window);
    return maskPassed || headDim > 256.0 || s.transformersVersion != TransformersVersion::Current;
}

/// Attention core: what attention saves of q, k, v and its output, and eager attention's score matrices.
void attentionActivations(const Context& ctx, const LayerWidths& w, ActivationItems& it) {
    const auto& s = ctx.s;
    const auto& arch = ctx.arch;
    const auto& prof = ctx.prof;
    const double c = ctx.c;
    const double a = w.a;
    const double kv = w.kvAttention;
    const double d = w.d;
    const double seq = static_cast<double>(s.seqLen);
    const bool compiled = s.compile;
    const bool mla = w.mla;
    const double qDim = w.qDim;
    const double vDim = w.vDim;
    // transformers' attention code (the stacks that run its models and loss) decides by the mask; the others' own
    // attention code repeats k/v as the profile says.
    const bool expand = !mla && s.attention != Attention::Flash && prof.sdpaExpandsKv && !compiled &&
                        (!prof.lossFromTransformersModel || sdpaRepeatsKv(s, d));
    const double kHeads = (expand || s.attention == Attention::Eager) ? a : kv;
    const double kDim = mla ? qDim : kHeads * d;
    double vStored = mla ? vDim : kHeads * d;
    // A fused qkv projection with multi-head attention hands SDPA v as a view of the projection's output: the whole
    // qkv tensor stays alive (LitGPT CausalSelfAttention; counted with saved_tensors_hooks, docs/memory-model.md §4).
    if (prof.fusedQkvProjection && !mla && kv == a && s.attention != Attention::Eager) {
        vStored = (a + 2.0 * kv) * d;
    }
    if (s.attention == Attention::Eager) {
        // matmul(q, k^T) saves q and k; matmul(probs, v) saves probs and v; softmax saves its fp32 output.
        it.attention = c * (qDim + kDim + vStored);
        it.attentionScores = (c >= 4.0 ? 4.0 : 4.0 + c) * a * seq;
        if (arch.attentionDropout > 0) {
            it.attentionScores += (c + 1.0) * a * seq; // dropped probabilities + 1-byte mask
        }
        if (arch.attentionLogitSoftcap > 0) {
            it.attentionScores += c * a * seq; // tanh output saved by the soft-capping (Gemma-2 eager)
        }
    } else {
        // SDPA/flash save q, k, v, the output and an fp32 logsumexp per head.
        it.attention = c * (qDim + kDim + vStored + vDim) + 4.0 * a;
    }
}

/// Whether the first adapter matmul trains on the linear's input, so autograd saves that input: lora_A does (LoRA,
/// DoRA); LoRA-FA's frozen lora_A and VeRA's frozen vera_A do not; IA3 saves its own copy (counted with the adapters).
bool adapterTrainsOnInput(const Context& ctx) {
    return ctx.kind() == AdapterKind::Lora || ctx.kind() == AdapterKind::Dora;
}

/// lora_A trains on its own copy of the input rather than the layer's: PEFT's Linear.forward casts x to lora_A's dtype
/// in every adapted module (x = self._cast_input_dtype(x, lora_A.weight.dtype), tuners/lora/layer.py), so fp32
/// adapters over 16-bit activations save one fp32 copy per module; under autocast lora_A's matmul saves its own 16-bit
/// cast of the fp32 input. Without dropout that copy is what lora_A saves (with dropout, the dropout's output is).
bool loraSavesOwnInputCopy(const Context& ctx) {
    return adapterTrainsOnInput(ctx) && (isAmp(ctx.s.precision) || adapterBytes(ctx.s, ctx.prof) != ctx.c);
}

/// Per token, what the attention half and the MLP half of a decoder layer save (TiledMLP keeps the MLP's apart).
struct Halves {
    double attention = 0;
    double mlp = 0;
    double down = 0; ///< of `mlp`, the down projection's input (linear inputs only)
    double& of(InputGroup g) { return (g == InputGroup::GateUp || g == InputGroup::Down) ? mlp : attention; }
};

/// Linear inputs: a linear saves its input when its weight trains, when a LoRA adapter without dropout
/// reads it, or when a bitsandbytes 4-bit matmul wraps it. Inputs are shared within a group.
Halves linearInputActivations(const Context& ctx, const LayerWidths& w) {
    const auto& s = ctx.s;
    const auto& prof = ctx.prof;
    const double c = ctx.c;
    const bool loraDropout = !ctx.full && s.lora.dropout > 0.0;
    // Under DeepSpeed ZeRO-3's zero.Init every 16-bit linear runs LinearFunctionForZeroStage3, which saves its input.
    const bool zero3Wrapper = ctx.engine == ShardingEngine::Deepspeed && ctx.stage >= 3 && prof.zero3LinearSavesInput;
    // Autocast casts an fp32 input to 16 bit in each linear that reads it (it caches only weight casts), and a
    // training weight's matmul saves that cast: q, k and v (gate and up) each save a copy of the norm's fp32 output.
    // The attention output and the MLP product are already 16-bit. Inductor folds the casts into one (compile).
    const bool ampCastsEachInput = isAmp(s.precision) && ctx.resid > ctx.c && !s.compile && ctx.full;
    std::array<double, 4> copies{1.0, 1.0, 1.0, 1.0};
    if (ampCastsEachInput) {
        copies[static_cast<std::size_t>(InputGroup::Qkv)] = 0.0;
        copies[static_cast<std::size_t>(InputGroup::GateUp)] = 0.0;
        for (const auto& lg : ctx.groups) {
            const InputGroup g = inputGroupOf(lg.role);
            if (!lg.routedExpert && (g == InputGroup::Qkv || g == InputGroup::GateUp)) {
                copies[static_cast<std::size_t>(g)] += 1.0;
            }
        }
    }
    // One pass over the linears: whether anything that reads each input group saves it.
    std::array<bool, 4> saved{};
    for (const auto& lg : ctx.groups) {
        const InputGroup g = inputGroupOf(lg.role);
        const bool readsInputForLora =
            ctx.adapted(lg.role) && !loraDropout && adapterTrainsOnInput(ctx) && !loraSavesOwnInputCopy(ctx);
        const bool bnbSaves = ctx.quantizedRole(lg.role) && prof.quantizedMatmulSavesInput;
        const bool wrapperSaves = zero3Wrapper && !ctx.quantizedRole(lg.role);
        saved[static_cast<std::size_t>(g)] =
            saved[static_cast<std::size_t>(g)] || ctx.full || readsInputForLora || bnbSaves || wrapperSaves;
    }
    // o_proj's input is a view of the attention output that SDPA and flash-attention already save for their backward:
    // their kernels write it in (batch, sequence, head, dim) order, so the transpose's .contiguous() copies nothing
    // (transformers integrations/sdpa_attention.py @00c238bd, torch's _scaled_dot_product_*_attention).
    const bool oInputIsAttentionOutput = s.attention != Attention::Eager;
    Halves linearInputs;
    for (InputGroup g : {InputGroup::Qkv, InputGroup::O, InputGroup::GateUp, InputGroup::Down}) {
        if (g == InputGroup::O && oInputIsAttentionOutput) {
            continue;
        }
        if (saved[static_cast<std::size_t>(g)]) {
            linearInputs.of(g) += std::max(1.0, copies[static_cast<std::size_t>(g)]) * c * w.inputWidth(g);
            linearInputs.down += g == InputGroup::Down ? c * w.inputWidth(g) : 0.0;
        }
    }
    return linearInputs;
}

/// What one adapted module saves per token, by adapter kind (huggingface/peft @5d602fdb). `in` is the width of the
/// input it reads; `ownDropout` whether it runs a dropout of its own.
double adapterSavedPerToken(const Context& ctx, const Trainables& t, const LinearGroup& lg, double in,
                            bool ownDropout) {
    const Scenario& s = ctx.s;
    const double c = ctx.c;
    const double aBytes = t.adapterB;
    const double r = static_cast<double>(s.lora.rank);
    const double out = static_cast<double>(lg.outFeatures);
    // The adapter's matmuls run under autocast in the compute dtype; without it in the adapter dtype.
    const double product = isAmp(s.precision) ? c : aBytes;
    // Dropout saves its 1-byte mask; its output is saved only where the next matmul trains on it (lora_A).
    const double mask = ownDropout ? in : 0.0;
    const double dropoutOutput = ownDropout ? std::max(c, product) * in : 0.0;
    // Without dropout lora_A saves the module's own cast of its input (see loraSavesOwnInputCopy).
    const double inputCopy =
        (s.lora.dropout <= 0.0 && loraSavesOwnInputCopy(ctx)) ? (isAmp(s.precision) ? c : aBytes) * in : 0.0;
    switch (s.lora.kind) {
    case AdapterKind::Lora:
        return inputCopy + dropoutOutput + mask + aBytes * r; // lora_B saves lora_A's output
    case AdapterKind::Dora: {
        // dora.py DoraLinearLayer.forward: (mag_norm_scale - 1) * base_result + mag_norm_scale * lora_result *
        // scaling; the trainable magnitude makes both products save their tensor operand: the base output and
        // the LoRA output. With dropout the base output is recomputed from the input cast to the adapter dtype.
        const double baseOut = (s.lora.dropout > 0.0 && !isAmp(s.precision)) ? aBytes : c;
        return inputCopy + dropoutOutput + mask + aBytes * r + baseOut * out + product * out;
    }
    case AdapterKind::LoraFa:
        return mask + aBytes * r; // lora_A frozen: its input is not saved; lora_B still saves A's output
    case AdapterKind::Vera:
        // lambda_b * F.linear(lambda_d * F.linear(dropout(x), sliced_A), sliced_B): each trainable vector's product
        // saves the matmul output it scales (r wide, then out wide); the frozen slices save no inputs.
        return mask + product * (r + out);
    case AdapterKind::Ia3:
        // Feed-forward modules save x.to(ia3 dtype) for (x * ia3_scaling); the others the base output they scale.
        return detail::ia3ScalesInput(lg.role) ? aBytes * in : c * out;
    case AdapterKind::LnTuning:
        return 0.0;
    }
    return 0.0;
}

/// LoRA: every adapted module has its own dropout (output + 1-byte mask); lora_B saves lora_A's output. A routed
/// expert's adapter runs once per token routed to it: expertsPerToken times per token in MoE layers.
Halves loraActivations(const Context& ctx, const Trainables& t, const LayerWidths& w) {
    const auto& s = ctx.s;
    const auto& arch = ctx.arch;
    const auto& prof = ctx.prof;
    const double c = ctx.c;
    const double h = w.h;
    const double a = w.a;
    const double kv = w.kv;
    const double d = w.d;
    const double moeShare = w.moeShare;
    const double routedPerToken = w.routedPerToken;
    const bool loraDropout = !ctx.full && s.lora.dropout > 0.0;
    Halves lora;
    std::vector<std::pair<LinearRole, bool>> seen;
    for (const auto& lg : ctx.groups) {
        const bool already = std::any_of(
            seen.begin(), seen.end(), [&](const auto& p) { return p.first == lg.role && p.second == lg.routedExpert; });
        if (!ctx.adapted(lg.role) || already) {
            continue;
        }
        const bool sharedDropout = prof.loraSharesQkvDropout && inputGroupOf(lg.role) == InputGroup::Qkv &&
                                   std::any_of(seen.begin(), seen.end(),
                                               [](const auto& p) { return inputGroupOf(p.first) == InputGroup::Qkv; });
        seen.emplace_back(lg.role, lg.routedExpert);
        const double visits =
            lg.routedExpert ? moeShare * routedPerToken
            : (inputGroupOf(lg.role) == InputGroup::GateUp || lg.role == LinearRole::Down) && arch.isMoe()
                ? (1.0 - moeShare) + moeShare * static_cast<double>(arch.moe.sharedExperts > 0)
                : 1.0;
        const InputGroup ig = inputGroupOf(lg.role);
        const double in = ig == InputGroup::GateUp
                              ? h
                              : (ig == InputGroup::Down ? static_cast<double>(lg.inFeatures) : w.inputWidth(ig));
        lora.of(ig) += visits * adapterSavedPerToken(ctx, t, lg, in, loraDropout && !sharedDropout);
    }
    // LoRA on part of a fused qkv projection zero-pads its output into the qkv width: index_copy saves its source
    // (LitGPT LoRAQKVLinear.zero_pad).
    if (prof.fusedQkvProjection && !w.mla) {
        const bool q = ctx.adapted(LinearRole::Q), k = ctx.adapted(LinearRole::K), v = ctx.adapted(LinearRole::V);
        if ((q || k || v) && !(q && k && v)) {
            lora.attention += c * ((q ? a * d : 0.0) + (k ? kv * d : 0.0) + (v ? kv * d : 0.0));
        }
    }
    return lora;
}

/// MLP element-wise tensors: gated saves gate output, activation output, up output (3 x f); compile fuses the
/// activation, and Liger's LigerSiLUMulFunction saves only its two inputs (save_for_backward(a, b), ops/swiglu.py
/// @ead96b61; ops/geglu.py likewise): 2 x f. Plain saves the activation input (1 x f).
double mlpActivations(const Context& ctx, const LayerWidths& w) {
    const bool compiled = ctx.s.compile || ctx.s.ligerGlu;
    const double c = ctx.c;
    const double tokenWidth = w.tokenWidth;
    if (ctx.arch.mlp == MlpKind::Gated) {
        return (compiled ? 2.0 : 3.0) * c * tokenWidth;
    }
    return c * tokenWidth;
}

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

LayerActivations activationItems(const Context& ctx, const Trainables& t) {
    const auto& s = ctx.s;
    const auto& arch = ctx.arch;
    LayerActivations out;
    out.widths = layerWidths(ctx);
    const LayerWidths& w = out.widths;
    ActivationItems& it = out.items;
    it.norms = normActivations(ctx, w.h);
    attentionActivations(ctx, w, it);
    const Halves inputs = linearInputActivations(ctx, w);
    const Halves lora = ctx.full ? Halves{} : loraActivations(ctx, t, w);
    const double mlp = mlpActivations(ctx, w);
    out.untiledMlp = mlp + inputs.mlp + lora.mlp;
    out.downInput = inputs.down;
    if (s.tiledMlp) {
        // TiledMLP saves only its input x; a tile's own tensors are recomputed in backward.
        it.mlp = ctx.resid * w.h; // (x as the layer hands it over: the residual stream's dtype)
        it.linearInputs = inputs.attention;
        it.lora = lora.attention;
    } else {
        it.mlp = mlp;
        it.linearInputs = inputs.attention + inputs.mlp;
        it.lora = lora.attention + lora.mlp;
    }

    // Residual-branch dropout masks (BERT/GPT-2 style), one byte per element, two per layer.
    if (arch.hiddenDropout > 0) {
        it.dropout = 2.0 * w.h;
    }
    if (s.tensorParallel > 1) {
        // Tensor parallel with sequence parallelism splits every saved tensor (Korthikanti et al. §4.2.2).
        const double tp = ctx.tp;
        it.norms /= tp;
        it.linearInputs /= tp;
        it.attention /= tp;
        it.attentionScores /= tp;
        it.mlp /= tp;
        it.lora /= tp;
        it.dropout /= tp;
        out.untiledMlp /= tp;
        out.downInput /= tp;
    }
    return out;
}

double localTokens(const Context& ctx) {
    return tokensPerGpu(ctx.s);
}

/// DeepSpeed's TiledMLP (deepspeed/runtime/sequence_parallel/ulysses_sp.py TiledMLP @edaa7221, ArcticTraining's
/// tiled_mlp_compute): backward preallocates the input's gradient whole (x_grad = zeros_like(x)) and recomputes the
/// MLP one tile at a time with autograd, so one tile's saved tensors live beside it. num_shards="auto" makes
/// ceil(seqlen / hidden) tiles: a tile holds about `hidden` tokens of each sequence whatever its length.
double tiledMlpWorkingSet(const Context& ctx, double untiledMlp) {
    const Scenario& s = ctx.s;
    if (!s.tiledMlp) {
        return 0.0;
    }
    const double h = static_cast<double>(ctx.arch.hiddenSize);
    const double seqLocal = static_cast<double>(s.seqLen) / ctx.cp;
    const double tiles = std::ceil(seqLocal / h);
    const double tileTokens = sequencesPerMicroBatch(s) * std::ceil(seqLocal / tiles);
    return tileTokens * untiledMlp + ctx.resid * h * localTokens(ctx) / ctx.tp; // x_grad = zeros_like(x)
}

/// What a decoder layer's backward adds to its saved tensors (autograd frees a node's saved tensors once its backward
/// has run, and the MLP runs backward before the attention): the gradient of the layer's output in the residual
/// stream throughout; in the MLP's backward TiledMLP's tile and x_grad; in the attention's, once the MLP's saved
/// tensors are freed, the output's gradient and what FlashAttention-2's mha_bwd allocates — dq, dk, dv, with
/// grouped key/value heads dk and dv expanded to every head, an fp32 dq accumulator and an fp32 softmax_d per head
/// (Dao-AILab/flash-attention csrc/flash_attn/flash_api.cpp @00979f57; PyTorch's flash SDPA backend is its port).
/// The MLP's own gradient temporaries and eager attention's score gradients are not itemised.
double layerBackwardWorkingSet(const Context& ctx, const LayerActivations& layer, double tiledMlp) {
    const Scenario& s = ctx.s;
    const LayerWidths& w = layer.widths;
    const double tokens = localTokens(ctx);
    const double residualGradient = ctx.resid * w.h * tokens / ctx.tp;
    double attentionPhase = 0;
    if (s.attention != Attention::Eager) {
        const double kvWidth = w.mla ? w.qDim + w.vDim : 2.0 * w.kvAttention * w.d; // k and v over their heads
        const double expanded = (!w.mla && w.kvAttention < w.a) ? w.qDim + w.a * w.d : 0.0;
        const double kernel = ctx.c * (w.qDim + kvWidth + expanded) + 4.0 * w.qDim + 4.0 * w.a;
        const double outputGradient = ctx.c * (w.mla ? w.vDim : w.a * w.d);
        const double mlpFreed = s.tiledMlp ? ctx.resid * w.h / ctx.tp : layer.untiledMlp;
        attentionPhase = std::max(0.0, (kernel + outputGradient) / ctx.tp - mlpFreed) * tokens;
    }
    // The untiled MLP's own backward: down's input gradient (f wide), then the gated product's two operand gradients
    // beside it (autograd runs the product's backward while down's gradient is alive), once down's saved input is
    // freed; Liger's SwiGLU writes them into its saved gate and up outputs (ops/swiglu.py swiglu_backward); a plain
    // MLP's activation has one operand.
    double mlpPhase = tiledMlp;
    if (!s.tiledMlp) {
        const double f = w.tokenWidth / ctx.tp;
        const double gradients = ctx.arch.mlp == MlpKind::Gated ? (s.ligerGlu ? 1.0 : 3.0) : 2.0;
        mlpPhase = std::max(0.0, gradients * ctx.c * f - layer.downInput) * tokens;
    }
    return residualGradient + std::max(mlpPhase, attentionPhase);
}

/// torchtitan's op-level selective AC (_op_sac_save_list; _get_custom_policy saves every second aten.mm, counting
/// from the first): per token per layer the block input, the outputs of wq, wv, w1 and w2, SDPA's output and its
/// fp32 logsumexp. The matmuls run wq wk wv wo w1 w3 w2 (torchtitan models/llama3/model.py).
double opLevelSelectivePerToken(const Context& ctx) {
    const auto& arch = ctx.arch;
    const double c = ctx.c;
    const double h = static_cast<double>(arch.hiddenSize);
    const double a = static_cast<double>(arch.numHeads);
    const double kv = static_cast<double>(arch.numKvHeads > 0 ? arch.numKvHeads : arch.numHeads);
    const double d = static_cast<double>(arch.effectiveHeadDim());
    const double f = static_cast<double>(arch.intermediateSize);
    // Matmul outputs in call order; the odd-numbered ones (1st, 3rd, ...) are saved.
    std::vector<double> outputs{a * d, kv * d, kv * d, h};
    if (arch.mlp == MlpKind::Gated) {
        outputs.insert(outputs.end(), {f, f, h});
    } else {
        outputs.insert(outputs.end(), {f, h});
    }
    double saved = ctx.resid * h; // region input
    saved += c * a * d + 4.0 * a; // SDPA output and logsumexp (in the save list)
    for (std::size_t i = 0; i < outputs.size(); i += 2) {
        saved += c * outputs[i];
    }
    return saved / ctx.tp;
}

struct StoredActivations {
    double layers = 0;      // the decoder layers' stored tensors (one micro-batch's, or L layers' worth under 1F1B)
    double final = 0;       // after the last layer: final norm input, lm_head input
    double atLoss = 0;      // every stored layer's tensors and the final norm's input, at the loss
    double lastLayer = 0;   // one layer's full set (its backward, or its recomputation)
    double recompute = 0;   // checkpointed: stored inputs plus the last layer recomputed
    double cpu = 0;         // activation offload: what went to host memory
    double vision = 0;      // a vision-language model's encoder and projector, held until their backward (the last)
    double tokens = 0;      // tokens per micro-batch
    LayerActivations layer; // one layer's items per token, its widths, its MLP half
};

/// What a layer that is not checkpointed keeps per token: everything, or what the selective policy saves.
double keptPerToken(const Context& ctx, const ActivationItems& items) {
    const double perLayer = items.total();
    if (ctx.s.checkpointing != Checkpointing::Selective) {
        return perLayer;
    }
    if (ctx.prof.selectivePolicy == SelectivePolicy::OpLevel) {
        return std::min(perLayer, opLevelSelectivePerToken(ctx));
    }
    // Megatron / Korthikanti "selective" recomputes the attention core only: nothing with flash/SDPA.
    return perLayer - items.attentionScores;
}

/// Behind a frozen embedding nothing that reaches the first layer requires grad, so its input norm (a frozen weight
/// under an adapter method) records no autograd node and saves nothing. Only without checkpointing: over a model with
/// checkpointing on, PeftModel.__init__ calls _prepare_model_for_gradient_checkpointing, whose
/// enable_input_require_grads hook makes the embedding's output require grad (peft_model.py @5d602fdb).
bool firstNormBehindFrozenEmbedding(const Context& ctx, bool firstLayerKeepsEverything) {
    const auto& lora = ctx.s.lora;
    const bool embeddingTrains = lora.embedding || lora.saveEmbedding || (lora.saveLmHead && ctx.arch.tiedEmbeddings);
    return !ctx.full && !embeddingTrains && ctx.kind() != AdapterKind::LnTuning && firstLayerKeepsEverything;
}

/// What the images of one micro-batch save on a GPU: the encoder's blocks where it trains (checkpointed with the
/// language model: transformers' gradient_checkpointing_enable reaches the vision blocks too), the projector's tensors
/// where anything behind the language model trains. A frozen encoder with a frozen projector records no autograd
/// graph (pixel_values require no gradient). Each sequence carries its example's images (a pair's two sequences both).
double visionActivations(const Context& ctx) {
    const Scenario& s = ctx.s;
    if (!hasImages(s)) {
        return 0.0;
    }
    const VisionShape& v = ctx.arch.vision;
    const ImageTokens image = scenarioImage(s);
    const double images = sequencesPerMicroBatch(s) * static_cast<double>(s.imagesPerSample);
    // transformers checkpoints every block it can (gradient_checkpointing_enable): full checkpointing's rule.
    const bool checkpointed = s.checkpointing == Checkpointing::Full || s.checkpointing == Checkpointing::Auto;
    double perImage = 0;
    if (visionTowerTrains(s)) {
        perImage += visionTowerSavedBytes(v, image, ctx.c, checkpointed, s.attention == Attention::Eager);
    }
    if (visionTowerTrains(s) || projectorTrains(s)) {
        perImage += visionProjectorSavedBytes(v, ctx.arch.hiddenSize, image, ctx.c);
    }
    return images * perImage;
}

StoredActivations storedActivations(const Context& ctx, const Trainables& t) {
    const Scenario& s = ctx.s;
    const auto& arch = ctx.arch;
    StoredActivations out;
    out.layer = activationItems(ctx, t);
    const double T = localTokens(ctx);
    out.tokens = T;
    const double L = static_cast<double>(arch.numLayers);
    const double h = static_cast<double>(arch.hiddenSize);
    const double layerInput = ctx.resid * h / ctx.tp;
    const double perLayer = out.layer.items.total();

    // What one layer keeps until backward, per token, and how many layers keep the layer input only.
    double checkpointedLayers = 0;
    switch (s.checkpointing) {
    case Checkpointing::None:
    case Checkpointing::Selective:
        break;
    case Checkpointing::Full:
    case Checkpointing::Auto: // resolved to full before estimate() gets here
        checkpointedLayers = L;
        break;
    case Checkpointing::EveryNth:
        // torchtitan _apply_layer_sac: a block is wrapped when its running count is a multiple of n.
        checkpointedLayers = std::floor(L / static_cast<double>(std::max<std::int64_t>(1, s.checkpointEvery)));
        break;
    }
    const double kept = keptPerToken(ctx, out.layer.items);
    double layersInGraph = L;
    if (ctx.freezes()) {
        // Freeze tuning: nothing below the first trained layer requires grad, so the frozen layers save nothing, and
        // LLaMA-Factory checkpoints only the trained layers (model/model_utils/checkpointing.py
        // get_custom_gradient_checkpointing_func: "Only applies gradient checkpointing to trainable layers"; a
        // frozen layer runs func(*args) plainly).
        layersInGraph = L * ctx.trainLayerShare;
        checkpointedLayers *= ctx.trainLayerShare;
    }
    // Layers per pipeline stage: with 1F1B the first stage holds pp micro-batches of L/pp layers (L layers' worth,
    // Korthikanti §4.2.3); the last stage one micro-batch of L/pp layers (stage memory: see estimate()).
    double storedPerToken = (layersInGraph - checkpointedLayers) * kept + checkpointedLayers * layerInput;
    if (firstNormBehindFrozenEmbedding(ctx, kept == perLayer && checkpointedLayers == 0)) {
        storedPerToken -= normInputBytes(ctx, h) / ctx.tp;
    }
    if (s.activationOffload) {
        const double perLayerStored = storedPerToken / std::max(1.0, L);
        const double onGpu = std::min(L, kOffloadLayersInFlight) * perLayerStored;
        out.cpu = (storedPerToken - onGpu) * T;
        storedPerToken = onGpu;
    }
    out.vision = visionActivations(ctx);
    const double stored = storedPerToken * T + out.vision;
    // After the last layer: the final norm's fp32 input, and lm_head's input when lm_head trains (or carries an
    // adapter without dropout, or Cut Cross-Entropy saves it).
    const bool headReadsInput = (ctx.full && !ctx.freezes()) || s.lora.saveLmHead ||
                                (s.lora.lmHead && s.lora.dropout <= 0.0) || s.loss == Loss::CutCrossEntropy;
    // LayerNorm tuning trains the final norm too: its weight saves the normalised output (as in the layers).
    const bool finalNormSavesOutput =
        !ctx.full && s.lora.kind == AdapterKind::LnTuning && arch.norm == NormKind::RmsNorm && !s.ligerRmsNorm;
    const double finalTokenBytes =
        (arch.norm == NormKind::RmsNorm ? rmsNormInputBytes(ctx, h) : ctx.resid * h) +
        (finalNormSavesOutput ? ctx.resid * h : 0.0) + (headReadsInput && arch.causalLmHead ? ctx.c * h : 0.0) +
        (s.lora.lmHead && !ctx.full
             ? (s.lora.dropout > 0 ? (ctx.c + 1.0) * h : 0.0) + t.adapterB * static_cast<double>(s.lora.rank)
             : 0.0);
    out.layers = stored;
    out.final = finalTokenBytes * T;
    out.atLoss = stored + out.final;
    out.lastLayer = perLayer * T;
    // A checkpointed layer is recomputed in backward with every stored input still held. The loss and lm_head nodes
    // were created after the layers, so autograd runs them (freeing the logits) before it.
    out.recompute = checkpointedLayers > 0 ? stored + out.lastLayer : 0.0;
    return out;
}

// ---- Stage 4: logits and loss ----

struct LossBytes {
    double perElement = 0; // per (token x vocabulary) element
    double total = 0;      // at the loss's peak, per GPU
    // When lm_head's backward runs, after the loss's backward has freed its fp32 tensors: the logits' 16-bit gradient
    // (and the logits where the loop holds them) and the gradient of lm_head's input. Equal to `total` where the
    // loss is not itemised that finely.
    double atHeadBackward = 0;
};

/// Bytes per logit element of a loss that upcasts the 16-bit logits to fp32 and runs cross-entropy on them: the larger
/// of what is alive in its forward and in its backward (docs/memory-model.md §5).
double upcastLossPerElement(const Context& ctx) {
    const Scenario& s = ctx.s;
    const auto& prof = ctx.prof;
    const double c = ctx.c;
    if (c >= 4.0) {
        return 12.0; // fp32 logits, log-softmax output and two fp32 gradients in backward; no separate upcast
    }
    if (s.compile && prof.compileCoversLoss) {
        // Inductor's fused cross-entropy saves the 16-bit logits and a log-sum-exp per token and writes the gradient
        // in 16 bit: no fp32 tensor of logit size (torchtitan components/loss.py build_cross_entropy_loss).
        return 2.0 * c;
    }
    const double held = prof.logitsFreedBeforeBackward ? 0.0 : 1.0;
    // Forward: the 16-bit logits, their fp32 upcast and the fp32 log-softmax output (which cross_entropy saves).
    double forward = c + 4.0 + 4.0;
    // Backward: the saved log-softmax output, nll_loss's gradient and log_softmax's gradient, all fp32; the 16-bit
    // logits too when the loop still holds them.
    double backward = 12.0 + held * c;
    if (prof.lossFromTransformersModel) {
        switch (s.transformersVersion) {
        case TransformersVersion::Current:
            break; // ForCausalLMLoss pads the labels instead of slicing the logits (PR #35646)
        case TransformersVersion::V446To448:
            forward += 4.0; // ForCausalLMLoss: shift_logits = logits[..., :-1, :].contiguous(), an fp32 copy
            break;
        case TransformersVersion::UpTo445:
            // The model's forward returns logits.float() (the 16-bit ones freed), the loss slices a contiguous copy.
            forward = 4.0 + 4.0 + 4.0;
            backward = 12.0 + held * 4.0;
            break;
        }
    }
    return std::max(forward, backward);
}

LossBytes lossBytes(const Context& ctx, double tokens) {
    const Scenario& s = ctx.s;
    const auto& prof = ctx.prof;
    const auto& arch = ctx.arch;
    LossBytes out;
    if (!arch.causalLmHead) {
        return out;
    }
    const double c = ctx.c;
    const double V = static_cast<double>(arch.vocabSize);
    const double h = static_cast<double>(arch.hiddenSize);
    const double elements = tokens * V / ctx.tp;
    switch (s.loss) {
    case Loss::FusedLinear: {
        // Liger LigerFusedLinearCrossEntropyFunction: grad_input (tokens x h) is allocated and filled in forward,
        // chunk by chunk; one chunk of logits (chunk_size = next_pow2(ceil(BT / ceil(V / H))) tokens) at a time, its
        // gradient written in place (fused_linear_cross_entropy.py, Liger PR #406 moved the upcast into the kernel).
        const double incFactor = std::ceil(V / h);
        const double chunkTokens = std::pow(2.0, std::ceil(std::log2(std::max(1.0, std::ceil(tokens / incFactor)))));
        out.total = c * h * tokens / ctx.tp + c * std::min(chunkTokens, tokens) * V / ctx.tp;
        // A trainable lm_head gets grad_weight = zeros_like(weight) in forward (fused_linear_cross_entropy.py L77);
        // with accumulation the weight's .grad from the previous micro-batch lives beside it.
        const bool headTrains = (ctx.full && !ctx.freezes()) || s.lora.saveLmHead;
        if (headTrains && s.gradientAccumulation > 1) {
            out.total += V * h * ctx.gatherB * ctx.modelShare;
        }
        out.perElement = 0;
        out.atHeadBackward = out.total;
        return out;
    }
    case Loss::CutCrossEntropy:
        // Apple CCE linear_cross_entropy: logits never stored; saves e (counted with the activations) and an fp32
        // log-sum-exp per token; backward allocates de (tokens x h) blockwise (cce.py, cce_backward.py).
        out.total = 4.0 * tokens + c * h * tokens / ctx.tp;
        out.perElement = 0;
        out.atHeadBackward = out.total;
        return out;
    case Loss::Standard:
    case Loss::Chunked:
        break;
    }
    const double chunks = std::max(1, prof.lossChunks);
    if (prof.logitsHeldInFp32) {
        // Lightning Fabric converts the output to fp32 and the loop holds it through backward; every chunk's
        // log-softmax output is saved; the backward of one chunk adds its two gradients (counted with
        // saved_tensors_hooks on LitGPT's chunked_cross_entropy; docs/memory-model.md §5).
        const double lb = 4.0;
        const double chunkShare = (s.loss == Loss::Chunked && prof.lossChunkTokens > 0)
                                      ? std::min(1.0, prof.lossChunkTokens * ctx.cp / static_cast<double>(s.seqLen))
                                      : (s.loss == Loss::Chunked ? 1.0 / chunks : 1.0);
        out.perElement = 2.0 * lb + 2.0 * lb * chunkShare;
    } else if (s.loss == Loss::Chunked) {
        if (s.compile || !prof.lossUpcastsLogits) {
            // Compiled (or 16-bit) chunked loss saves only the 16-bit logits. Compiled, inductor fuses the fp32
            // upcast into the loss kernels, so backward writes each chunk's gradient straight in 16-bit.
            out.perElement = c + c / chunks;
        } else {
            // Eager chunked loss: every chunk's fp32 log-softmax output is saved (4 B), the 16-bit logits are alive
            // while it runs, plus one chunk's fp32 upcast.
            out.perElement = c + 4.0 + 4.0 / chunks;
        }
    } else if (!prof.lossUpcastsLogits) {
        out.perElement = 3.0 * c; // logits, log-softmax output and gradient, all in the compute dtype
    } else {
        out.perElement = upcastLossPerElement(ctx);
    }
    if (arch.finalLogitSoftcap > 0 && s.loss == Loss::Standard) {
        out.perElement += c; // Gemma-2 soft-capping: tanh saves its 16-bit output (modeling_gemma2.py)
    }
    if ((s.runKind == RunKind::Orpo || s.runKind == RunKind::Simpo) && s.loss == Loss::Standard) {
        // ORPO's NLL on the chosen half (always; CPO's with cpo_alpha, 1.0 by default): a contiguous copy of the
        // chosen logits and the fp32 log-softmax cross_entropy saves, 8 B per chosen element, 4 B over the pair
        // (orpo_trainer.py L782-803, cpo_trainer.py L841-844 @f2cd5771).
        out.perElement += 4.0;
    }
    out.total = out.perElement * elements;
    out.atHeadBackward = out.total;
    const bool logitsInComputeDtype =
        !(prof.lossFromTransformersModel && s.transformersVersion == TransformersVersion::UpTo445);
    if (s.loss == Loss::Standard && !prof.logitsHeldInFp32 && logitsInComputeDtype) {
        const double held = prof.logitsFreedBeforeBackward ? 0.0 : 1.0;
        out.atHeadBackward = std::min(out.total, (1.0 + held) * c * elements + c * tokens * h / ctx.tp);
    }
    return out;
}

// ---- Stage 5: transients and the allocator ----

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
    double headGradientPerChunk = 0;
    double workspace = static_cast<double>(kCublasWorkspaceBytes);
};

/// Temporaries of one optimizer step beyond the states (torch/optim adam.py, sgd.py; bitsandbytes optimizer.py;
/// transformers optimization.py Adafactor.step; lion-pytorch update_fn).
double optimizerStepTemporaries(const Context& ctx, const ModelStates& m, double stateShard) {
    const Scenario& s = ctx.s;
    if (s.offload != Offload::None || s.optimizerInBackward) {
        return 0.0;
    }
    const double largest = m.largestTrainable * ctx.modelShare;
    switch (s.optimizer) {
    case Optimizer::AdamW:
        switch (ctx.prof.optimizerStep) {
        case OptimizerStepKind::Foreach:
            // _multi_tensor_adamw: exp_avg_sq_sqrt = _foreach_sqrt(...) over the whole group, in the state dtype.
            return m.trainable * m.stateUnit * ctx.modelShare / stateShard;
        case OptimizerStepKind::PerParameter:
            // _single_tensor_adamw: denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt) holds two tensors at once.
            return 2.0 * largest * m.stateUnit;
        case OptimizerStepKind::Fused:
            return 0.0;
        }
        return 0.0;
    case Optimizer::Adafactor:
        // Per parameter: fp32 copies of the gradient and the weight, grad**2 + eps, the factored update (up to
        // 16 B per element for 16-bit parameters, 8 B for fp32) and the previous parameter's update (4 B).
        return (m.trainB >= 4.0 ? 8.0 : 16.0) * largest + 4.0 * largest;
    case Optimizer::Lion:
        return 2.0 * largest * m.stateUnit; // exp_avg.clone() and the out-of-place add
    case Optimizer::Sgd:
    case Optimizer::SgdMomentum:
        // _multi_tensor_sgd updates in place (a grad-sized list only with weight decay or maximize, off by default).
        return 0.0;
    case Optimizer::AdamW8bit:
    case Optimizer::PagedAdamW:
    case Optimizer::PagedAdamW8bit:
        return 0.0; // bitsandbytes: one fused in-place kernel per tensor
    }
    return 0.0;
}

/// Parameter bytes as gathered for compute, per GPU (its tensor x pipeline share).
struct GatherSizes {
    double layerParams = 0;  // one decoder layer's parameters
    double layerBytes = 0;   // one decoder layer's bytes as gathered
    double headBytes = 0;    // the output projection as gathered
    double rootBytes = 0;    // the root unit's embeddings and output projection as gathered
    double quantGatherB = 0; // bytes per quantized weight as gathered (data, and constants where they shard)
};

GatherSizes gatherSizes(const Context& ctx, const Trainables& t) {
    const Scenario& s = ctx.s;
    const auto& arch = ctx.arch;
    const auto& prof = ctx.prof;
    const double h = static_cast<double>(arch.hiddenSize);
    const double L = std::max(1.0, static_cast<double>(arch.numLayers));
    const double share = ctx.modelShare;

    // One decoder layer's bytes as gathered for compute: quantized data where the layer is quantized.
    const double layerParams = static_cast<double>(ctx.params.layerLinear + ctx.params.layerOther) / L * share;
    const double layerQuantized = t.quantizedCount / L * share;
    const double quantGatherB =
        quantDataPerWeight(s.quantization) +
        (prof.quantStateSharded ? quantConstantsPerWeight(s.quantization, arch.hiddenSize) : 0.0);
    // float8 all-gather: FSDP2 gathers the decoder linears' weights in float8 (torchao fsdp_utils.py
    // WeightWithDynamicFloat8CastTensor fsdp_pre_all_gather), the norms in the compute dtype.
    const double float8Gathered =
        (ctx.full && s.float8 == Float8::Tensorwise && s.float8AllGather) ? ctx.groups.denseWeights() / L * share : 0.0;
    const double layerBytes = (layerParams - layerQuantized - float8Gathered) * ctx.gatherB +
                              layerQuantized * quantGatherB + float8Gathered +
                              (t.adapters + t.frozenAdapters) / L * t.adapterB * share;
    const double headBytes = static_cast<double>(arch.vocabSize) * h * share * ctx.gatherB;
    const double rootBytes = static_cast<double>(ctx.params.embedding + ctx.params.lmHead) * share * ctx.gatherB;
    return {.layerParams = layerParams,
            .layerBytes = layerBytes,
            .headBytes = headBytes,
            .rootBytes = rootBytes,
            .quantGatherB = quantGatherB};
}

/// One decoder layer's module calls as DeepSpeed's hooks see them in a transformers model, in forward order.
struct LayerCalls {
    std::array<double, 8 + 5 * kMaxLinearGroups> elements{}; // elements each call gathers; 0: nothing partitioned
    std::size_t count = 0;
    void add(double e) {
        if (count < elements.size()) {
            elements[count++] = e;
        }
    }
};

/// Every module's call fires fetch_sub_module, and with it a prefetch, whether or not the module has partitioned
/// parameters: the layer, attention and MLP containers, the norms (persistent), the rotary embedding and the
/// activation (transformers modeling_llama.py), and PEFT's LoRA wrapper with its dropout and adapters (lora/layer.py
/// Linear.forward). Routed experts of one role count as one call of all their elements; a dense MLP in only some
/// layers is spread over all of them (the average layer).
LayerCalls deepspeedLayerCalls(const Context& ctx, const GatherSizes& sizes) {
    const double L = std::max(1.0, static_cast<double>(ctx.arch.numLayers));
    const double share = ctx.modelShare;
    const double r = static_cast<double>(ctx.s.lora.rank);
    const double quantElements = sizes.quantGatherB / ctx.gatherB; // in elements of the gathered dtype
    // Persistent when ds_numel <= the threshold (parameter_offload.py mark_persistent_parameters).
    auto partitioned = [](double elements) { return elements > kZeroPersistenceThreshold ? elements : 0.0; };
    LayerCalls calls;
    calls.add(0); // the decoder layer
    calls.add(0); // input_layernorm
    calls.add(0); // self_attn
    bool inMlp = false;
    for (const auto& g : ctx.groups) {
        const bool mlp = g.role == LinearRole::Gate || g.role == LinearRole::Up || g.role == LinearRole::Down;
        if (mlp && !inMlp) {
            calls.add(0); // post_attention_layernorm
            calls.add(0); // mlp
            inMlp = true;
        }
        const double in = static_cast<double>(g.inFeatures);
        const double out = static_cast<double>(g.outFeatures);
        const double perLayer = static_cast<double>(g.count) / L * share;
        const double weight = in * out * perLayer * (ctx.quantizedRole(g.role) ? quantElements : 1.0);
        if (ctx.adapted(g.role)) {
            calls.add(0);                               // the LoRA wrapper
            calls.add(partitioned(weight));             // base_layer
            calls.add(0);                               // lora_dropout
            calls.add(partitioned(r * in * perLayer));  // lora_A
            calls.add(partitioned(r * out * perLayer)); // lora_B
        } else {
            calls.add(partitioned(weight));
        }
        if (g.role == LinearRole::V) {
            calls.add(0); // rotary_emb
        } else if (g.role == LinearRole::Gate) {
            calls.add(0); // act_fn
        }
    }
    return calls;
}

/// The parameters ZeRO-3 / FSDP (or parameter offload) keep gathered while the layers compute and at the loss.
void gatheredParameters(const Context& ctx, const GatherSizes& sizes, bool recomputes, Transients& out) {
    const Scenario& s = ctx.s;
    const auto& prof = ctx.prof;
    const double h = static_cast<double>(ctx.arch.hiddenSize);
    const double share = ctx.modelShare;
    const double dp = ctx.dp;
    const double layerBytes = sizes.layerBytes;
    const double headBytes = sizes.headBytes;
    const double rootBytes = sizes.rootBytes;
    const bool zero3 = ctx.stage >= 3 && dp > 1;
    const bool paramOffload = s.offload == Offload::OptimizerAndParams;
    if (zero3 || paramOffload) {
        if (ctx.engine == ShardingEngine::Deepspeed) {
            // DeepSpeed ZeRO-3 gathers each submodule's parameters when its hook fires, prefetches along the recorded
            // trace and keeps what recurs within the reuse distance (ZeroFetch.h); parameters under the persistence
            // threshold stay gathered (mark_persistent_parameters) and count with the weights' persistent part.
            double largestModule = 0;
            for (const auto& g : ctx.groups) {
                largestModule = std::max(largestModule, static_cast<double>(g.inFeatures * g.outFeatures));
            }
            const double persistent = static_cast<double>(ctx.params.layerOther + ctx.params.finalNorm) * share;
            const LayerCalls calls = deepspeedLayerCalls(ctx, sizes);
            const double prefetch = prof.zeroPrefetchBucketElements > 0 ? prof.zeroPrefetchBucketElements : 0.9 * h * h;
            const ZeroGathered gathered =
                zeroGatheredElements({.layerModules = std::span(calls.elements.data(), calls.count),
                                      .layers = static_cast<int>(std::max<std::int64_t>(1, ctx.arch.numLayers)),
                                      .head = headBytes / ctx.gatherB,
                                      .recompute = recomputes},
                                     {.prefetchBucket = prefetch,
                                      .maxReuseDistance = prof.zeroMaxReuseDistance,
                                      .maxLiveParameters = prof.zeroMaxLiveParameters});
            out.gatheredInLayers = (gathered.inBackward + persistent) * ctx.gatherB;
            out.gatheredAtLoss = (gathered.atLoss + persistent) * ctx.gatherB;
            out.gatheredPool = (gathered.most + persistent) * ctx.gatherB;
            out.pendingUnit = largestModule * share * ctx.gatherB;
        } else {
            // FSDP: two units gathered (current and prefetched); at the loss the unit holding lm_head.
            out.gatheredInLayers = kFsdpGatheredUnits * layerBytes;
            out.gatheredAtLoss = std::max(out.gatheredInLayers, layerBytes + headBytes);
            out.pendingUnit = ctx.engine == ShardingEngine::Fsdp1 ? layerBytes : 0.0; // FSDP2: no record_stream
            out.gatheredPool = std::max(out.gatheredInLayers, out.gatheredAtLoss);
        }
    }
    // The root unit's own parameters (embeddings, final norm, output projection) stay gathered from forward to
    // backward: FSDP1 never frees the root's parameters after forward (torch/distributed/fsdp/_runtime_utils.py
    // _post_forward_reshard: "Do not free the root's parameters in the post-forward for FULL_SHARD"); torchtune asks
    // FSDP2 for the same (fully_shard(model, reshard_after_forward=False)).
    const bool rootUnsharded = ctx.engine == ShardingEngine::Fsdp1 || prof.rootUnshardedThroughStep;
    if (rootUnsharded && ctx.fsdp() && (zero3 || paramOffload)) {
        out.gatheredInLayers += rootBytes;
        out.gatheredAtLoss = out.gatheredInLayers + layerBytes;
        out.gatheredPool = out.gatheredAtLoss;
    }
}

/// Gradient communication buffers, and how long they live.
void communicationBuckets(const Context& ctx, const ModelStates& m, double layerParams, Transients& out) {
    const Scenario& s = ctx.s;
    const auto& prof = ctx.prof;
    const double h = static_cast<double>(ctx.arch.hiddenSize);
    const double share = ctx.modelShare;
    const double dp = ctx.dp;
    const double bucket = (prof.zeroReduceBucketElements > 0 ? prof.zeroReduceBucketElements : h * h);
    // ZeRO-1/2's IPG buffers: two with overlap_comm, one filling while the other reduces (setup_buckets:2508).
    const double ipgBuffers = ctx.stage <= 2 && prof.zeroOverlapComm ? 2.0 : 1.0;
    if (s.offload != Offload::None && !ctx.fsdp()) {
        // ZeRO-Offload forces contiguous gradients (stage_1_and_2.py:260 @edaa7221), whose IPG buffer is the whole
        // reduce bucket however few parameters train: made at backward under ZeRO-1/2 (setup_buckets, :2497-2505),
        // with the optimizer under ZeRO-3 (stage3.py:733). ZeRO-1/2 take each reduced slice's norm in fp64 on the GPU
        // before its copy to the host (:1586): the largest slice's 8 B per element beside the bucket.
        const bool stage3 = ctx.stage >= 3;
        // The slice is the parameter's part of this rank's partition (get_grad_position): a large parameter usually
        // lies whole inside one partition.
        const double slice = std::min(m.largestTrainable * share, m.trainable * share / dp);
        out.commBuckets = ipgBuffers * bucket * m.trainB + m.offloadGradientBuffers + (stage3 ? 0.0 : slice * 8.0);
        out.bucketLife = stage3 ? Transients::BucketLife::Always : Transients::BucketLife::Backward;
    } else if (dp > 1) {
        if (ctx.stage == 0) {
            out.commBuckets = m.gradients; // DDP gradient buckets copy the gradients (gradient_as_bucket_view=False)
        } else if (ctx.stage <= 2) {
            // DeepSpeed allocates the whole reduce bucket, however few parameters train (stage_1_and_2.py
            // backward: torch.empty(reduce_bucket_size) for the IPG buffer, v0.13.2).
            const bool deepspeed = ctx.engine == ShardingEngine::Deepspeed;
            out.commBuckets =
                deepspeed ? ipgBuffers * bucket * m.trainB : std::min(m.gradients, layerParams * m.trainB);
            out.bucketLife = deepspeed ? Transients::BucketLife::Backward : Transients::BucketLife::Reduce;
        } else if (ctx.engine == ShardingEngine::Deepspeed) {
            // The IPG bucket: a flat buffer of reduce_bucket_size elements allocated when the optimizer is built
            // (stage3.py __init__: __ipg_bucket_flat_buffer = torch.empty(self.reduce_bucket_size), v0.13.2).
            out.commBuckets = bucket * m.trainB;
            out.bucketLife = Transients::BucketLife::Always;
        } else {
            // FSDP reduce-scatters one unit's unsharded gradients (full fine-tuning; adapters are tiny).
            out.commBuckets = ctx.full ? layerParams * m.trainB : 0.0;
        }
    }
}

/// Context parallelism's per-layer buffers while a layer's attention runs. Ring attention (torch
/// distributed/tensor/experimental/_attention.py) receives the next rank's k and v while it computes on the current
/// ones: two chunks of k and v in flight. Ulysses (DeepSpeed runtime/sequence_parallel/ulysses_sp.py) re-lays q, k and
/// v into a head split with all-to-alls into new buffers of the local size.
double contextParallelBuffers(const Context& ctx) {
    const Scenario& s = ctx.s;
    if (ctx.cp <= 1.0) {
        return 0.0;
    }
    const auto& arch = ctx.arch;
    const double a = static_cast<double>(arch.numHeads);
    const double kv = static_cast<double>(arch.numKvHeads > 0 ? arch.numKvHeads : arch.numHeads);
    const double d = static_cast<double>(arch.effectiveHeadDim());
    const double tokens = localTokens(ctx);
    const double perToken =
        s.contextParallelKind == ContextParallel::Ring
            ? 2.0 * 2.0 * kv * d
            : (a + 2.0 * ulyssesKvHeadsPerTpRank(arch, s.tensorParallel, s.contextParallel) * ctx.tp) * d;
    return ctx.c * perToken * tokens / ctx.tp;
}

/// float8 training's casts (torchao float8_linear.py matmul_with_hp_or_float8_args @36027d82): forward saves the
/// 16-bit input and weight and casts both again in backward — the output gradient twice (for the input gradient and,
/// along the other dimension, for the weight gradient), the input and the weight once — 1 byte each, for the largest
/// dense decoder linear; freed after its matmuls.
double float8CastTemporaries(const Context& ctx) {
    const Scenario& s = ctx.s;
    if (!ctx.full || s.float8 == Float8::Off) {
        return 0.0;
    }
    const double tokens = localTokens(ctx);
    double largest = 0;
    for (const auto& g : ctx.groups) {
        if (g.routedExpert) {
            continue; // routed experts are not Float8Linear (torchtitan converts them with a separate converter)
        }
        const double in = static_cast<double>(g.inFeatures);
        const double out = static_cast<double>(g.outFeatures);
        // Eager casts scale in fp32 first (float8_training_tensor.py L153: tensor.to(torch.float32) * scale);
        // compiled, the cast is one fused kernel. A weight gathered in float8 is cast already.
        const double eagerUpcast = s.compile ? 0.0 : 4.0 * tokens * out;
        const double weightCast = s.float8AllGather ? 0.0 : in * out;
        largest = std::max(largest, 2.0 * tokens * out + tokens * in + weightCast + eagerUpcast);
    }
    return largest / ctx.tp;
}

/// DoRA's per-layer forward temporaries (dora.py @5d602fdb): get_lora_weight runs lora_B(lora_A(eye(in))) on an
/// in x in identity in the adapter dtype (autocast keeps a 16-bit copy of it for lora_A's backward while the result
/// lives); get_weight_norm then forms W + scaling * B·A in the input's dtype and takes its row norms. The larger of
/// the two moments, for the largest adapted linear; freed before the next layer.
double doraWeightTemporaries(const Context& ctx, const Trainables& t) {
    const Scenario& s = ctx.s;
    if (ctx.full || s.lora.kind != AdapterKind::Dora) {
        return 0.0;
    }
    const double c = ctx.c;
    const double aB = t.adapterB;
    // PEFT casts the input to the adapter dtype before the variant runs (lora/layer.py Linear.forward
    // _cast_input_dtype(x, lora_A.weight.dtype)).
    const double x = aB;
    const bool amp = isAmp(s.precision);
    const double product = amp ? c : aB;
    double largest = 0;
    for (const auto& g : ctx.groups) {
        if (!ctx.adapted(g.role)) {
            continue;
        }
        const double in = static_cast<double>(g.inFeatures);
        const double out = static_cast<double>(g.outFeatures);
        // lora_A saves the identity it ran on: autocast's 16-bit copy, else the identity itself; B·A keeps that graph
        // alive through get_weight_norm.
        const double eyeSaved = (amp && aB > c) ? in * in * c : in * in * aB;
        const double loraWeight = in * out * product;
        const double atLoraWeight = in * in * aB + (amp && aB > c ? in * in * c : 0.0) + loraWeight;
        const bool quantized = ctx.quantizedRole(g.role);
        const double baseB = quantized ? c : ctx.paramB; // dequantize_module_weight gives the compute dtype
        const double atNorm = eyeSaved + loraWeight + (product != x ? in * out * x : 0.0) +
                              (quantized ? in * out * c : 0.0) + (baseB != x ? in * out * x : 0.0) + 2.0 * in * out * x;
        largest = std::max({largest, atLoraWeight, atNorm});
    }
    return largest / ctx.tp; // one layer's temporaries: pipeline stages do not divide them
}

Transients transients(const Context& ctx, const Trainables& t, const ModelStates& m, const StoredActivations& acts) {
    const Scenario& s = ctx.s;
    const auto& prof = ctx.prof;
    Transients out;
    const double share = ctx.modelShare;
    const double dp = ctx.dp;
    const GatherSizes sizes = gatherSizes(ctx, t);
    gatheredParameters(ctx, sizes, acts.recompute > 0, out);
    out.dequant = ctx.quantized ? t.largestQuantized * ctx.c * share : 0.0;
    out.doraWeight = doraWeightTemporaries(ctx, t);
    out.float8Casts = float8CastTemporaries(ctx);
    out.contextParallelBuffers = contextParallelBuffers(ctx);
    out.tiledMlp = tiledMlpWorkingSet(ctx, acts.layer.untiledMlp);
    out.layerBackward = layerBackwardWorkingSet(ctx, acts.layer, out.tiledMlp);
    // AMP with fp32 weights: every linear's 16-bit weight copy lives from forward to backward — trainable weights in
    // autocast's cast cache, frozen ones as the tensor autograd saves to compute the input gradient.
    // Checkpointing recomputes the casts; ZeRO-3 frees gathered weights after each use.
    const bool castsWeights = isAmp(s.precision) && s.method != Method::Qlora;
    if (castsWeights && s.checkpointing == Checkpointing::None && ctx.stage < 3) {
        // (Freeze tuning without checkpointing: only the trained layers and lm_head are in the graph.)
        // A tied lm_head casts the embedding's weight: its copy is cached like an untied head's.
        const double headWeights = ctx.arch.causalLmHead && ctx.arch.tiedEmbeddings
                                       ? static_cast<double>(ctx.arch.vocabSize * ctx.arch.hiddenSize)
                                       : static_cast<double>(ctx.params.lmHead);
        out.autocastCache =
            2.0 * (static_cast<double>(ctx.params.layerLinear) * ctx.trainLayerShare + headWeights) * share;
    }
    // Gradient communication buffers.
    if (m.trainable > 0) {
        communicationBuckets(ctx, m, sizes.layerParams, out);
    }
    const double stateShard = ctx.stage >= 1 ? dp : 1.0;
    out.stepTemporaries = optimizerStepTemporaries(ctx, m, stateShard);
    // A per-chunk projection gives the lm_head one weight gradient per chunk; autograd sums each into the buffer
    // it accumulates for the weight, so the next chunk's gradient and that buffer coexist.
    if (s.loss == Loss::Chunked && prof.chunkedLossProjectsPerChunk) {
        out.headGradientPerChunk = m.headGradientUnsharded;
    }
    return out;
}

// ---- Stage 6: the peak moment ----

struct Moment {
    PeakMoment which;
    double grads, acts, logits, transient;
    double sum(double base) const { return base + grads + acts + logits + transient; }
};

/// Pipeline stages: the first holds pp micro-batches of L/pp layers (L layers' worth) and the embedding; the last
/// one micro-batch of L/pp layers, the final norm, lm_head and the loss (Megatron schedules.py: warm-up
/// pp - rank - 1). The most loaded stage is the larger of the two, not their sum.
void mostLoadedPipelineStage(const Context& ctx, StoredActivations& acts, LossBytes& loss) {
    // A vision encoder runs on the first stage, before the embedding's layers: pp micro-batches of it in flight there,
    // none on the last stage.
    const double decoder = acts.layers - acts.vision;
    const double moreVision = acts.vision * (ctx.pp - 1.0); // the other micro-batches' encoder tensors
    const double firstStage = acts.layers + moreVision;
    const double lastStage = decoder / ctx.pp + acts.final + loss.total;
    if (firstStage >= lastStage) {
        acts.vision += moreVision;
        acts.atLoss = firstStage;
        acts.recompute = acts.recompute > 0 ? acts.recompute + moreVision : 0.0;
        loss.total = 0;
        loss.atHeadBackward = 0;
    } else {
        acts.vision = 0;
        acts.atLoss = decoder / ctx.pp + acts.final;
        acts.recompute = acts.recompute > 0 ? decoder / ctx.pp + acts.lastLayer : 0.0;
    }
}

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

SideModels ppoSideModels(Estimate& e, const Context& ctx) {
    SideModels side;
    if (ctx.s.runKind != RunKind::Ppo) {
        return side;
    }
    Scenario value = ctx.s;
    value.runKind = RunKind::Sft;
    value.method = Method::Full;
    value.trainableLayers = 0;
    value.model.causalLmHead = false;
    value.model.vision = {};
    value.imagesPerSample = 0;
    value.lora = {};
    const Context vctx = makeContext(value, ctx.prof);
    const Trainables vt = trainables(vctx);
    const ModelStates vm = modelStates(vctx, vt);
    const StoredActivations va = storedActivations(vctx, vt);
    const Transients vtr = transients(vctx, vt, vm, va);
    const double backbone = static_cast<double>(vctx.params.total);
    const bool zero3 = ctx.engine == ShardingEngine::Deepspeed && ctx.stage >= 3;
    const double reward = backbone * computeBytes(ctx.s.precision) * ctx.modelShare / (zero3 ? ctx.dp : 1.0);
    side.weights = vm.weights + reward;
    side.states = vm.optimizerStates;
    side.gradients = vm.gradients;
    side.activations = va.atLoss;
    side.stepTemporaries = vtr.stepTemporaries;
    side.gathered = ctx.stage >= 3 ? backbone * ctx.gatherB * ctx.modelShare : 0.0;
    e.valueModelParams = static_cast<std::int64_t>(backbone);
    e.valueModelBytes = toBytes(vm.weights + vm.optimizerStates + vm.gradients + va.atLoss);
    e.rewardModelBytes = toBytes(reward);
    return side;
}

/// The moment of the step at which memory peaks, with what is alive then beside the weights and states.
Moment peakMoment(const Context& ctx, const ModelStates& m, const StoredActivations& acts, const LossBytes& loss,
                  const Transients& tr, const SideModels& side) {
    const Scenario& s = ctx.s;
    // The lm_head (or tied embedding) gradient appears while the logits gradient is alive.
    const double gradShard = (ctx.stage >= 2 && ctx.engine != ShardingEngine::Megatron) ? ctx.dp : 1.0;
    const double headGradient = s.offload != Offload::None ? 0.0 : m.headGradientUnsharded / gradShard;
    // DeepSpeed ZeRO-3 allocates its gradient partitions as one flat buffer when the optimizer is built
    // (grad_partitions_flat_buffer, stage3.py _setup_for_real_optimizer @edaa7221; on the host with optimizer offload),
    // so this GPU's share of the gradients is resident from the first forward on.
    const bool zero3GradientBuffer =
        ctx.engine == ShardingEngine::Deepspeed && ctx.stage >= 3 && s.offload == Offload::None;
    const bool gradientsHeld = s.gradientAccumulation > 1 || !ctx.prof.gradientsFreedAfterStep || zero3GradientBuffer;
    const double heldGradients = gradientsHeld ? m.gradients : std::min(m.gradients, headGradient);
    // PPO's value model: its tensors are saved first and freed last; its gradients exist once its backward has run.
    const double sideHeld = gradientsHeld ? side.gradients : 0.0;

    const double base = m.weights + m.optimizerStates + side.resident();
    const double bucketsInForward = tr.bucketLife == Transients::BucketLife::Always ? tr.commBuckets : 0.0;
    const double bucketsInBackward = tr.bucketLife != Transients::BucketLife::Reduce ? tr.commBuckets : 0.0;
    // DoRA's weight temporaries live while a layer runs forward: at the end of forward either the last layer's or the
    // final norm, logits and loss, whichever is larger; again while a checkpointed layer recomputes.
    const double doraAtForwardEnd = std::max(0.0, tr.doraWeight - acts.final - loss.total);
    const double atLossTransients = tr.gatheredAtLoss + tr.dequant + tr.autocastCache + tr.headGradientPerChunk +
                                    bucketsInForward + tr.workspace + doraAtForwardEnd;
    // The loss's own peak comes before lm_head's gradient exists; that gradient appears beside what the loss's
    // backward leaves (both moments are the end of forward for the chart).
    const Moment moments[] = {
        {PeakMoment::ForwardEnd, (gradientsHeld ? m.gradients : 0.0) + sideHeld, acts.atLoss + side.activations,
         loss.total, atLossTransients},
        {PeakMoment::ForwardEnd, heldGradients + sideHeld, acts.atLoss + side.activations, loss.atHeadBackward,
         atLossTransients},
        {PeakMoment::LastLayerRecompute, heldGradients + sideHeld, acts.recompute + side.activations, 0.0,
         tr.gatheredInLayers + tr.dequant + bucketsInBackward + tr.workspace + tr.doraWeight + tr.float8Casts +
             tr.contextParallelBuffers + tr.layerBackward},
        {PeakMoment::BackwardEnd, m.gradients + sideHeld, acts.lastLayer + acts.vision + side.activations, 0.0,
         tr.gatheredInLayers + tr.dequant + tr.commBuckets + tr.workspace + tr.float8Casts + tr.contextParallelBuffers +
             tr.layerBackward},
        {PeakMoment::OptimizerStep, m.gradients + side.gradients, 0.0, 0.0,
         tr.commBuckets + tr.stepTemporaries + side.stepTemporaries + tr.workspace},
    };
    const Moment* peak = &moments[0];
    for (const auto& mo : moments) {
        if (mo.sum(base) > peak->sum(base)) {
            peak = &mo;
        }
    }
    return *peak;
}

/// The per-GPU components at the peak moment, and the figures reported at the loss.
void recordComponents(Estimate& e, const ModelStates& m, const StoredActivations& acts, const LossBytes& loss,
                      const Transients& tr, const Moment& peak, const SideModels& side) {
    e.logitsBytesAtLoss = toBytes(loss.total);
    e.activationBytesAtLoss = toBytes(acts.atLoss);
    e.gatheredParamBytesAtLoss = toBytes(tr.gatheredAtLoss);
    e.optimizerStepTemporaryBytes = toBytes(tr.stepTemporaries);
    e.doraWeightTemporaryBytes = toBytes(tr.doraWeight);
    e.float8CastTemporaryBytes = toBytes(tr.float8Casts);
    e.contextParallelBufferBytes = toBytes(tr.contextParallelBuffers);
    e.tiledMlpWorkingSetBytes = toBytes(tr.tiledMlp);
    e.layerBackwardBytes = toBytes(tr.layerBackward);
    ComponentBytes& comp = e.perGpu;
    comp[Component::Weights] = toBytes(m.weights + side.weights);
    comp[Component::Gradients] = toBytes(peak.grads);
    comp[Component::OptimizerStates] = toBytes(m.optimizerStates + side.states);
    comp[Component::Activations] = toBytes(peak.acts);
    comp[Component::LogitsLoss] = toBytes(peak.logits);
    comp[Component::Transient] = toBytes(peak.transient);
}

// ---- GRPO's generation (docs/memory-model.md §9) ----

struct GenerationMemory {
    double resident = 0;     // held while the trainer runs forward and backward (vLLM awake)
    double atGeneration = 0; // what generating adds to the trainer's weights and optimizer states
};

/// GRPO's generation on the training GPUs: vLLM's share of the card in colocate mode (the whole share from start-up,
/// gpu_worker.py requested_memory = total x gpu_memory_utilization), released between generations with sleep mode
/// (TRL sleeps it at level 2 after each generate: vllm_generation.py L701-702); transformers' generate keeps the KV
/// cache of the whole local batch and, under ZeRO-3, gathers every weight (ds3_gather_for_generation, models/utils.py
/// L133-147). A vLLM server's GPUs are others.
GenerationMemory generationMemory(const Context& ctx, Estimate& e) {
    const Scenario& s = ctx.s;
    GenerationMemory g;
    const double total = static_cast<double>(ctx.params.total);
    const double kv = kvCacheBytesPerToken(ctx.arch) * generatedSequencesPerGpu(s) * static_cast<double>(s.seqLen);
    e.generationKvCacheBytes = toBytes(kv);
    // PPO keeps generate()'s fp32 scores of the whole rollout, [local batch, response length, vocabulary], until the
    // next rollout (return_dict_in_generate with output_scores; `logitss` is never freed, ppo_trainer.py L690-751).
    const double scores = s.runKind == RunKind::Ppo ? 4.0 * generatedSequencesPerGpu(s) *
                                                          static_cast<double>(std::min(s.completionLength, s.seqLen)) *
                                                          static_cast<double>(ctx.arch.vocabSize) / ctx.tp
                                                    : 0.0;
    e.generationScoresBytes = toBytes(scores);
    switch (s.runKind == RunKind::Ppo ? Generation::Transformers : s.generation) {
    case Generation::Transformers:
        g.atGeneration = kv / ctx.tp + (ctx.stage >= 3 ? total * ctx.gatherB * ctx.modelShare : 0.0) + scores;
        g.resident = scores;
        break;
    case Generation::VllmColocate: {
        e.vllmWeightsBytes = toBytes(total * 2.0);
        // At least its weights and this GPU's KV cache, whatever the share says: with less vLLM does not start (no
        // room for cache blocks), and on a card not named the share has nothing to be a share of.
        const double share =
            std::max(s.vllmMemoryUtilization * static_cast<double>(s.cardMemoryBytes), total * 2.0 + kv);
        e.vllmShareBytes = toBytes(share);
        g.atGeneration = share;
        g.resident = s.vllmSleepMode ? 0.0 : share;
        break;
    }
    case Generation::VllmServer: {
        // The server generates for every training rank: the global batch's KV cache over its GPUs.
        const auto server = static_cast<double>(std::max<std::int64_t>(1, s.vllmGpus));
        e.vllmWeightsBytes = toBytes(total * 2.0 / server);
        e.vllmServerGpuBytes = toBytes((total * 2.0 + kv * ctx.dp) / server);
        break;
    }
    }
    return g;
}

/// The generation moment against the training step's peak: whichever holds more is the peak. Returns the trainer's
/// own allocations at its training peak (without vLLM), for the shares vLLM can take.
double generationPhase(Estimate& e, const Context& ctx, const ModelStates& m, const Transients& tr,
                       const SideModels& side) {
    GenerationMemory g = generationMemory(ctx, e);
    g.atGeneration += side.gathered; // ZeRO-3 gathers the policy-and-value wrapper for generate()
    e.generates = true;
    const double trainer = static_cast<double>(e.perGpu.total());
    const double training = trainer + g.resident;
    // Gradients are None when a generation opens the accumulation cycle, except where they are never freed: DeepSpeed
    // ZeRO-3's flat partition buffer, zero-filled gradients (torch 1.x); so are the buckets that live from start-up.
    const bool gradientsStay =
        (ctx.engine == ShardingEngine::Deepspeed && ctx.stage >= 3 && ctx.s.offload == Offload::None) ||
        !ctx.prof.gradientsFreedAfterStep;
    const double gradients = gradientsStay ? m.gradients : 0.0;
    const double transient = tr.workspace + (tr.bucketLife == Transients::BucketLife::Always ? tr.commBuckets : 0.0);
    const double generating = m.weights + m.optimizerStates + side.resident() + gradients +
                              (gradientsStay ? side.gradients : 0.0) + g.atGeneration + transient;
    ComponentBytes& comp = e.perGpu;
    if (generating > training) {
        e.peakMoment = PeakMoment::Generation;
        comp[Component::Gradients] = toBytes(gradients + (gradientsStay ? side.gradients : 0.0));
        comp[Component::Activations] = 0;
        comp[Component::LogitsLoss] = 0;
        comp[Component::Transient] = toBytes(transient);
        comp[Component::Generation] = toBytes(g.atGeneration);
    } else {
        comp[Component::Generation] = toBytes(g.resident);
    }
    return trainer;
}

/// Colocate: the smallest share of the card that holds vLLM's weights and this GPU's KV cache (its activation profile
/// and CUDA graphs come on top: gpu_worker.py leaves CUDA graphs out of the budget), and the largest one the trainer
/// leaves — beside its training peak when vLLM stays awake, beside its weights and optimizer states with sleep mode —
/// after the allocator's slack, the CUDA context and NCCL's buffers.
void vllmShares(Estimate& e, const Scenario& s, const ModelStates& m, double trainer) {
    const double card = static_cast<double>(s.cardMemoryBytes);
    const double fixed = static_cast<double>(s.cudaContextBytes.value_or(kDefaultCudaContextBytes) + e.ncclBufferBytes);
    e.vllmSmallestShare = static_cast<double>(e.vllmWeightsBytes + e.generationKvCacheBytes) / card;
    const double heldBeside = s.vllmSleepMode ? m.weights + m.optimizerStates : trainer;
    e.vllmLargestShare = std::max(0.0, (card - heldBeside * (1.0 + kAllocatorSlack) - fixed) / card);
}

/// Blocks the allocator caches beyond the allocated peak: what the unshard stream's pool holds over the parameters
/// gathered at the peak moment, and the unit record_stream keeps.
double cachedPoolBytes(const Transients& tr, const Moment& peak) {
    const double gatheredLive = peak.which == PeakMoment::ForwardEnd      ? tr.gatheredAtLoss
                                : peak.which == PeakMoment::OptimizerStep ? 0.0
                                                                          : tr.gatheredInLayers;
    return std::max(0.0, tr.gatheredPool - gatheredLive) + tr.pendingUnit;
}

/// How one communicator's GPUs talk: over PCIe or NVLink, with NVLink SHARP or without. A card not named is sized as
/// NVLink.
detail::NcclPath ncclPath(const Scenario& s, double ranks) {
    const double inNode = std::min(ranks, static_cast<double>(std::max<std::int64_t>(1, s.gpusPerNode)));
    // NVLink bridges pair two cards: a ring over more of them crosses PCIe.
    return {.overPcie = s.fabric == NodeFabric::Pcie || (s.fabric == NodeFabric::NvLinkBridge && inNode > 2.0),
            .sharpHeads = s.fabric == NodeFabric::NvLinkSharp && inNode > 2.0 ? inNode : 0.0};
}

/// One communicator's buffers on each of its GPUs: ring and tree connections per channel, and NVLS on NVSwitch
/// nodes with NVLink SHARP.
double ncclCommunicatorBytes(const Scenario& s, double ranks) {
    const detail::NcclPath path = ncclPath(s, ranks);
    const double channels = path.overPcie ? kNcclPcieChannels : kNcclNvlinkChannels;
    // Two ranks: ring and tree reach the same peer, and a connection made is reused (transport.cc): one pair.
    const double pairs = ranks <= 2.0 ? 1.0 : 2.0;
    const double nvls = kNcclNvlsBytesPerChannelAndHead * kNcclNvlinkChannels * path.sharpHeads;
    return channels * pairs * kNcclConnectionPairBytes + nvls;
}

/// NCCL's buffers per GPU: a communicator per process group that runs collectives — the data-parallel (sharding)
/// group, and the tensor- and context-parallel groups when in use. DeepSpeed runs two over the data-parallel ranks:
/// the world group for parameter all-gathers and its clone for gradients (utils/groups.py _clone_world_group,
/// runtime/engine.py, partition_parameters.py get_world_group, v0.13.1). Pipeline send/recv buffers (allocated on the
/// first send, enqueue.cc) are not counted.
double ncclBufferBytes(const Context& ctx) {
    const Scenario& s = ctx.s;
    const double dataRanks = ctx.dp; // the sharding group: data x context parallel ranks
    double bytes = 0.0;
    if (dataRanks > 1.0) {
        bytes += (ctx.engine == ShardingEngine::Deepspeed ? 2.0 : 1.0) * ncclCommunicatorBytes(s, dataRanks);
    }
    if (ctx.tp > 1.0) {
        bytes += ncclCommunicatorBytes(s, ctx.tp);
    }
    if (ctx.cp > 1.0) {
        bytes += ncclCommunicatorBytes(s, ctx.cp);
    }
    return bytes;
}

/// The model is one the step trace follows: a dense Llama-style decoder (Llama, Mistral, Qwen2 and the size-only
/// shapes), whose layer is RMSNorm, rotary attention and a gated MLP with nothing else that allocates.
bool replayTracesModel(const ModelArch& a) {
    return !a.isMoe() && !a.isMla() && a.mlp == MlpKind::Gated && a.norm == NormKind::RmsNorm && a.normsPerLayer == 2 &&
           !a.parallelResidual && a.learnedPositions == 0 && a.causalLmHead && !a.outputBias && !a.mlpBias &&
           a.hiddenDropout == 0.0 && a.finalLogitSoftcap == 0.0 && a.attentionLogitSoftcap == 0.0;
}

/// The run is one the step trace follows: one GPU, transformers' own loss as 5.x runs it, AdamW (foreach or fused)
/// with set_to_none, bf16 weights or fp32 under bf16 autocast, full fine-tuning or plain LoRA, no kernel or memory
/// option that changes which tensors exist.
bool replayTracesRun(const Context& ctx) {
    const Scenario& s = ctx.s;
    const FrameworkProfile& p = ctx.prof;
    // (A supervised step: the trace has no reference model, completion-only logits or generation.)
    const bool layout = s.runKind == RunKind::Sft && s.gpus == 1 && s.sharding == Sharding::None &&
                        s.offload == Offload::None && s.tensorParallel == 1 && s.pipelineParallel == 1 &&
                        s.contextParallel == 1;
    const bool loss = s.loss == Loss::Standard && p.lossFromTransformersModel && p.lossUpcastsLogits &&
                      p.logitsFreedBeforeBackward && !p.logitsHeldInFp32 &&
                      s.transformersVersion == TransformersVersion::Current;
    const bool optimizer = s.optimizer == Optimizer::AdamW && !s.optimizerInBackward && p.gradientsFreedAfterStep &&
                           p.optimizerStep != OptimizerStepKind::PerParameter;
    const bool method = (s.method == Method::Full && !freezesLayers(s)) ||
                        (s.method == Method::Lora && s.lora.kind == AdapterKind::Lora && !s.lora.lmHead &&
                         !s.lora.embedding && !s.lora.saveLmHead && !s.lora.saveEmbedding);
    const bool kernels = s.attention != Attention::Eager && !s.compile && s.float8 == Float8::Off && !s.ligerRmsNorm &&
                         !s.ligerGlu && !s.tiledMlp && !s.activationOffload && !p.fusedQkvProjection;
    const bool recipe = s.precision == Precision::Bf16 || s.precision == Precision::AmpBf16;
    const bool checkpointing = s.checkpointing == Checkpointing::None || s.checkpointing == Checkpointing::Full;
    return layout && loss && optimizer && method && kernels && recipe && checkpointing && replayTracesModel(ctx.arch);
}

/// The step to replay through the caching allocator, where the trace follows this run.
std::optional<ReplayStep> replayStepFor(const Context& ctx) {
    // A replay costs milliseconds per layer pass: a model deeper than any published dense decoder (Llama-3.1-405B
    // has 126 layers) is not replayed.
    constexpr std::int64_t kMostReplayedLayers = 256;
    if (!replayTracesRun(ctx) || ctx.arch.numLayers > kMostReplayedLayers) {
        return std::nullopt;
    }
    const Scenario& s = ctx.s;
    const ModelArch& a = ctx.arch;
    ReplayStep step;
    step.hidden = a.hiddenSize;
    step.intermediate = a.intermediateSize;
    step.layers = a.numLayers;
    step.heads = a.numHeads;
    step.kvHeads = a.numKvHeads > 0 ? a.numKvHeads : a.numHeads;
    step.headDim = a.effectiveHeadDim();
    step.vocab = a.vocabSize;
    step.tiedEmbeddings = a.tiedEmbeddings;
    step.qkvBias = a.qkvBias;
    step.microBatch = static_cast<std::int64_t>(sequencesPerMicroBatch(s));
    step.seqLen = s.seqLen;
    // From the second micro-step on, each one starts from the same blocks (the gradients held, the rest freed) and
    // repeats the one before: four show every pattern a longer accumulation has.
    constexpr std::int64_t kMostReplayedMicroSteps = 4;
    step.accumulation = std::min(s.gradientAccumulation, kMostReplayedMicroSteps);
    step.recompute = s.checkpointing == Checkpointing::Full;
    step.autocastFp32 = s.precision == Precision::AmpBf16;
    step.fusedOptimizer = ctx.prof.optimizerStep == OptimizerStepKind::Fused;
    step.lora = s.method == Method::Lora;
    if (step.lora) {
        for (const LinearRole r : s.lora.targets) {
            step.loraTargets = static_cast<std::uint8_t>(step.loraTargets | (1U << static_cast<unsigned>(r)));
        }
        step.loraRank = s.lora.rank;
        step.loraDropout = s.lora.dropout > 0.0;
        step.adapterBytes = static_cast<std::int64_t>(adapterBytes(s, ctx.prof));
    }
    return step;
}

/// The allocated and reserved peaks, the device total and the overhead that closes the components to it.
void deviceTotals(Estimate& e, const Scenario& s, const ModelStates& m, double cachedPool, double ncclBytes) {
    ComponentBytes& comp = e.perGpu;
    e.pagedOptimizerBytes = toBytes(m.paged);
    e.allocatedPeakBytes = comp.total() - e.pagedOptimizerBytes;
    // vLLM's share is a fixed reservation: the allocator's slack applies to the trainer's allocations only.
    const double generation =
        s.generation == Generation::VllmColocate ? static_cast<double>(comp[Component::Generation]) : 0.0;
    const double allocated = static_cast<double>(e.allocatedPeakBytes) - generation;
    e.reservedPeakBytes = toBytes(allocated * (1.0 + kAllocatorSlack) + cachedPool + generation);
    const std::int64_t context = s.cudaContextBytes.value_or(kDefaultCudaContextBytes);
    const std::int64_t nccl = toBytes(ncclBytes);
    e.ncclBufferBytes = nccl;
    // A calibration against measured runs corrects the overhead (never below the reserved peak).
    e.deviceBytes = std::max(e.reservedPeakBytes + e.pagedOptimizerBytes,
                             e.reservedPeakBytes + context + nccl + e.pagedOptimizerBytes + s.overheadCorrectionBytes);
    comp[Component::Overhead] = e.deviceBytes - e.allocatedPeakBytes - e.pagedOptimizerBytes;
}

} // namespace

bool componentShown(const Estimate& e, Component c) {
    return c != Component::Generation || e.generates;
}

std::int64_t ComponentBytes::total() const {
    return std::accumulate(bytes.begin(), bytes.end(), std::int64_t{0});
}

namespace {

/// A pure 16-bit recipe under DeepSpeed's ZeRO (stage 1 to 3, or offload, which runs under ZeRO-2 or -3).
bool deepspeedKeepsFp32Master(const Scenario& s) {
    const bool pure16 = s.precision == Precision::Bf16 || s.precision == Precision::Fp16;
    const bool zero = s.sharding != Sharding::None || s.offload != Offload::None;
    return pure16 && zero && profileFor(s).engine == ShardingEngine::Deepspeed;
}

/// A scenario the estimate sizes as another: checkpointing left to the planner, a pure 16-bit recipe under DeepSpeed
/// ZeRO. nullopt when it is sized as written.
std::optional<Estimate> estimateAsResolved(const Scenario& scenario, Detail detail) {
    if (scenario.checkpointing == Checkpointing::Auto) {
        // Left to the planner: one estimate sizes it as full checkpointing (the least memory of the three).
        Scenario resolved = scenario;
        resolved.checkpointing = Checkpointing::Full;
        Estimate e = estimate(resolved, detail);
        if (detail == Detail::Full) {
            e.assumptions.push_back(QT_TRANSLATE_NOOP(
                "gpusizer", "Checkpointing auto: sized as full; the planner also tries none and selective."));
        }
        return e;
    }
    if (deepspeedKeepsFp32Master(scenario)) {
        // DeepSpeed's ZeRO optimizers build an fp32 master partition from 16-bit parameters and step fp32 Adam states
        // on it (runtime/zero/stage_1_and_2.py, stage3.py, base_optimizer.py _configure_master_weights @edaa7221): a
        // pure 16-bit recipe runs as 16-bit weights with an fp32 master under this engine.
        Scenario resolved = scenario;
        resolved.precision =
            scenario.precision == Precision::Fp16 ? Precision::Fp16Fp32Master : Precision::Bf16Fp32Master;
        Estimate e = estimate(resolved, detail);
        e.warnings.push_back(
            {"deepspeed_fp32_master",
             words(QT_TRANSLATE_NOOP("gpusizer", "DeepSpeed ZeRO keeps an fp32 master copy and fp32 optimizer states "
                                                 "for 16-bit weights: sized as %1 rather than %2. FSDP runs the pure "
                                                 "16-bit recipe."),
                   label(resolved.precision), label(scenario.precision))});
        return e;
    }
    return std::nullopt;
}

/// What max_memory_reserved reports on a card with room, where the step trace follows the run: the caching
/// allocator's blocks over two steps (a few milliseconds, so not in searches). The cuBLAS workspace is the one
/// allocation the trace leaves out.
void replayReserve(Estimate& e, const Context& ctx) {
    if (const std::optional<ReplayStep> step = replayStepFor(ctx)) {
        const ReplayPeaks peaks = replayTrainingStep(*step);
        e.reservedWithRoomBytes = std::max(peaks.reserved + kCublasWorkspaceBytes, e.allocatedPeakBytes);
    }
}

} // namespace

Estimate estimate(const Scenario& scenario, Detail detail) {
    if (std::optional<Estimate> resolved = estimateAsResolved(scenario, detail)) {
        return std::move(*resolved);
    }
    const Scenario& s = scenario;
    Estimate e;
    e.profile = profileFor(s);
    e.precision = s.precision;
    if (estimateMagnitude(s) > kMaxEstimateBytes) {
        // Reached only by searches (longer sequences, larger batches, bigger models than the validated scenario).
        const auto beyond = static_cast<std::int64_t>(kMaxEstimateBytes);
        e.beyondRange = true;
        e.perGpu[Component::Activations] = beyond;
        e.allocatedPeakBytes = e.reservedPeakBytes = e.deviceBytes = e.bandLowBytes = e.bandHighBytes = beyond;
        e.warnings.push_back(
            {"beyond_range", QT_TRANSLATE_NOOP("gpusizer", "more than a petabyte per GPU: not sized")});
        return e;
    }
    const Context ctx = makeContext(s, e.profile);
    const auto& arch = ctx.arch;
    e.params = ctx.params;
    e.dataParallel = static_cast<std::int64_t>(ctx.dp);

    const Trainables t = trainables(ctx);
    const ModelStates m = modelStates(ctx, t);
    e.trainableParams = static_cast<std::int64_t>(m.trainable);
    e.referenceModelBytes = toBytes(m.referenceWeights);
    e.routedExpertParams = static_cast<std::int64_t>(t.routedWeights);
    e.routedTrainableParams =
        static_cast<std::int64_t>(ctx.full ? t.routedWeights * ctx.trainLayerShare : t.routedAdapters);
    StoredActivations acts = storedActivations(ctx, t);
    e.activationPerTokenLayer = acts.layer.items;
    if (s.model.vision.present()) {
        const ImageTokens image = scenarioImage(s);
        e.imageEncoderTokens = image.encoderTokens;
        e.imageLanguageTokens = image.languageTokens;
        e.imageWidth = image.width;
        e.imageHeight = image.height;
        e.visionActivationBytes = toBytes(acts.vision);
    }
    // GRPO computes logits for the completion only (logits_to_keep, grpo_trainer.py L1500-1502 @f2cd5771).
    const double logitTokens =
        s.runKind == RunKind::Grpo
            ? acts.tokens * std::min(1.0, static_cast<double>(s.completionLength) / static_cast<double>(s.seqLen))
            : acts.tokens;
    LossBytes loss = lossBytes(ctx, logitTokens);
    e.logitsBytesPerElement = loss.perElement;
    const Transients tr = transients(ctx, t, m, acts);
    if (s.pipelineParallel > 1) {
        mostLoadedPipelineStage(ctx, acts, loss);
    }

    const SideModels side = ppoSideModels(e, ctx);
    const Moment peak = peakMoment(ctx, m, acts, loss, tr, side);
    e.peakMoment = peak.which;
    recordComponents(e, m, acts, loss, tr, peak, side);
    const double trainer = generatesOnline(s) ? generationPhase(e, ctx, m, tr, side) : 0.0;

    // Allocator: the caching allocator keeps freed blocks. The unshard stream's pool holds its own peak, which the
    // compute stream cannot reuse (CUDACachingAllocator: a block is reused only on its stream), and record_stream
    // keeps one more unit until its event completes; block rounding and split tails add a few percent.
    const double cachedPool = cachedPoolBytes(tr, peak);
    deviceTotals(e, s, m, cachedPool, ncclBufferBytes(ctx));
    if (s.runKind == RunKind::Grpo && s.generation == Generation::VllmColocate && s.cardMemoryBytes > 0) {
        vllmShares(e, s, m, trainer);
    }

    const BandShares band = bandFor(s, e.profile);
    e.bandDownShare = band.down;
    e.bandUpShare = band.up;
    if (band.capped()) {
        e.bandEvidenceDownShare = band.evidenceDown;
        e.bandEvidenceUpShare = band.evidenceUp;
    }
    e.bandLowBytes = toBytes(static_cast<double>(e.deviceBytes) * (1.0 - band.down));
    e.bandHighBytes = toBytes(static_cast<double>(e.deviceBytes) * (1.0 + band.up));
    e.cpuOffloadBytesPerGpu = toBytes(m.cpuPerGpu + acts.cpu);
    e.activationOffloadBytes = toBytes(acts.cpu);
    e.optimizerMasterBytes = toBytes(m.optimizerMaster);
    e.optimizerWeightBytes = toBytes(m.optimizerWeights);
    e.cpuOffloadBytesTotal = toBytes((m.cpuPerGpu + acts.cpu) * static_cast<double>(s.gpus));

    if (detail == Detail::NumbersOnly) {
        return e;
    }
    replayReserve(e, ctx);
    // The words name the widest group's path (the one NVLink SHARP needs more than two GPUs of a node for).
    const NcclPath nccl = ncclPath(s, std::max({ctx.dp, ctx.tp, ctx.cp}));
    ExplainInputs why{ctx.paramB, m.trainB, m.masterB, m.stateUnit, loss.total, cachedPool, ctx.stage, nccl};
    explain(e, s, why);
    (void)arch;
    return e;
}

} // namespace gpusizer::core
