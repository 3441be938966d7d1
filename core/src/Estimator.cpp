#include "gpusizer/core/Estimate.h"
#include "gpusizer/core/Units.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

namespace gpusizer::core {

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
/// NCCL communicator buffers per process when more than one GPU talks (default 4 MiB per channel and peer).
constexpr std::int64_t kNcclBufferBytes = 256LL << 20;
/// Caching-allocator reserve over the allocated peak: ~5% on one GPU, 12-25% under FSDP/ZeRO (MEMORY-NOTES).
constexpr double kReserveSingle = 0.05;
constexpr double kReserveSharded = 0.15;
/// ZeRO-3 / FSDP keep about two gathered units (layers) alive: the one computing and the one prefetched.
constexpr double kZero3GatheredLayers = 2.0;
/// DeepSpeed's default reduce_bucket_size, in elements.
constexpr double kZeroReduceBucketElements = 5e8;
/// Activation offload keeps about two layers' saved tensors on the GPU (the one in use and the one in flight).
constexpr double kOffloadLayersInFlight = 2.0;
/// Band around the expected device usage: run-to-run noise is 5-10% (MEMORY-NOTES); unitemised tensors push up.
constexpr double kBandLow = 0.10;
constexpr double kBandHigh = 0.15;
constexpr double kBandSizeDerived = 0.25;

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
/// Bytes of a stored parameter: fp32 for fp32 and AMP recipes, 16-bit otherwise.
double parameterBytes(Precision p) {
    return (p == Precision::Fp32 || isAmp(p)) ? 4.0 : 2.0;
}
/// Bytes of the residual stream: fp32 under AMP (fp32 + bf16 adds to fp32) and fp32 training.
double residualBytes(Precision p) {
    return (p == Precision::Fp32 || isAmp(p)) ? 4.0 : 2.0;
}

double adapterBytes(const Scenario& s, const FrameworkProfile& prof) {
    switch (s.lora.dtype) {
    case AdapterDtype::Fp32:
        return 4.0;
    case AdapterDtype::Bf16:
    case AdapterDtype::Fp16:
        return 2.0;
    case AdapterDtype::Auto:
        break;
    }
    return (prof.adaptersInFp32 || parameterBytes(s.precision) == 4.0) ? 4.0 : 2.0;
}

double quantizedBytesPerWeight(Quantization q, std::int64_t inFeatures) {
    switch (q) {
    case Quantization::Nf4:
        return kNf4Bytes + kNf4AbsmaxBytes;
    case Quantization::Nf4Dq:
        return kNf4Bytes + kNf4DqAbsmaxBytes;
    case Quantization::Int8:
        return kInt8Bytes + 4.0 / static_cast<double>(std::max<std::int64_t>(1, inFeatures));
    }
    return 2.0;
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

struct Context {
    const Scenario& s;
    const FrameworkProfile& prof;
    std::vector<LinearGroup> groups;
    double c = 2.0;     // compute dtype bytes
    double resid = 2.0; // residual stream bytes
    bool full = false;  // full fine-tuning: every weight trains
    bool quantized = false;

    bool adapted(LinearRole r) const { return !full && contains(s.lora.targets, r); }
    bool quantizedRole(LinearRole r) const { return quantized && (!prof.quantizesOnlyAdaptedLinears || adapted(r)); }
};

/// Saved activations per token for one decoder layer (Korthikanti et al. 2022 §4, itemised per tensor as
/// PyTorch autograd saves it for a Hugging Face Llama-style layer; see docs/memory-model.md).
ActivationItems activationItems(const Context& ctx) {
    const auto& s = ctx.s;
    const auto& arch = s.model;
    const double c = ctx.c;
    const double h = static_cast<double>(arch.hiddenSize);
    const double a = static_cast<double>(arch.numHeads);
    const double kv = static_cast<double>(arch.numKvHeads > 0 ? arch.numKvHeads : arch.numHeads);
    const double d = static_cast<double>(arch.effectiveHeadDim());
    const double seq = static_cast<double>(s.seqLen);
    const double L = static_cast<double>(arch.numLayers);
    const bool compiled = s.compile;
    ActivationItems it;

    // Norms: RMSNorm saves its input upcast to fp32; LayerNorm saves its input (fp32 under autocast).
    // The 16-bit normalised output is saved only when the norm weight trains (full fine-tuning).
    double normInput = 0;
    if (arch.norm == NormKind::RmsNorm) {
        normInput = compiled ? ctx.resid * h : 4.0 * h; // compile recomputes the upcast from the input
    } else {
        normInput = (isAmp(s.precision) ? 4.0 : ctx.resid) * h;
    }
    it.norms = 2.0 * (normInput + (ctx.full && arch.norm == NormKind::RmsNorm ? ctx.resid * h : 0.0));

    // Attention core.
    const bool mla = arch.isMla();
    const double qDim = mla ? a * static_cast<double>(arch.mla.qkNopeHeadDim + arch.mla.qkRopeHeadDim) : a * d;
    const double vDim = mla ? a * static_cast<double>(arch.mla.vHeadDim) : a * d;
    const bool expand = !mla && s.attention != Attention::Flash && ctx.prof.sdpaExpandsKv && !compiled;
    const double kDim = mla ? qDim : (expand || s.attention == Attention::Eager ? a : kv) * d;
    const double vStored = mla ? vDim : (expand || s.attention == Attention::Eager ? a : kv) * d;
    if (s.attention == Attention::Eager) {
        // matmul(q, k^T) saves q and k; matmul(probs, v) saves probs and v; softmax saves its fp32 output.
        it.attention = c * (qDim + kDim + vStored);
        it.attentionScores = (c >= 4.0 ? 4.0 : 4.0 + c) * a * seq;
        if (arch.attentionDropout > 0) {
            it.attentionScores += (c + 1.0) * a * seq; // dropped probabilities + 1-byte mask
        }
    } else {
        // SDPA/flash save q, k, v, the output and an fp32 logsumexp per head.
        it.attention = c * (qDim + kDim + vStored + vDim) + 4.0 * a;
    }

    // Linear inputs: a linear saves its input when its weight trains, when a LoRA adapter without dropout
    // reads it, or when a bitsandbytes 4-bit matmul wraps it. Inputs are shared within a group.
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
    const double tokenWidth =
        (1.0 - moeShare) * denseWidth + moeShare * (static_cast<double>(arch.moe.expertsPerToken) * expertWidth +
                                                    static_cast<double>(arch.moe.sharedExperts) * sharedWidth);
    // Routed experts receive gathered copies of the token's hidden state.
    const double gateUpInputCopies = 1.0 + moeShare * static_cast<double>(arch.moe.expertsPerToken);

    auto inputWidth = [&](InputGroup g) {
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
    };
    const bool loraDropout = !ctx.full && s.lora.dropout > 0.0;
    const double aBytes = adapterBytes(s, ctx.prof);
    for (InputGroup g : {InputGroup::Qkv, InputGroup::O, InputGroup::GateUp, InputGroup::Down}) {
        bool saved = false;
        for (const auto& lg : ctx.groups) {
            if (inputGroupOf(lg.role) != g) {
                continue;
            }
            const bool readsInputForLora = ctx.adapted(lg.role) && !loraDropout;
            const bool bnbSaves = ctx.quantizedRole(lg.role) && ctx.prof.quantizedMatmulSavesInput;
            saved = saved || ctx.full || readsInputForLora || bnbSaves;
        }
        if (saved) {
            it.linearInputs += c * inputWidth(g);
        }
    }
    // The o_proj input is SDPA's output re-laid out (transpose + contiguous copy), a distinct tensor.

    // LoRA: every adapted module has its own dropout (output + 1-byte mask); lora_B saves lora_A's output.
    if (!ctx.full) {
        std::vector<LinearRole> seen;
        for (const auto& lg : ctx.groups) {
            if (!ctx.adapted(lg.role) || contains(seen, lg.role) || lg.routedExpert) {
                continue;
            }
            const bool sharedDropout = ctx.prof.loraSharesQkvDropout && inputGroupOf(lg.role) == InputGroup::Qkv &&
                                       std::any_of(seen.begin(), seen.end(), [](LinearRole seenRole) {
                                           return inputGroupOf(seenRole) == InputGroup::Qkv;
                                       });
            seen.push_back(lg.role);
            const double in = inputWidth(inputGroupOf(lg.role));
            if (loraDropout && !sharedDropout) {
                it.lora += (std::max(c, isAmp(s.precision) ? c : aBytes) + 1.0) * in;
            }
            it.lora += aBytes * static_cast<double>(s.lora.rank);
        }
    }

    // MLP element-wise tensors: gated saves gate output, activation output, up output (3 x f);
    // compile fuses the activation (2 x f). Plain saves the activation input (1 x f).
    if (arch.mlp == MlpKind::Gated) {
        it.mlp = (compiled ? 2.0 : 3.0) * c * tokenWidth;
    } else {
        it.mlp = c * tokenWidth;
    }

    // Residual-branch dropout masks (BERT/GPT-2 style), one byte per element, two per layer.
    if (arch.hiddenDropout > 0) {
        it.dropout = 2.0 * h;
    }
    if (s.tensorParallel > 1) {
        // Tensor parallel with sequence parallelism splits every saved tensor (Korthikanti et al. §4.2.2).
        const double tp = static_cast<double>(s.tensorParallel);
        it.norms /= tp;
        it.linearInputs /= tp;
        it.attention /= tp;
        it.attentionScores /= tp;
        it.mlp /= tp;
        it.lora /= tp;
        it.dropout /= tp;
    }
    return it;
}

double logitsBytesPerElement(const Context& ctx) {
    const double c = ctx.c;
    const bool upcast = ctx.prof.lossUpcastsLogits;
    const double chunks = std::max(1, ctx.prof.lossChunks);
    if (ctx.s.loss == Loss::Chunked) {
        if (ctx.s.compile || !upcast) {
            // Compiled (or 16-bit) chunked loss saves only the 16-bit logits. Compiled, inductor fuses the fp32
            // upcast into the loss kernels, so backward writes each chunk's gradient straight in 16-bit: while the
            // loss backward runs, freed logits chunks are replaced by gradient chunks, one chunk ahead.
            return c + c / chunks;
        }
        // Eager chunked loss: every chunk's fp32 log-softmax output is saved (4 B), the 16-bit logits are alive
        // while it runs, plus one chunk's fp32 upcast.
        return c + 4.0 + 4.0 / chunks;
    }
    if (!upcast) {
        return 3.0 * c; // logits, log-softmax output and gradient, all in the compute dtype
    }
    // 16-bit logits + fp32 upcast + fp32 log-softmax + fp32 gradient (MEMORY-NOTES: ~14 B at bf16).
    return c >= 4.0 ? 12.0 : c + 12.0;
}

} // namespace

std::int64_t ComponentBytes::total() const {
    return std::accumulate(bytes.begin(), bytes.end(), std::int64_t{0});
}

Result<void> validate(const Scenario& s) {
    const auto& m = s.model;
    auto bad = [](std::string field, std::string why) { return fail(ErrorCode::OutOfRange, why, std::move(field)); };
    if (m.hiddenSize <= 0 || m.hiddenSize > 1'000'000) {
        return bad("model.hidden_size", "must be between 1 and 1,000,000");
    }
    if (m.numLayers <= 0 || m.numLayers > 10'000) {
        return bad("model.num_hidden_layers", "must be between 1 and 10,000");
    }
    if (m.numHeads <= 0 || m.numHeads > 100'000) {
        return bad("model.num_attention_heads", "must be between 1 and 100,000");
    }
    if (m.numKvHeads < 0 || m.numKvHeads > m.numHeads || (m.numKvHeads > 0 && m.numHeads % m.numKvHeads != 0)) {
        return fail(ErrorCode::Inconsistent, "num_key_value_heads must divide num_attention_heads",
                    "model.num_key_value_heads");
    }
    if (m.headDim == 0 && !m.isMla() && m.hiddenSize % m.numHeads != 0) {
        return fail(ErrorCode::Inconsistent, "num_attention_heads must divide hidden_size when head_dim is not given",
                    "model.num_attention_heads");
    }
    if (m.intermediateSize <= 0 && !(m.isMoe() && m.moe.expertIntermediate > 0)) {
        return bad("model.intermediate_size", "must be positive");
    }
    if (m.vocabSize <= 0 || m.vocabSize > 10'000'000) {
        return bad("model.vocab_size", "must be between 1 and 10,000,000");
    }
    if (m.isMoe() && (m.moe.expertsPerToken <= 0 || m.moe.expertsPerToken > m.moe.numExperts)) {
        return fail(ErrorCode::Inconsistent, "num_experts_per_tok must be between 1 and the number of experts",
                    "model.num_experts_per_tok");
    }
    if (s.microBatch < 1 || s.microBatch > 65'536) {
        return bad("micro_batch", "must be between 1 and 65,536");
    }
    if (s.seqLen < 1 || s.seqLen > 16'777'216) {
        return bad("seq_len", "must be between 1 and 16,777,216 tokens");
    }
    if (s.gradientAccumulation < 1 || s.gradientAccumulation > 1'000'000) {
        return bad("gradient_accumulation", "must be between 1 and 1,000,000");
    }
    if (s.gpus < 1 || s.gpus > 1'048'576) {
        return bad("gpus", "must be between 1 and 1,048,576");
    }
    if (s.tensorParallel < 1 || s.pipelineParallel < 1) {
        return bad("tensor_parallel", "tensor and pipeline parallel sizes must be at least 1");
    }
    if (s.gpus % (s.tensorParallel * s.pipelineParallel) != 0) {
        return fail(ErrorCode::Inconsistent, "gpus must be a multiple of tensor_parallel x pipeline_parallel", "gpus");
    }
    if (s.pipelineParallel > m.numLayers) {
        return fail(ErrorCode::Inconsistent, "pipeline_parallel cannot exceed the number of layers",
                    "pipeline_parallel");
    }
    if (s.method != Method::Full) {
        if (s.lora.rank < 1 || s.lora.rank > 65'536) {
            return bad("lora.rank", "must be between 1 and 65,536");
        }
        if (s.lora.dropout < 0.0 || s.lora.dropout >= 1.0) {
            return bad("lora.dropout", "must be in [0, 1)");
        }
        if (s.lora.targets.empty()) {
            return fail(ErrorCode::MissingField, "LoRA needs at least one target module", "lora.targets");
        }
    }
    if (s.cudaContextBytes && (*s.cudaContextBytes < 0 || *s.cudaContextBytes > (64LL << 30))) {
        return bad("cuda_context_gib", "must be between 0 and 64 GiB");
    }
    return {};
}

Estimate estimate(const Scenario& s, Detail detail) {
    Estimate e;
    e.profile = profileFor(s);
    const auto& prof = e.profile;
    const auto& arch = s.model;

    Context ctx{s, prof, linearGroups(arch)};
    ctx.c = computeBytes(s.precision);
    ctx.resid = residualBytes(s.precision);
    ctx.full = s.method == Method::Full;
    ctx.quantized = s.method == Method::Qlora;

    e.params = countParams(arch);
    const double total = static_cast<double>(e.params.total);
    const double paramB = parameterBytes(s.precision);
    const double tp = static_cast<double>(s.tensorParallel);
    const double pp = static_cast<double>(s.pipelineParallel);
    e.dataParallel = std::max<std::int64_t>(1, s.gpus / (s.tensorParallel * s.pipelineParallel));
    const double dp = static_cast<double>(e.dataParallel);
    const double modelShare = 1.0 / (tp * pp); // even split of parameters over tensor x pipeline ranks
    const double r = static_cast<double>(s.lora.rank);

    // ---- Trainable parameters ----
    double loraParams = 0;
    double largestLora = 0;
    double quantizedWeights = 0;
    double quantizedParamCount = 0;
    double largestQuantized = 0;
    double adafactorLoraElems = 0;
    double adafactorFullElems = 0;
    for (const auto& g : ctx.groups) {
        const double in = static_cast<double>(g.inFeatures);
        const double out = static_cast<double>(g.outFeatures);
        const double count = static_cast<double>(g.count);
        adafactorFullElems += count * (in + out);
        if (ctx.adapted(g.role)) {
            loraParams += count * r * (in + out);
            largestLora = std::max({largestLora, r * in, r * out});
            adafactorLoraElems += count * (in + out + 2.0 * r);
        }
        if (ctx.quantizedRole(g.role)) {
            quantizedWeights += count * in * out * quantizedBytesPerWeight(s.quantization, g.inFeatures);
            quantizedParamCount += count * in * out;
            largestQuantized = std::max(largestQuantized, in * out);
        }
    }
    const double trainable = ctx.full ? total : loraParams;
    e.trainableParams = static_cast<std::int64_t>(trainable);
    const double trainB = ctx.full ? paramB : adapterBytes(s, prof);
    const double largestTrainable = ctx.full ? static_cast<double>(e.params.largestTensor) : largestLora;

    // ---- Weights (whole model, before sharding) ----
    double weights = 0;
    if (s.method == Method::Full) {
        weights = total * paramB;
    } else if (s.method == Method::Lora) {
        weights = total * paramB + loraParams * trainB;
    } else {
        const double restB = prof.kbitUpcastsNonQuantized ? 4.0 : ctx.c;
        weights = quantizedWeights + (total - quantizedParamCount) * restB + loraParams * trainB;
    }

    // ---- Gradients and optimizer states (whole model) ----
    const double masterB = (isMasterRecipe(s.precision) && trainB < 4.0) ? 4.0 : 0.0;
    const double stateUnit = (masterB > 0 || trainB >= 4.0) ? 4.0 : trainB; // torch keeps states in param dtype
    // With the optimizer in backward each gradient is freed as its parameter steps: only the largest is alive.
    const double gradients = (s.optimizerInBackward ? largestTrainable : trainable) * trainB;
    double optimizerStates = trainable * masterB;
    bool paged = false;
    switch (s.optimizer) {
    case Optimizer::PagedAdamW:
        paged = true;
        [[fallthrough]];
    case Optimizer::AdamW:
        optimizerStates += trainable * 2.0 * stateUnit;
        break;
    case Optimizer::PagedAdamW8bit:
        paged = true;
        [[fallthrough]];
    case Optimizer::AdamW8bit:
        optimizerStates += trainable * 2.0 * kAdam8bitStateBytes;
        break;
    case Optimizer::Adafactor: {
        // Factored second moment: a row and a column vector per matrix; vectors keep a full state (no momentum).
        const double embeddings = static_cast<double>(e.params.embedding + e.params.lmHead) /
                                  static_cast<double>(std::max<std::int64_t>(1, arch.hiddenSize));
        const double elems = ctx.full ? adafactorFullElems + embeddings + static_cast<double>(arch.hiddenSize) +
                                            static_cast<double>(e.params.layerOther + e.params.finalNorm)
                                      : adafactorLoraElems;
        optimizerStates += elems * stateUnit;
        break;
    }
    case Optimizer::Sgd:
        break;
    case Optimizer::SgdMomentum:
    case Optimizer::Lion:
        optimizerStates += trainable * stateUnit;
        break;
    }

    // ---- Sharding: ZeRO-1 states, ZeRO-2 + grads, ZeRO-3 / FSDP full shard + weights (Rajbhandari et al. 2020) ----
    const int stage = static_cast<int>(s.sharding); // None=0 .. Zero3=3
    const double weightShard = stage >= 3 ? dp : 1.0;
    const double gradShard = stage >= 2 ? dp : 1.0;
    const double stateShard = stage >= 1 ? dp : 1.0;
    double W = weights * modelShare / weightShard;
    double G = gradients * modelShare / gradShard;
    if (s.method == Method::Lora && stage >= 3 && e.dataParallel > 1 && prof.fsdpFlatParamGradients) {
        // FSDP1 computes gradients for the whole flat parameter, frozen weights included; no-sync accumulation
        // keeps them unsharded until the last micro-batch.
        const double flat = (total * paramB + loraParams * trainB) * modelShare;
        G = s.gradientAccumulation > 1 ? flat : flat / dp;
    }
    double O = optimizerStates * modelShare / stateShard;
    double cpuPerGpu = 0;
    if (s.offload != Offload::None) {
        // ZeRO-Offload: master weights and optimizer states (and their fp32 gradients) live in host RAM.
        cpuPerGpu += O + trainable * 4.0 * modelShare / gradShard;
        O = 0;
    }
    double paramsWorkingSet = 0;
    if (s.offload == Offload::OptimizerAndParams) {
        cpuPerGpu += W;
        W = 0;
    }
    const double pagedBytes =
        paged && s.offload == Offload::None ? O - trainable * masterB * modelShare / stateShard : 0;

    // ---- Activations ----
    const double T = static_cast<double>(s.microBatch) * static_cast<double>(s.seqLen);
    const double L = static_cast<double>(arch.numLayers);
    const double h = static_cast<double>(arch.hiddenSize);
    ActivationItems items = activationItems(ctx);
    e.activationPerTokenLayer = items;
    double perLayer = items.total();
    if (s.checkpointing == Checkpointing::Selective) {
        // Megatron/Korthikanti "selective" recomputes the attention core only; torchtitan also element-wise ops.
        perLayer -= items.attentionScores;
        if (prof.selectiveRecomputesElementwise) {
            perLayer -= items.norms + items.mlp / 3.0 + items.dropout;
        }
    }
    // After the last layer: the final norm's fp32 input, and lm_head's input when lm_head trains.
    const double finalTokenBytes = (arch.norm == NormKind::RmsNorm && !s.compile ? 4.0 : ctx.resid) * h +
                                   (ctx.full && arch.causalLmHead ? ctx.c * h : 0.0);
    const double layerInputBytes = ctx.resid * h / (s.tensorParallel > 1 ? tp : 1.0);
    // With 1F1B pipelining the first stage holds pp micro-batches of L/pp layers: L layers' worth.
    double storedLayers = L;
    const double perLayerStored = s.checkpointing == Checkpointing::Full ? layerInputBytes : perLayer;
    double cpuActivations = 0;
    if (s.activationOffload) {
        const double onGpu = std::min(storedLayers, kOffloadLayersInFlight);
        cpuActivations = (storedLayers - onGpu) * perLayerStored * T;
        storedLayers = onGpu;
    }
    const double storedActivations = storedLayers * perLayerStored * T;
    // At the loss: every stored layer's tensors and the final norm's input.
    const double activationsAtLoss = storedActivations + finalTokenBytes * T;
    const double lastLayerActivations = perLayer * T;
    // Full checkpointing recomputes the last layer first in backward, with every stored input still held. The loss
    // and lm_head backward nodes were created after the layers, so autograd runs them (freeing the logits) before it.
    const double recomputeActivations =
        s.checkpointing == Checkpointing::Full ? storedActivations + lastLayerActivations : 0.0;
    cpuPerGpu += cpuActivations;

    // ---- Logits and loss ----
    e.logitsBytesPerElement = arch.causalLmHead ? logitsBytesPerElement(ctx) : 0.0;
    const double logits = e.logitsBytesPerElement * T * static_cast<double>(arch.vocabSize) / tp;

    // ---- Transients ----
    const double layerParams =
        static_cast<double>(e.params.layerLinear + e.params.layerOther) / std::max(1.0, L) * modelShare;
    double gathered = 0;
    if (stage >= 3 && dp > 1) {
        // Two gathered layers, or one layer plus the gathered output projection at the loss.
        const double headParams = static_cast<double>(arch.vocabSize) * h * modelShare;
        gathered = std::max(kZero3GatheredLayers * layerParams, layerParams + headParams) * paramB;
    } else if (s.offload == Offload::OptimizerAndParams) {
        gathered = kZero3GatheredLayers * layerParams * paramB;
    }
    paramsWorkingSet = gathered;
    const double dequant = ctx.quantized ? largestQuantized * ctx.c * modelShare : 0.0;
    // AMP with fp32 weights: every linear's 16-bit weight copy lives from forward to backward — trainable weights in
    // autocast's cast cache, frozen ones as the tensor autograd saves to compute the input gradient.
    // Checkpointing recomputes the casts; ZeRO-3 frees gathered weights after each use.
    const bool castsWeights = isAmp(s.precision) && s.method != Method::Qlora;
    const double autocastCache = (castsWeights && s.checkpointing == Checkpointing::None && stage < 3)
                                     ? 2.0 * static_cast<double>(e.params.layerLinear + e.params.lmHead) * modelShare
                                     : 0.0;
    double commBuckets = 0;
    if (e.dataParallel > 1 && trainable > 0) {
        if (stage == 0) {
            commBuckets = G; // DDP gradient buckets copy the gradients (gradient_as_bucket_view=False)
        } else if (stage <= 2) {
            commBuckets = std::min(G, kZeroReduceBucketElements * trainB);
        } else {
            commBuckets = layerParams * trainB * (ctx.full ? 1.0 : 0.0); // one unit's unsharded grads
        }
    }
    double stepTemporaries = 0.0;
    if (s.offload == Offload::None && !s.optimizerInBackward) {
        switch (prof.optimizerStep) {
        case OptimizerStepKind::Foreach:
            stepTemporaries = trainable * stateUnit * modelShare / stateShard;
            break;
        case OptimizerStepKind::PerParameter:
            stepTemporaries = largestTrainable * stateUnit;
            break;
        case OptimizerStepKind::Fused:
            break;
        }
    }
    const double workspace = static_cast<double>(kCublasWorkspaceBytes);

    // The lm_head (or tied embedding) gradient appears while the logits gradient is alive.
    const double unshardedHeadGradient =
        (ctx.full && arch.causalLmHead) ? static_cast<double>(arch.vocabSize) * h * trainB * modelShare : 0.0;
    const double headGradient = unshardedHeadGradient / gradShard;
    // A per-chunk projection gives the lm_head one weight gradient per chunk; autograd sums each into the buffer
    // it accumulates for the weight, so the next chunk's gradient and that buffer coexist.
    const double headGradientPerChunk =
        (s.loss == Loss::Chunked && prof.chunkedLossProjectsPerChunk) ? unshardedHeadGradient : 0.0;
    const bool gradientsHeld = s.gradientAccumulation > 1 || !prof.gradientsFreedAfterStep;
    const double heldGradients = gradientsHeld ? G : std::min(G, headGradient);

    // ---- The peak is the largest moment, not the sum of each component's maximum ----
    struct Moment {
        PeakMoment which;
        double grads, acts, logits, transient;
        double sum(double base) const { return base + grads + acts + logits + transient; }
    };
    const double base = W + O;
    const Moment moments[] = {
        {PeakMoment::ForwardEnd, heldGradients, activationsAtLoss, logits,
         paramsWorkingSet + dequant + autocastCache + headGradientPerChunk + workspace},
        {PeakMoment::LastLayerRecompute, heldGradients, recomputeActivations, 0.0,
         paramsWorkingSet + dequant + workspace},
        {PeakMoment::BackwardEnd, G, lastLayerActivations, 0.0, paramsWorkingSet + dequant + commBuckets + workspace},
        {PeakMoment::OptimizerStep, G, 0.0, 0.0, commBuckets + stepTemporaries + workspace},
    };
    const Moment* peak = &moments[0];
    for (const auto& m : moments) {
        if (m.sum(base) > peak->sum(base)) {
            peak = &m;
        }
    }
    e.peakMoment = peak->which;

    ComponentBytes& comp = e.perGpu;
    comp[Component::Weights] = toBytes(W);
    comp[Component::Gradients] = toBytes(peak->grads);
    comp[Component::OptimizerStates] = toBytes(O);
    comp[Component::Activations] = toBytes(peak->acts);
    comp[Component::LogitsLoss] = toBytes(peak->logits);
    comp[Component::Transient] = toBytes(peak->transient);

    e.pagedOptimizerBytes = toBytes(pagedBytes);
    e.allocatedPeakBytes = comp.total() - e.pagedOptimizerBytes;
    const bool sharded = e.dataParallel > 1 && stage >= 2;
    const double reserveFactor = sharded ? kReserveSharded : kReserveSingle;
    e.reservedPeakBytes = toBytes(static_cast<double>(e.allocatedPeakBytes) * (1.0 + reserveFactor));
    const std::int64_t context = s.cudaContextBytes.value_or(kDefaultCudaContextBytes);
    const std::int64_t nccl = s.gpus > 1 ? kNcclBufferBytes : 0;
    // A calibration against measured runs corrects the overhead (never below the reserved peak).
    e.deviceBytes = std::max(e.reservedPeakBytes + e.pagedOptimizerBytes,
                             e.reservedPeakBytes + context + nccl + e.pagedOptimizerBytes + s.overheadCorrectionBytes);
    comp[Component::Overhead] = e.deviceBytes - e.allocatedPeakBytes - e.pagedOptimizerBytes;

    const double bandDown = arch.sizeDerived ? kBandSizeDerived : kBandLow;
    const double bandUp = arch.sizeDerived ? kBandSizeDerived : kBandHigh;
    e.bandLowBytes = toBytes(static_cast<double>(e.deviceBytes) * (1.0 - bandDown));
    e.bandHighBytes = toBytes(static_cast<double>(e.deviceBytes) * (1.0 + bandUp));
    e.cpuOffloadBytesPerGpu = toBytes(cpuPerGpu);
    e.cpuOffloadBytesTotal = toBytes(cpuPerGpu * static_cast<double>(s.gpus));

    if (detail == Detail::NumbersOnly) {
        return e;
    }

    // ---- Warnings and assumptions ----
    auto warn = [&](std::string code, std::string message) {
        e.warnings.push_back({std::move(code), std::move(message)});
    };
    if (arch.sizeDerived) {
        warn("size_derived_model", "The architecture was derived from the parameter count alone; expect ±25%.");
    }
    warn("longest_sequence", "Activations and logits are sized for seq_len tokens per sequence: use your longest "
                             "sequence (or packing length), not the average.");
    if (s.method == Method::Qlora) {
        warn("qlora_merge", "Merge a QLoRA adapter into the 16-bit base model, not into the 4-bit one.");
    }
    if (s.attention == Attention::Eager && s.seqLen >= 4096) {
        warn("eager_long_sequence", "Eager attention stores seq_len² scores per head: use SDPA or FlashAttention.");
    }
    if (paged) {
        warn("paged_optimizer", "Paged optimizer states live in CUDA managed memory: nvidia-smi shows them, "
                                "torch.cuda.max_memory_allocated does not.");
    }
    if (s.optimizerInBackward && s.gradientAccumulation > 1) {
        warn("optimizer_in_backward_accumulation", "Optimizer-in-backward cannot accumulate gradients; "
                                                   "gradient_accumulation is ignored by most frameworks.");
    }
    if (s.tensorParallel > 1 || s.pipelineParallel > 1) {
        warn("even_split", "Tensor/pipeline parallel assume an even split of parameters and sequence parallelism.");
    }

    auto assume = [&](std::string text) { e.assumptions.push_back(std::move(text)); };
    std::ostringstream os;
    os.precision(3);
    os << "Parameters: " << trainB << " B per trainable, "
       << (ctx.full ? paramB : (s.method == Method::Lora ? paramB : 0.0))
       << " B per frozen 16/32-bit weight; gradients " << trainB << " B; master copy " << masterB
       << " B; optimizer state unit " << stateUnit << " B.";
    assume(os.str());
    if (e.peakMoment == PeakMoment::ForwardEnd) {
        assume("Peak moment: forward_end (the loss and its backward, with every saved activation).");
    } else {
        // The logits column reads 0 at the other moments: say what they were and why they are gone.
        std::ostringstream moment;
        moment.precision(3);
        moment << "Peak moment: " << toString(e.peakMoment) << "; the logits (" << logits / kGiB
               << " GiB at the loss) are freed before it.";
        assume(moment.str());
    }
    assume(std::string("Framework profile '") + toString(s.framework) + "': loss " +
           (prof.lossUpcastsLogits ? "upcasts logits to fp32" : "stays in the compute dtype") + ", adapters " +
           (prof.adaptersInFp32 ? "fp32" : "in the model dtype") + ", optimizer step " + toString(prof.optimizerStep) +
           ".");
    if (s.overheadCorrectionBytes != 0) {
        assume("Overhead corrected by " + std::to_string(s.overheadCorrectionBytes / (1LL << 20)) +
               " MiB from a calibration against measured runs.");
    }
    assume("CUDA context " + std::to_string(context >> 20) + " MiB" +
           (s.cudaContextBytes ? " (given)" : " (default, lazy module loading)") + "; allocator reserve " +
           std::to_string(static_cast<int>(reserveFactor * 100)) + "% of the allocated peak.");
    return e;
}

} // namespace gpusizer::core
