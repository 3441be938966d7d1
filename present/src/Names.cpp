#include "gpusizer/present/Names.h"

#include "gpusizer/present/Format.h"

namespace gpusizer::present {

Message componentName(core::Component c) {
    switch (c) {
    case core::Component::Weights:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "Weights"));
    case core::Component::Gradients:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "Gradients"));
    case core::Component::OptimizerStates:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "Optimizer states"));
    case core::Component::Activations:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "Activations"));
    case core::Component::LogitsLoss:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "Logits & loss"));
    case core::Component::Transient:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "Transient"));
    case core::Component::Generation:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "Generation"));
    case core::Component::Overhead:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "Overhead"));
    }
    return {};
}

Message componentDescription(core::Component c) {
    switch (c) {
    case core::Component::Weights:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "Model parameters as stored on the GPU (16/32-bit or quantized)."));
    case core::Component::Gradients:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "One gradient per trainable parameter, alive at the peak moment."));
    case core::Component::OptimizerStates:
        return msg(
            QT_TRANSLATE_NOOP("gpusizer", "Optimizer moments plus fp32 master weights where the recipe keeps them."));
    case core::Component::Activations:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "Tensors saved for backward; grow with batch × sequence × layers."));
    case core::Component::LogitsLoss:
        return msg(
            QT_TRANSLATE_NOOP("gpusizer", "Batch × sequence × vocabulary logits, their fp32 upcast and gradient."));
    case core::Component::Transient:
        return msg(QT_TRANSLATE_NOOP("gpusizer",
                                     "Short-lived buffers: gathered shards, dequantized weights, step temporaries."));
    case core::Component::Generation:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "GRPO's generation on the training GPUs: vLLM's share of memory "
                                                 "(colocate), or transformers' KV cache."));
    case core::Component::Overhead:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "CUDA context, allocator reserve and communication buffers."));
    }
    return {};
}

Message label(core::Method v) {
    switch (v) {
    case core::Method::Full:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "Full fine-tuning"));
    case core::Method::Lora:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "LoRA"));
    case core::Method::Qlora:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "QLoRA"));
    }
    return {};
}

Message label(core::Optimizer v) {
    switch (v) {
    case core::Optimizer::AdamW:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "AdamW"));
    case core::Optimizer::AdamW8bit:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "8-bit AdamW"));
    case core::Optimizer::PagedAdamW:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "paged AdamW"));
    case core::Optimizer::PagedAdamW8bit:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "paged 8-bit AdamW"));
    case core::Optimizer::Adafactor:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "Adafactor"));
    case core::Optimizer::Sgd:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "SGD"));
    case core::Optimizer::SgdMomentum:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "SGD with momentum"));
    case core::Optimizer::Lion:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "Lion"));
    }
    return {};
}

Message label(core::Checkpointing v) {
    switch (v) {
    case core::Checkpointing::None:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "none"));
    case core::Checkpointing::Selective:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "selective"));
    case core::Checkpointing::Full:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "full"));
    case core::Checkpointing::EveryNth:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "every n-th block"));
    case core::Checkpointing::Auto:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "auto (the planner chooses)"));
    }
    return {};
}

Message label(core::Attention v) {
    switch (v) {
    case core::Attention::Flash:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "FlashAttention"));
    case core::Attention::Sdpa:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "SDPA"));
    case core::Attention::Eager:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "eager"));
    }
    return {};
}

Message label(core::Loss v) {
    switch (v) {
    case core::Loss::Standard:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "standard cross-entropy"));
    case core::Loss::Chunked:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "chunked cross-entropy"));
    case core::Loss::FusedLinear:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "fused linear cross-entropy (Liger)"));
    case core::Loss::CutCrossEntropy:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "Cut Cross-Entropy"));
    }
    return {};
}

Message label(core::Sharding v) {
    switch (v) {
    case core::Sharding::None:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "none"));
    case core::Sharding::Zero1:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "ZeRO-1"));
    case core::Sharding::Zero2:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "ZeRO-2"));
    case core::Sharding::Zero3:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "ZeRO-3 / FSDP full shard"));
    }
    return {};
}

Message label(core::Offload v) {
    switch (v) {
    case core::Offload::None:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "none"));
    case core::Offload::Optimizer:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "optimizer"));
    case core::Offload::OptimizerAndParams:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "optimizer and parameters"));
    }
    return {};
}

Message label(core::TransformersVersion v) {
    switch (v) {
    case core::TransformersVersion::Current:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "5.x (current)"));
    case core::TransformersVersion::V454To457:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "4.54 to 4.57"));
    case core::TransformersVersion::V449To453:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "4.49 to 4.53"));
    case core::TransformersVersion::V446To448:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "4.46 to 4.48"));
    case core::TransformersVersion::UpTo445:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "4.45 or older"));
    }
    return {};
}

Message label(core::PeftVersion v) {
    switch (v) {
    case core::PeftVersion::Current:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "0.12 or later"));
    case core::PeftVersion::UpTo011:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "0.11 or older"));
    }
    return {};
}

Message label(core::TorchVersion v) {
    switch (v) {
    case core::TorchVersion::Current:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "2.0 or later"));
    case core::TorchVersion::V1:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "1.x"));
    }
    return {};
}

