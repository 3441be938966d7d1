// Stage 3: activations saved for backward.

#include "EstimatorStages.h"
#include "gpusizer/scenario/Vision.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace gpusizer::core::detail {

namespace {

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

/// The q/k norms (Qwen3, Gemma 3, OLMo 2/3) are RMSNorms like the layer's, over q_proj's and k_proj's outputs: each
/// saves its input upcast to fp32 (modeling_qwen3.py Qwen3RMSNorm; compiled, the 16-bit input; Liger's kernel the
/// input and an fp32 rstd per row), and its 16-bit output when its weight trains (full fine-tuning: PEFT's LayerNorm
/// tuning copies the layer norms only); RoPE after them saves only cos and sin.
double qkNormActivations(const Context& ctx) {
    const auto& arch = ctx.arch;
    const auto width = static_cast<double>(arch.qkNormWidth());
    if (width <= 0) {
        return 0.0;
    }
    if (ligerReachesQkNorms(ctx.s)) {
        const double rows = arch.qkNorm == QkNorm::PerHead ? width / static_cast<double>(arch.effectiveHeadDim()) : 2.0;
        return ctx.resid * width + 4.0 * rows;
    }
    return (ctx.s.compile ? ctx.resid * width : 4.0 * width) + (ctx.full ? ctx.resid * width : 0.0);
}

/// Whether transformers' SDPA path copies grouped key/value heads out to one per query head (repeat_kv) rather than
/// passing enable_gqa: it does with an attention mask, for head dimensions above 256 (no fused kernel broadcasts
/// them), and before 4.54 (4.49-4.53 and the older TransformersVersion values) (integrations/
/// sdpa_attention.py use_gqa_in_sdpa @00c238bd; PRs #39412, #46960). A
/// micro-batch of one sample has no padding, and the model drops an all-ones mask unless a sliding window shorter
/// than the sequence needs one (masking_utils.py _ignore_causal_mask_sdpa).
bool sdpaRepeatsKv(const Scenario& s, double headDim) {
    const std::int64_t window = s.model.slidingWindow;
    const bool maskPassed = (s.paddedBatches && sequencesPerMicroBatch(s) > 1.0) || (window > 0 && s.seqLen >= window);
    const bool before454 = s.transformersVersion != TransformersVersion::Current &&
                           s.transformersVersion != TransformersVersion::V454To457;
    return maskPassed || headDim > 256.0 || before454;
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

} // namespace

namespace {

LayerActivations activationItems(const Context& ctx, const Trainables& t) {
    const auto& s = ctx.s;
    const auto& arch = ctx.arch;
    LayerActivations out;
    out.widths = layerWidths(ctx);
    const LayerWidths& w = out.widths;
    ActivationItems& it = out.items;
    it.norms = normActivations(ctx, w.h) + qkNormActivations(ctx);
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

} // namespace
double localTokens(const Context& ctx) {
    return tokensPerGpu(ctx.s);
}

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

namespace {

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

} // namespace

namespace {

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

/// What of Llama-3.2-Vision's cross-attention layers trains over the image's tokens: k (its projection trains or
/// carries an adapter, or the states it reads need a gradient) and the adapters on k_proj and v_proj with dropout.
CrossAttentionTraining crossAttentionTraining(const Scenario& s, bool towerBackward) {
    const auto targets = [&](LinearRole role) {
        return s.method != Method::Full &&
               std::find(s.lora.targets.begin(), s.lora.targets.end(), role) != s.lora.targets.end();
    };
    CrossAttentionTraining t;
    const bool statesNeedGrad = towerBackward || projectorTrains(s) || projectorAdapted(s);
    t.keysNeedGrad = s.method == Method::Full || targets(LinearRole::K) || statesNeedGrad;
    t.adaptedWithDropout =
        s.lora.dropout > 0.0 ? (targets(LinearRole::K) ? 1 : 0) + (targets(LinearRole::V) ? 1 : 0) : 0;
    return t;
}

/// What the images of one micro-batch save, and of that what Llama-3.2-Vision's cross-attention layers do.
struct VisionActivations {
    double total = 0;
    double crossAttention = 0;
};

/// What the images of one micro-batch save on a GPU: the encoder's blocks where it trains (checkpointed with the
/// language model: transformers' gradient_checkpointing_enable reaches the vision blocks too), the projector's tensors
/// where anything behind the language model trains. A frozen encoder with a frozen projector records no autograd
/// graph (pixel_values require no gradient). Each sequence carries its example's images (a pair's two sequences both).
VisionActivations visionActivations(const Context& ctx) {
    const Scenario& s = ctx.s;
    if (!hasImages(s)) {
        return {};
    }
    const VisionShape& v = ctx.arch.vision;
    const ImageTokens image = scenarioImage(s);
    const double images = sequencesPerMicroBatch(s) * static_cast<double>(s.imagesPerSample);
    // transformers checkpoints every block it can (gradient_checkpointing_enable): full checkpointing's rule.
    const bool checkpointed = s.checkpointing == Checkpointing::Full || s.checkpointing == Checkpointing::Auto;
    // Llama-3.2-Vision's language model reads the image through its cross-attention layers, which train with it.
    const bool towerBackward = visionTowerTrains(s) || visionTowerAdapted(s) || frozenTowerRecordsGraph(s);
    const double cross =
        crossAttentionSavedBytes(ctx.arch, image, ctx.c, checkpointed, crossAttentionTraining(s, towerBackward),
                                 static_cast<double>(s.seqLen) / std::max(1.0, ctx.cp));
    double perImage = cross;
    // An adapted encoder saves what a trained one does (its adapters need their inputs, its frozen linears and norms
    // pass gradients back to the patches' adapters below them); a frozen projector in front of it passes them through.
    if (visionTowerTrains(s) || visionTowerAdapted(s)) {
        perImage += visionTowerSavedBytes(v, image, ctx.c, checkpointed && towerCheckpointable(v),
                                          s.attention == Attention::Eager);
    } else if (towerBackward && towerCheckpointable(v)) {
        // Checkpointed blocks save their input whether or not their weights train.
        perImage += visionTowerSavedBytes(v, image, ctx.c, true, s.attention == Attention::Eager);
    } else if (towerBackward) {
        perImage += frozenTowerSavedBytes(v, image, ctx.c, s.attention == Attention::Eager);
    }
    // The projector keeps its tensors where its weights train, or where a gradient crosses it to an encoder that runs
    // backward (its norm and GELU need theirs; counted with its linears' inputs, an upper bound for frozen weights);
    // Llama-3.2-Vision's, one linear, needs only its weight for that.
    const bool crossed = towerBackward && v.family != VisionFamily::Mllama;
    if (crossed || projectorTrains(s) || projectorAdapted(s)) {
        perImage += visionProjectorSavedBytes(v, ctx.arch.hiddenSize, image, ctx.c);
    }
    return {images * perImage, images * cross};
}

} // namespace
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
    const VisionActivations vision = visionActivations(ctx);
    out.vision = vision.total;
    out.crossAttention = vision.crossAttention;
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

} // namespace gpusizer::core::detail
