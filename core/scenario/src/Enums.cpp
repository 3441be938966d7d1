#include "gpusizer/scenario/EnumNames.h"
#include "gpusizer/scenario/Scenario.h"

#include <string_view>
#include <utility>

namespace gpusizer::core {

GPUSIZER_NAMES(Method, {Method::Full, "full"}, {Method::Lora, "lora"}, {Method::Qlora, "qlora"})
GPUSIZER_NAMES(Precision, {Precision::Fp32, "fp32"}, {Precision::AmpBf16, "amp-bf16"}, {Precision::AmpFp16, "amp-fp16"},
               {Precision::Bf16Fp32Master, "bf16-fp32-master"}, {Precision::Fp16Fp32Master, "fp16-fp32-master"},
               {Precision::Bf16, "bf16"}, {Precision::Fp16, "fp16"}, {Precision::FsdpMixedBf16, "fsdp-mixed-bf16"},
               {Precision::Bf16Bf16Master, "bf16-bf16-master"})
GPUSIZER_NAMES(Optimizer, {Optimizer::AdamW, "adamw"}, {Optimizer::AdamW8bit, "adamw-8bit"},
               {Optimizer::PagedAdamW, "paged-adamw"}, {Optimizer::PagedAdamW8bit, "paged-adamw-8bit"},
               {Optimizer::Adafactor, "adafactor"}, {Optimizer::Sgd, "sgd"}, {Optimizer::SgdMomentum, "sgd-momentum"},
               {Optimizer::Lion, "lion"})
GPUSIZER_NAMES(Checkpointing, {Checkpointing::None, "none"}, {Checkpointing::Selective, "selective"},
               {Checkpointing::Full, "full"}, {Checkpointing::EveryNth, "every-nth"}, {Checkpointing::Auto, "auto"})
GPUSIZER_NAMES(Attention, {Attention::Flash, "flash"}, {Attention::Sdpa, "sdpa"}, {Attention::Eager, "eager"})
GPUSIZER_NAMES(Loss, {Loss::Standard, "standard"}, {Loss::Chunked, "chunked"}, {Loss::FusedLinear, "fused-linear"},
               {Loss::CutCrossEntropy, "cut-cross-entropy"})
GPUSIZER_NAMES(Sharding, {Sharding::None, "none"}, {Sharding::Zero1, "zero1"}, {Sharding::Zero2, "zero2"},
               {Sharding::Zero3, "zero3"})
GPUSIZER_NAMES(Offload, {Offload::None, "none"}, {Offload::Optimizer, "optimizer"},
               {Offload::OptimizerAndParams, "optimizer+params"})
GPUSIZER_NAMES(Quantization, {Quantization::Nf4, "nf4"}, {Quantization::Nf4Dq, "nf4-dq"}, {Quantization::Int8, "int8"})
GPUSIZER_NAMES(Framework, {Framework::Generic, "generic"}, {Framework::HfTrainer, "hf-trainer"},
               {Framework::Torchtune, "torchtune"}, {Framework::Torchtitan, "torchtitan"},
               {Framework::Lightning, "lightning"}, {Framework::Deepspeed, "deepspeed"},
               {Framework::Megatron, "megatron"}, {Framework::Unsloth, "unsloth"}, {Framework::Axolotl, "axolotl"},
               {Framework::Colossalai, "colossalai"})
GPUSIZER_NAMES(AdapterDtype, {AdapterDtype::Auto, "auto"}, {AdapterDtype::Fp32, "fp32"}, {AdapterDtype::Bf16, "bf16"},
               {AdapterDtype::Fp16, "fp16"})
GPUSIZER_NAMES(VisionAdapterTargets, {VisionAdapterTargets::None, "none"}, {VisionAdapterTargets::Encoder, "encoder"},
               {VisionAdapterTargets::EncoderAndProjector, "encoder+projector"})
GPUSIZER_NAMES(AdapterKind, {AdapterKind::Lora, "lora"}, {AdapterKind::Dora, "dora"}, {AdapterKind::LoraFa, "lora-fa"},
               {AdapterKind::Vera, "vera"}, {AdapterKind::Ia3, "ia3"}, {AdapterKind::LnTuning, "ln-tuning"})
GPUSIZER_NAMES(ContextParallel, {ContextParallel::Ring, "ring"}, {ContextParallel::Ulysses, "ulysses"})
GPUSIZER_NAMES(Float8, {Float8::Off, "off"}, {Float8::Tensorwise, "tensorwise"}, {Float8::Rowwise, "rowwise"})
GPUSIZER_NAMES(OptimizerStepKind, {OptimizerStepKind::Foreach, "foreach"},
               {OptimizerStepKind::PerParameter, "per-parameter"}, {OptimizerStepKind::Fused, "fused"})
GPUSIZER_NAMES(ShardingEngine, {ShardingEngine::Auto, "auto"}, {ShardingEngine::Deepspeed, "deepspeed"},
               {ShardingEngine::Fsdp1, "fsdp1"}, {ShardingEngine::Fsdp2, "fsdp2"},
               {ShardingEngine::Megatron, "megatron"}, {ShardingEngine::Gemini, "gemini"})
GPUSIZER_NAMES(AdapterWrapping, {AdapterWrapping::Auto, "auto"}, {AdapterWrapping::Separate, "separate"},
               {AdapterWrapping::Mixed, "mixed"})
GPUSIZER_NAMES(RunKind, {RunKind::Sft, "sft"}, {RunKind::Dpo, "dpo"}, {RunKind::Ipo, "ipo"}, {RunKind::Orpo, "orpo"},
               {RunKind::Simpo, "simpo"}, {RunKind::Kto, "kto"}, {RunKind::Grpo, "grpo"}, {RunKind::Ppo, "ppo"})
GPUSIZER_NAMES(Generation, {Generation::Transformers, "transformers"}, {Generation::VllmColocate, "vllm-colocate"},
               {Generation::VllmServer, "vllm-server"})
GPUSIZER_NAMES(ReferenceLogProbs, {ReferenceLogProbs::Model, "model"}, {ReferenceLogProbs::Precomputed, "precomputed"})
GPUSIZER_NAMES(TransformersVersion, {TransformersVersion::Current, "current"},
               {TransformersVersion::V454To457, "4.54-4.57"}, {TransformersVersion::V449To453, "4.49-4.53"},
               {TransformersVersion::V446To448, "4.46-4.48"}, {TransformersVersion::UpTo445, "4.45-or-older"})
GPUSIZER_NAMES(PeftVersion, {PeftVersion::Current, "current"}, {PeftVersion::UpTo011, "0.11-or-older"})
GPUSIZER_NAMES(TorchVersion, {TorchVersion::Current, "current"}, {TorchVersion::V1, "1.x"})
GPUSIZER_NAMES(SelectivePolicy, {SelectivePolicy::AttentionCore, "attention-core"},
               {SelectivePolicy::OpLevel, "op-level"})
#undef GPUSIZER_NAMES

GPUSIZER_ENUM_API(Method)
GPUSIZER_ENUM_API(Precision)
GPUSIZER_ENUM_API(Optimizer)
GPUSIZER_ENUM_API(Checkpointing)
GPUSIZER_ENUM_API(Attention)
GPUSIZER_ENUM_API(Loss)
GPUSIZER_ENUM_API(Sharding)
GPUSIZER_ENUM_API(Offload)
GPUSIZER_ENUM_API(Quantization)
GPUSIZER_ENUM_API(Framework)
GPUSIZER_ENUM_API(AdapterDtype)
GPUSIZER_ENUM_API(VisionAdapterTargets)
GPUSIZER_ENUM_API(AdapterKind)
GPUSIZER_ENUM_API(Float8)
GPUSIZER_ENUM_API(ContextParallel)
GPUSIZER_ENUM_API(OptimizerStepKind)
GPUSIZER_ENUM_API(ShardingEngine)
GPUSIZER_ENUM_API(AdapterWrapping)
GPUSIZER_ENUM_API(SelectivePolicy)
GPUSIZER_ENUM_API(TransformersVersion)
GPUSIZER_ENUM_API(PeftVersion)
GPUSIZER_ENUM_API(TorchVersion)
GPUSIZER_ENUM_API(RunKind)
GPUSIZER_ENUM_API(ReferenceLogProbs)
GPUSIZER_ENUM_API(Generation)
#undef GPUSIZER_ENUM_API

std::vector<LinearRole> loraTargetsFromModuleName(std::string_view name) {
    using R = LinearRole;
    // Hugging Face Llama names, torchtune/LitGPT/GPT-2/Qwen-1 aliases. Qwen-1 "c_proj" names both the attention
    // output and the MLP down projection; torchtune/Mixtral "w1/w2/w3" are gate/down/up.
    static const std::pair<std::string_view, std::vector<R>> kAliases[] = {
        {"q_proj", {R::Q}},
        {"k_proj", {R::K}},
        {"v_proj", {R::V}},
        {"o_proj", {R::O}},
        {"gate_proj", {R::Gate}},
        {"up_proj", {R::Up}},
        {"down_proj", {R::Down}},
        {"query", {R::Q}},
        {"key", {R::K}},
        {"value", {R::V}},
        {"output_proj", {R::O}},
        {"out_proj", {R::O}},
        {"dense", {R::O}},
        {"c_attn", {R::Q, R::K, R::V}},
        {"query_key_value", {R::Q, R::K, R::V}},
        {"qkv_proj", {R::Q, R::K, R::V}},
        {"Wqkv", {R::Q, R::K, R::V}},
        {"c_proj", {R::O, R::Down}},
        {"w1", {R::Gate}},
        {"w2", {R::Down}},
        {"w3", {R::Up}},
        {"fc1", {R::Up}},
        {"fc2", {R::Down}},
        {"c_fc", {R::Up}},
        {"gate_up_proj", {R::Gate, R::Up}},
        {"dense_h_to_4h", {R::Up}},
        {"dense_4h_to_h", {R::Down}},
    };
    for (const auto& [alias, roles] : kAliases) {
        if (alias == name) {
            return roles;
        }
    }
    if (name == "all-linear") {
        return {R::Q, R::K, R::V, R::O, R::Gate, R::Up, R::Down};
    }
    return {};
}

} // namespace gpusizer::core