Message label(core::AdapterWrapping v) {
    switch (v) {
    case core::AdapterWrapping::Auto:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "auto (the framework's)"));
    case core::AdapterWrapping::Separate:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "adapters in their own units"));
    case core::AdapterWrapping::Mixed:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "mixed with frozen weights"));
    }
    return {};
}

Message label(core::Quantization v) {
    switch (v) {
    case core::Quantization::Nf4:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "NF4"));
    case core::Quantization::Nf4Dq:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "NF4 + double quantization"));
    case core::Quantization::Int8:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "LLM.int8"));
    }
    return {};
}

Message label(core::ContextParallel v) {
    switch (v) {
    case core::ContextParallel::Ring:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "ring attention"));
    case core::ContextParallel::Ulysses:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "Ulysses (all-to-all)"));
    }
    return {};
}

Message label(core::AdapterDtype v) {
    switch (v) {
    case core::AdapterDtype::Auto:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "auto (the framework's)"));
    case core::AdapterDtype::Fp32:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "fp32"));
    case core::AdapterDtype::Bf16:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "bf16"));
    case core::AdapterDtype::Fp16:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "fp16"));
    }
    return {};
}

Message label(core::VisionAdapterTargets v) {
    switch (v) {
    case core::VisionAdapterTargets::None:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "none (the language model only)"));
    case core::VisionAdapterTargets::Encoder:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "the encoder"));
    case core::VisionAdapterTargets::EncoderAndProjector:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "the encoder and the projector"));
    }
    return {};
}

Message label(core::Objective v) {
    switch (v) {
    case core::Objective::Cost:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "lowest cost"));
    case core::Objective::Time:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "shortest time"));
    case core::Objective::Balanced:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "balanced"));
    }
    return {};
}

Message label(core::Network v) {
    switch (v) {
    case core::Network::Auto:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "typical for the card"));
    case core::Network::Ib400:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "InfiniBand 400 Gb/s"));
    case core::Network::Roce200:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "RoCE 200 Gb/s"));
    case core::Network::Eth100:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "100 GbE"));
    case core::Network::Eth25:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "25 GbE"));
    }
    return {};
}

Message fieldLabel(const core::ScenarioField& f) {
    return msg(f.label);
}

Message fieldTooltip(const core::ScenarioField& f) {
    return msg(f.tooltip);
}

Message choiceLabel(const core::ScenarioField& f, int v) {
    const std::string_view key = f.key;
    if (key == "method") {
        return label(static_cast<core::Method>(v));
    }
    if (key == "precision") {
        return label(static_cast<core::Precision>(v));
    }
    if (key == "optimizer") {
        return label(static_cast<core::Optimizer>(v));
    }
    if (key == "context_parallel_kind") {
        return label(static_cast<core::ContextParallel>(v));
    }
    if (key == "float8") {
        return label(static_cast<core::Float8>(v));
    }
    if (key == "lora.kind") {
        return label(static_cast<core::AdapterKind>(v));
    }
    if (key == "lora.dtype") {
        return label(static_cast<core::AdapterDtype>(v));
    }
    if (key == "lora.vision_targets") {
        return label(static_cast<core::VisionAdapterTargets>(v));
    }
    if (key == "quantization") {
        return label(static_cast<core::Quantization>(v));
    }
    if (key == "gradient_checkpointing") {
        return label(static_cast<core::Checkpointing>(v));
    }
    if (key == "attention") {
        return label(static_cast<core::Attention>(v));
    }
    if (key == "loss") {
        return label(static_cast<core::Loss>(v));
    }
    if (key == "framework") {
        return label(static_cast<core::Framework>(v));
    }
    if (key == "sharding") {
        return label(static_cast<core::Sharding>(v));
    }
    if (key == "sharding_engine") {
        return label(static_cast<core::ShardingEngine>(v));
    }
    if (key == "adapter_wrapping") {
        return label(static_cast<core::AdapterWrapping>(v));
    }
    if (key == "offload") {
        return label(static_cast<core::Offload>(v));
    }
    if (key == "transformers_version") {
        return label(static_cast<core::TransformersVersion>(v));
    }
    if (key == "peft_version") {
        return label(static_cast<core::PeftVersion>(v));
    }
    if (key == "torch_version") {
        return label(static_cast<core::TorchVersion>(v));
    }
    return verbatim(f.codeOf(v));
}

Message fieldValue(const core::ScenarioField& f, const core::Scenario& s) {
    const double v = f.get ? f.get(s) : 0.0;
    switch (f.type) {
    case core::FieldType::Integer:
        return verbatim(count(static_cast<std::int64_t>(v)));
    case core::FieldType::Number:
        return verbatim(plainNumber(v));
    case core::FieldType::Flag:
        return v != 0.0 ? msg(QT_TRANSLATE_NOOP("gpusizer", "yes")) : msg(QT_TRANSLATE_NOOP("gpusizer", "no"));
    case core::FieldType::Choice:
        return choiceLabel(f, static_cast<int>(v));
    case core::FieldType::Special:
        break;
    }
    return {};
}

} // namespace gpusizer::present
