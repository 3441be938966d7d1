#include "gpusizer/core/Estimate.h"
#include "gpusizer/core/FrameworkProfile.h"
#include "gpusizer/core/ScenarioFields.h"

namespace gpusizer::core {

namespace {

Result<void> validateModel(const ModelArch& m) {
    auto bad = [](std::string field, Words why) {
        return fail(ErrorCode::OutOfRange, std::move(why), std::move(field));
    };
    if (m.hiddenSize <= 0 || m.hiddenSize > 1'000'000) {
        return bad("model.hidden_size", QT_TRANSLATE_NOOP("gpusizer", "must be between 1 and 1,000,000"));
    }
    if (m.numLayers <= 0 || m.numLayers > 10'000) {
        return bad("model.num_hidden_layers", QT_TRANSLATE_NOOP("gpusizer", "must be between 1 and 10,000"));
    }
    if (m.numHeads <= 0 || m.numHeads > 100'000) {
        return bad("model.num_attention_heads", QT_TRANSLATE_NOOP("gpusizer", "must be between 1 and 100,000"));
    }
    if (m.numKvHeads < 0 || m.numKvHeads > m.numHeads || (m.numKvHeads > 0 && m.numHeads % m.numKvHeads != 0)) {
        return fail(ErrorCode::Inconsistent,
                    QT_TRANSLATE_NOOP("gpusizer", "num_key_value_heads must divide num_attention_heads"),
                    "model.num_key_value_heads");
    }
    if (m.headDim == 0 && !m.isMla() && m.hiddenSize % m.numHeads != 0) {
        return fail(
            ErrorCode::Inconsistent,
            QT_TRANSLATE_NOOP("gpusizer", "num_attention_heads must divide hidden_size when head_dim is not given"),
            "model.num_attention_heads");
    }
    if (m.intermediateSize <= 0 && !(m.isMoe() && m.moe.expertIntermediate > 0)) {
        return bad("model.intermediate_size", QT_TRANSLATE_NOOP("gpusizer", "must be positive"));
    }
    if (m.vocabSize <= 0 || m.vocabSize > 10'000'000) {
        return bad("model.vocab_size", QT_TRANSLATE_NOOP("gpusizer", "must be between 1 and 10,000,000"));
    }
    if (m.isMoe() && (m.moe.expertsPerToken <= 0 || m.moe.expertsPerToken > m.moe.numExperts)) {
        return fail(ErrorCode::Inconsistent,
                    QT_TRANSLATE_NOOP("gpusizer", "num_experts_per_tok must be between 1 and the number of experts"),
                    "model.num_experts_per_tok");
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
    if (prof.engine == ShardingEngine::Megatron && s.offload != Offload::None) {
        return fail(ErrorCode::Inconsistent,
                    QT_TRANSLATE_NOOP("gpusizer", "the Megatron engine does not offload to the CPU here"), "offload");
    }
    return {};
}

} // namespace

Result<void> validate(const Scenario& s) {
    if (auto ok = validateModel(s.model); !ok) {
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
    if (s.method != Method::Full && s.lora.targets.empty() && !s.lora.lmHead && !s.lora.embedding) {
        return fail(ErrorCode::MissingField, QT_TRANSLATE_NOOP("gpusizer", "LoRA needs at least one target module"),
                    "lora.targets");
    }
    if (s.cudaContextBytes && (*s.cudaContextBytes < 0 || *s.cudaContextBytes > (64LL << 30))) {
        return fail(ErrorCode::OutOfRange, QT_TRANSLATE_NOOP("gpusizer", "must be between 0 and 64 GiB"),
                    "cuda_context_gib");
    }
    return {};
}

} // namespace gpusizer::core
