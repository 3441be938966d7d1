// The run's context, and stage 1: what trains, what is quantized.

#include "EstimatorStages.h"
#include "gpusizer/scenario/Vision.h"

#include <algorithm>

namespace gpusizer::core::detail {

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

namespace {

/// Adapters on the image side's linears (lora.vision_targets), sized like the language model's
/// (docs/design/vision-lora.md); the widest adapted input and output widen VeRA's shared pair.
void addVisionAdapters(const Context& ctx, Trainables& t, double& maxIn, double& maxOut) {
    std::vector<VisionLinear> linears = visionTowerLinears(ctx.arch.vision);
    if (projectorAdapted(ctx.s)) {
        const auto projector = visionProjectorLinears(ctx.arch.vision, ctx.arch.hiddenSize);
        linears.insert(linears.end(), projector.begin(), projector.end());
    }
    const double r = static_cast<double>(ctx.s.lora.rank);
    for (const VisionLinear& l : linears) {
        const AdapterOnLinear a =
            adapterOnLinear(ctx.kind(), l.role, r, static_cast<double>(l.in), static_cast<double>(l.out), false);
        t.adapters += static_cast<double>(l.count) * a.trainable;
        t.frozenAdapters += static_cast<double>(l.count) * a.frozen;
        t.largestAdapter = std::max(t.largestAdapter, a.largest);
        t.adafactorAdapterElems += static_cast<double>(l.count) * a.adafactorElems;
        maxIn = std::max(maxIn, static_cast<double>(l.in));
        maxOut = std::max(maxOut, static_cast<double>(l.out));
    }
}

} // namespace

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
            const AdapterOnLinear a = adapterOnLinear(ctx.kind(), g.role, r, in, out, false); // parameters only
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
    if (visionTowerAdapted(s)) {
        addVisionAdapters(ctx, t, maxIn, maxOut);
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

} // namespace gpusizer::core::detail
