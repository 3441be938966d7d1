// Stage 5: transients and the allocator.

#include "EstimatorStages.h"
#include "gpusizer/memory/ZeroFetch.h"

#include <algorithm>
#include <array>

namespace gpusizer::core::detail {

namespace {

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

/// The fp32 gradient ZeRO-1/2's step builds for the master copy from the 16-bit gradient partition. DeepSpeed flattens
/// the partition into a new 16-bit tensor, casts that to fp32 and drops every 16-bit copy before the optimizer runs
/// (stage_1_and_2.py step L2346-2379 @edaa7221): 2 + 4 B per parameter over N beside the partition while it casts,
/// the fp32 copy alone through the step. LowLevelZero casts each parameter's partition and steps with all of them
/// beside the 16-bit gradients it still holds (low_level_optim.py step L553-567 @4f9953be): 4 B over N throughout.
void zeroStepGradientCasts(const Context& ctx, const ModelStates& m, Transients& out) {
    const Scenario& s = ctx.s;
    const bool zero12 = ctx.engine == ShardingEngine::Deepspeed && (ctx.stage == 1 || ctx.stage == 2);
    if (!zero12 || s.offload != Offload::None || m.masterB < 4.0 || s.optimizerInBackward) {
        return;
    }
    const double partition = m.trainable * ctx.modelShare / ctx.dp;
    out.stepFp32Gradients = 4.0 * partition;
    out.stepDropsSixteenBitGradients = ctx.prof.stepFlattensGradientPartition;
    out.stepCast = (ctx.prof.stepFlattensGradientPartition ? 2.0 : 0.0) * partition + out.stepFp32Gradients;
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

/// Gemini's gathered chunks (ColossalAI @4f9953be, colossalai/zero/gemini; their size from GeminiChunks.cpp). Before
/// each op the chunks it needs are gathered and every other accessed chunk whose tensors are all done is released
/// (the static policy with shard_param_frac=1: placement_policy.py evict_tensors); a chunk holds neighbouring layers'
/// parameters, so two are counted while the layers compute, three with gradient accumulation, whose gradient chunk
/// is gathered beside them in backward (init_grad_chunk); at the loss, lm_head's chunk.
void geminiGathered(const Context& ctx, Transients& out) {
    const GeminiChunks chunks = geminiChunks(ctx);
    if (chunks.keptGathered) {
        return; // the one chunk is gathered for good: counted with the weights
    }
    const double chunk = chunks.chunk * ctx.gatherB * ctx.modelShare;
    out.gatheredInLayers = (ctx.s.gradientAccumulation > 1 ? 3.0 : 2.0) * chunk;
    out.gatheredAtLoss = chunks.headChunk * ctx.gatherB * ctx.modelShare;
    out.gatheredPool = std::max(out.gatheredInLayers, out.gatheredAtLoss);
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
        if (ctx.engine == ShardingEngine::Gemini) {
            geminiGathered(ctx, out);
        } else if (ctx.engine == ShardingEngine::Deepspeed) {
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
    if (ctx.engine == ShardingEngine::Gemini) {
        // Gemini reduce-scatters each gathered chunk into that chunk's new shard (chunk.py reduce): no bucket beside.
        return;
    }
    if (s.offload != Offload::None && !ctx.fsdp() && !prof.offloadKeepsGradientPartitions) {
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

} // namespace
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

namespace {

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

} // namespace
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
    zeroStepGradientCasts(ctx, m, out);
    // A per-chunk projection gives the lm_head one weight gradient per chunk; autograd sums each into the buffer
    // it accumulates for the weight, so the next chunk's gradient and that buffer coexist.
    if (s.loss == Loss::Chunked && prof.chunkedLossProjectsPerChunk) {
        out.headGradientPerChunk = m.headGradientUnsharded;
    }
    return out;
}

} // namespace gpusizer::core::detail
