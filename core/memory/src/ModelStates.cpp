// Stage 2: weights, gradients and optimizer states per GPU, after sharding and offload.

#include "EstimatorStages.h"

#include <algorithm>

namespace gpusizer::core::detail {

namespace {

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

/// The reference model's weights where the training GPUs hold a copy: the policy's weights under full fine-tuning;
/// beside adapters the base model as the framework loads it again, 4-bit under QLoRA with its other parameters in the
/// compute dtype (OpenRLHF's Actor without LoRA: models/actor.py @3c3be623).
double referenceWeights(const Context& ctx, const Trainables& t) {
    if (!keepsReferenceCopy(ctx.s, ctx.prof)) {
        return 0.0;
    }
    const double total = static_cast<double>(ctx.params.total);
    if (ctx.s.method == Method::Qlora) {
        return t.quantizedData + t.quantConstants + (total - t.quantizedCount) * ctx.c;
    }
    return total * ctx.paramB;
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
        const bool keepsPartitions = ctx.prof.offloadKeepsGradientPartitions && ctx.engine == ShardingEngine::Deepspeed;
        m.gradients = stage <= 1 ? whole.gradients * share : (keepsPartitions ? whole.gradients * share / dp : 0.0);
        if (ctx.engine == ShardingEngine::Gemini) {
            m.gradients = 0.0; // reduced into the chunk shards, which go to the host (gemini_ddp.py grad_handle)
        }
        // temp_grad_buffer_for_gpu_offload: the largest parameter in 16 bits, made when ZeRO-1/2 offload is set up
        // (stage_1_and_2.py:591-593 @edaa7221).
        m.offloadGradientBuffers = stage <= 2 && !keepsPartitions && ctx.engine == ShardingEngine::Deepspeed
                                       ? m.largestTrainable * m.trainB
                                       : 0.0;
        if (s.offload == Offload::OptimizerAndParams) {
            // ZeRO-Infinity parameter offload: only persistent small parameters stay (counted with the
            // working set).
            m.cpuPerGpu += m.weights;
            m.weights = 0;
        }
    }
}

} // namespace
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
    const double reference = referenceWeights(ctx, t);
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
    if (ctx.engine == ShardingEngine::Gemini) {
        // Gemini writes each gradient into its parameter's 16-bit chunk and reduce-scatters it into that chunk's shard
        // (reuse_fp16_chunk: gemini_ddp.py grad_handle, chunk.py reduce @4f9953be), so the weights' 2 bytes per
        // parameter and GPU hold the gradients too; gradient accumulation gives the gradients a 16-bit chunk of their
        // own, sharded alike (init_grad_chunk). With the fp32 master and HybridAdam's fp32 states: 14 (16) B / N.
        // Every chunk is allocated whole, so the 16-bit and fp32 chunks' shards carry the packing's padding (Adam's
        // states are per parameter); a model under 32 Mi elements is one chunk kept whole on every rank.
        const GeminiChunks chunks = geminiChunks(ctx);
        const double unshard = chunks.keptGathered ? ctx.dp : 1.0;
        const double perRank = share / ctx.dp * unshard;
        const double padding = std::max(0.0, chunks.padded - static_cast<double>(ctx.params.total)) * perRank;
        m.weights = m.weights * unshard + ctx.gatherB * padding;
        m.optimizerMaster = m.optimizerMaster * unshard + 4.0 * padding;
        m.optimizerStates = m.optimizerStates * unshard + 4.0 * padding;
        m.optimizerWeights *= unshard;
        m.gradients = s.gradientAccumulation > 1 ? ctx.gatherB * std::max(chunks.padded, m.trainable) * perRank : 0.0;
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

} // namespace gpusizer::core::detail
