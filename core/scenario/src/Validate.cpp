#include "gpusizer/scenario/Validate.h"

#include "gpusizer/scenario/FrameworkProfile.h"
#include "gpusizer/scenario/Labels.h"
#include "gpusizer/scenario/ScenarioFields.h"
#include "gpusizer/scenario/Vision.h"

#include <algorithm>
#include <array>
#include <string>

namespace gpusizer::core {

namespace {

/// The model's weights counted in floating point (embedding and head, learned positions, every linear group): an
/// upper bound of the 64-bit count, taken before it, and safe because every dimension is bounded first.
double parameterBound(const ModelArch& m) {
    const double h = static_cast<double>(m.hiddenSize);
    double params = 2.0 * static_cast<double>(m.vocabSize) * h + static_cast<double>(m.learnedPositions) * h;
    for (const auto& g : linearGroups(m)) {
        params += static_cast<double>(g.inFeatures) * static_cast<double>(g.outFeatures) * static_cast<double>(g.count);
    }
    return params;
}

/// Context parallelism's rules: the ranks divide the GPUs, Ulysses divides the heads, each rank an equal share.
Result<void> validateContextParallel(const Scenario& s) {
    if (s.contextParallel <= 1) {
        return {};
    }
    const auto& m = s.model;
    if ((s.gpus / (s.tensorParallel * s.pipelineParallel)) % s.contextParallel != 0) {
        return fail(ErrorCode::Inconsistent,
                    QT_TRANSLATE_NOOP("gpusizer", "gpus must be a multiple of tensor_parallel x pipeline_parallel x "
                                                  "context_parallel"),
                    "context_parallel");
    }
    const std::int64_t kvHeads = m.numKvHeads > 0 ? m.numKvHeads : m.numHeads;
    const std::int64_t headsPerRank = m.numHeads / s.tensorParallel;
    const std::int64_t kvPerRank = std::max<std::int64_t>(1, kvHeads / s.tensorParallel);
    if (s.contextParallelKind == ContextParallel::Ulysses &&
        !ulyssesSplitsHeads(m, s.tensorParallel, s.contextParallel)) {
        return fail(ErrorCode::Inconsistent,
                    words(QT_TRANSLATE_NOOP("gpusizer", "Ulysses needs the attention heads (%1 per tensor-parallel "
                                                        "rank) to divide by context_parallel, and the key/value "
                                                        "heads (%2) to divide it or be divided by it"),
                          std::to_string(headsPerRank), std::to_string(kvPerRank)),
                    "context_parallel");
    }
    // Every rank takes an equal share of each sequence; torchtitan's load-balanced ring gives each rank two
    // chunks (distributed/parallel_dims.py seq_len_divisor, @b5bcd76).
    const std::int64_t divisor =
        (s.contextParallelKind == ContextParallel::Ring && s.framework == Framework::Torchtitan ? 2 : 1) *
        s.contextParallel;
    if (s.seqLen % divisor != 0) {
        return fail(ErrorCode::Inconsistent,
                    words(QT_TRANSLATE_NOOP("gpusizer", "seq_len must be a multiple of %1 to split over "
                                                        "context_parallel"),
                          std::to_string(divisor)),
                    "context_parallel");
    }
    return {};
}

/// What ColossalAI runs, as ColossalChat's scripts call it (hpcaitech/ColossalAI @4f9953be): LowLevelZero for ZeRO-1/2
/// (with optimizer offload: "zero2_cpu"), Gemini for ZeRO-3; the HybridParallelPlugin is not modelled.
Result<void> validateColossalai(const Scenario& s, const FrameworkProfile& prof) {
    const bool gemini = prof.engine == ShardingEngine::Gemini;
    if (gemini && s.framework != Framework::Colossalai) {
        return fail(ErrorCode::Inconsistent,
                    QT_TRANSLATE_NOOP("gpusizer", "Gemini is ColossalAI's plugin: choose the colossalai framework"),
                    "sharding_engine");
    }
    if (s.framework != Framework::Colossalai) {
        return {};
    }
    if (s.tensorParallel > 1 || s.pipelineParallel > 1) {
        return fail(ErrorCode::Inconsistent,
                    QT_TRANSLATE_NOOP("gpusizer", "ColossalAI's tensor and pipeline parallelism (its "
                                                  "HybridParallelPlugin) are not modelled: choose LowLevelZero "
                                                  "(sharding zero1 or zero2) or Gemini (zero3), or another framework"),
                    "framework");
    }
    if (!gemini && (s.sharding == Sharding::Zero3 || s.offload == Offload::OptimizerAndParams)) {
        return fail(ErrorCode::Inconsistent,
                    QT_TRANSLATE_NOOP("gpusizer", "ColossalAI shards parameters and offloads them with Gemini only: "
                                                  "leave sharding_engine on auto with sharding zero3, or choose zero1 "
                                                  "or zero2 for LowLevelZero"),
                    "sharding_engine");
    }
    if (!gemini) {
        return {};
    }
    if (s.sharding != Sharding::Zero3) {
        return fail(ErrorCode::Inconsistent,
                    QT_TRANSLATE_NOOP("gpusizer", "Gemini shards parameters, gradients and optimizer states over the "
                                                  "data-parallel GPUs: choose sharding zero3"),
                    "sharding");
    }
    if (s.method != Method::Full) {
        // ColossalChat refuses LoRA under Gemini (train_sft.py L31-32); Gemini keeps frozen parameters whole and in 16
        // bits on every GPU (gemini_ddp.py _init_chunks), which would undo a 4-bit base.
        return fail(ErrorCode::Inconsistent,
                    QT_TRANSLATE_NOOP("gpusizer", "ColossalChat refuses LoRA under Gemini: choose full fine-tuning, or "
                                                  "LowLevelZero (sharding zero1 or zero2) for adapters"),
                    "method");
    }
    if (s.offload == Offload::Optimizer && s.gradientAccumulation > 1) {
        return fail(ErrorCode::Inconsistent,
                    QT_TRANSLATE_NOOP("gpusizer",
                                      "Gemini with optimizer offload is its auto placement, which "
                                      "ColossalChat runs without gradient accumulation (train_sft.py "
                                      "L33-34): set gradient_accumulation to 1, or offload optimizer+params "
                                      "(the static placement)"),
                    "gradient_accumulation");
    }
    if (s.trainableLayers > 0) {
        return fail(ErrorCode::Inconsistent,
                    QT_TRANSLATE_NOOP("gpusizer", "Gemini keeps frozen parameters whole, in 16 bits, on every GPU "
                                                  "(gemini_ddp.py _init_chunks): freeze tuning under Gemini is not "
                                                  "modelled"),
                    "trainable_layers");
    }
    const bool sixteenBit = s.precision == Precision::Bf16 || s.precision == Precision::Fp16 ||
                            s.precision == Precision::Bf16Fp32Master || s.precision == Precision::Fp16Fp32Master;
    if (!sixteenBit) {
        return fail(ErrorCode::Inconsistent,
                    QT_TRANSLATE_NOOP("gpusizer", "Gemini stores parameters in fp16 or bf16 with an fp32 master "
                                                  "(GeminiPlugin precision \"fp16\" or \"bf16\"): choose "
                                                  "bf16-fp32-master or fp16-fp32-master"),
                    "precision");
    }
    if (s.optimizer != Optimizer::AdamW) {
        return fail(ErrorCode::Inconsistent,
                    QT_TRANSLATE_NOOP("gpusizer", "Gemini steps Adam only (HybridAdam, CPUAdam or FusedAdam: "
                                                  "gemini_optimizer.py _AVAIL_OPTIM_LIST): choose adamw"),
                    "optimizer");
    }
    return {};
}

/// What the sharding engine runs: FSDP offloads everything or nothing, Megatron shards states only and offloads
/// nothing here.
Result<void> validateEngine(const Scenario& s, const FrameworkProfile& prof) {
    const bool fsdp = prof.engine == ShardingEngine::Fsdp1 || prof.engine == ShardingEngine::Fsdp2;
    if (fsdp && s.offload == Offload::Optimizer) {
        return fail(
            ErrorCode::Inconsistent,
            QT_TRANSLATE_NOOP(
                "gpusizer",
                "FSDP offloads parameters, gradients and optimizer states together (CPUOffload(offload_params=True)); "
                "choose offload \"optimizer+params\", or the DeepSpeed engine for optimizer-only offload"),
            "offload");
    }
    if (prof.engine == ShardingEngine::Megatron && (s.sharding == Sharding::Zero2 || s.sharding == Sharding::Zero3)) {
        return fail(ErrorCode::Inconsistent,
                    QT_TRANSLATE_NOOP("gpusizer",
                                      "Megatron's distributed optimizer shards optimizer states only (ZeRO-1); choose "
                                      "sharding none or zero1"),
                    "sharding");
    }
    if (auto ok = validateColossalai(s, prof); !ok) {
        return ok;
    }
    if (prof.engine == ShardingEngine::Megatron && s.offload != Offload::None) {
        return fail(ErrorCode::Inconsistent,
                    QT_TRANSLATE_NOOP("gpusizer", "the Megatron engine does not offload to the CPU here"), "offload");
    }
    return {};
}

/// A recipe the chosen engine runs: DeepSpeed runs its bf16 master only under ZeRO stage 1 to 3
/// (runtime/config.py:1041-1049 @edaa7221 asserts it).
Result<void> validateRecipe(const Scenario& s, const FrameworkProfile& prof) {
    if (s.precision == Precision::Bf16Bf16Master &&
        (prof.engine != ShardingEngine::Deepspeed || (s.sharding == Sharding::None && s.offload == Offload::None))) {
        return fail(ErrorCode::Inconsistent,
                    QT_TRANSLATE_NOOP("gpusizer", "bf16-bf16-master is DeepSpeed's bf16 master weights and optimizer "
                                                  "states, which it runs under ZeRO stage 1, 2 or 3 only: set the "
                                                  "sharding engine to DeepSpeed and a ZeRO stage"),
                    "precision");
    }
    return {};
}

Result<void> validateLayout(const Scenario& s, const FrameworkProfile& prof) {
    const auto& m = s.model; // the ranges of gpus and the degrees are the field table's (checked before)
    if (s.gpus % (s.tensorParallel * s.pipelineParallel) != 0) {
        return fail(ErrorCode::Inconsistent,
                    QT_TRANSLATE_NOOP("gpusizer", "gpus must be a multiple of tensor_parallel x pipeline_parallel"),
                    "gpus");
    }
    if (auto ok = validateContextParallel(s); !ok) {
        return ok;
    }
    // Tensor parallel splits the attention heads and the key/value heads across ranks (Megatron ColumnParallelLinear
    // per head group): both must divide by the degree.
    const std::int64_t kv = m.numKvHeads > 0 ? m.numKvHeads : m.numHeads;
    if (s.tensorParallel > 1 && (m.numHeads % s.tensorParallel != 0 || kv % s.tensorParallel != 0)) {
        return fail(
            ErrorCode::Inconsistent,
            words(QT_TRANSLATE_NOOP(
                      "gpusizer", "tensor_parallel must divide the attention heads (%1) and the key/value heads (%2)"),
                  std::to_string(m.numHeads), std::to_string(kv)),
            "tensor_parallel");
    }
    if (s.expertParallel > 1) {
        const std::int64_t dp = s.gpus / (s.tensorParallel * s.pipelineParallel);
        if (!m.isMoe() || m.moe.numExperts % s.expertParallel != 0 || dp % s.expertParallel != 0) {
            return fail(ErrorCode::Inconsistent,
                        QT_TRANSLATE_NOOP("gpusizer",
                                          "expert_parallel needs a mixture-of-experts model and must divide both the "
                                          "number of experts and the data-parallel degree"),
                        "expert_parallel");
        }
    }
    if (s.pipelineParallel > m.numLayers) {
        return fail(ErrorCode::Inconsistent,
                    QT_TRANSLATE_NOOP("gpusizer", "pipeline_parallel cannot exceed the number of layers"),
                    "pipeline_parallel");
    }
    return validateEngine(s, prof);
}

} // namespace

/// GRPO's batch as GRPOConfig checks it (grpo_config.py L1110 @f2cd5771): each prompt's completions are generated
/// together, so the global generation batch divides by num_generations; the prompt takes at least one token.
Result<void> validateGrpo(const Scenario& s) {
    if (s.completionLength >= s.seqLen) {
        return fail(ErrorCode::Inconsistent,
                    words(QT_TRANSLATE_NOOP("gpusizer", "completion_length %1 leaves no prompt in seq_len %2 (seq_len "
                                                        "is prompt + completion)"),
                          std::to_string(s.completionLength), std::to_string(s.seqLen)),
                    "completion_length");
    }
    const std::int64_t groups = std::max<std::int64_t>(
        1, s.gpus / std::max<std::int64_t>(1, s.tensorParallel * s.pipelineParallel * s.contextParallel));
    const std::int64_t batch = s.microBatch * s.gradientAccumulation * groups;
    if (batch % s.numGenerations != 0) {
        return fail(ErrorCode::Inconsistent,
                    words(QT_TRANSLATE_NOOP("gpusizer", "the generation batch, micro_batch x gradient_accumulation x "
                                                        "data-parallel GPUs = %1 completions, does not divide by "
                                                        "num_generations %2"),
                          std::to_string(batch), std::to_string(s.numGenerations)),
                    "num_generations");
    }
    return {};
}

/// A vision-language model's images must fit the sequence with room for text (and GRPO's completion), and Qwen-VL's
/// processor refuses an aspect ratio of 200 or more (image_processing_qwen2_vl.py smart_resize).
Result<void> validateImages(const Scenario& s) {
    const VisionShape& v = s.model.vision;
    if (v.family == VisionFamily::Mllama && s.attention == Attention::Flash) {
        return fail(ErrorCode::Inconsistent,
                    QT_TRANSLATE_NOOP("gpusizer", "Llama-3.2-Vision's cross-attention does not run under "
                                                  "flash-attention (its module has no is_causal, which transformers' "
                                                  "flash path reads: modeling_mllama.py, flash_attention.py L74): use "
                                                  "sdpa or eager"),
                    "attention");
    }
    if (v.family == VisionFamily::QwenVl &&
        std::max(s.imageWidth, s.imageHeight) >= 200 * std::min(s.imageWidth, s.imageHeight)) {
        return fail(ErrorCode::OutOfRange,
                    QT_TRANSLATE_NOOP("gpusizer", "Qwen-VL's processor refuses images whose aspect ratio is 200 or "
                                                  "more"),
                    "image_width");
    }
    const ImageTokens image = scenarioImage(s);
    if (s.seqLen < shortestSequence(s)) {
        return fail(ErrorCode::Inconsistent,
                    words(QT_TRANSLATE_NOOP("gpusizer", "%1 images of %2 tokens each take %3 tokens, more than seq_len "
                                                        "%4 leaves them (images are part of the sequence): raise "
                                                        "seq_len or lower the image size"),
                          std::to_string(s.imagesPerSample), std::to_string(image.languageTokens),
                          std::to_string(imageTokensPerExample(s)), std::to_string(s.seqLen)),
                    "images_per_sample");
    }
    return {};
}

/// PPO as TRL's PPOTrainer runs it: transformers' generate only (no vLLM path), a response within seq_len.
Result<void> validatePpo(const Scenario& s) {
    if (s.generation != Generation::Transformers) {
        return fail(ErrorCode::Inconsistent,
                    QT_TRANSLATE_NOOP("gpusizer", "TRL's PPOTrainer generates with transformers only (no vLLM): set "
                                                  "generation to transformers"),
                    "generation");
    }
    if (hasImages(s)) {
        return fail(ErrorCode::Inconsistent,
                    QT_TRANSLATE_NOOP("gpusizer", "TRL's PPOTrainer has no image path: images_per_sample must be 0 for "
                                                  "PPO"),
                    "images_per_sample");
    }
    if (s.completionLength >= s.seqLen) {
        return fail(
            ErrorCode::Inconsistent,
            words(QT_TRANSLATE_NOOP("gpusizer", "completion_length %1 (PPO's response_length) leaves no query in "
                                                "seq_len %2"),
                  std::to_string(s.completionLength), std::to_string(s.seqLen)),
            "completion_length");
    }
    return {};
}

namespace {

/// What the method and the run kind need of the batch, the layers and the adapters.
Result<void> validateMethodNeeds(const Scenario& s) {
    if (s.runKind == RunKind::Kto && s.microBatch < 2) {
        // KTOTrainer builds each example's KL completion from another example of the batch (kto_trainer.py L806,
        // L1096-1110 @f2cd5771): it refuses a per-device batch of one.
        return fail(ErrorCode::Inconsistent,
                    QT_TRANSLATE_NOOP("gpusizer", "KTO needs a micro-batch of 2 or more: each example's KL completion "
                                                  "comes from another example of the batch"),
                    "micro_batch");
    }
    if (s.tiledMlp && s.model.isMoe()) {
        // TiledMLP replaces a dense MLP module's forward (ArcticTraining model/tiled_compute.py); a routed MoE block
        // is another module with its own dispatch.
        return fail(ErrorCode::Inconsistent,
                    QT_TRANSLATE_NOOP("gpusizer", "tiled_mlp tiles dense MLPs only; this model's MLPs are MoE blocks"),
                    "tiled_mlp");
    }
    if (s.method == Method::Full && s.trainableLayers > s.model.numLayers) {
        return fail(ErrorCode::Inconsistent,
                    words(QT_TRANSLATE_NOOP("gpusizer", "trainable_layers = %1 is more than the model's %2 layers"),
                          std::to_string(s.trainableLayers), std::to_string(s.model.numLayers)),
                    "trainable_layers");
    }
    if (s.method != Method::Full && s.lora.kind != AdapterKind::Lora && (s.lora.lmHead || s.lora.embedding)) {
        return fail(ErrorCode::Inconsistent,
                    words(QT_TRANSLATE_NOOP("gpusizer", "adapters on lm_head or embed_tokens are sized for LoRA only, "
                                                        "not for %1; train them with modules_to_save instead"),
                          label(s.lora.kind)),
                    "lora.targets");
    }
    if (s.method != Method::Full && s.lora.kind != AdapterKind::LnTuning && s.lora.targets.empty() && !s.lora.lmHead &&
        !s.lora.embedding) {
        return fail(ErrorCode::MissingField, QT_TRANSLATE_NOOP("gpusizer", "LoRA needs at least one target module"),
                    "lora.targets");
    }
    return {};
}

} // namespace

Result<void> validate(const Scenario& s) {
    if (auto ok = validateArch(s.model, "model."); !ok) {
        return ok;
    }
    // Every numeric field of the table within its range, where it applies to the method.
    for (const auto& f : scenarioFields()) {
        if ((f.type == FieldType::Integer || f.type == FieldType::Number) && appliesTo(f.methods, s.method)) {
            if (auto problem = rangeProblem(f, f.get(s))) {
                return fail(ErrorCode::OutOfRange, std::move(*problem), f.key);
            }
        }
    }
    if (auto ok = validateLayout(s, profileFor(s)); !ok) {
        return ok;
    }
    if (auto ok = validateRecipe(s, profileFor(s)); !ok) {
        return ok;
    }
    if (s.method == Method::Full && s.float8AllGather &&
        (s.float8 != Float8::Tensorwise || profileFor(s).engine != ShardingEngine::Fsdp2)) {
        return fail(ErrorCode::Inconsistent,
                    QT_TRANSLATE_NOOP("gpusizer", "float8_all_gather needs tensorwise float8 and FSDP2 "
                                                  "(torchao Float8LinearConfig.enable_fsdp_float8_all_gather)"),
                    "float8_all_gather");
    }
    if (s.runKind == RunKind::Grpo) {
        if (auto ok = validateGrpo(s); !ok) {
            return ok;
        }
    }
    if (s.runKind == RunKind::Ppo) {
        if (auto ok = validatePpo(s); !ok) {
            return ok;
        }
    }
    if (hasImages(s)) {
        if (auto ok = validateImages(s); !ok) {
            return ok;
        }
    }
    if (auto ok = validateMethodNeeds(s); !ok) {
        return ok;
    }
    if (s.cudaContextBytes && (*s.cudaContextBytes < 0 || *s.cudaContextBytes > (64LL << 30))) {
        return fail(ErrorCode::OutOfRange, QT_TRANSLATE_NOOP("gpusizer", "must be between 0 and 64 GiB"),
                    "cuda_context_gib");
    }
    if (estimateMagnitude(s) > kMaxEstimateBytes) {
        return fail(ErrorCode::OutOfRange,
                    QT_TRANSLATE_NOOP("gpusizer",
                                      "sequence length x micro-batch is too large for this model: one GPU would need "
                                      "more than a petabyte; lower seq_len or micro_batch"),
                    "seq_len");
    }
    return {};
}

/// Every dimension of the shape within its range.
Result<void> validateArchRanges(const ModelArch& m, const std::string& prefix) {
    auto range = [&](std::int64_t v, std::int64_t lo, std::int64_t hi, const char* key) -> Result<void> {
        if (v < lo || v > hi) {
            return fail(ErrorCode::OutOfRange,
                        words(QT_TRANSLATE_NOOP("gpusizer", "'%1' = %2 must be between %3 and %4"), key,
                              std::to_string(v), std::to_string(lo), std::to_string(hi)),
                        prefix + key);
        }
        return {};
    };
    constexpr std::int64_t kWide = 10'000'000; // widths: the largest published model is below 100k
    struct Bound {
        std::int64_t value, lo, hi;
        const char* key;
    };
    const bool intermediateOptional = m.isMoe() && m.moe.expertIntermediate > 0;
    const Bound bounds[] = {
        {m.hiddenSize, 1, 1'000'000, "hidden_size"},
        {m.numLayers, 1, 10'000, "num_hidden_layers"},
        {m.numHeads, 1, 100'000, "num_attention_heads"},
        {m.numKvHeads, 0, m.numHeads, "num_key_value_heads"},
        {m.headDim, 0, 100'000, "head_dim"},
        {m.intermediateSize, intermediateOptional ? 0 : 1, kWide, "intermediate_size"},
        {m.vocabSize, 1, kWide, "vocab_size"},
        {m.learnedPositions, 0, kWide, "learned_positions"},
        {m.normsPerLayer, 0, 8, "norms_per_layer"},
        {m.moe.numExperts, 0, 1'000'000, "num_experts"},
        {m.moe.expertIntermediate, 0, kWide, "moe_intermediate_size"},
        {m.moe.sharedExperts, 0, 1'000, "n_shared_experts"},
        {m.moe.sharedIntermediate, 0, kWide, "shared_expert_intermediate_size"},
        {m.moe.firstDenseLayers, 0, m.numLayers, "first_k_dense_replace"},
        {m.mla.qLoraRank, 0, 1'000'000, "q_lora_rank"},
        {m.mla.kvLoraRank, 0, 1'000'000, "kv_lora_rank"},
        {m.mla.qkNopeHeadDim, 0, 100'000, "qk_nope_head_dim"},
        {m.mla.qkRopeHeadDim, 0, 100'000, "qk_rope_head_dim"},
        {m.mla.vHeadDim, 0, 100'000, "v_head_dim"},
    };
    for (const Bound& b : bounds) {
        if (auto ok = range(b.value, b.lo, b.hi, b.key); !ok) {
            return ok;
        }
    }
    return {};
}

/// A vision encoder's sizes within what released encoders use by a wide margin, so that no count overflows; the shape
/// needs at least 1 of each, the family-specific counts may be 0.
Result<void> validateVisionRanges(const VisionShape& v, const std::string& prefix) {
    struct Range {
        const char* key;
        std::int64_t value, min, max;
    };
    const Range ranges[] = {{"hidden_size", v.hiddenSize, 1, 65536},
                            {"depth", v.depth, 1, 1024},
                            {"num_heads", v.numHeads, 1, 1024},
                            {"intermediate_size", v.intermediateSize, 1, 1048576},
                            {"patch_size", v.patchSize, 1, 1024},
                            {"spatial_merge_size", v.mergeSize, 1, 64},
                            {"temporal_patch_size", v.temporalPatch, 1, 64},
                            {"image_size", v.imageSize, 0, 65536},
                            {"tokens_per_image", v.tokensPerImage, 0, 1048576},
                            {"position_embeddings", v.positionEmbeddings, 0, 16777216},
                            {"deepstack_mergers", v.deepstackMergers, 0, 64},
                            {"window_patches", v.windowPatches, 0, 65536},
                            {"full_attention_blocks", v.fullAttentionBlocks, 0, 1024},
                            {"max_pixels", v.maxPixels, 0, std::int64_t{1} << 36},
                            {"min_pixels", v.minPixels, 0, std::int64_t{1} << 36}};
    for (const Range& r : ranges) {
        if (r.value < r.min || r.value > r.max) {
            return fail(ErrorCode::OutOfRange,
                        words(QT_TRANSLATE_NOOP("gpusizer", "'%1' must be between %2 and %3"), r.key,
                              std::to_string(r.min), std::to_string(r.max)),
                        prefix + "vision_config." + r.key);
        }
    }
    return {};
}

Result<void> validateArch(const ModelArch& m, const std::string& prefix) {
    if (auto ok = validateArchRanges(m, prefix); !ok) {
        return ok;
    }
    if (m.vision.present()) {
        if (auto ok = validateVisionRanges(m.vision, prefix); !ok) {
            return ok;
        }
    }
    if (m.vision.crossAttentionLayers > m.numLayers) {
        return fail(ErrorCode::Inconsistent,
                    QT_TRANSLATE_NOOP("gpusizer", "cross_attention_layers lists more layers than num_hidden_layers"),
                    prefix + "vision_config.cross_attention_layers");
    }
    if (m.numKvHeads > 0 && m.numHeads % m.numKvHeads != 0) {
        return fail(ErrorCode::Inconsistent,
                    QT_TRANSLATE_NOOP("gpusizer", "num_key_value_heads must divide num_attention_heads"),
                    prefix + "num_key_value_heads");
    }
    if (m.headDim == 0 && !m.isMla() && m.hiddenSize % m.numHeads != 0) {
        return fail(
            ErrorCode::Inconsistent,
            QT_TRANSLATE_NOOP("gpusizer", "num_attention_heads must divide hidden_size when head_dim is not given"),
            prefix + "num_attention_heads");
    }
    if (m.isMoe() && (m.moe.expertsPerToken <= 0 || m.moe.expertsPerToken > m.moe.numExperts)) {
        return fail(ErrorCode::Inconsistent,
                    words(QT_TRANSLATE_NOOP("gpusizer", "num_experts_per_tok = %1 must be between 1 and the number of "
                                                        "experts (%2)"),
                          std::to_string(m.moe.expertsPerToken), std::to_string(m.moe.numExperts)),
                    prefix + "num_experts_per_tok");
    }
    const auto rate = [&](double v, const char* key) -> Result<void> {
        if (!(v >= 0.0 && v < 1.0)) {
            return fail(ErrorCode::OutOfRange,
                        words(QT_TRANSLATE_NOOP("gpusizer", "'%1' is a probability: at least 0 and below 1"), key),
                        prefix + key);
        }
        return {};
    };
    if (auto ok = rate(m.hiddenDropout, "hidden_dropout"); !ok) {
        return ok;
    }
    if (auto ok = rate(m.attentionDropout, "attention_dropout"); !ok) {
        return ok;
    }
    // Every dimension is bounded above, so the groups' own products (heads x head_dim, layers x experts) fit in 64
    // bits; their sum of weights is taken in floating point before the estimator counts it in integers.
    if (parameterBound(m) > kMaxModelParams) {
        return fail(ErrorCode::OutOfRange,
                    QT_TRANSLATE_NOOP("gpusizer", "the shape gives more than 100 trillion parameters: no run is "
                                                  "planned for a model that large"),
                    prefix + "hidden_size");
    }
    return {};
}

double estimateMagnitude(const Scenario& s) {
    const ModelArch& m = s.model;
    const double h = static_cast<double>(m.hiddenSize);
    const double layers = static_cast<double>(m.numLayers);
    const double heads = static_cast<double>(m.numHeads);
    const double seq = static_cast<double>(s.seqLen);
    // Per GPU: context parallelism gives each rank its share of the sequence.
    const double tokens =
        seq * static_cast<double>(s.microBatch) / static_cast<double>(std::max<std::int64_t>(1, s.contextParallel));
    const double width =
        static_cast<double>(std::max({m.intermediateSize, m.moe.expertIntermediate, m.moe.sharedIntermediate})) *
        static_cast<double>(std::max<std::int64_t>(1, m.moe.expertsPerToken + m.moe.sharedExperts));
    const double qkv = heads * static_cast<double>(std::max<std::int64_t>(m.effectiveHeadDim(), 1)) * 3.0 +
                       static_cast<double>(m.mla.kvLoraRank + m.mla.qLoraRank);
    const double params = parameterBound(m);
    // Generous per-element byte counts: states up to 20 B per parameter (plus copies), saved activations up to a few
    // dozen bytes per hidden, q/k/v and MLP element, eager scores and probabilities (with a dropout mask) per head
    // and key, the logits with their fp32 copies and gradient.
    const double states = params * 40.0;
    const double scores = s.attention == Attention::Eager ? heads * seq * 16.0 : 0.0; // only eager keeps them
    const double activations = tokens * layers * (h * 64.0 + qkv * 8.0 + width * 24.0 + scores);
    const double logits = tokens * static_cast<double>(m.vocabSize) * 32.0;
    return states + activations + logits;
}

} // namespace gpusizer::core
