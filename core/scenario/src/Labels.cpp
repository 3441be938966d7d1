#include "gpusizer/scenario/Labels.h"

// The words for the codes core itself writes into its sentences (assumptions, warnings); present shows them, and
// every other enum's words, with the same ids (present/Names.h).

namespace gpusizer::core {

Words label(Precision v) {
    switch (v) {
    case Precision::Fp32:
        return Words(QT_TRANSLATE_NOOP("gpusizer", "fp32 (everything)"));
    case Precision::AmpBf16:
        return Words(QT_TRANSLATE_NOOP("gpusizer", "AMP bf16 (fp32 weights, bf16 compute)"));
    case Precision::AmpFp16:
        return Words(QT_TRANSLATE_NOOP("gpusizer", "AMP fp16 (fp32 weights, fp16 compute)"));
    case Precision::Bf16Fp32Master:
        return Words(QT_TRANSLATE_NOOP("gpusizer", "bf16 + fp32 master weights"));
    case Precision::Fp16Fp32Master:
        return Words(QT_TRANSLATE_NOOP("gpusizer", "fp16 + fp32 master weights"));
    case Precision::Bf16:
        return Words(QT_TRANSLATE_NOOP("gpusizer", "bf16 (pure)"));
    case Precision::Fp16:
        return Words(QT_TRANSLATE_NOOP("gpusizer", "fp16 (pure)"));
    case Precision::FsdpMixedBf16:
        return Words(QT_TRANSLATE_NOOP("gpusizer", "FSDP mixed bf16 (fp32 shards, bf16 compute)"));
    case Precision::Bf16Bf16Master:
        return Words(QT_TRANSLATE_NOOP("gpusizer", "bf16 + bf16 master and states (DeepSpeed)"));
    }
    return {};
}

Words label(ShardingEngine v) {
    switch (v) {
    case ShardingEngine::Auto:
        return Words(QT_TRANSLATE_NOOP("gpusizer", "auto (the framework's)"));
    case ShardingEngine::Deepspeed:
        return Words(QT_TRANSLATE_NOOP("gpusizer", "DeepSpeed ZeRO"));
    case ShardingEngine::Fsdp1:
        return Words(QT_TRANSLATE_NOOP("gpusizer", "FSDP1"));
    case ShardingEngine::Fsdp2:
        return Words(QT_TRANSLATE_NOOP("gpusizer", "FSDP2"));
    case ShardingEngine::Megatron:
        return Words(QT_TRANSLATE_NOOP("gpusizer", "Megatron"));
    case ShardingEngine::Gemini:
        return Words(QT_TRANSLATE_NOOP("gpusizer", "ColossalAI Gemini"));
    }
    return {};
}

Words label(Framework v) {
    switch (v) {
    case Framework::Generic:
        return Words(QT_TRANSLATE_NOOP("gpusizer", "generic (transformers + PEFT)"));
    case Framework::HfTrainer:
        return Words(QT_TRANSLATE_NOOP("gpusizer", "transformers Trainer"));
    case Framework::Torchtune:
        return Words(QT_TRANSLATE_NOOP("gpusizer", "torchtune"));
    case Framework::Torchtitan:
        return Words(QT_TRANSLATE_NOOP("gpusizer", "torchtitan"));
    case Framework::Lightning:
        return Words(QT_TRANSLATE_NOOP("gpusizer", "LitGPT (Lightning)"));
    case Framework::Deepspeed:
        return Words(QT_TRANSLATE_NOOP("gpusizer", "DeepSpeed"));
    case Framework::Megatron:
        return Words(QT_TRANSLATE_NOOP("gpusizer", "Megatron-LM"));
    case Framework::Unsloth:
        return Words(QT_TRANSLATE_NOOP("gpusizer", "Unsloth"));
    case Framework::Axolotl:
        return Words(QT_TRANSLATE_NOOP("gpusizer", "Axolotl"));
    case Framework::Colossalai:
        return Words(QT_TRANSLATE_NOOP("gpusizer", "ColossalAI (ColossalChat)"));
    }
    return {};
}

Words label(Float8 v) {
    switch (v) {
    case Float8::Off:
        return Words(QT_TRANSLATE_NOOP("gpusizer", "off (bf16 matmuls)"));
    case Float8::Tensorwise:
        return Words(QT_TRANSLATE_NOOP("gpusizer", "tensorwise scaling"));
    case Float8::Rowwise:
        return Words(QT_TRANSLATE_NOOP("gpusizer", "rowwise scaling"));
    }
    return {};
}

Words label(AdapterKind v) {
    switch (v) {
    case AdapterKind::Lora:
        return Words(QT_TRANSLATE_NOOP("gpusizer", "LoRA"));
    case AdapterKind::Dora:
        return Words(QT_TRANSLATE_NOOP("gpusizer", "DoRA"));
    case AdapterKind::LoraFa:
        return Words(QT_TRANSLATE_NOOP("gpusizer", "LoRA-FA (A frozen)"));
    case AdapterKind::Vera:
        return Words(QT_TRANSLATE_NOOP("gpusizer", "VeRA"));
    case AdapterKind::Ia3:
        return Words(QT_TRANSLATE_NOOP("gpusizer", "IA3"));
    case AdapterKind::LnTuning:
        return Words(QT_TRANSLATE_NOOP("gpusizer", "LayerNorm tuning"));
    }
    return {};
}

Words label(OptimizerStepKind v) {
    switch (v) {
    case OptimizerStepKind::Foreach:
        return Words(QT_TRANSLATE_NOOP("gpusizer", "foreach (torch's default)"));
    case OptimizerStepKind::PerParameter:
        return Words(QT_TRANSLATE_NOOP("gpusizer", "one parameter at a time"));
    case OptimizerStepKind::Fused:
        return Words(QT_TRANSLATE_NOOP("gpusizer", "fused"));
    }
    return {};
}

Words label(SelectivePolicy v) {
    switch (v) {
    case SelectivePolicy::AttentionCore:
        return Words(QT_TRANSLATE_NOOP("gpusizer", "recomputes the attention core"));
    case SelectivePolicy::OpLevel:
        return Words(QT_TRANSLATE_NOOP("gpusizer", "saves listed operations' outputs"));
    }
    return {};
}

} // namespace gpusizer::core
